"""The error function erf, for a whole array at once, as exact as ``math.erf`` (numpy has none; ``gelu`` needs it).

erf is a Taylor polynomial around the nearest of a grid of points ``STEP``
apart, its coefficients computed at import from ``math.erf`` and from erf's
derivatives, erf⁽ᵏ⁾(c) = (2/√π)·(−1)ᵏ⁻¹·Hₖ₋₁(c)·e^(−c²) (Hermite polynomials).
Far out on the negative side, where 1 + erf(x) is all rounding error,
``erfcx`` = e^(x²)·erfc(x) comes from Laplace's continued fraction, and
``gaussian`` gives e^(−x²/2) without the rounding of x².
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["erf", "erfcx"]

STEP = 1 / 512
"""Spacing of the grid of expansion points on [0, END]."""
END = 6.0
"""Beyond this, erf(x) rounds to ±1 in float64 (1 − erf(6) ≈ 2·10⁻¹⁷)."""
DEGREE = 5
"""Degree of each Taylor polynomial: (STEP/2)^(DEGREE+1) = 2⁻⁶⁰."""


def taylor_table(step: float = STEP, end: float = END, degree: int = DEGREE) -> np.ndarray:
    """Taylor coefficients of erf at c = 0, step, 2·step … end: row k holds erf⁽ᵏ⁾(c) / k!."""
    centres = np.arange(round(end / step) + 1) * step
    table = np.zeros((degree + 1, centres.size))
    table[0] = [math.erf(c) for c in centres.tolist()]
    gauss = 2.0 / math.sqrt(math.pi) * np.exp(-centres * centres)
    before, hermite = np.zeros_like(centres), np.ones_like(centres)  # H_{k-2}, H_{k-1}
    for k in range(1, degree + 1):
        table[k] = gauss * (-1) ** (k - 1) * hermite / math.factorial(k)
        before, hermite = hermite, 2.0 * centres * hermite - 2.0 * (k - 1) * before
    return table


TABLE = taylor_table()


def erf(x: Any) -> np.ndarray:
    """erf(x) = (2/√π) ∫₀ˣ e^(−t²) dt for every entry of ``x``, float64 (±1 past ``END``; not a number stays so)."""
    z = np.asarray(x, dtype=np.float64)
    size = np.abs(z)
    near = size <= END  # False for infinity and for not-a-number, which get no grid point
    size = np.where(near, size, 0.0)
    grid = np.rint(size / STEP).astype(np.intp)
    offset = size - grid * STEP
    result = TABLE[DEGREE].take(grid)
    for row in TABLE[DEGREE - 1::-1]:
        result *= offset
        result += row.take(grid)
    result = np.where(near, result, np.where(np.isnan(z), np.nan, 1.0))
    return np.copysign(result, z)


FRACTION_FROM = 2.0
"""From here on ``erfcx`` uses the continued fraction (below, 1 − erf(x) loses at most 1e-13)."""
FRACTION_TERMS = 60
"""Depth of the continued fraction: converged to 1e-15 at x = FRACTION_FROM."""


def erfcx(x: Any) -> np.ndarray:
    """e^(x²)·erfc(x) for every entry of ``x``: erfc rescaled so that it never underflows.

    From ``FRACTION_FROM`` on, √π·erfcx(x) = 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + …))));
    below, e^(x²)·(1 − erf(x)).
    """
    z = np.asarray(x, dtype=np.float64)
    far = z >= FRACTION_FROM
    result = np.empty_like(z)
    with np.errstate(over="ignore"):  # e^(x²) beyond float64 for very negative x: infinity is the right answer
        result[~far] = np.exp(z[~far] ** 2) * (1.0 - erf(z[~far]))
    tail, level = z[far], np.zeros(int(far.sum()))
    for n in range(FRACTION_TERMS, 0, -1):
        level = (n / 2) / (tail + level)
    result[far] = 1.0 / (math.sqrt(math.pi) * (tail + level))
    return result


SPLIT = 2.0**27 + 1
"""Veltkamp's constant: multiplying by it splits a float into two halves of 26 bits whose products are exact."""


def gaussian(x: Any) -> np.ndarray:
    """e^(−x²/2) for every entry of ``x``, with x² taken exactly as the sum of two floats."""
    size = np.minimum(np.abs(np.asarray(x, dtype=np.float64)), 40.0)
    scaled = SPLIT * size
    high = scaled - (scaled - size)
    low = size - high
    square = size * size
    error = ((high * high - square) + 2.0 * high * low) + low * low  # size² = square + error, exactly
    return np.exp(-0.5 * square) * (1.0 - 0.5 * error)
