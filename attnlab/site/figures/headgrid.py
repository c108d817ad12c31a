"""Every head's weight map as a small square, a row per layer; each shade is one ``<path>`` of run-length rectangles."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby, product

import numpy as np

from attnlab.checks import as_array, index
from attnlab.site.figures.palette import DEEP, FRAME, INK, PAPER, mix
from attnlab.site.figures.svg import background, figure, svg_image, text, upright

LEVELS = 4  # shade steps between weight 0 and weight 1 (quarters: enough for maps this small)
CELL, GAP, LEFT, TOP, LEGEND = 5, 8, 64, 64, 96  # room for the layer labels, the head labels and the legend
FONT = 24  # 11 px or more once the grid is shrunk to a phone's 358 px column


def level(weights: np.ndarray) -> np.ndarray:
    """The shade step of each weight: round(weight × LEVELS), 0 (white) to LEVELS (darkest)."""
    return np.rint(np.clip(weights, 0.0, 1.0) * LEVELS).astype(int)


def runs(steps: np.ndarray, left: int, top: int) -> dict[int, list[tuple[int, int, int]]]:
    """By shade step above 0, the runs of one square's rows as rectangles CELL high: (left x, top y, width)."""
    found: dict[int, list[tuple[int, int, int]]] = {}
    for q, row in enumerate(steps):
        k = 0
        for step, group in groupby(row):
            cells = len(list(group))
            if step:
                found.setdefault(int(step), []).append((left + k * CELL, top + q * CELL, cells * CELL))
            k += cells
    return found


def path(rectangles: Sequence[tuple[int, int, int]]) -> str:
    """Rectangles CELL high as one path: the first placed absolutely, each next one moved from the last."""
    parts, x0, y0 = [], 0, 0
    for i, (x, y, width) in enumerate(rectangles):
        move = f"M{x} {y}" if i == 0 else f"m{x - x0} {y - y0}"
        parts.append(f"{move}h{width}v{CELL}h-{width}z")
        x0, y0 = x, y
    return "".join(parts)


def head_grid(weights: object, *, outlined: Sequence[tuple[int, int]] = (), sentence: str, ident: str, title: str,
              desc: str) -> str:
    """Every head's map (``weights``: layers × heads × n × n) in one figure, the (layer, head)s ``outlined`` framed."""
    w = as_array("weights", weights, 4)
    layers, heads, n, m = w.shape
    if n != m:
        raise ValueError(f"weights must be square maps (self-attention), got {n} × {m}")
    frames = [(index("layer", row, layers), index("head", h, heads)) for row, h in outlined]
    side, step = n * CELL, n * CELL + GAP
    width, grid_bottom = LEFT + heads * step, TOP + layers * step
    height = grid_bottom + LEGEND
    parts = [background(width, height), text(LEFT + heads * step / 2, FONT, "head", FONT, anchor="middle"),
             upright(FONT, f"{TOP + layers * step / 2:.0f}", "layer", FONT)]
    # labelled from 1, as the prose counts; ``outlined`` and the carried steps count from 0, as code does
    parts += [text(LEFT + h * step + side / 2, TOP - 10, str(h + 1), FONT, anchor="middle") for h in range(heads)]
    parts += [text(LEFT - 10, TOP + row * step + side / 2 + FONT / 3, str(row + 1), FONT, anchor="end")
              for row in range(layers)]
    shaded: dict[int, list[tuple[int, int, int]]] = {}
    for row, h in product(range(layers), range(heads)):
        for shade, found in runs(level(w[row, h]), LEFT + h * step, TOP + row * step).items():
            shaded.setdefault(shade, []).extend(found)
    squares = "".join(f"M{LEFT + h * step} {TOP + row * step}h{side}v{side}h-{side}z"
                      for row in range(layers) for h in range(heads))
    parts.append(f'<path d="{squares}" fill="{PAPER}" stroke="{FRAME}" stroke-width="0.5"/>')
    parts += [f'<path data-level="{shade}" fill="{mix(DEEP, shade / LEVELS)}" d="{path(shaded[shade])}"/>'
              for shade in range(1, LEVELS + 1) if shade in shaded]
    for row, h in frames:
        parts.append(f'<rect data-outlined="{row} {h}" x="{LEFT + h * step - 3}" y="{TOP + row * step - 3}" '
                     f'width="{side + 6}" height="{side + 6}" fill="none" stroke="{INK}" stroke-width="3"/>')
    swatch, start, y = 36, LEFT + 100, grid_bottom + 12  # the legend: a swatch per shade step, weights 0 to 1
    parts.append(text(LEFT, y + FONT, "weight", FONT))
    parts += [f'<rect x="{start + step * swatch}" y="{y + 2}" width="{swatch}" height="{FONT}" '
              f'fill="{mix(DEEP, step / LEVELS)}" stroke="{FRAME}" stroke-width="0.5"/>' for step in range(LEVELS + 1)]
    parts += [text(start + step * swatch + swatch / 2, y + 2 * FONT + 12, label, FONT, anchor="middle")
              for step, label in ((0, "0"), (LEVELS // 2, "0.5"), (LEVELS, "1"))]  # LEVELS is even
    picture = svg_image(ident, title, desc, width, height, "".join(parts))
    values = {"sentence": sentence, "levels": LEVELS, "outlined": [list(frame) for frame in frames],
              "layers": layers, "heads": heads, "tokens": n,
              "grid": {"left": LEFT, "top": TOP, "cell": CELL, "gap": GAP}}
    return figure(ident, picture, title, kind="head-grid", values=values)
