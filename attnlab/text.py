"""How attnlab writes numbers as text: fixed decimals, row vectors, plain tables.

Computation keeps full precision; only these functions round, so every page,
the companion (``python -m attnlab``) and the benchmarks show a number the
same way. Pure Python and numpy: the maths modules may use them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from attnlab.checks import finite_number, index

__all__ = ["MAX_DECIMALS", "fmt", "vector", "given", "given_vector", "table"]

MAX_DECIMALS = 20
"""The most decimals ``fmt`` writes; the browser lab's formatter (attnlab.js) matches it exactly up to here."""


def fmt(x: float, decimals: int = 3) -> str:
    """A real number with a fixed count of decimals (0 to ``MAX_DECIMALS``); never prints "-0.000".

    Every digit is exact, however large the number (1e21 is written out, not
    as 1e+21). A value that is not finite is refused, naming ``x``: no page
    shows one, and the browser lab's formatter refuses it too.
    """
    places = index("decimals", decimals, MAX_DECIMALS + 1)
    text = f"{finite_number('x', x):.{places}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def vector(v: Any, decimals: int = 3) -> str:
    """A row vector as ``[a, b, c]`` with fixed decimals."""
    return "[" + ", ".join(fmt(x, decimals) for x in np.ravel(v)) + "]"


def given(x: float) -> str:
    """An input written as a reader would type it, not rounded like a result.

    A whole number has no decimals (``1``, not ``1.000000``), the square root
    of a whole number is written with a root sign (``√2``), and anything else
    in the shortest decimals that give the number back (``0.5``).
    """
    value = finite_number("x", x)
    if value.is_integer():
        return str(int(value))
    square = round(value * value)
    if square > 0 and math.isclose(value * value, square, rel_tol=1e-12) and math.isqrt(square) ** 2 != square:
        return ("-" if value < 0 else "") + f"√{square}"
    return repr(value)


def given_vector(v: Any) -> str:
    """A row vector of inputs as ``[√2, 0]``: each entry written by :func:`given`."""
    return "[" + ", ".join(given(x) for x in np.ravel(v)) + "]"


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table; cells are used as given (format numbers first).

    Every row must have one cell per header: Markdown would silently drop
    extra cells or leave missing ones blank.
    """
    for i, row in enumerate(rows):
        if len(row) != len(headers):
            raise ValueError(f"rows[{i}] has {len(row)} cells but there are {len(headers)} headers")
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
