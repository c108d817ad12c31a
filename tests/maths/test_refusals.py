"""What a reader plausibly passes wrong is refused with an error naming the argument: one table per argument kind
(arrays, integers, numbers, masks, parameter bundles); every exported function that takes arrays is in the first."""

from __future__ import annotations

import dataclasses
import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import attnlab
from attnlab import EncoderBlockParams, FeedForwardParams, Head, LayerNormParams, MultiHeadParams, text
from attnlab.checks import as_array, shown
from attnlab.cost import causal_visible, cost, layer_madds, readable_bytes
from attnlab.lab import compute
from attnlab.streaming import streaming_attention

I2 = [[1.0, 0.0], [0.0, 1.0]]
ZERO = [0.0, 0.0]
HEADS = MultiHeadParams((Head(I2, I2, I2, ZERO, ZERO, ZERO),), I2, ZERO)
FFN = FeedForwardParams(I2, ZERO, I2, ZERO)
NORM = LayerNormParams([1.0, 1.0], ZERO)
BLOCK = EncoderBlockParams(HEADS, FFN, NORM, NORM)

CALLS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "attention": (attnlab.attention, {"q": [[1.0, 0.0]], "k": I2, "v": I2, "visible": [[True, False]]}),
    "streaming_attention": (streaming_attention, {"q": [[1.0, 0.0]], "k": I2, "v": I2, "block": 1}),
    "project": (attnlab.project, {"x": I2, "w": I2, "name": "W_Q"}),
    "scores": (attnlab.scores, {"q": [[1.0, 0.0]], "k": I2}),
    "scale": (attnlab.scale, {"raw": [[1.0, 2.0]], "d_k": 2}),
    "softmax": (attnlab.softmax, {"scaled": [[1.0, 2.0]], "visible": [[True, True]]}),
    "mix": (attnlab.mix, {"weights": [[0.5, 0.5]], "v": I2}),
    "causal": (attnlab.causal, {"n": 2, "m": 3, "offset": 1}),
    "layer_norm": (attnlab.layer_norm, {"x": [[1.0, 3.0]], "gain": [1.0, 1.0], "bias": ZERO, "eps": 1e-5}),
    "relu": (attnlab.relu, {"x": [[1.0, -1.0]]}),
    "gelu": (attnlab.gelu, {"x": [[1.0, -1.0]]}),
    "feed_forward": (attnlab.feed_forward, {"x": I2, "params": FFN}),
    "multi_head": (attnlab.multi_head, {"x_q": I2, "x_kv": I2, "params": HEADS, "visible": [[True, True]] * 2}),
    "cross_attention": (attnlab.cross_attention, {"decoder": I2, "encoder": I2, "params": HEADS}),
    "encoder_block": (attnlab.encoder_block, {"x": I2, "params": BLOCK}),
    "positional_encoding": (attnlab.positional_encoding, {"length": 3, "d_model": 4}),
    "init_encoder_block": (attnlab.init_encoder_block, {"seed": 0}),
    "fmt": (text.fmt, {"x": 0.5, "decimals": 3}),
    "compute": (compute, {"token": "rises", "query_scale": 1.0, "causal": True, "value_y": 2.0}),
    "cost": (cost, {"n": 4, "m": 5, "d_k": 2, "d_v": 3, "heads": 2, "layers": 1, "bytes_per_number": 8}),
    "causal_visible": (causal_visible, {"n": 2, "m": 3, "offset": 1}),
    "layer_madds": (layer_madds, {"t": 10, "d_model": 4}),
    "readable_bytes": (readable_bytes, {"count": 1024}),
}
"""A valid call of each function tried: the refusals below change one argument of it."""

ARRAYS = [("attention", "q"), ("attention", "k"), ("attention", "v"), ("streaming_attention", "q"),
          ("streaming_attention", "v"), ("project", "x"), ("project", "w"), ("scores", "q"), ("scale", "raw"),
          ("softmax", "scaled"), ("mix", "weights"), ("mix", "v"), ("layer_norm", "x"), ("layer_norm", "gain"),
          ("relu", "x"), ("gelu", "x"), ("feed_forward", "params.w1"), ("feed_forward", "params.b2"),
          ("multi_head", "x_kv"), ("multi_head", "params.heads.0.w_q"), ("multi_head", "params.b_o"),
          ("cross_attention", "encoder"), ("encoder_block", "params.ffn.w2"), ("encoder_block", "params.norm1.gain")]
"""(function, path of one array among its arguments): field names, and tuple positions inside bundles."""


def entry(bad: Any) -> Callable[[np.ndarray], Any]:
    """A change of a valid array: its first entry replaced by ``bad``."""
    def change(valid: np.ndarray) -> Any:
        array = np.array(valid, dtype=object)
        array[(0,) * array.ndim] = bad
        return array.tolist()
    return change


BAD_ARRAYS: dict[str, tuple[Callable[[np.ndarray], Any], type[Exception], str]] = {
    "NaN": (entry(math.nan), ValueError, "has a non-finite entry nan at index"),
    "infinity": (entry(-math.inf), ValueError, "has a non-finite entry -inf at index"),
    "text": (entry("0"), TypeError, "must hold real numbers, got dtype <U"),
    "None": (entry(None), TypeError, "must hold real numbers, got"),
    "booleans": (lambda valid: np.ones(np.shape(valid), bool), TypeError, "must hold real numbers, got dtype bool"),
    "empty": (lambda valid: np.zeros((0,) * np.ndim(valid)), ValueError, "is empty"),
    "3-D": (lambda valid: [valid], ValueError, "must be "),
    "ragged": (lambda valid: [*np.atleast_2d(valid).tolist(), [1.0]], ValueError, ""),  # 1-D: wrong shape
}


