"""Exact attention without the n×m score matrix: one block of keys at a time (claims CL-027, CL-028).

Each query row keeps a running maximum ``peak``, a running sum of
exponentials ``total`` and a running weighted sum of values. When a block
raises the maximum from ``peak`` to ``new_peak``, what was gathered is
multiplied by exp(peak − new_peak), as if the new maximum had been known
from the start; at the end, the weighted sum over ``total`` is the output.
``causal=True`` works the causal mask out from the positions, so memory stays
O(n·block).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from attnlab.attention import checked_inputs, frozen, product, refuse_empty_rows
from attnlab.checks import positive_int

__all__ = ["BLOCK", "Step", "streaming_attention", "streaming_trace"]

BLOCK = 512
"""Default keys per block: enough for fast numpy matrix products, few next to a long context."""


@dataclass(frozen=True)
class Step:
    """The running state after the first ``keys_seen`` keys: ``weighted / total`` is the output over them.

    ``peak`` is the largest visible scaled score (−∞ if none), ``total`` the
    sum of exp(scaled − peak), ``weighted`` the sum of exp(scaled − peak) · value.
    """

    keys_seen: int
    peak: np.ndarray
    total: np.ndarray
    weighted: np.ndarray


def _fold(state: Step, scaled: np.ndarray, values: np.ndarray, visible: np.ndarray | None) -> Step:
    """Fold one block's scaled scores, values and visible columns into the state."""
    if visible is not None:
        np.copyto(scaled, -np.inf, where=~visible)
    peak = np.maximum(state.peak, scaled.max(axis=1))
    # A row with no visible key yet keeps peak −inf; shifting it by 0 instead
    # keeps −inf − (−inf) = NaN out, and exp(−inf) = 0 leaves it empty. A gap
    # wider than float64 can hold becomes −inf, whose exp is the right 0.
    base = np.where(np.isneginf(peak), 0.0, peak)
    with np.errstate(over="ignore", invalid="ignore"):  # values near the float64 maximum are refused at the end
        rescale = np.exp(state.peak - base)
        scaled -= base[:, None]
        weights = np.exp(scaled, out=scaled)
        return Step(state.keys_seen + values.shape[0], peak,
                    state.total * rescale + weights.sum(axis=1),
                    state.weighted * rescale[:, None] + weights @ values)


def _causal_flag(causal: Any) -> bool:
    """``causal`` as a bool; anything else is refused, naming it."""
    if not isinstance(causal, bool | np.bool_):
        raise TypeError(f"causal must be True or False, got {causal!r}")
    return bool(causal)


def _block_mask(mask: np.ndarray | None, causal: bool, n: int, m: int, part: slice) -> np.ndarray | None:
    """The visible columns of one block: a slice of ``mask``, and the causal rule worked out from positions."""
    columns = None if mask is None else mask[:, part]
    if not causal:
        return columns
    keys = np.arange(part.start, min(part.stop, m))
    rule = keys[None, :] <= np.arange(n)[:, None] + (m - n)
    return rule if columns is None else columns & rule


def _running(queries: np.ndarray, keys: np.ndarray, values: np.ndarray, mask: np.ndarray | None,
             block: int, causal: bool = False) -> Iterator[Step]:
    """Fold the keys in, ``block`` at a time, yielding the running state after each block."""
    n, m = queries.shape[0], keys.shape[0]
    state = Step(0, np.full(n, -np.inf), np.zeros(n), np.zeros((n, values.shape[1])))
    for start in range(0, m, block):
        part = slice(start, start + block)
        scaled = product(queries, keys[part].T, "q", "k.T") / np.sqrt(keys.shape[1])
        state = _fold(state, scaled, values[part],
                      _block_mask(mask, causal, n, m, part))
        yield state


def streaming_trace(q: Any, k: Any, v: Any, visible: Any = None, block: int = 1, *,
                    causal: bool = False) -> list[Step]:
    """Every running state of ``streaming_attention``, one read-only ``Step`` per block (default: per key)."""
    queries, keys, values, mask, _ = checked_inputs(q, k, v, visible)
    return [Step(s.keys_seen, frozen(s.peak), frozen(s.total), frozen(s.weighted))
            for s in _running(queries, keys, values, mask, positive_int("block", block), _causal_flag(causal))]


def streaming_attention(q: Any, k: Any, v: Any, visible: Any = None, block: int = BLOCK, *,
                        causal: bool = False) -> np.ndarray:
    """``attention(q, k, v, visible).output``, computed ``block`` keys at a time (the same checks and errors).

    The largest arrays made are n×block. ``causal=True`` applies
    ``causal(n, m)`` (on top of ``visible``) without making that array.

    Examples
    --------
    >>> streaming_attention([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [[1.0], [3.0]], block=1).round(3)
    array([1.66])
    """
    queries, keys, values, mask, single = checked_inputs(q, k, v, visible)
    for last in _running(queries, keys, values, mask, positive_int("block", block),  # noqa: B007
                         _causal_flag(causal)):
        pass  # only the last state is kept; a list of every Step would hold an n×d_v sum per block
    refuse_empty_rows(~np.isneginf(last.peak))
    output = last.weighted / last.total[:, None]
    if not np.isfinite(output).all():
        raise ValueError(f"weights @ v overflow float64: v entries are too large (largest |v| {abs(values).max():g})")
    return output[0] if single else output
