"""What libraries do at the edges of masking, written out in numpy (claim CL-040).

``attnlab`` refuses a row in which every key is blocked (it has no
distribution) and aligns a causal mask of n queries over m keys to the
bottom right (``attnlab.causal``: the queries are the last n positions).
Libraries choose otherwise, and not all alike:

- a plain softmax, with no notion of blocked keys, turns a row of −∞ into
  not-a-number (``plain_softmax``);
- PyTorch's ``scaled_dot_product_attention`` hands back zeros for a row
  with no visible key (``zero_filled_attention``);
- an additive mask of the data type's most negative number, as the
  transformers library builds one, blocks a key only because its
  exponential underflows to 0; a row blocked everywhere ties at that
  number, so every key, blocked ones included, gets the same weight
  (``additive_mask``, ``softmax_with_additive_mask``);
- ``is_causal=True`` aligns the mask to the top left: with fewer queries
  than keys, query i sees keys 0 … i (``top_left_causal``).

Each function reproduces one of those behaviours exactly, in numpy, so the
guide can show their numbers while it is built with numpy alone;
``tests/peer/test_library_edges.py`` runs PyTorch on the same inputs and requires
the same numbers, so a PyTorch that behaves differently turns the suite red.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlab.attention import attention, causal, checked_inputs
from attnlab.checks import as_array, as_mask

__all__ = ["additive_mask", "plain_softmax", "softmax_with_additive_mask", "top_left_causal",
           "zero_filled_attention"]


def plain_softmax(scores: Any) -> np.ndarray:
    """softmax along the last axis with no mask: exp(s − max) / Σ exp(s − max), as ``torch.softmax`` computes it.

    ``scores`` may hold −∞ (that is how such code blocks a key). A row that
    is −∞ everywhere gives not-a-number in every entry: its maximum is −∞,
    and −∞ − (−∞) is not a number.
    """
    values = np.asarray(scores, dtype=float)
    if values.ndim not in (1, 2) or np.isnan(values).any() or np.isposinf(values).any():
        raise ValueError(f"scores must be one row or n rows of numbers below +∞, got {values!r}")
    with np.errstate(invalid="ignore"):
        exp = np.exp(values - values.max(axis=-1, keepdims=True))
        return exp / exp.sum(axis=-1, keepdims=True)


def additive_mask(visible: Any, dtype: Any = np.float32) -> np.ndarray:
    """0 where a key is visible and the most negative finite number of ``dtype`` where it is blocked.

    ``dtype`` is a numpy floating type (float16, float32, float64); the mask
    is added to the scores before a plain softmax.
    """
    kind = np.dtype(dtype)
    if kind.kind != "f":
        raise ValueError(f"dtype must be a floating type such as np.float32, got {kind}")
    mask = np.asarray(visible)
    if mask.dtype != bool:
        raise ValueError(f"visible must be a boolean array, got dtype {mask.dtype}")
    return np.where(mask, kind.type(0), np.finfo(kind).min).astype(kind)


def softmax_with_additive_mask(scores: Any, visible: Any, dtype: Any = np.float32) -> np.ndarray:
    """The weights of a plain softmax over ``scores + additive_mask(visible, dtype)``, computed in ``dtype``.

    A blocked key in a row with a visible one gets exactly 0 (its exponential
    underflows); in a row blocked everywhere the sums all round to the
    dtype's minimum, tie, and every key gets weight 1/m.
    """
    values = as_array("scores", scores, (1, 2))
    mask = as_mask("visible", visible, values.shape)
    kind = np.dtype(dtype)
    with np.errstate(over="ignore"):  # a score plus the minimum may round past it to −∞: still a block
        shifted = values.astype(kind) + additive_mask(mask, kind)
        exp = np.exp(shifted - shifted.max(axis=-1, keepdims=True))
    return exp / exp.sum(axis=-1, keepdims=True, dtype=kind)


def zero_filled_attention(q: Any, k: Any, v: Any, visible: Any = None) -> np.ndarray:
    """The output of ``attention(q, k, v, visible)``, with a zero row wherever a query sees no key.

    What ``torch.nn.functional.scaled_dot_product_attention`` returns with a
    boolean mask: instead of refusing an empty row, it fills it with zeros.
    Arguments and shapes are those of ``attention``; returns n × d_v (d_v
    for a single 1-D query).
    """
    queries, keys, values, mask, single = checked_inputs(q, k, v, visible)
    output = np.zeros((queries.shape[0], values.shape[1]))
    seeing = np.ones(queries.shape[0], dtype=bool) if mask is None else mask.any(axis=1)
    if seeing.any():
        rows = attention(queries[seeing], keys, values, None if mask is None else mask[seeing])
        output[seeing] = rows.output
    return output[0] if single else output


def top_left_causal(n: int, m: int | None = None) -> np.ndarray:
    """Boolean n × m visibility of ``is_causal=True``: query i sees keys 0 … i, whatever m is.

    With n = m it is ``causal(n)``; with fewer queries than keys the queries
    sit at the first positions, not the last (``causal(n, m, offset=0)``).
    """
    return causal(n, m, offset=0)
