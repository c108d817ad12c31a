"""Every head of a layer at once: ``multi_head``'s numbers from one stacked product per step.

``multi_head`` runs the heads one after another and checks every input each
time: the path the guide teaches. Here the heads' projections are laid side by
side once (``stack_heads``), so the queries of all heads are
``x @ [W_Q¹ … W_Qᴴ]`` and the scores, weights and outputs carry a leading head
axis; the steps are ``attention``'s, and the results equal ``multi_head``'s to 1e-12.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attnlab.attention import Attention, frozen, overflow_free, scale, softmax
from attnlab.checks import as_array, as_mask, as_matrix, as_vector, instance, positive_int
from attnlab.layers import (
    Activation,
    EncoderBlockParams,
    FeedForwardParams,
    LayerNormParams,
    MultiHead,
    MultiHeadParams,
    norm,
    relu,
)

__all__ = ["StackedBlock", "StackedHeads", "split_heads", "stack_block", "stack_heads", "stacked_encoder_block_steps",
           "stacked_multi_head"]


@dataclass(frozen=True)
class StackedHeads:
    """Every head's projections side by side: column block h of ``w_q`` is head h's W_Q (biases: zeros if none)."""

    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    b_q: np.ndarray
    b_k: np.ndarray
    b_v: np.ndarray
    w_o: np.ndarray
    b_o: np.ndarray
    n_heads: int


@dataclass(frozen=True)
class StackedBlock:
    """One encoder block's parameters with its heads stacked (see ``stack_block``)."""

    attention: StackedHeads
    ffn: FeedForwardParams
    norm1: LayerNormParams
    norm2: LayerNormParams


def _side_by_side(name: str, parts: list[Any]) -> np.ndarray:
    """Checked matrices of equal shape, concatenated along their columns."""
    matrices = [as_matrix(f"{name} of head {h}", part) for h, part in enumerate(parts)]
    for h, matrix in enumerate(matrices):
        if matrix.shape != matrices[0].shape:
            raise ValueError(f"{name} of head {h} has shape {matrix.shape} but head 0's is "
                             f"{matrices[0].shape}: stacked heads must share their shapes")
    return frozen(np.concatenate(matrices, axis=1))  # row-major, as x @ W reads it fastest


def _row_major(array: np.ndarray) -> np.ndarray:
    """A read-only row-major copy (x @ W reads W's rows fastest so), copied once."""
    copy = np.array(array, order="C")
    copy.flags.writeable = False
    return copy


def _bias_row(name: str, bias: Any, width: int) -> np.ndarray:
    """A checked bias row of ``width`` entries, or zeros for a head without one."""
    return np.zeros(width) if bias is None else as_vector(name, bias, width, "its matrix")


def stack_heads(params: MultiHeadParams) -> StackedHeads:
    """Lay every head's W_Q, W_K, W_V (and bias rows) side by side, checked once; heads must share shapes."""
    heads = instance("params", params, MultiHeadParams).heads
    if not heads:
        raise ValueError("params.heads is empty: multi-head attention needs at least one head")
    stacked = {name: _side_by_side(name, [getattr(h, name) for h in heads]) for name in ("w_q", "w_k", "w_v")}
    if stacked["w_q"].shape != stacked["w_k"].shape:
        raise ValueError(f"w_q and w_k must have the same shape, got {heads[0].w_q.shape} and {heads[0].w_k.shape}")
    biases = {}
    for name in ("b_q", "b_k", "b_v"):
        width = stacked[f"w_{name[-1]}"].shape[1] // len(heads)
        biases[name] = frozen(np.concatenate([_bias_row(f"{name} of head {h}", getattr(head, name), width)
                                              for h, head in enumerate(heads)]))
    w_o = as_matrix("w_o", params.w_o)
    if w_o.shape[0] != stacked["w_v"].shape[1]:
        raise ValueError(f"w_o has {w_o.shape[0]} rows but the heads' values are {stacked['w_v'].shape[1]} "
                         "wide in all: Concat(heads) @ w_o needs them equal")
    b_o = _bias_row("b_o", params.b_o, w_o.shape[1])
    return StackedHeads(**stacked, **biases, w_o=_row_major(w_o), b_o=frozen(b_o), n_heads=len(heads))


