"""How attnlab writes numbers as text: fixed decimals, row vectors, plain tables.

Computation keeps full precision; only these functions round, so every page,
the companion (``python -m attnlab``) and the benchmarks show a number the
same way. What ``fmt`` and ``vector`` return is text that still knows the
exact number it shows (:class:`Rounded`), so a table can be handed on at full
precision without reading its rounded text back. Pure Python and numpy: the
maths modules may use them.
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
    """Text showing a number (or a row of numbers) rounded, that keeps the exact value in ``exact``.

    It is a ``str`` in every way (printing, f-strings, comparison, JSON), so
    pages and tests use it as text; a table exported for download reads
    ``exact`` instead (``attnlab.site.pages.exports``). Text built around it, such
    as ``f"**{fmt(x)}**"``, is a plain ``str`` again: build it with
    :func:`joined`, or give it its value explicitly, ``Rounded(text, exact)``.
    """

    exact: Exact

    def __new__(cls, text: str, exact: Exact) -> Rounded:
        """``text`` as shown, remembering ``exact``."""
        made = super().__new__(cls, text)
        made.exact = exact
        return made

    def __getnewargs__(self) -> tuple[str, Exact]:  # type: ignore[override]
        """Copies and pickles keep the exact value."""
        return str(self), self.exact


def fmt(x: float, decimals: int = 3) -> Rounded:
    """A real number with a fixed count of decimals (0 to ``MAX_DECIMALS``); never a negative zero.

    Every digit is exact, however large the number (1e21 is written out, not
    as 1e+21). A value that is not finite is refused, naming ``x``: no page
    shows one, and the browser lab's formatter refuses it too. Keeps
    ``float(x)`` as ``exact``.
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
    """A number to ``digits`` significant digits (1 to 17), trailing zeros kept: ``0.090``, ``5.7e-05``.

    Not-a-number and infinity are refused naming ``x``, as by :func:`fmt`.
    """
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
    if not isinstance(separator, str):
        raise TypeError(f"separator must be a string, got {shown(separator)}")
    for i, part in enumerate(parts):
        if not isinstance(part, Rounded):
            raise TypeError(f"parts[{i}] must be a shown number (fmt, vector …), got {shown(part)}")
    return Rounded(separator.join(parts), [part.exact for part in parts])


def given(x: float) -> Rounded:
    """An input written as a reader would type it, not rounded like a result.

    A whole number has no decimals (``1``, not ``1.000000``), the square root
    of a whole number is written with a root sign (``√2``), and anything else
    in the shortest decimals that give the number back (``0.5``). Keeps the
    number as ``exact``, like :func:`fmt`.
    """
    value = finite_number("x", x)
    if value.is_integer():
        return Rounded(str(int(value)), value)
    square = round(value * value)
    if square > 0 and math.isclose(value * value, square, rel_tol=1e-12) and math.isqrt(square) ** 2 != square:
        return Rounded(("-" if value < 0 else "") + f"√{square}", value)
    return Rounded(repr(value), value)


def given_vector(v: Any) -> Rounded:
    """A row vector of inputs as ``[√2, 0]``: each entry written by :func:`given`."""
    values = entries(v)
    return Rounded("[" + ", ".join(given(x) for x in values) + "]", values)


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table; cells are used as given (format numbers first).

    Every row must have one cell per header: Markdown would silently drop
    extra cells or leave missing ones blank.
    """
    if isinstance(headers, str) or not isinstance(headers, Sequence):
        raise TypeError(f"headers must be a list of column names, got {shown(headers)}")
    if isinstance(rows, str) or not isinstance(rows, Sequence):
        raise TypeError(f"rows must be a list of rows, got {shown(rows)}")
    for i, row in enumerate(rows):
        if isinstance(row, str) or not isinstance(row, Sequence):
            raise TypeError(f"rows[{i}] must be a list of cells, got {shown(row)}")
        if len(row) != len(headers):
            raise ValueError(f"rows[{i}] has {len(row)} cells but there are {len(headers)} headers")
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
