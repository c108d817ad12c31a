"""Every public function of attnlab, given a hostile value in any argument, refuses it naming that argument.

Hostile means what numpy would quietly turn into numbers (booleans among
numbers, durations, a masked array whose mask it drops), what is no number
at all (None, text, a date), and what is merely huge: an error message shows
at most ``checks.SHOWN_LIMIT`` characters of a value and says how big the
rest is, so a million-entry list cannot make a 2 MB message.
"""

from __future__ import annotations

import datetime
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from attnlab import bert, contributions, cost, layers, scaling, stacked, streaming, text
from attnlab.checks import SHOWN_LIMIT, shown
from attnlab.layers import FeedForwardParams, Head, LayerNormParams, MultiHeadParams

I2 = [[1.0, 0.0], [0.0, 1.0]]
ROWS = [[1.0, 2.0], [3.0, 4.0]]
HEADS = MultiHeadParams((Head(I2, I2, I2),), I2)
FFN = FeedForwardParams(I2, [0.0, 0.0], I2, [0.0, 0.0])
BLOCK = layers.EncoderBlockParams(HEADS, FFN, LayerNormParams([1.0, 1.0], [0.0, 0.0]),
                                  LayerNormParams([1.0, 1.0], [0.0, 0.0]))
RNG = np.random.default_rng(0)
attention = importlib.import_module("attnlab.attention")  # the module: the package's name is the function

HUGE = [0.0] * 1_000_000
"""A million entries: the message that refuses them must stay short."""
MESSAGE_LIMIT = SHOWN_LIMIT + 300
"""The longest message allowed: one value shown at its limit, and the words around it."""


def durations(valid: Any) -> np.ndarray:
    """The valid array as numpy durations (timedelta64), which numpy counts as integers."""
    return np.asarray(valid).astype(np.int64).astype("m8[s]")


def booleans_among_numbers(valid: Any) -> list[Any]:
    """The valid nested list with its first entry replaced by True (numpy would read it as 1.0)."""
    array = np.array(valid, dtype=object)
    array[(0,) * array.ndim] = True
    return array.tolist()


def hostile_arrays(valid: Any) -> dict[str, Any]:
    """Values an array argument must refuse, each named."""
    return {
        "a boolean among numbers": booleans_among_numbers(valid),
        "durations": durations(valid),
        "a list of durations": durations(valid).tolist(),
        "dates": np.asarray(valid).astype(np.int64).astype("M8[D]"),
        "a list of datetimes": np.full(np.shape(valid), datetime.datetime(2020, 1, 1), dtype=object).tolist(),
        "a masked array": np.ma.masked_array(valid, mask=np.zeros(np.shape(valid), dtype=bool)),
        "text": "1, 2",
        "a million text entries": ["x"] * 1_000_000,
    }


INTEGERS = {"a boolean": True, "a float": 2.0, "text": "2", "a numpy duration": np.timedelta64(2, "s"),
            "a timedelta": datetime.timedelta(days=2), "an array": np.array([2])}
NUMBERS = {"a boolean": True, "text": "0.5", "a numpy duration": np.timedelta64(1, "s"),
           "a timedelta": datetime.timedelta(days=1), "a datetime": datetime.datetime(2020, 1, 1),
           "a million-entry list": HUGE, "an integer of 5000 digits": -(10**5000)}
MASKS = {"numbers": [[1, 0], [0, 1]], "a masked array": np.ma.masked_array([[True, True], [True, True]]),
         "text": "all", "a million booleans": [True] * 1_000_000}
BUNDLES = {"None": None, "text": "params", "a number": 3, "a list": [1.0, 2.0]}
SENTENCES = {"None": None, "a number": 3, "an empty list": [], "a list holding a number": ["a", 2],
             "a million numbers": list(range(1_000_000))}
REAL = {"numbers": [1, 0], "a masked array": np.ma.masked_array([True, False]), "text": "all",
        "no real token": [False, False], "a matrix": [[True], [False]]}

