"""Scaled dot-product attention, one named step at a time.

The steps follow the guide: project rows to queries, keys and values; take
raw ``scores`` (Q Kᵀ); ``scale`` them by 1/√d_k; decide which keys are
``visible``; turn visible scaled scores into ``weights`` with a masked,
numerically stable softmax; mix the values into the ``output``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from attnlab.checks import (
    as_array,
    as_mask,
    as_matrix,
    as_rows,
    integer,
    overflow_free,
    positive_int,
    same_rows,
    same_width,
)

__all__ = ["Attention", "attention", "causal", "mix", "project", "scale", "scores", "softmax"]


def frozen(array: np.ndarray) -> np.ndarray:
    """Return a read-only copy that cannot be made writeable again, so a result cannot be edited.

    The copy's memory is an immutable ``bytes`` object: numpy refuses
    ``flags.writeable = True`` on it and on every view of it (a plain copy
    with the flag cleared could simply be switched back).
    """
    contiguous = np.asarray(array, order="C")
    return np.frombuffer(contiguous.tobytes(), dtype=contiguous.dtype).reshape(contiguous.shape)


@dataclass(frozen=True)
class Attention:
    """Every intermediate of one attention computation (read-only arrays).

    Shapes for n query rows and m keys: ``scores``, ``scaled``, ``visible`` and
    ``weights`` are n×m, ``output`` is n×d_v. When a single 1-D query was
    given, the leading n axis is dropped.
    """

    scores: np.ndarray
    scaled: np.ndarray
    visible: np.ndarray
    weights: np.ndarray
    output: np.ndarray


def project(x: Any, w: Any, name: str = "W") -> np.ndarray:
    """Return ``x @ w``: each row of ``x`` is mapped by the same matrix ``w``."""
    rows = as_matrix("x", x)
    matrix = as_matrix(name, w)
    if rows.shape[1] != matrix.shape[0]:
        raise ValueError(
            f"x has width {rows.shape[1]} but {name} has {matrix.shape[0]} rows: "
            f"x @ {name} needs them equal (shapes {rows.shape} and {matrix.shape})"
        )
    with np.errstate(over="ignore", invalid="ignore"):  # refused below, without a warning
        return overflow_free(rows @ matrix, f"x @ {name}", "x", rows, name, matrix)


def scores(q: Any, k: Any) -> np.ndarray:
    """Raw compatibility Q Kᵀ: entry (i, j) is the dot product of query i and key j.

    ``q`` is n×d_k (or one row of d_k), ``k`` is m×d_k; a score beyond
    float64 is refused naming q and k, as in ``attention``.
    """
    queries = as_array("q", q, (1, 2))
    keys = as_matrix("k", k)
    same_width("q", queries, "k", keys)
    return checked_scores(queries, keys)


def scale(raw: np.ndarray, d_k: int) -> np.ndarray:
    """Divide raw scores by √d_k, which keeps their spread independent of d_k when CL-006's assumptions hold.

    Those are query and key entries that are independent, with mean 0 and
    variance 1: then a raw score has variance d_k and a scaled one 1. When
    entries share structure, as a trained model's can, the scaled spread
    may still grow with d_k (the Scores chapter measures it).

    ``raw`` is one row or n rows of finite scores; ``d_k`` is the key width,
    a positive int (0 would divide by zero).
    """
    return as_array("raw", raw, (1, 2)) / math.sqrt(positive_int("d_k", d_k))


def checked_scores(queries: np.ndarray, keys: np.ndarray, part: slice = slice(None)) -> np.ndarray:
    """Raw scores of every query against ``keys[part]``, refused if they overflow float64.

    The error names q and k with their largest entries (of all keys, so a
    blockwise caller reports exactly what ``attention`` would).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below, without a warning
        return overflow_free(queries @ keys[part].T, "scores q @ k.T", "q", queries, "k", keys)


def refuse_empty_rows(has_visible: npt.ArrayLike) -> None:
    """Raise naming the first row with no visible key: such a row has no distribution."""
    empty = ~np.asarray(has_visible)
    if empty.any():
        row = int(np.flatnonzero(empty)[0])
        raise ValueError(f"visible row {row} blocks every key: a fully blocked row has no weights")


