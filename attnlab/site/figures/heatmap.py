"""A heatmap of numbers in [−1, 1], rust through white to indigo, with its colour legend and a marked block."""

from __future__ import annotations

from typing import Any

import numpy as np

from attnlab.checks import as_matrix
from attnlab.site.figures.palette import INK, MUTED, diverging
from attnlab.site.figures.plot import label_every
from attnlab.site.figures.svg import background, figure, legend_bar, min_font, num, svg_image, text, upright

CELL_WIDTH, CELL_HEIGHT, LEFT, TOP, RIGHT = 16, 11, 58, 42, 12  # a cell; the room for the labels, and on the right
STEP = 0.05  # cells are coloured in steps of this much (41 colours); the figure carries the exact values


def cells(grid: np.ndarray) -> str:
    """Every cell, one ``<path>`` per colour (a ``<rect>`` each weighs three times as much), rounded to :data:`STEP`."""
    by_colour: dict[str, list[str]] = {}
    for (row, column), value in np.ndenumerate(grid):
        by_colour.setdefault(diverging(round(value / STEP) * STEP), []).append(
            f"M{LEFT + column * CELL_WIDTH} {TOP + row * CELL_HEIGHT}h{CELL_WIDTH}v{CELL_HEIGHT}h-{CELL_WIDTH}z")
    return "".join(f'<path d="{"".join(moves)}" fill="{colour}"/>' for colour, moves in by_colour.items())


def heatmap(values: Any, *, kind: str, ident: str, title: str, desc: str, caption: str, row_name: str,
            column_name: str, marked: tuple[int, int, int, int] | None = None, mark_note: str = "") -> str:
    """A figure of ``values`` in [−1, 1], carried to 4 decimals; ``marked`` (row, column, rows, columns) is outlined."""
    grid = as_matrix("values", values)
    if np.abs(grid).max() > 1:
        raise ValueError(f"heatmap values must lie in [-1, 1], got {np.abs(grid).max():g}")
    rows, cols = grid.shape
    block = ""
    if marked is not None:
        r0, c0, nr, nc = marked
        if min(marked) < 0 or nr < 1 or nc < 1 or r0 + nr > rows or c0 + nc > cols:
            raise ValueError(f"marked block {marked} does not fit a {rows} × {cols} heatmap")
        block = (f'<rect x="{LEFT + c0 * CELL_WIDTH}" y="{TOP + r0 * CELL_HEIGHT}" width="{nc * CELL_WIDTH}" '
                 f'height="{nr * CELL_HEIGHT}" fill="none" stroke="{INK}" stroke-width="3"/>')
    width = LEFT + cols * CELL_WIDTH + RIGHT
    font = max(13, min_font(width))
    bottom = TOP + rows * CELL_HEIGHT
    legend_top = bottom + 16
    note_top = legend_top + 12 + 2 * font + 10
    notes = mark_note.splitlines()
    height = note_top + (font + 4) * max(len(notes) - 1, 0) + 8
    parts = [background(width, height), text(LEFT + cols * CELL_WIDTH / 2, 14, column_name, font, anchor="middle"),
             cells(grid)]
    parts += [text(LEFT + (c + 0.5) * CELL_WIDTH, TOP - 6, str(c), font, anchor="middle", fill=MUTED)
              for c in range(0, cols, label_every(CELL_WIDTH, 2 * 0.6 * font + 6))]
    parts += [text(LEFT - 6, TOP + (r + 0.5) * CELL_HEIGHT + font / 2 - 2, str(r), font, anchor="end", fill=MUTED)
              for r in range(0, rows, label_every(CELL_HEIGHT, font + 3))]
    parts.append(upright(14, num((TOP + bottom) / 2), row_name, font))
    parts.append(f'<rect x="{LEFT}" y="{TOP}" width="{cols * CELL_WIDTH}" height="{rows * CELL_HEIGHT}" '
                 f'fill="none" stroke="{INK}"/>{block}')
    stops = [(i / 10, diverging(-1 + 2 * i / 10)) for i in range(11)]  # the colour scale's 11 stops
    parts.append(legend_bar(ident, LEFT, legend_top, min(200, cols * CELL_WIDTH), stops,
                            [(0.0, "−1"), (0.5, "0"), (1.0, "+1")], font))
    if notes:
        parts.append(f'<rect x="{LEFT}" y="{note_top - 10}" width="14" height="10" fill="none" stroke="{INK}" '
                     f'stroke-width="3"/>')
        parts += [text(LEFT + 22, note_top + (font + 4) * i, line, font) for i, line in enumerate(notes)]
    carried = {"rows": rows, "columns": cols, "marked": list(marked) if marked else None,
               "values": np.round(grid, 4).tolist()}
    picture = svg_image(ident, title, desc, width, height, "".join(parts))
    return figure(ident, picture, caption, kind=kind, values=carried)
