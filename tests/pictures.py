"""Reading pictures back from their SVG, independently of the drawing code: a label as written (each lowered
``<tspan>`` as ``_script``), and the grid of every head (one path of rectangles per shade, ``M`` then ``m`` moves).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from xml.etree import ElementTree

SVG = "{http://www.w3.org/2000/svg}"

RUN = re.compile(r"([Mm])(-?\d+) (-?\d+)h(\d+)v\d+h-\d+z")
SHADE = re.compile(r'<path data-level="(\w+)" fill="[^"]+" d="([^"]+)"')


def label(text: ElementTree.Element) -> str:
    """One ``<text>`` as written: its words, each lowered ``<tspan>`` as ``_script`` (any other tspan refused)."""
    parts = [text.text or ""]
    for span in text:
        if span.tag != f"{SVG}tspan" or span.get("baseline-shift") != "sub" or len(span):
            raise AssertionError(f"a label holds only words and lowered subscripts, got {ElementTree.tostring(span)!r}")
        parts += ["_", span.text or "", span.tail or ""]
    return "".join(parts)


def texts(figure: ElementTree.Element | str) -> list[str]:
    """Every label of a figure (its element or its markup), as :func:`label` reads it."""
    element = ElementTree.fromstring(figure) if isinstance(figure, str) else figure
    return [label(t) for t in element.iter(f"{SVG}text")]


def corners(d: str, cell: int) -> set[tuple[int, int]]:
    """The top-left corners of the ``cell``-sized cells that one path covers."""
    found, x, y = set(), 0, 0
    for move, dx, dy, width in RUN.findall(d):
        x, y = (int(dx), int(dy)) if move == "M" else (x + int(dx), y + int(dy))
        found |= {(x + c, y) for c in range(0, int(width), cell)}
    return found


def grid_cells(markup: str, grid: Mapping[str, int], tokens: int) -> dict[tuple[int, int, int, int], str]:
    """(layer, head, query, key) → shade step of every cell drawn; ``grid`` is where it lies (left, top, cell, gap)."""
    square = tokens * grid["cell"] + grid["gap"]
    drawn: dict[tuple[int, int, int, int], str] = {}
    for step, d in SHADE.findall(markup):
        for x, y in corners(d, grid["cell"]):
            (head, across), (layer, down) = divmod(x - grid["left"], square), divmod(y - grid["top"], square)
            place = (layer, head, down // grid["cell"], across // grid["cell"])
            assert place not in drawn, f"cell {place} drawn twice"
            drawn[place] = step
    return drawn