Inputs = tuple[np.ndarray, np.ndarray, np.ndarray, "np.ndarray | None", bool]


def checked_inputs(q: Any, k: Any, v: Any, visible: Any = None) -> Inputs:
    """Check ``attention``'s arguments once, for every function that takes them.

    Returns queries (n×d_k), keys (m×d_k), values (m×d_v), the n×m boolean
    mask or None when every key is visible (so none need be built), and
    whether ``q`` was a single 1-D row.
    """
    queries, single = as_rows("q", q)
    keys = as_matrix("k", k)
    values = as_matrix("v", v)
    same_width("q", queries, "k", keys)
    same_rows("k", keys, "v", values)
    n, m = queries.shape[0], keys.shape[0]
    mask = None if visible is None else as_mask("visible", visible, (m,) if single else (n, m)).reshape(n, m)
    return queries, keys, values, mask, single


MAX_MASK = 10**9
"""The most entries ``causal`` builds (a gigabyte of booleans): a larger mask is a mistake, not a lesson."""


def causal(n: int, m: int | None = None, offset: int | None = None) -> np.ndarray:
    """Boolean n×m visibility: key j is visible to query i iff j ≤ i + offset.

    With ``m`` keys and ``n`` queries, the default offset ``m - n`` places the
    queries at the last n positions, as when generating with a key/value
    cache; for self-attention (n = m) it is 0, the usual lower triangle.
    """
    n = positive_int("n", n)
    m = n if m is None else positive_int("m", m)
    shift = m - n if offset is None else integer("offset", offset)
    if n * m > MAX_MASK:
        raise ValueError(f"a {n}×{m} mask has more than {MAX_MASK:,} entries (MAX_MASK): too large to hold")
    return np.arange(m)[None, :] <= np.arange(n)[:, None] + shift


def softmax(scaled: Any, visible: Any) -> np.ndarray:
    """Masked, stable softmax along the last axis of one row or n rows.

    The row maximum over *visible* entries is subtracted before
    exponentiating (it cancels in the ratio, so nothing changes but overflow
    is impossible). Blocked entries get exactly 0 and are not in the
    denominator. A row with no visible key has no distribution: ValueError.
    ``visible`` must be boolean with the shape of ``scaled``.
    """
    values = as_array("scaled", scaled, (1, 2))
    rows = np.atleast_2d(values)
    mask = np.atleast_2d(as_mask("visible", visible, values.shape))
    refuse_empty_rows(mask.any(axis=-1))
    exp = shifted_exponentials(rows, mask)
    weights = exp / exp.sum(axis=-1, keepdims=True)
    return weights.reshape(values.shape)