Call = tuple[Callable[..., Any], dict[str, Any], dict[str, str]]
CALLS: dict[str, Call] = {
    "project": (attention.project, {"x": ROWS, "w": I2, "name": "W_Q"}, {"x": "array", "w": "array"}),
    "scores": (attention.scores, {"q": ROWS, "k": ROWS}, {"q": "array", "k": "array"}),
    "scale": (attention.scale, {"raw": ROWS, "d_k": 2}, {"raw": "array", "d_k": "integer"}),
    "causal": (attention.causal, {"n": 2, "m": 3, "offset": 1}, {"n": "integer", "m": "integer", "offset": "integer"}),
    "softmax": (
        attention.softmax,
        {"scaled": ROWS, "visible": [[True, True], [True, False]]},
        {"scaled": "array", "visible": "mask"},
    ),
    "mix": (attention.mix, {"weights": [[0.5, 0.5]], "v": ROWS}, {"weights": "array", "v": "array"}),
    "attention": (
        attention.attention,
        {"q": ROWS, "k": ROWS, "v": ROWS, "visible": [[True, True], [True, True]]},
        {"q": "array", "k": "array", "v": "array", "visible": "mask"},
    ),
    "streaming_attention": (
        streaming.streaming_attention,
        {"q": ROWS, "k": ROWS, "v": ROWS, "block": 1},
        {"q": "array", "k": "array", "v": "array", "block": "integer"},
    ),
    "streaming_trace": (
        streaming.streaming_trace,
        {"q": ROWS, "k": ROWS, "v": ROWS, "block": 1},
        {"q": "array", "k": "array", "v": "array", "block": "integer"},
    ),
    "project_head": (
        layers.project_head,
        {"x_q": ROWS, "x_kv": ROWS, "head": Head(I2, I2, I2)},
        {"x_q": "array", "x_kv": "array", "head": "bundle"},
    ),
    "multi_head": (
        layers.multi_head,
        {"x_q": ROWS, "x_kv": ROWS, "params": HEADS},
        {"x_q": "array", "x_kv": "array", "params": "bundle"},
    ),
    "cross_attention": (
        layers.cross_attention,
        {"decoder": ROWS, "encoder": ROWS, "params": HEADS},
        {"decoder": "array", "encoder": "array", "params": "bundle"},
    ),
    "positional_encoding": (
        layers.positional_encoding,
        {"length": 3, "d_model": 4},
        {"length": "integer", "d_model": "integer"},
    ),
    "layer_norm": (
        layers.layer_norm,
        {"x": ROWS, "gain": [1.0, 1.0], "bias": [0.0, 0.0], "eps": 1e-5},
        {"x": "array", "gain": "array", "bias": "array", "eps": "number"},
    ),
    "relu": (layers.relu, {"x": ROWS}, {"x": "array"}),
    "gelu": (layers.gelu, {"x": ROWS}, {"x": "array"}),
    "feed_forward": (layers.feed_forward, {"x": ROWS, "params": FFN}, {"x": "array", "params": "bundle"}),
    "encoder_block": (layers.encoder_block, {"x": ROWS, "params": BLOCK}, {"x": "array", "params": "bundle"}),
    "encoder_block_steps": (
        layers.encoder_block_steps,
        {"x": ROWS, "params": BLOCK},
        {"x": "array", "params": "bundle"},
    ),
    "init_multi_head": (
        layers.init_multi_head,
        {"rng": RNG, "d_model": 2, "n_heads": 1, "d_k": 2, "d_v": 2},
        {"rng": "bundle", "d_model": "integer", "n_heads": "integer", "d_k": "integer", "d_v": "integer"},
    ),
    "init_encoder_block": (
        layers.init_encoder_block,
        {"seed": 0, "d_model": 4, "n_heads": 2, "d_ff": 8},
        {"seed": "integer", "d_model": "integer", "n_heads": "integer", "d_ff": "integer"},
    ),
    "stack_heads": (stacked.stack_heads, {"params": HEADS}, {"params": "bundle"}),
    "stack_block": (stacked.stack_block, {"params": BLOCK}, {"params": "bundle"}),
    "split_heads": (stacked.split_heads, {"rows": ROWS, "n_heads": 1}, {"rows": "array", "n_heads": "integer"}),
    "stacked_multi_head": (
        stacked.stacked_multi_head,
        {"x_q": ROWS, "x_kv": ROWS, "heads": stacked.stack_heads(HEADS)},
        {"x_q": "array", "x_kv": "array", "heads": "bundle"},
    ),
    "stacked_encoder_block_steps": (
        stacked.stacked_encoder_block_steps,
        {"x": ROWS, "block": stacked.stack_block(BLOCK)},
        {"x": "array", "block": "bundle"},
    ),
    "output_rows": (
        contributions.output_rows,
        {"w_o": ROWS, "head": 0, "d_v": 2},
        {"w_o": "array", "head": "integer", "d_v": "integer"},
    ),
    "transformed": (
        contributions.transformed,
        {"values": ROWS, "w_o_rows": I2},
        {"values": "array", "w_o_rows": "array"},
    ),
    "contribution_sizes": (
        contributions.contribution_sizes,
        {"weights": [[0.5, 0.5]], "values": ROWS, "w_o_rows": I2},
        {"weights": "array", "values": "array", "w_o_rows": "array"},
    ),
    "shares": (contributions.shares, {"sizes": ROWS}, {"sizes": "array"}),
    "disagreement": (
        contributions.disagreement,
        {"weights": [[0.5, 0.5]], "sizes": [[1.0, 2.0]], "rows": [True]},
        {"weights": "array", "sizes": "array", "rows": "mask"},
    ),
    "readable_bytes": (cost.readable_bytes, {"count": 2048}, {"count": "integer"}),
    "causal_visible": (
        cost.causal_visible,
        {"n": 2, "m": 3, "offset": 1},
        {"n": "integer", "m": "integer", "offset": "integer"},
    ),
    "cost": (
        cost.cost,
        {"n": 2, "m": 3, "d_k": 2, "d_v": 2, "heads": 1, "layers": 1, "bytes_per_number": 8},
        {
            "n": "integer",
            "m": "integer",
            "d_k": "integer",
            "d_v": "integer",
            "heads": "integer",
            "layers": "integer",
            "bytes_per_number": "integer",
        },
    ),
    "rows": (scaling.rows, {"rng": RNG, "shape": (2, 3), "shared": 0.5}, {"rng": "bundle", "shared": "number"}),
    "spread": (
        scaling.spread,
        {"d_k": 2, "shared": 0.5, "queries": 3, "keys": 2, "seed": 1},
        {"d_k": "integer", "shared": "number", "queries": "integer", "keys": "integer", "seed": "integer"},
    ),
    "fmt": (text.fmt, {"x": 0.5, "decimals": 3}, {"x": "number", "decimals": "integer"}),
    "vector": (text.vector, {"v": [0.5, 1.0], "decimals": 3}, {"v": "array", "decimals": "integer"}),
    "given": (text.given, {"x": 0.5}, {"x": "number"}),
    "given_vector": (text.given_vector, {"v": [0.5, 1.0]}, {"v": "array"}),
    "significant": (text.significant, {"x": 0.5, "digits": 2}, {"x": "number", "digits": "integer"}),
    "thousands": (text.thousands, {"n": 2048}, {"n": "integer"}),
    "table": (text.table, {"headers": ["a"], "rows": [["1"]]}, {"headers": "bundle", "rows": "bundle"}),
    "tokenize": (bert.tokenize, {"sentences": "a sentence"}, {"sentences": "sentences"}),
    "padding_visible": (bert.padding_visible, {"real": [True, False]}, {"real": "real"}),
}
"""Public function → its valid keyword arguments and the kind of each argument tried."""


