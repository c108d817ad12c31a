"""Position inside every attention layer: rotary embeddings (RoPE) and linear biases (ALiBi).

Rotary embedding (claim CL-035, ``rotate``) turns each coordinate pair of a
query and a key by an angle proportional to its position, so a score sees only
the offset between them. ALiBi (claim CL-036, ``alibi_bias``) subtracts from
each score a penalty proportional to the distance, with a slope per head.
Pairs are neighbouring columns (0, 1), (2, 3), … as RoFormer writes them
(many libraries pair f with f + d/2, which changes no score).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlab.checks import as_array, finite_number, positive_int

__all__ = ["alibi_bias", "rotate", "rotation_angles"]


def _positions(positions: Any, count: int) -> np.ndarray:
    """``positions`` as ``count`` finite numbers, one per row."""
    found = as_array("positions", positions, 1)
    if found.shape[0] != count:
        raise ValueError(f"positions has {found.shape[0]} entries but there are {count} rows: one position per row")
    return found


def rotation_angles(positions: Any, width: int, base: float = 10000.0) -> np.ndarray:
    """len(positions) × width/2 angles in radians: pair f at position pos turns by pos / base^(2f/width)."""
    width = positive_int("width", width)
    if width % 2:
        raise ValueError(f"width must be even (coordinates are turned in pairs), got {width}")
    base = finite_number("base", base)
    if base <= 0:
        raise ValueError(f"base must be positive, got {base}")
    places = as_array("positions", positions, 1)
    return places[:, None] / base ** (np.arange(0, width, 2) / width)[None, :]


def rotate(x: Any, positions: Any, base: float = 10000.0) -> np.ndarray:
    """Rows (n × d, d even) with each pair [a, b] turned by its angle θ: [a cos θ − b sin θ, a sin θ + b cos θ]."""
    rows = as_array("x", x, (1, 2))
    matrix = np.atleast_2d(rows)
    angles = rotation_angles(_positions(np.atleast_1d(positions), matrix.shape[0]), matrix.shape[1], base)
    cos, sin = np.cos(angles), np.sin(angles)
    first, second = matrix[:, 0::2], matrix[:, 1::2]
    turned = np.empty_like(matrix)
    turned[:, 0::2] = first * cos - second * sin
    turned[:, 1::2] = first * sin + second * cos
    return turned.reshape(rows.shape)


def alibi_bias(n: int, m: int | None = None, slope: float = 1.0) -> np.ndarray:
    """The n × m penalties ALiBi adds to one head's scores: −slope · |i + m − n − j| (queries at the last n)."""
    n = positive_int("n", n)
    m = n if m is None else positive_int("m", m)
    slope = finite_number("slope", slope)
    if slope <= 0:
        raise ValueError(f"slope must be positive (a penalty that grows with distance), got {slope}")
    distance = np.abs(np.arange(n)[:, None] + (m - n) - np.arange(m)[None, :])
    return slope * -distance  # an int distance of 0 stays 0.0, not -0.0
