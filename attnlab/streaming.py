"""Exact attention without the n×m score matrix: one block of keys at a time.

Softmax seems to need every score of a row before any weight is known: the
row maximum to subtract and the row sum to divide by. It does not (claim
CL-027). Keep, for each query row, a running maximum ``peak``, a running
sum of exponentials ``total`` and a running weighted sum of values. When a
new block of keys raises the maximum from ``peak`` to ``new_peak``, what was
gathered so far is multiplied by exp(peak − new_peak), which is exactly what
it would have been had the new maximum been known from the start. After the
last block, the weighted sum divided by ``total`` is the output of
``attention`` (claim CL-028), yet only an n×block slice of scores ever
existed.

A causal mask need not be written down either: ``causal=True`` works out
each block's visible keys from the positions (bottom-right aligned, as
``attnlab.causal(n, m)``), so no n×m array exists at any point and memory
stays O(n·block). A dense ``visible`` mask, by contrast, is itself n×m.
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
    """The running state after the first ``keys_seen`` keys (one entry or row per query).

    ``peak`` is the largest visible scaled score so far (−∞ if none),
    ``total`` the sum of exp(scaled − peak) over visible keys so far, and
    ``weighted`` the matching sum of exp(scaled − peak) · value, so
    ``weighted / total`` is the output of attention over the keys seen.
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
    """Every running state of ``streaming_attention``, one ``Step`` per block (for teaching).

    Arguments as for ``streaming_attention``; a 1-D query gives 1-D ``peak``
    and ``total`` of length 1. The default block of 1 shows each key folded
    in. Every array of every ``Step`` is read-only.
    """
    queries, keys, values, mask, _ = checked_inputs(q, k, v, visible)
    return [Step(s.keys_seen, frozen(s.peak), frozen(s.total), frozen(s.weighted))
            for s in _running(queries, keys, values, mask, positive_int("block", block), _causal_flag(causal))]


def streaming_attention(q: Any, k: Any, v: Any, visible: Any = None, block: int = BLOCK, *,
                        causal: bool = False) -> np.ndarray:
    """The output of ``attention(q, k, v, visible)``, computed ``block`` keys at a time.

    The arguments and their checks are those of ``attention`` (plus
    ``block``, a positive int), and so are the errors (a score overflow
    names the largest |k| of its block). Returns only the output, a new n×d_v array, or a 1-D array of
    length d_v for a single 1-D query, like ``attention(...).output``. The
    largest arrays made are n×block; a ``visible`` mask is read a slice at a
    time, but it is n×m itself. ``causal=True`` applies ``causal(n, m)``
    without that array, block by block from the positions (and on top of
    ``visible`` if both are given): the same output as
    ``attention(q, k, v, causal(n, m))``, in O(n·block) memory.

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