def replaced(value: Any, path: list[str], change: Callable[[Any], Any]) -> Any:
    """``value`` with the array at ``path`` (field names and tuple positions) passed through ``change``."""
    if not path:
        return change(value)
    head, *rest = path
    if isinstance(value, tuple):
        return tuple(replaced(item, rest, change) if str(i) == head else item for i, item in enumerate(value))
    return dataclasses.replace(value, **{head: replaced(getattr(value, head), rest, change)})


def named(function: str, path: str) -> str:
    """The name the error must use: the array's own, or ``project``'s name for its matrix."""
    return CALLS[function][1]["name"] if (function, path) == ("project", "w") else path.split(".")[-1]


def refusal(function: str, path: str, change: Callable[[Any], Any]) -> pytest.ExceptionInfo[Exception]:
    """The error of ``function``'s valid call with the argument at ``path`` changed."""
    call, arguments = CALLS[function]
    head, *rest = path.split(".")
    changed = {**arguments, head: replaced(arguments[head], rest, change)}
    with pytest.raises((TypeError, ValueError)) as info:
        call(**changed)
    return info


@pytest.mark.parametrize("kind", sorted(BAD_ARRAYS))
def test_a_bad_array_anywhere_is_refused_naming_it(kind: str) -> None:
    change, error, words = BAD_ARRAYS[kind]
    for where in ARRAYS:
        info = refusal(*where, change)
        assert info.type is error or kind == "ragged", (where, info.value)
        assert str(info.value).startswith(f"{named(*where)} {words}"), (where, info.value)


def test_each_call_in_the_table_succeeds_as_given() -> None:
    for call, arguments in CALLS.values():
        call(**arguments)  # so each refusal is the changed argument's doing


def test_every_exported_function_that_takes_arrays_is_in_the_array_table() -> None:
    exported = {name for name in attnlab.__all__ if inspect.isfunction(getattr(attnlab, name))}
    assert exported - {"causal", "init_encoder_block", "positional_encoding", "we002"} <= {f for f, _ in ARRAYS}


INTEGERS = [("causal", "n", 1), ("causal", "m", 1), ("causal", "offset", None), ("scale", "d_k", 1),
            ("streaming_attention", "block", 1), ("positional_encoding", "length", 1),
            ("positional_encoding", "d_model", 1), ("fmt", "decimals", 0), ("init_encoder_block", "seed", 0),
            *(("cost", size, 1) for size in ("n", "m", "d_k", "d_v", "heads", "layers", "bytes_per_number")),
            ("causal_visible", "offset", None), ("layer_madds", "d_model", 1), ("readable_bytes", "count", 0)]
"""(function, integer argument, the least it allows or None)."""


def test_an_integer_argument_refuses_a_value_below_its_least_naming_it() -> None:
    for function, argument, least in INTEGERS:
        if least is not None:
            info = refusal(function, argument, lambda _, least=least: least - 1)
            assert str(info.value) == f"{argument} must be at least {least}, got {least - 1}" or \
                str(info.value).startswith(f"{argument} must be from {least} to ")


NUMBERS = [("layer_norm", "eps"), ("fmt", "x"), ("compute", "query_scale"), ("compute", "value_y")]
BAD_NUMBERS = {"text": ("0.5", TypeError, "must be a real number, got '0.5'"),
               "None": (None, TypeError, "must be a real number, got None"),
               "a boolean": (True, TypeError, "must be a real number, got True"),
               "NaN": (math.nan, ValueError, "must be finite, got nan"),
               "infinity": (math.inf, ValueError, "must be finite, got inf")}
MASKS = [("attention", "visible"), ("softmax", "visible"), ("multi_head", "visible")]
BAD_MASKS = {"numbers": (lambda m: np.asarray(m, dtype=int), TypeError, "must be a boolean array, got dtype int"),
             "a wrong shape": (lambda m: np.asarray(m)[:, :1], ValueError, "must have shape"),
             "ragged": (lambda m: [*np.asarray(m).tolist(), [True]], ValueError, "is ragged"),
             "text": (lambda _: "all", TypeError, "must be a boolean array, got dtype <U3")}
BUNDLES = [(function, "params") for function in ("feed_forward", "multi_head", "encoder_block")]
REFUSED = {
    **{f"an integer given {kind}": ([(f, a) for f, a, _ in INTEGERS], lambda _, bad=bad: bad, TypeError,
                                    "must be an integer, got ")
       for kind, bad in [("a boolean", True), ("a float", 2.0), ("text", "2")]},
    **{f"a number given {kind}": (NUMBERS, lambda _, bad=bad: bad, error, words)
       for kind, (bad, error, words) in BAD_NUMBERS.items()},
    **{f"a mask given {kind}": (MASKS, change, error, words) for kind, (change, error, words) in BAD_MASKS.items()},
    **{f"a bundle given {bad!r}": (BUNDLES, lambda _, bad=bad: bad, TypeError, "must be a ")
       for bad in (None, [1.0, 2.0])},
}
"""What each kind of argument is given: (its places, the change to its valid value, the error, its words)."""


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_an_integer_number_mask_or_bundle_argument_refuses_what_it_cannot_take_naming_it(kind: str) -> None:
    places, change, error, words = REFUSED[kind]
    for function, argument in places:
        info = refusal(function, argument, change)
        assert info.type is error and str(info.value).startswith(f"{argument} {words}"), (kind, info.value)


def test_as_array_turns_integers_beyond_int64_into_float64() -> None:
    assert as_array("a", [[2**70, 1]], 2).tolist() == [[2.0**70, 1.0]]


def test_shown_writes_a_numpy_scalar_as_python_does_and_a_long_list_briefly() -> None:
    assert shown(np.float64(2.5)) == "2.5"
    assert shown([0.0] * 1000) == "[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, ...]"