def hostile(kind: str, valid: Any) -> dict[str, Any]:
    """The hostile values for an argument of ``kind`` whose valid value is ``valid``."""
    return {"array": hostile_arrays, "integer": lambda _: INTEGERS, "number": lambda _: NUMBERS,
            "mask": lambda _: MASKS, "bundle": lambda _: BUNDLES, "sentences": lambda _: SENTENCES,
            "real": lambda _: REAL}[kind](valid)


CASES = [(function, argument, label) for function, (_, arguments, kinds) in CALLS.items()
         for argument, kind in kinds.items() for label in hostile(kind, arguments[argument])]


def named(function: str, argument: str) -> str:
    """The name the error must use: the argument's own, or ``project``'s name for its matrix."""
    return CALLS[function][1]["name"] if (function, argument) == ("project", "w") else argument


@pytest.mark.parametrize(("function", "argument", "label"), CASES, ids=[" ".join(case) for case in CASES])
def test_a_hostile_value_is_refused_naming_the_argument_in_a_short_message(function: str, argument: str,
                                                                          label: str) -> None:
    call, arguments, kinds = CALLS[function]
    bad = hostile(kinds[argument], arguments[argument])[label]
    with pytest.raises((TypeError, ValueError)) as refusal:
        call(**{**arguments, argument: bad})
    message = str(refusal.value)
    assert named(function, argument) in message, message
    assert len(message) <= MESSAGE_LIMIT, message[:MESSAGE_LIMIT]


@pytest.mark.parametrize("function", sorted(CALLS))
def test_each_call_in_the_table_succeeds_as_given(function: str) -> None:
    call, arguments, _ = CALLS[function]
    call(**arguments)  # so each refusal above is the hostile value's doing


SHOWN = [
    (HUGE, "[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, ...] (list of length 1000000)"),
    ("x" * 1000, f"'{'x' * 57}...{'x' * 58}' (str of length 1000)"),
    (10**5000, "an integer of 5001 digits"),
    ("sun", "'sun'"), (None, "None"), (np.float64(2.5), "2.5"), ([1, 2], "[1, 2]"),
]


@pytest.mark.parametrize(("value", "written"), SHOWN, ids=[written[:20] for _, written in SHOWN])
def test_shown_writes_a_value_briefly_saying_how_big_the_rest_is(value: Any, written: str) -> None:
    assert shown(value) == written


def test_shown_cuts_what_even_a_brief_repr_writes_long_at_the_limit() -> None:
    nested = [["x" * 100] * 10] * 10  # ten entries of ten strings: a brief repr still writes some 12,000 characters
    text = shown(nested)
    assert text.endswith("… (list of length 10)") and len(text.removesuffix(" (list of length 10)")) == SHOWN_LIMIT


def test_shown_cuts_a_long_text_at_the_limit_and_puts_a_matrix_on_one_line() -> None:
    matrix = shown(np.zeros((1000, 1000)))
    assert "\n" not in matrix and matrix.endswith("(ndarray of shape (1000, 1000))")
    assert len(shown(type("Long", (), {"__repr__": lambda self: "y" * 5000})())) <= SHOWN_LIMIT