def shifted_exponentials(rows: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """exp(s − max) of every visible score of each row, 0 for a blocked one: the softmax's numerators.

    ``rows`` and ``mask`` are checked n×m arrays (finite scores, a boolean
    mask of the same shape, every row with a visible key), as ``softmax``
    passes them; the lab shows the row it selects.
    """
    peak = np.max(np.where(mask, rows, -np.inf), axis=-1, keepdims=True)
    with np.errstate(over="ignore"):  # a gap beyond float64 becomes -inf, whose exp is the right 0
        shifted = np.where(mask, rows - peak, 0.0)
    return np.where(mask, np.exp(shifted), 0.0)


def headroom(values: np.ndarray, count: int) -> np.ndarray:
    """The power of two, per column, to divide ``values`` by before mixing, so that no sum overflows.

    A mix adds weights times values. With weights of at most 1 that add up
    to at most ``count`` (1 for attention weights; the number of keys for the
    running sums of ``streaming_attention``), every partial sum is below
    ``count`` times the column's largest |value|; after this division it is
    below 2^1023. The power is 1 unless a column comes near the float64
    maximum, and dividing by a power of two is exact (below 2^-1022 it can
    drop the last bits of a subnormal, which is all the rounding it adds).
    """
    exponent = np.frexp(np.abs(values).max(axis=0))[1]  # the largest |value| is below 2^exponent
    return np.ldexp(1.0, np.maximum(exponent + int(count).bit_length() - 1023, 0))


def within_range(mixed: np.ndarray, unit: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Undo ``headroom``'s division of a mix, and keep each coordinate within its column of ``values``.

    The exact mix, with weights that add up to 1, lies between the smallest
    and the largest value it mixes. Rounding can carry the computed one a few
    ulps past either end, and at the top of float64 past the largest float
    (to infinity). Clipping to the column's range over all values can only move it
    towards the exact answer, which lies inside that range; the range over
    all keys, not each row's visible ones, costs O(m·d_v) instead of O(n·m·d_v).
    """
    with np.errstate(over="ignore"):  # an overshoot to inf is clipped to the largest value
        return np.clip(mixed * unit, values.min(axis=0), values.max(axis=0))


def mixture(weights: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The weighted sum of value rows for checked attention weights: finite, within each column's values."""
    unit = headroom(values, 1)
    return within_range(weights @ (values / unit), unit, values)


def mix(weights: Any, v: Any) -> np.ndarray:
    """Weighted sum of value rows: output i = Σ_j weights[i, j] · v[j].

    ``weights`` are attention weights, one row of m or n rows of m: never
    negative, each row adding up to 1 (up to the rounding of a softmax,
    (m + 1)·2^-52). ``v`` is m×d_v. So each output coordinate is a weighted
    average of its column of ``v`` and lies within that column's range; it is
    finite even when the values come near the float64 maximum.
    """
    w = as_array("weights", weights, (1, 2))
    values = as_matrix("v", v)
    m = values.shape[0]
    if w.shape[-1] != m:
        raise ValueError(f"weights has {w.shape[-1]} columns but v has {m} rows: "
                         f"weights @ v needs them equal (shapes {w.shape} and {values.shape})")
    if (w < 0).any():
        where = tuple(int(i) for i in np.argwhere(w < 0)[0])
        raise ValueError(f"weights has a negative entry {w[where]} at index {where}: attention weights never are")
    sums = np.atleast_1d(w.sum(axis=-1))
    off = np.flatnonzero(np.abs(sums - 1.0) > (m + 1) * 2.0**-52)
    if off.size:
        raise ValueError(f"weights row {off[0]} adds up to {float(sums[off[0]])!r}, not 1: "
                         "attention weights are a distribution over the keys")
    return mixture(w, values)


def attention(q: Any, k: Any, v: Any, visible: Any = None) -> Attention:
    """Scaled dot-product attention, softmax(Q Kᵀ / √d_k) V, with every step kept.

    Parameters
    ----------
    q : array_like, shape (n, d_k) or (d_k,)
        Query rows (or one query row).
    k : array_like, shape (m, d_k)
        Key rows; their width must equal the queries'.
    v : array_like, shape (m, d_v)
        Value rows, one per key; d_v may differ from d_k.
    visible : array_like of bool, shape (n, m) or (m,), optional
        Which keys each query may see. ``None`` means all.

    Returns
    -------
    Attention
        ``scores``, ``scaled``, ``visible``, ``weights`` and ``output``.

    Examples
    --------
    >>> r = attention([1.0, 0.0], [[1.0, 0.0], [0.0, 1.0]], [[1.0], [3.0]])
    >>> r.weights.round(3).tolist(), r.output.round(3).tolist()
    ([0.67, 0.33], [1.66])
    """
    queries, keys, values, given, single = checked_inputs(q, k, v, visible)
    mask = np.ones((queries.shape[0], keys.shape[0]), dtype=bool) if given is None else given
    raw = checked_scores(queries, keys)
    scaled = scale(raw, keys.shape[1])
    weights = softmax(scaled, mask)
    output = mixture(weights, values)
    pick = (lambda a: a[0]) if single else (lambda a: a)
    return Attention(*(frozen(pick(a)) for a in (raw, scaled, mask, weights, output)))
