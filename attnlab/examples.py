"""The second worked example, WE-002: one query against three keys.

The query [√2, 0] has the same dot product with keys [1, 0] and [1, 1], so
their scaled logits tie and so do their weights; with d_k = 2 the scaling
turns √2 into exactly 1.
"""

from __future__ import annotations

import math

from attnlab.attention import Attention, attention

__all__ = ["WE002_KEYS", "WE002_QUERY", "WE002_VALUES", "we002"]

WE002_QUERY = (math.sqrt(2.0), 0.0)
WE002_KEYS = ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0))
WE002_VALUES = ((1.0, 0.0), (0.0, 2.0), (3.0, 1.0))


def we002() -> Attention:
    """Attention for WE-002: a single query row, so every field drops the row axis.

    Examples
    --------
    >>> r = we002()
    >>> r.scaled.round(6).tolist()
    [1.0, 0.0, 1.0]
    >>> bool(r.weights[0] == r.weights[2])  # tied logits, tied weights
    True
    """
    return attention(WE002_QUERY, WE002_KEYS, WE002_VALUES)
