"""How attnlab writes numbers as text: fixed decimals, row vectors, plain tables.

Only these functions round, so every page, the companion and the benchmarks
show a number the same way. What they return is text that still knows the
exact number it shows (``Rounded``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from attnlab.checks import as_array, finite_number, index, integer, shown

__all__ = ["MAX_DECIMALS", "fmt", "given", "given_vector", "table", "vector"]

MAX_DECIMALS = 20
"""The most decimals ``fmt`` writes; the browser lab's formatter (attnlab.js) matches it exactly up to here."""


Exact = float | int | list[Any]
"""The value behind a shown number: a number, the entries of a row, or the exact values of joined parts."""


class Rounded(str):
    """A ``str`` showing a number (or a row) rounded, that keeps the exact value in ``exact``.

    Text built around it, such as ``f"**{fmt(x)}**"``, is a plain ``str``
    again: build it with ``joined``, or ``Rounded(text, exact)``.
    """

    exact: Exact

    def __new__(cls, text: str, exact: Exact) -> Rounded:
        made = super().__new__(cls, text)
        made.exact = exact
        return made

    def __getnewargs__(self) -> tuple[str, Exact]:  # type: ignore[override]
        """Copies and pickles keep the exact value."""
        return str(self), self.exact


def fmt(x: float, decimals: int = 3) -> Rounded:
    """A finite real number with a fixed count of decimals (0 to ``MAX_DECIMALS``); never a negative zero.

    Every digit is written out, however large the number (1e21, not 1e+21).
    """
    places = index("decimals", decimals, MAX_DECIMALS + 1)
    exact = finite_number("x", x)
    text = f"{exact:.{places}f}"
    return Rounded(text[1:] if text.startswith("-") and float(text) == 0 else text, exact)


def entries(v: Any) -> list[float]:
    """The entries of a number, a row or a matrix, row after row; refused naming ``v`` unless all are finite."""
    return np.ravel(as_array("v", v, (0, 1, 2))).tolist()


def vector(v: Any, decimals: int = 3) -> Rounded:
    """A row vector as ``[a, b, c]`` with fixed decimals. Keeps the entries as floats in ``exact``."""
    values = entries(v)
    return Rounded("[" + ", ".join(fmt(x, decimals) for x in values) + "]", values)


def significant(x: float, digits: int = 2) -> Rounded:
    """A finite number to ``digits`` significant digits (1 to 17), trailing zeros kept: ``0.090``, ``5.7e-05``."""
    places = integer("digits", digits)
    if not 1 <= places <= 17:
        raise ValueError(f"digits must be from 1 to 17, got {places}")
    exact = finite_number("x", x)
    return Rounded(f"{exact:#.{places}g}", exact)


def thousands(n: int) -> Rounded:
    """A whole number with thousands separators, ``1,048,576``; ``exact`` is the integer."""
    whole = integer("n", n)
    return Rounded(f"{whole:,}", whole)


def joined(separator: str, *parts: Rounded) -> Rounded:
    """Several shown numbers as one text, ``0.113 / 0.081``; ``exact`` lists each part's exact value."""
    for i, part in enumerate(parts):
        if not isinstance(part, Rounded):
            raise TypeError(f"parts[{i}] must be a shown number (fmt, vector …), got {shown(part)}")
    return Rounded(separator.join(parts), [part.exact for part in parts])


def given(x: float) -> Rounded:
    """An input written as a reader would type it: ``1``, ``√2`` (a root of a whole number), else ``0.5``."""
    value = finite_number("x", x)
    if value.is_integer():
        return Rounded(str(int(value)), value)
    square = round(value * value)
    if square > 0 and math.isclose(value * value, square, rel_tol=1e-12) and math.isqrt(square) ** 2 != square:
        return Rounded(("-" if value < 0 else "") + f"√{square}", value)
    return Rounded(repr(value), value)


def given_vector(v: Any) -> Rounded:
    """A row vector of inputs as ``[√2, 0]``: each entry written by ``given``."""
    values = entries(v)
    return Rounded("[" + ", ".join(given(x) for x in values) + "]", values)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table of cells used as given (format numbers first), one cell per header in every row."""
    for i, row in enumerate(rows):
        if len(row) != len(headers):
            raise ValueError(f"rows[{i}] has {len(row)} cells but there are {len(headers)} headers")
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
