"""What each key adds to a query's output, not only its weight: the norm-based view.

Kobayashi et al. (EMNLP 2020) write head h's share of query i's output as
Σ_j α_ij f(x_j) with f(x_j) = v_j W_O^h, where v_j is key j's value row and
W_O^h the rows of W_O that head h's output meets. The size of what key j
contributes is α_ij ‖f(x_j)‖: a large weight on a short f(x_j) adds little.
Every function takes one head (2-D arrays) or a stack of heads (3-D).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlab.checks import as_array, as_mask, index, positive_int

__all__ = ["contribution_sizes", "disagreement", "output_rows", "shares", "transformed"]


def output_rows(w_o: Any, head: int, d_v: int) -> np.ndarray:
    """W_O^h: the ``d_v`` rows of W_O that head ``head``'s output columns are multiplied by."""
    matrix = as_array("w_o", w_o, 2)
    d_v = positive_int("d_v", d_v)
    if matrix.shape[0] % d_v:
        raise ValueError(f"w_o has {matrix.shape[0]} rows, not a whole number of heads {d_v} wide")
    h = index("head", head, matrix.shape[0] // d_v)
    return matrix[h * d_v:(h + 1) * d_v]


def transformed(values: Any, w_o_rows: Any) -> np.ndarray:
    """f(x_j) = v_j W_O^h for every key j: what each value row becomes in the model's width."""
    v = as_array("values", values, (2, 3))
    w = as_array("w_o_rows", w_o_rows, v.ndim)
    if v.shape[-1] != w.shape[-2] or v.shape[:-2] != w.shape[:-2]:
        raise ValueError(f"values {v.shape} and w_o_rows {w.shape} do not fit: values @ w_o_rows needs "
                         "the values' width equal to the rows of W_O^h (and as many heads in each)")
    return v @ w


def contribution_sizes(weights: Any, values: Any, w_o_rows: Any) -> np.ndarray:
    """‖α_ij f(x_j)‖ for every query i and key j, shaped like ``weights``: what key j adds to query i's output."""
    alpha = as_array("weights", weights, (2, 3))
    if (alpha < 0).any():
        raise ValueError("weights must be non-negative (softmax weights are)")
    lengths = np.linalg.norm(transformed(values, w_o_rows), axis=-1)
    if alpha.shape[:-2] != lengths.shape[:-1] or alpha.shape[-1] != lengths.shape[-1]:
        raise ValueError(f"weights {alpha.shape} need one key per value row: values give {lengths.shape}")
    return alpha * lengths[..., None, :]


def shares(sizes: Any) -> np.ndarray:
    """Each row of contribution sizes divided by its sum: comparable with that row's weights."""
    s = as_array("sizes", sizes, (2, 3))
    total = s.sum(axis=-1, keepdims=True)
    if (total <= 0).any():
        raise ValueError("sizes has a row that adds up to zero: it has no shares")
    return s / total


def disagreement(weights: Any, sizes: Any, rows: Any = None) -> np.ndarray:
    """How far each head's weights are from its contribution shares, from 0 (the same) to 1.

    The total variation distance per query row, averaged over the rows marked
    True in ``rows`` (default all): one number per head.
    """
    alpha = as_array("weights", weights, (2, 3))
    share = shares(sizes)
    if share.shape != alpha.shape:
        raise ValueError(f"weights {alpha.shape} and sizes {share.shape} must have the same shape")
    keep = np.ones(alpha.shape[-2], dtype=bool) if rows is None else as_mask("rows", rows, (alpha.shape[-2],))
    if not keep.any():
        raise ValueError("rows selects no query row")
    gap = 0.5 * np.abs(alpha - share).sum(axis=-1)
    return gap[..., keep].mean(axis=-1)
