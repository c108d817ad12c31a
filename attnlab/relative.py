"""Position inside every attention layer: rotary embeddings (RoPE) and linear biases (ALiBi).

The original Transformer, and BERT after it, add a position vector to each
row once, before the first layer (claim CL-010). Most current models supply
position inside attention instead, in every layer:

- rotary position embedding (claim CL-035) turns each pair of coordinates of
  a query and of a key by an angle proportional to its position. A turn by
  angle a and a turn by angle b leave a dot product that depends on b − a
  alone, so the score sees the offset between the two positions, and only
  that (``rotate``);
- ALiBi (claim CL-036) adds nothing to the rows and subtracts from each
  score a penalty proportional to the distance between query and key, with
  a slope fixed per head (``alibi_bias``).

Pairs are neighbouring columns (0, 1), (2, 3), … as RoFormer writes them;
pair f turns by pos / base^(2f/d) radians, the frequencies of the sinusoidal
encoding. Many libraries pair column f with column f + d/2 instead, which
reorders the columns of queries and keys alike and changes no score.
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
    """The angle, in radians, by which each coordinate pair of a row at each position is turned.

    Returns len(positions) × width/2: pair f of position pos turns by
    pos / base^(2f/width). ``width`` must be even; pair 0 always turns one
    radian per position.
    """
    width = positive_int("width", width)
    if width % 2:
        raise ValueError(f"width must be even (coordinates are turned in pairs), got {width}")
    base = finite_number("base", base)
    if base <= 0:
        raise ValueError(f"base must be positive, got {base}")
    places = as_array("positions", positions, 1)
    return places[:, None] / base ** (np.arange(0, width, 2) / width)[None, :]


def rotate(x: Any, positions: Any, base: float = 10000.0) -> np.ndarray:
    """Rows of queries or keys with each pair (x_2f, x_2f+1) turned by its position's angle.

    ``x`` is n × d with d even (or one row of d), ``positions`` one number
    per row. A pair [a, b] turned by θ becomes [a cos θ − b sin θ,
    a sin θ + b cos θ]: lengths are kept, and for a query at position p and
    a key at position r the dot product of the turned rows is that of the
    query with the key turned by r − p (claim CL-035).
    """
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
    """The n × m penalties ALiBi adds to one head's scores: −slope × the distance from query to key.

    Queries sit at the last n of the m positions (as ``attnlab.causal(n, m)``
    places them), so query i is at position i + m − n and the bias of key j
    is −slope · |i + m − n − j|: 0 for the query's own position, more
    negative the farther back the key lies. ``slope`` is positive; ALiBi
    gives each head its own and adds no position vector to the rows.
    """
    n = positive_int("n", n)
    m = n if m is None else positive_int("m", m)
    slope = finite_number("slope", slope)
    if slope <= 0:
        raise ValueError(f"slope must be positive (a penalty that grows with distance), got {slope}")
    distance = np.abs(np.arange(n)[:, None] + (m - n) - np.arange(m)[None, :])
    return slope * -distance  # an int distance of 0 stays 0.0, not -0.0
