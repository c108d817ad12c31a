"""Scaled dot-product attention, one named step at a time: ``project``, ``scores`` (Q Kᵀ), ``scale`` by 1/√d_k,
``causal`` visibility, a masked stable ``softmax`` into weights, ``mix`` the values into the output."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

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


def frozen(array: Any) -> np.ndarray:
    """A read-only copy of ``array``, so that a result is not edited by accident."""
    copy = np.array(array)
    copy.flags.writeable = False
    return copy


@dataclass(frozen=True)
class Attention:
    """Every intermediate of one attention computation, read-only: n×m arrays and an n×d_v ``output``.

    For a single 1-D query the leading n axis is dropped.
    """

    scores: np.ndarray
    scaled: np.ndarray
    visible: np.ndarray
    weights: np.ndarray
    output: np.ndarray


def product(a: np.ndarray, b: np.ndarray, first: str, second: str) -> np.ndarray:
    """``a @ b`` of checked arrays, refused naming both if it leaves float64."""
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below, without a warning
        return overflow_free(a @ b, f"{first} @ {second}", first, a, second, b)


def project(x: Any, w: Any, name: str = "W") -> np.ndarray:
    """Return ``x @ w``: each row of ``x`` is mapped by the same matrix ``w`` (called ``name`` in errors)."""
    rows, matrix = as_matrix("x", x), as_matrix(name, w)
    if rows.shape[1] != matrix.shape[0]:
        raise ValueError(f"x has width {rows.shape[1]} but {name} has {matrix.shape[0]} rows: "
                         f"x @ {name} needs them equal (shapes {rows.shape} and {matrix.shape})")
    return product(rows, matrix, "x", name)


def scores(q: Any, k: Any) -> np.ndarray:
    """Raw compatibility Q Kᵀ of n×d_k (or one row of d_k) queries and m×d_k keys: entry (i, j) is q_i · k_j."""
    queries, keys = as_array("q", q, (1, 2)), as_matrix("k", k)
    same_width("q", queries, "k", keys)
    return product(queries, keys.T, "q", "k.T")


def scale(raw: Any, d_k: int) -> np.ndarray:
    """Divide raw scores by √d_k: their variance is then 1 when query and key entries are independent, mean 0,
    variance 1 (CL-006)."""
    return as_array("raw", raw, (1, 2)) / math.sqrt(positive_int("d_k", d_k))


MAX_MASK = 10**9
"""The most entries ``causal`` builds (a gigabyte of booleans): a larger mask is a mistake, not a lesson."""


def causal(n: int, m: int | None = None, offset: int | None = None) -> np.ndarray:
    """Boolean n×m visibility: key j is visible to query i iff j ≤ i + offset.

    The default offset ``m - n`` places the queries at the last n positions
    (a key/value cache); for self-attention it is 0, the lower triangle.
    """
    n = positive_int("n", n)
    m = n if m is None else positive_int("m", m)
    shift = m - n if offset is None else integer("offset", offset)
    if n * m > MAX_MASK:
        raise ValueError(f"a {n}×{m} mask has more than {MAX_MASK:,} entries (MAX_MASK): too large to hold")
    return np.arange(m)[None, :] <= np.arange(n)[:, None] + shift


def softmax(scaled: Any, visible: Any) -> np.ndarray:
    """Masked, stable softmax along the last axis: the visible row maximum is subtracted first, blocked entries get 0.

    Parameters
    ----------
    scaled : array_like, shape (m,) or (n, m)
        Finite scaled scores.
    visible : array_like of bool, same shape as ``scaled``
        Which keys each row may see; every row needs at least one.

    Returns
    -------
    numpy.ndarray
        Weights of the shape of ``scaled``, each row adding up to 1.
    """
    values = as_array("scaled", scaled, (1, 2))
    mask = as_mask("visible", visible, values.shape)
    exp = shifted_exponentials(np.atleast_2d(values), np.atleast_2d(mask))
    return (exp / exp.sum(axis=-1, keepdims=True)).reshape(values.shape)


def shifted_exponentials(rows: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """exp(s − row maximum) of each visible score, 0 for a blocked one: the softmax's numerators (n×m arrays)."""
    refuse_empty_rows(mask.any(axis=-1))
    peak = np.max(np.where(mask, rows, -np.inf), axis=-1, keepdims=True)
    with np.errstate(over="ignore"):  # a gap beyond float64 becomes -inf, whose exp is the right 0
        return np.where(mask, np.exp(np.where(mask, rows - peak, 0.0)), 0.0)


def refuse_empty_rows(has_visible: Any) -> None:
    """Raise naming the first row with no visible key: such a row has no distribution."""
    if not np.all(has_visible):
        row = int(np.flatnonzero(~np.asarray(has_visible))[0])
        raise ValueError(f"visible row {row} blocks every key: a fully blocked row has no weights")


def mix(weights: Any, v: Any) -> np.ndarray:
    """Weighted sum of value rows: output i = Σ_j weights[i, j] · v[j], for rows of m non-negative weights adding
    up to 1 (to (m + 1)·2^-52) and m×d_v values."""
    w, values = as_array("weights", weights, (1, 2)), as_matrix("v", v)
    m = values.shape[0]
    if w.shape[-1] != m:
        raise ValueError(f"weights has {w.shape[-1]} columns but v has {m} rows: "
                         f"weights @ v needs them equal (shapes {w.shape} and {values.shape})")
    if (w < 0).any():
        where = tuple(int(i) for i in np.argwhere(w < 0)[0])
        raise ValueError(f"weights has a negative entry {w[where]} at index {where}: attention weights never are")
    off = np.flatnonzero(np.abs(np.atleast_1d(w.sum(axis=-1)) - 1.0) > (m + 1) * 2.0**-52)
    if off.size:
        raise ValueError(f"weights row {off[0]} adds up to {float(np.atleast_2d(w)[off[0]].sum())!r}, not 1: "
                         "attention weights are a distribution over the keys")
    return product(w, values, "weights", "v")


def checked_inputs(q: Any, k: Any, v: Any, visible: Any = None) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                            np.ndarray | None, bool]:
    """``attention``'s arguments checked: queries, keys, values, an n×m mask or None, and whether q was one row."""
    queries, single = as_rows("q", q)
    keys, values = as_matrix("k", k), as_matrix("v", v)
    same_width("q", queries, "k", keys)
    same_rows("k", keys, "v", values)
    n, m = queries.shape[0], keys.shape[0]
    mask = None if visible is None else as_mask("visible", visible, (m,) if single else (n, m)).reshape(n, m)
    return queries, keys, values, mask, single


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
    queries, keys, values, mask, single = checked_inputs(q, k, v, visible)
    seen = np.ones((len(queries), len(keys)), dtype=bool) if mask is None else mask
    raw = product(queries, keys.T, "q", "k.T")
    scaled = raw / math.sqrt(keys.shape[1])
    weights = softmax(scaled, seen)
    output = product(weights, values, "weights", "v")
    return Attention(*(frozen(a[0] if single else a) for a in (raw, scaled, seen, weights, output)))
