"""Every function ``attnlab`` exports checks its inputs as ``attention`` does.

Each array an exported function takes, directly or inside a parameter
bundle, is given a NaN, an infinity or a string in turn; the error must be a
``ValueError`` or ``TypeError`` that names that array. A new export must be
added to ``CALLS`` (a test checks that every exported function is there).
"""

from __future__ import annotations

import dataclasses
import inspect
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import attnlab
from attnlab import (
    EncoderBlockParams,
    FeedForwardParams,
    Head,
    LayerNormParams,
    MultiHeadParams,
)

I2 = [[1.0, 0.0], [0.0, 1.0]]
ROWS = [[1.0, 0.0], [0.0, 1.0]]
HEADS = MultiHeadParams((Head(I2, I2, I2, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]),), I2, [0.0, 0.0])
FFN = FeedForwardParams(I2, [0.0, 0.0], I2, [0.0, 0.0])
NORM = LayerNormParams([1.0, 1.0], [0.0, 0.0])
HEAD_FIELDS = [f"params.heads.0.{name}" for name in ("w_q", "w_k", "w_v", "b_q", "b_k", "b_v")] + \
    ["params.w_o", "params.b_o"]

CALLS: dict[str, tuple[dict[str, Any], list[str]]] = {
    "attention": ({"q": [[1.0, 0.0]], "k": ROWS, "v": ROWS}, ["q", "k", "v"]),
    "streaming_attention": ({"q": [[1.0, 0.0]], "k": ROWS, "v": ROWS}, ["q", "k", "v"]),
    "project": ({"x": ROWS, "w": I2, "name": "W_Q"}, ["x", "w"]),
    "scores": ({"q": [[1.0, 0.0]], "k": ROWS}, ["q", "k"]),
    "scale": ({"raw": [[1.0, 2.0]], "d_k": 2}, ["raw"]),
    "softmax": ({"scaled": [[1.0, 2.0]], "visible": [[True, True]]}, ["scaled"]),
    "mix": ({"weights": [[0.5, 0.5]], "v": ROWS}, ["weights", "v"]),
    "layer_norm": ({"x": [[1.0, 3.0]], "gain": [1.0, 1.0], "bias": [0.0, 0.0]}, ["x", "gain", "bias"]),
    "relu": ({"x": [[1.0, -1.0]]}, ["x"]),
    "gelu": ({"x": [[1.0, -1.0]]}, ["x"]),
    "feed_forward": ({"x": ROWS, "params": FFN}, ["x", "params.w1", "params.b1", "params.w2", "params.b2"]),
    "multi_head": ({"x_q": ROWS, "x_kv": ROWS, "params": HEADS}, ["x_q", "x_kv", *HEAD_FIELDS]),
    "cross_attention": ({"decoder": ROWS, "encoder": ROWS, "params": HEADS}, ["decoder", "encoder", *HEAD_FIELDS]),
    "encoder_block": ({"x": ROWS, "params": EncoderBlockParams(HEADS, FFN, NORM, NORM)},
                      ["x", *(f"params.attention.{f.removeprefix('params.')}" for f in HEAD_FIELDS),
                       "params.ffn.w1", "params.ffn.b1", "params.norm1.gain", "params.norm2.bias"]),
}
"""Exported function → valid keyword arguments, and the paths of the arrays among them."""
NO_ARRAYS = {"causal", "init_encoder_block", "positional_encoding", "we002"}
"""Exported functions that take only integers (tested with their modules) or nothing."""

BAD = {"NaN": (math.nan, ValueError), "infinity": (-math.inf, ValueError), "a string": ("0", TypeError)}


def replaced(value: Any, path: list[str], bad: Any) -> Any:
    """``value`` with the first entry of the array at ``path`` (field names and tuple positions) set to ``bad``."""
    if path:
        head, *rest = path
        if isinstance(value, tuple):
            return tuple(replaced(item, rest, bad) if str(i) == head else item for i, item in enumerate(value))
        return dataclasses.replace(value, **{head: replaced(getattr(value, head), rest, bad)})
    array = np.array(value, dtype=object)
    array[(0,) * array.ndim] = bad
    return array.tolist()


def named(path: str, arguments: dict[str, Any]) -> str:
    """The name an error should use for the array at ``path``: its field, or ``project``'s own name for w."""
    return arguments["name"] if path == "w" else path.split(".")[-1]


CASES = [(function, path) for function, (_, paths) in CALLS.items() for path in paths]


@pytest.mark.parametrize("kind", BAD)
@pytest.mark.parametrize(("function", "path"), CASES, ids=[f"{f}-{p}" for f, p in CASES])
def test_a_bad_entry_in_any_array_is_refused_naming_that_array(function: str, path: str, kind: str) -> None:
    arguments, _ = CALLS[function]
    bad, error = BAD[kind]
    head, *rest = path.split(".")
    given = {**arguments, head: replaced(arguments[head], rest, bad)}
    with pytest.raises(error, match=rf"^{named(path, arguments)} (has a non-finite entry|must hold real numbers)"):
        getattr(attnlab, function)(**given)


@pytest.mark.parametrize("function", sorted(CALLS))
def test_each_call_in_the_table_succeeds_as_given(function: str) -> None:
    arguments, _ = CALLS[function]
    getattr(attnlab, function)(**arguments)  # so each refusal above is the bad entry's doing


def test_every_exported_function_is_in_the_table() -> None:
    functions = {name for name in attnlab.__all__
                 if inspect.isfunction(getattr(attnlab, name))}
    assert functions - NO_ARRAYS == set(CALLS)


MASKED: dict[str, Callable[[Any], Any]] = {
    "attention": lambda visible: attnlab.attention([[1.0, 0.0]] * 2, ROWS, ROWS, visible),
    "streaming_attention": lambda visible: attnlab.streaming_attention([[1.0, 0.0]] * 2, ROWS, ROWS, visible),
    "softmax": lambda visible: attnlab.softmax([[1.0, 2.0]] * 2, visible),
    "multi_head": lambda visible: attnlab.multi_head(ROWS, ROWS, HEADS, visible),
    "encoder_block": lambda visible: attnlab.encoder_block(ROWS, EncoderBlockParams(HEADS, FFN, NORM, NORM), visible),
}


@pytest.mark.parametrize("function", sorted(MASKED))
def test_a_ragged_mask_is_refused_naming_visible(function: str) -> None:
    with pytest.raises(ValueError, match="visible is ragged"):
        MASKED[function]([[True, False], [True]])
