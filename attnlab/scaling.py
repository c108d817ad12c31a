"""Why scores are divided by √d_k, measured: the spread of one query's scaled scores as d_k grows.

The paper's argument (claim CL-006) assumes independent query and key entries
of mean 0 and variance 1. ``rows`` draws entries that share a part within
a vector, breaking only the independence, and ``spread`` measures what the
division by √d_k then leaves.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from attnlab.attention import softmax
from attnlab.checks import finite_number, instance, integer, positive_int

__all__ = ["QUERIES", "Spread", "rows", "spread"]

QUERIES = 500
"""How many queries ``spread`` draws by default, each with keys of its own (the Scores chapter's experiment)."""


def rows(rng: np.random.Generator, shape: tuple[int, ...], shared: float = 0.0) -> np.ndarray:
    """Random vectors along the last axis of ``shape``, entries of mean 0 and variance 1 correlated by ``shared``."""
    rng = instance("rng", rng, np.random.Generator)
    shared = finite_number("shared", shared)
    if not 0 <= shared <= 1:
        raise ValueError(f"shared must be between 0 and 1 (a share of the variance), got {shared}")
    own = rng.standard_normal(shape)
    common = rng.standard_normal((*shape[:-1], 1))
    own *= np.sqrt(1 - shared)       # each entry's own part: variance 1 - shared
    own += np.sqrt(shared) * common  # plus the part every entry of the vector shares: variance shared
    return own


@dataclass(frozen=True)
class Spread:
    """What dividing by √d_k leaves, measured over many queries (medians over the queries)."""

    d_k: int
    shared: float
    spread: float
    """Standard deviation of one query's scaled scores against its keys."""
    top_weight: float
    """The largest softmax weight of one query's row."""


def spread(d_k: int, shared: float = 0.0, queries: int = QUERIES, keys: int = 8, seed: int = 2019) -> Spread:
    """Draw ``queries`` queries, each with ``keys`` keys, and measure their scaled scores (seeded per width, cached).

    Independent entries give a spread near 1 at every width; a shared part makes it grow with d_k.
    """
    return _spread(positive_int("d_k", d_k), finite_number("shared", shared), positive_int("queries", queries),
                   positive_int("keys", keys), integer("seed", seed))


@lru_cache(maxsize=16)
def _spread(d_k: int, shared: float, queries: int, keys: int, seed: int) -> Spread:
    """``spread`` for checked arguments."""
    rng = np.random.default_rng([seed, d_k])
    q = rows(rng, (queries, d_k), shared)
    k = rows(rng, (queries, keys, d_k), shared)
    scaled = np.einsum("qd,qkd->qk", q, k) / np.sqrt(d_k)
    weights = softmax(scaled, np.ones(scaled.shape, dtype=bool))
    return Spread(d_k, shared, float(np.median(scaled.std(axis=1))), float(np.median(weights.max(axis=1))))
