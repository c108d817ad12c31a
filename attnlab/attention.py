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

from attnlab.checks import as_array, as_mask, as_matrix, as_rows, integer, positive_int, same_rows, same_width

__all__ = ["Attention", "project", "scores", "scale", "causal", "softmax", "mix", "attention"]


def frozen(array: np.ndarray) -> np.ndarray:
    """Return a read-only copy, so a result cannot be edited after the fact."""
    copy = np.array(array)
    copy.setflags(write=False)
    return copy


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


def overflow_free(product: np.ndarray, what: str, first: str, a: np.ndarray, second: str, b: np.ndarray) -> np.ndarray:
    """Return the matrix product ``product`` of ``a`` and ``b`` unless it left float64.

    Finite inputs can still multiply past the largest float; then the error
    names both factors and their largest entries instead of returning ``inf`` or ``nan``.
    """
    if not np.isfinite(product).all():
        raise ValueError(
            f"{what} overflow float64: {first} and {second} entries are too large "
            f"(largest |{first}| {np.abs(a).max():g}, largest |{second}| {np.abs(b).max():g})"
        )
    return product


def scores(q: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Raw compatibility Q Kᵀ: entry (i, j) is the dot product of query i and key j."""
    return q @ k.T


def scale(raw: np.ndarray, d_k: int) -> np.ndarray:
    """Divide raw scores by √d_k, which keeps their spread independent of d_k.

    ``d_k`` is the key width, a positive int (0 would divide by zero).
    """
    return raw / math.sqrt(positive_int("d_k", d_k))


def checked_scores(queries: np.ndarray, keys: np.ndarray, part: slice = slice(None)) -> np.ndarray:
    """Raw scores of every query against ``keys[part]``, refused if they overflow float64.

    The error names q and k with their largest entries (of all keys, so a
    blockwise caller reports exactly what ``attention`` would).
    """
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below, without a warning
        return overflow_free(scores(queries, keys[part]), "scores q @ k.T", "q", queries, "k", keys)


def refuse_empty_rows(has_visible: np.ndarray) -> None:
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


def causal(n: int, m: int | None = None, offset: int | None = None) -> np.ndarray:
    """Boolean n×m visibility: key j is visible to query i iff j ≤ i + offset.

    With ``m`` keys and ``n`` queries, the default offset ``m - n`` places the
    queries at the last n positions, as when generating with a key/value
    cache; for self-attention (n = m) it is 0, the usual lower triangle.
    """
    n = positive_int("n", n)
    m = n if m is None else positive_int("m", m)
    shift = m - n if offset is None else integer("offset", offset)
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
    peak = np.max(np.where(mask, rows, -np.inf), axis=-1, keepdims=True)
    with np.errstate(over="ignore"):  # a gap beyond float64 becomes -inf, whose exp is the right 0
        shifted = np.where(mask, rows - peak, 0.0)
    exp = np.where(mask, np.exp(shifted), 0.0)
    weights = exp / exp.sum(axis=-1, keepdims=True)
    return weights.reshape(values.shape)


def mix(weights: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Weighted sum of value rows: output i = Σ_j weights[i, j] · v[j]."""
    return weights @ v


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
    output = mix(weights, values)
    pick = (lambda a: a[0]) if single else (lambda a: a)
    return Attention(*(frozen(pick(a)) for a in (raw, scaled, mask, weights, output)))
