"""A whole model at a glance: every head's weight map as a small square, in one SVG grid.

One row of squares per layer, one column per head; inside a square, row i is
query i and column j key j, shaded by the weight in ``LEVELS`` steps (weights
below half a step are left white, blocked keys are grey). Chosen heads are
outlined. The picture is one line of inline SVG with a title, a text
description and a legend for its shades; its labels are large enough to stay
at least 11 px when it shrinks to a phone's width.

Each square's cells of one shade are one ``<path>`` with ``data-level`` (the
step), inside a ``<g>`` with ``data-layer`` and ``data-head``, so a test can
read back which weight is drawn where.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import numpy as np

from attnlab.checks import as_array, as_mask, index

LEVELS = 8
"""Shade steps between weight 0 and weight 1."""
CELL = 5
"""Side of one query-key cell, in SVG units."""
GAP = 8
"""Space between two squares."""
LEFT, TOP, LEGEND = 64, 64, 96
"""Room for the layer labels, the head labels and the legend below the grid."""
FONT = 24
"""Label size in SVG units: 11 px or more once the grid is shrunk to a phone's 358 px column."""
INK, FRAME, BLOCKED = "#1a1a1a", "#9e9e9e", "#e4e4e4"


def level(weights: np.ndarray) -> np.ndarray:
    """The shade step of each weight: round(weight × LEVELS), 0 (white) to LEVELS (darkest)."""
    return np.rint(np.clip(weights, 0.0, 1.0) * LEVELS).astype(int)


def colour(step: int) -> str:
    """The fill of shade ``step``: white mixed with indigo #283593 in proportion step / LEVELS."""
    share = step / LEVELS
    rgb = (round(255 - 215 * share), round(255 - 202 * share), round(255 - 108 * share))
    return "#" + "".join(f"{c:02x}" for c in rgb)


def _square(weights: np.ndarray, visible: np.ndarray) -> str:
    """One head's cells as paths, one per shade step present (white cells are not drawn)."""
    steps = level(weights)
    parts = []
    blocked = [(q, k) for q, k in zip(*np.nonzero(~visible))]
    if blocked:
        cells = "".join(f"M{k * CELL} {q * CELL}h{CELL}v{CELL}h-{CELL}z" for q, k in blocked)
        parts.append(f'<path data-level="blocked" fill="{BLOCKED}" d="{cells}"/>')
    for step in range(1, LEVELS + 1):
        where = np.argwhere((steps == step) & visible)
        if len(where):
            cells = "".join(f"M{k * CELL} {q * CELL}h{CELL}v{CELL}h-{CELL}z" for q, k in where)
            parts.append(f'<path data-level="{step}" fill="{colour(step)}" d="{cells}"/>')
    return "".join(parts)


def head_grid(weights: object, visible: object = None, *, outlined: Sequence[tuple[int, int]] = (),
              ident: str, title: str, desc: str) -> str:
    """Every head's map of one sentence (``weights``: layers × heads × n × n) as one figure of inline SVG.

    ``visible`` (n × n, optional) greys out blocked keys; ``outlined`` lists
    (layer, head) pairs, counted from 0, to draw a frame around; ``ident``
    makes the element ids unique on the page; ``title`` and ``desc`` are what
    a screen reader announces, so ``desc`` should say what the picture shows.
    """
    w = as_array("weights", weights, 4)
    layers, heads, n, m = w.shape
    if n != m:
        raise ValueError(f"weights must be square maps (self-attention), got {n} × {m}")
    seen = np.ones((n, n), dtype=bool) if visible is None else as_mask("visible", visible, (n, n))
    frames = [(index("layer", l, layers), index("head", h, heads)) for l, h in outlined]
    side = n * CELL
    step = side + GAP
    width, grid_bottom = LEFT + heads * step, TOP + layers * step
    height = grid_bottom + LEGEND
    parts = [f'<text x="{LEFT + heads * step / 2:.0f}" y="{FONT}" text-anchor="middle" font-size="{FONT}" '
             f'fill="{INK}">head</text>',
             f'<text transform="translate({FONT} {TOP + layers * step / 2:.0f}) rotate(-90)" text-anchor="middle" '
             f'font-size="{FONT}" fill="{INK}">layer</text>']
    parts += [f'<text x="{LEFT + h * step + side / 2:.1f}" y="{TOP - 10}" text-anchor="middle" font-size="{FONT}" '
              f'fill="{INK}">{h}</text>' for h in range(heads)]
    parts += [f'<text x="{LEFT - 10}" y="{TOP + l * step + side / 2 + FONT / 3:.1f}" text-anchor="end" '
              f'font-size="{FONT}" fill="{INK}">{l}</text>' for l in range(layers)]
    for l in range(layers):
        for h in range(heads):
            x, y = LEFT + h * step, TOP + l * step
            mark = ' data-outlined="true"' if (l, h) in frames else ""
            parts.append(f'<g data-layer="{l}" data-head="{h}"{mark} transform="translate({x} {y})">'
                         f'<rect width="{side}" height="{side}" fill="#fff" stroke="{FRAME}" stroke-width="0.5"/>'
                         f"{_square(w[l, h], seen)}</g>")
    for l, h in frames:
        parts.append(f'<rect x="{LEFT + h * step - 3}" y="{TOP + l * step - 3}" width="{side + 6}" '
                     f'height="{side + 6}" fill="none" stroke="{INK}" stroke-width="3"/>')
    parts.append(_legend(LEFT, grid_bottom + 12))
    return (
        f'<figure class="head-grid"><svg role="img" aria-labelledby="{ident}-title {ident}-desc" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'style="max-width: 100%; height: auto; background: #fff" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ident}-title">{escape(title)}</title><desc id="{ident}-desc">{escape(desc)}</desc>'
        f'{"".join(parts)}</svg><figcaption>{escape(title)}</figcaption></figure>\n'
    )


def _legend(x: float, y: float) -> str:
    """The shade steps as a row of swatches labelled with their weights, from 0 to 1."""
    swatch = 36
    parts = [f'<text x="{x}" y="{y + FONT}" font-size="{FONT}" fill="{INK}">weight</text>']
    start = x + 100
    for step in range(LEVELS + 1):
        parts.append(f'<rect x="{start + step * swatch}" y="{y + 2}" width="{swatch}" height="{FONT}" '
                     f'fill="{colour(step)}" stroke="{FRAME}" stroke-width="0.5"/>')
    for step, label in ((0, "0"), (LEVELS // 2, "0.5"), (LEVELS, "1")):
        parts.append(f'<text x="{start + step * swatch + swatch / 2}" y="{y + 2 * FONT + 12}" '
                     f'text-anchor="middle" font-size="{FONT}" fill="{INK}">{label}</text>')
    return "".join(parts)