def stack_block(params: EncoderBlockParams) -> StackedBlock:
    """An encoder block's parameters with the heads stacked and the feed-forward weights checked once."""
    ffn = instance("params", params, EncoderBlockParams).ffn
    checked = FeedForwardParams(*(_row_major(as_array(name, getattr(ffn, name), ndim))
                                  for name, ndim in (("w1", 2), ("b1", 1), ("w2", 2), ("b2", 1))))
    return StackedBlock(stack_heads(params.attention), checked, params.norm1, params.norm2)


def split_heads(rows: np.ndarray, n_heads: int) -> np.ndarray:
    """n × H·d as H × n × d: column block h becomes head h's own n × d matrix."""
    n, width = as_matrix("rows", rows).shape
    n_heads = positive_int("n_heads", n_heads)
    if width % n_heads:
        raise ValueError(f"rows has width {width}, which {n_heads} heads cannot share equally")
    rows = np.asarray(rows, dtype=np.float64)
    return rows.reshape(n, n_heads, width // n_heads).transpose(1, 0, 2)


def stacked_multi_head(x_q: Any, x_kv: Any, heads: StackedHeads, visible: Any = None) -> MultiHead:
    """Multi-head attention with every head in one product per step; the same ``MultiHead`` as ``multi_head``."""
    rows_q, rows_kv = as_matrix("x_q", x_q), as_matrix("x_kv", x_kv)
    heads = instance("heads", heads, StackedHeads)
    for name, rows in (("x_q", rows_q), ("x_kv", rows_kv)):
        if rows.shape[1] != heads.w_q.shape[0]:
            raise ValueError(f"{name} has width {rows.shape[1]} but the heads project from {heads.w_q.shape[0]}")
    n, m, count = rows_q.shape[0], rows_kv.shape[0], heads.n_heads
    mask = np.ones((n, m), dtype=bool) if visible is None else as_mask("visible", visible, (n, m))
    q = split_heads(rows_q @ heads.w_q + heads.b_q, count)
    k = split_heads(rows_kv @ heads.w_k + heads.b_k, count)
    v = split_heads(rows_kv @ heads.w_v + heads.b_v, count)
    with np.errstate(over="ignore", invalid="ignore"):  # refused by overflow_free, without a warning
        raw = overflow_free(q @ k.transpose(0, 2, 1), "scores q @ k.T", "q", q, "k", k)
    scaled = scale(raw.reshape(count * n, m), q.shape[2])  # the heads' rows, one after another
    weights = softmax(scaled, np.tile(mask, (count, 1))).reshape(count, n, m)
    scaled = scaled.reshape(count, n, m)
    output = weights @ v
    concat = output.transpose(1, 0, 2).reshape(n, -1)
    raw, scaled, weights, output, mask = (frozen(a) for a in (raw, scaled, weights, output, mask))
    records = tuple(Attention(raw[h], scaled[h], mask, weights[h], output[h]) for h in range(count))
    return MultiHead(records, frozen(concat), frozen(concat @ heads.w_o + heads.b_o))


def stacked_encoder_block_steps(x: Any, block: StackedBlock, visible: Any = None,
                                activation: Activation = relu) -> tuple[np.ndarray, MultiHead]:
    """A Post-LN encoder block with stacked heads: ``encoder_block_steps(..., order="post")``, rows checked."""
    rows = as_matrix("x", x)
    block = instance("block", block, StackedBlock)
    heads = stacked_multi_head(rows, rows, block.attention, visible)
    mid = norm(rows + heads.output, block.norm1)
    ffn = block.ffn
    return norm(mid + activation(mid @ ffn.w1 + ffn.b1) @ ffn.w2 + ffn.b2, block.norm2), heads
