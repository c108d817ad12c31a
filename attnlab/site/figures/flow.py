"""The whole head at a glance: the steps of one attention head as boxes, each arrow labelled with a shape.

X → Q, K, V → Q Kᵀ → ÷ √d_k → mask → softmax → × V. The shapes are read
off a real run of :func:`attnlab.attention` on the arrays given, so a wider
``W_V`` makes the value and output arrows wider in the picture too. Each
shape is written (``3 × 2``) and drawn as a small grid of cells, one per
number, as The Illustrated Transformer draws its matrices.
"""

from __future__ import annotations

from typing import Any

from attnlab.attention import attention, project
from attnlab.checks import as_matrix
from attnlab.site.figures.svg import INK, MUTED, PALETTE, PAPER, arrow_marker, figure, min_font, num, svg_image, text

WIDTH = 340
"""Narrow enough for a phone's column at full size; the steps run downwards."""
FONT = max(13, min_font(WIDTH))
CELL, MOST_CELLS = 6, 8
"""Side of one cell of a shape glyph, and the most cells drawn along a side (longer sides are cut)."""
CHAIN_X, V_X, COLUMNS = 105, 290, (55, 160, 290)
"""Centre of the main chain, of the value rail, and of the three projections (Q, K, V)."""
BOX_HEIGHT, STEP = 30, 52
BOX_FILL, LINE = "#e8eaf6", PALETTE[0]


def shape_text(shape: tuple[int, ...]) -> str:
    """A shape as a reader writes it: ``3 × 2``."""
    return " × ".join(str(size) for size in shape)


def glyph(x: float, y: float, shape: tuple[int, ...]) -> str:
    """A small grid of rows × columns cells with its top-left corner at (x, y); long sides are cut at 8 cells."""
    rows, cols = (min(size, MOST_CELLS) for size in shape)
    cells = "".join(f'<rect x="{num(x + c * CELL)}" y="{num(y + r * CELL)}" width="{CELL}" height="{CELL}"/>'
                    for r in range(rows) for c in range(cols))
    return f'<g fill="{PAPER}" stroke="{LINE}" stroke-width="1">{cells}</g>'


def box(centre: float, top: float, width: float, label: str) -> str:
    """A step's box with its label, centred on ``centre``."""
    return (f'<rect x="{num(centre - width / 2)}" y="{num(top)}" width="{num(width)}" height="{BOX_HEIGHT}" '
            f'rx="6" fill="{BOX_FILL}" stroke="{LINE}"/>'
            + text(centre, top + BOX_HEIGHT / 2 + FONT / 2 - 2, label, FONT, anchor="middle"))


def arrow(ident: str, x: float, top: float, bottom: float, name: str, shape: tuple[int, ...], *,
          left: bool = False, label_y: float | None = None) -> str:
    """A downward arrow at ``x`` from ``top`` to ``bottom``, labelled beside it with a name, a shape and its glyph.

    The label goes on the right, or on the ``left`` (glyph nearest the
    arrow); it sits halfway down unless ``label_y`` says where.
    """
    label = f"{name} {shape_text(shape)}"
    mid = (top + bottom) / 2 if label_y is None else label_y
    rows, cols = (min(size, MOST_CELLS) for size in shape)
    line = (f'<line x1="{num(x)}" y1="{num(top)}" x2="{num(x)}" y2="{num(bottom - 1)}" stroke="{LINE}" '
            f'stroke-width="1.5" marker-end="url(#{ident}-arrow)"/>')
    baseline = mid + FONT / 2 - 2
    if left:
        glyph_x = x - 8 - cols * CELL
        return line + glyph(glyph_x, mid - rows * CELL / 2, shape) + text(glyph_x - 6, baseline, label, FONT,
                                                                          anchor="end", fill=MUTED)
    glyph_x = x + 8 + 0.6 * FONT * len(label) + 6
    return line + text(x + 8, baseline, label, FONT, fill=MUTED) + glyph(glyph_x, mid - rows * CELL / 2, shape)


def shapes_of(x: Any, w_q: Any, w_k: Any, w_v: Any, visible: Any = None) -> dict[str, tuple[int, ...]]:
    """The shape of every array the head makes from ``x``, read off a real run of attention."""
    rows = as_matrix("x", x)
    q, k, v = project(rows, w_q, "W_Q"), project(rows, w_k, "W_K"), project(rows, w_v, "W_V")
    r = attention(q, k, v, visible)
    return {"X": rows.shape, "Q": q.shape, "K": k.shape, "V": v.shape, "scores": r.scores.shape,
            "scaled": r.scaled.shape, "weights": r.weights.shape, "output": r.output.shape}


def wide_box(left: float, right: float, top: float, label: str) -> str:
    """A box from ``left`` to ``right`` whose label sits over the main chain."""
    return (f'<rect x="{num(left)}" y="{num(top)}" width="{num(right - left)}" height="{BOX_HEIGHT}" rx="6" '
            f'fill="{BOX_FILL}" stroke="{LINE}"/>'
            + text(CHAIN_X, top + BOX_HEIGHT / 2 + FONT / 2 - 2, label, FONT, anchor="middle"))


def head_flow(x: Any, w_q: Any, w_k: Any, w_v: Any, visible: Any = None, *, ident: str, caption: str) -> str:
    """The flow of one attention head over the rows ``x`` with the given projections, as a figure.

    ``visible`` is the mask the run uses (None: every key visible). The
    figure carries every shape and ``d_k`` in ``data-values``.
    """
    shapes = shapes_of(x, w_q, w_k, w_v, visible)
    d_k = shapes["K"][1]
    parts = [f"<defs>{arrow_marker(ident, LINE)}</defs>", box(COLUMNS[1], 8, 150, "X, the input rows")]
    fan_top = 8 + BOX_HEIGHT
    fan_bottom = fan_top + 44
    parts.append(text(COLUMNS[1] + 83, 8 + BOX_HEIGHT / 2 + FONT / 2 - 2, shape_text(shapes["X"]), FONT, fill=MUTED))
    parts.append(glyph(COLUMNS[1] + 83 + 0.6 * FONT * len(shape_text(shapes["X"])) + 6,
                       8 + BOX_HEIGHT / 2 - min(shapes["X"][0], MOST_CELLS) * CELL / 2, shapes["X"]))
    for centre, name in zip(COLUMNS, ("W_Q", "W_K", "W_V")):
        parts.append(f'<line x1="{num(COLUMNS[1])}" y1="{num(fan_top)}" x2="{num(centre)}" y2="{num(fan_bottom - 1)}" '
                     f'stroke="{LINE}" stroke-width="1.5" marker-end="url(#{ident}-arrow)"/>')
        parts.append(box(centre, fan_bottom, 84, f"× {name}"))
    projected = fan_bottom + BOX_HEIGHT
    top = projected + STEP
    parts += [arrow(ident, COLUMNS[0], projected, top, "Q", shapes["Q"]),
              arrow(ident, COLUMNS[1], projected, top, "K", shapes["K"]),
              wide_box(COLUMNS[0] - 30, COLUMNS[1] + 30, top, "Q Kᵀ")]
    boxes = []
    for step, name, carried in ((f"÷ √d_k (d_k = {d_k})", "scores", "scores"),
                                ("mask the blocked keys", "scaled", "scaled"),
                                ("softmax, row by row", "masked", "scaled")):
        parts.append(arrow(ident, CHAIN_X, top + BOX_HEIGHT, top + BOX_HEIGHT + STEP, name, shapes[carried]))
        top += BOX_HEIGHT + STEP
        parts.append(box(CHAIN_X, top, 170, step))
        boxes.append(top)
    mix = top + BOX_HEIGHT + STEP
    parts += [arrow(ident, CHAIN_X, top + BOX_HEIGHT, mix, "weights", shapes["weights"]),
              arrow(ident, V_X, projected, mix, "V", shapes["V"], left=True, label_y=boxes[1] + BOX_HEIGHT / 2),
              wide_box(COLUMNS[0] - 30, V_X + 30, mix, "× V: mix the values")]
    out = mix + BOX_HEIGHT + STEP
    parts += [arrow(ident, CHAIN_X, mix + BOX_HEIGHT, out, "output", shapes["output"]),
              box(CHAIN_X, out, 150, "output rows")]
    height = out + BOX_HEIGHT + 8
    said = {name: shape_text(shape) for name, shape in shapes.items()}
    steps = (f"X ({said['X']}) is multiplied by W_Q, W_K and W_V into Q ({said['Q']}), K ({said['K']}) and "
             f"V ({said['V']}). Q Kᵀ gives the scores ({said['scores']}); they are divided by √d_k with "
             f"d_k = {d_k}, the blocked keys are masked, and a softmax along each row gives the weights "
             f"({said['weights']}). The weights times V give the output ({said['output']}).")
    body = f'<rect width="{WIDTH}" height="{num(height)}" fill="{PAPER}"/>' + "".join(parts)
    picture = svg_image(ident, "One attention head, step by step, with its shapes", steps, WIDTH, height, body)
    values = {"d_k": d_k, "shapes": {name: list(shape) for name, shape in shapes.items()}}
    return figure(ident, picture, caption, values=values, kind="attnlab-flow")
