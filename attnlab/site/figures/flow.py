"""Diagrams of rows flowing through a head, several heads, a block, the model: every shape read off a real run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from attnlab.attention import attention, project, softmax
from attnlab.checks import as_mask, as_matrix
from attnlab.layers import MultiHeadParams, multi_head
from attnlab.site.figures.palette import INDIGO, INK, MUTED, PAPER, TINT, shade
from attnlab.site.figures.svg import PHONE_COLUMN, background, defs, figure, legend_bar, min_font, num, svg_image, text
from attnlab.text import fmt

WIDTH = 340  # a phone's column holds it at full size, so SMALL text reads at 11 px; the steps run down
FONT, SMALL = max(13, min_font(WIDTH)), min_font(WIDTH)
CELL, MOST_CELLS, BOX_HEIGHT, STEP = 6, 8, 30, 52  # a glyph's cell side and most cells a side; a box, a step


def shape_text(shape: Sequence[Any]) -> str:
    """A shape as a reader writes it: ``3 × 2`` (sizes may be symbols: ``n × d_model``)."""
    return " × ".join(str(size) for size in shape)


def glyph(x: float, mid: float, shape: tuple[int, ...]) -> str:
    """A small grid of rows × columns cells, its left side at x and its middle at height ``mid``."""
    rows, cols = (min(size, MOST_CELLS) for size in shape)
    y = mid - rows * CELL / 2
    squares = "".join(f'<rect x="{num(x + c * CELL)}" y="{num(y + r * CELL)}" width="{CELL}" height="{CELL}"/>'
                      for r in range(rows) for c in range(cols))
    return f'<g fill="{PAPER}" stroke="{INDIGO}" stroke-width="1">{squares}</g>'


def shape_label(x: float, mid: float, words: str, shape: tuple[int, ...]) -> str:
    """``words`` written from x at height ``mid``, the glyph of ``shape`` after them."""
    return text(x, mid + FONT / 2 - 2, words, FONT, fill=MUTED) + glyph(x + 0.6 * FONT * len(words) + 6, mid, shape)


def box(centre: float, top: float, width: float, label: str, *, height: float = BOX_HEIGHT, font: int = FONT,
        dash: str = "", fill: str = TINT, label_x: float | None = None) -> str:
    """A step's box centred on ``centre``, its label centred on ``label_x`` (default ``centre``), outlined ``dash``."""
    dashed = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<rect x="{num(centre - width / 2)}" y="{num(top)}" width="{num(width)}" height="{num(height)}" '
            f'rx="6" fill="{fill}" stroke="{INDIGO}"{dashed}/>'
            + text(centre if label_x is None else label_x, top + height / 2 + font / 2 - 2, label, font,
                   anchor="middle"))


def arrow(ident: str, points: Sequence[tuple[float, float]], colour: str = INDIGO) -> str:
    """A line through ``points`` ending in the picture's arrow head (:func:`attnlab.site.figures.svg.defs`)."""
    (x0, y0), *rest = points
    moves = f"M{num(x0)} {num(y0)}" + "".join(f"L{num(x)} {num(y)}" for x, y in rest)
    return f'<path d="{moves}" fill="none" stroke="{colour}" stroke-width="1.5" marker-end="url(#{ident}-arrow)"/>'


def down(ident: str, x: float, top: float, bottom: float, name: str, shape: tuple[int, ...], *,
         left_at: float | None = None) -> str:
    """A downward arrow at ``x`` labelled with ``name``, ``shape`` and its glyph on its right (left, at ``left_at``)."""
    label = f"{name} {shape_text(shape)}"
    line = arrow(ident, [(x, top), (x, bottom - 1)])
    if left_at is None:
        return line + shape_label(x + 8, (top + bottom) / 2, label, shape)
    glyph_x = x - 8 - min(shape[1], MOST_CELLS) * CELL
    return line + glyph(glyph_x, left_at, shape) + text(glyph_x - 6, left_at + FONT / 2 - 2, label, FONT,
                                                        anchor="end", fill=MUTED)


def labelled_cells(ident: str, x: float, y: float, grid: np.ndarray, visible: np.ndarray,
                   words: Sequence[Sequence[str]], queries: Sequence[str], keys: Sequence[str], *,
                   width: float, height: float = 20, shaded: bool) -> str:
    """``grid`` as cells with their ``words``, blocked ones hatched, others shaded if ``shaded``; keys above."""
    parts = [text(x + (c + 0.5) * width, y - 4, key, SMALL, anchor="middle", fill=MUTED) for c, key in enumerate(keys)]
    parts += [text(x - 4, y + (r + 0.5) * height + SMALL / 2 - 1.5, query, SMALL, anchor="end", fill=MUTED)
              for r, query in enumerate(queries) if query]
    for (r, c), value in np.ndenumerate(grid):
        if not visible[r, c]:
            fill = f"url(#{ident}-blocked)"
        elif shaded:
            fill = shade(value)
        else:
            fill = PAPER
        parts.append(f'<rect x="{num(x + c * width)}" y="{num(y + r * height)}" width="{num(width)}" '
                     f'height="{num(height)}" fill="{fill}" stroke="{MUTED}" stroke-width="0.5"/>')
        parts.append(text(x + (c + 0.5) * width, y + (r + 0.5) * height + SMALL / 2 - 1.5, words[r][c], SMALL,
                          anchor="middle"))
    return "".join(parts)


def weight_legend(ident: str, x: float, y: float, blocked: bool) -> str:
    """The weights' shade from 0 to 1 as a bar, and a hatched swatch for blocked keys when ``blocked``."""
    parts = [legend_bar(ident, x, y, 100, [(0.0, shade(0.0)), (1.0, shade(1.0))], [(0.0, "0"), (1.0, "1")],
                        SMALL, name="weight")]
    if blocked:
        left = x + 0.6 * SMALL * len("weight") + 8 + 100 + 22
        parts.append(f'<rect x="{num(left)}" y="{num(y)}" width="16" height="12" fill="url(#{ident}-blocked)" '
                     f'stroke="{MUTED}" stroke-width="0.5"/>' + text(left + 22, y + 11, "blocked", SMALL))
    return "".join(parts)


CHAIN_X, V_X, COLUMNS = 105, 290, (55, 160, 290)  # centres of the main chain, the value rail and Q, K, V


def head_flow(x: Any, w_q: Any, w_k: Any, w_v: Any, visible: Any = None, *, ident: str, caption: str) -> str:
    """One attention head over the rows ``x`` (mask ``visible``), carrying its inputs, every shape and ``d_k``."""
    rows = as_matrix("x", x)  # every shape drawn is read off a real run of attention
    q, k, v = project(rows, w_q, "W_Q"), project(rows, w_k, "W_K"), project(rows, w_v, "W_V")
    r = attention(q, k, v, visible)
    shapes = {"X": rows.shape, "Q": q.shape, "K": k.shape, "V": v.shape, "scores": r.scores.shape,
              "scaled": r.scaled.shape, "weights": r.weights.shape, "output": r.output.shape}
    d_k = shapes["K"][1]
    fan_top, fan_bottom = 8 + BOX_HEIGHT, 8 + BOX_HEIGHT + 44
    parts = [defs(ident, blocked=True), box(COLUMNS[1], 8, 150, "X, the input rows"),
             shape_label(COLUMNS[1] + 83, 8 + BOX_HEIGHT / 2, shape_text(shapes["X"]), shapes["X"])]
    for centre, name in zip(COLUMNS, ("W_Q", "W_K", "W_V")):
        parts += [arrow(ident, [(COLUMNS[1], fan_top), (centre, fan_bottom - 1)]),
                  box(centre, fan_bottom, 84, f"× {name}")]
    projected = fan_bottom + BOX_HEIGHT
    top = projected + STEP
    parts += [down(ident, COLUMNS[0], projected, top, "Q", shapes["Q"]),
              down(ident, COLUMNS[1], projected, top, "K", shapes["K"]),
              box((COLUMNS[0] + COLUMNS[1]) / 2, top, COLUMNS[1] - COLUMNS[0] + 60, "Q Kᵀ", label_x=CHAIN_X)]
    boxes = []
    for step, name, carried in ((f"÷ √d_k (d_k = {d_k})", "scores", "scores"),
                                ("mask the blocked keys", "scaled", "scaled"),
                                ("softmax, row by row", "masked", "scaled")):
        top += BOX_HEIGHT + STEP
        parts += [down(ident, CHAIN_X, top - STEP, top, name, shapes[carried]), box(CHAIN_X, top, 170, step)]
        boxes.append(top)
    mix = top + BOX_HEIGHT + STEP
    parts += [down(ident, CHAIN_X, top + BOX_HEIGHT, mix, "weights", shapes["weights"]),
              down(ident, V_X, projected, mix, "V", shapes["V"], left_at=boxes[1] + BOX_HEIGHT / 2),
              box((COLUMNS[0] + V_X) / 2, mix, V_X - COLUMNS[0] + 60, "× V: mix the values", label_x=CHAIN_X)]
    out = mix + BOX_HEIGHT + STEP
    parts += [down(ident, CHAIN_X, mix + BOX_HEIGHT, out, "output", shapes["output"]),
              box(CHAIN_X, out, 150, "output rows")]
    height = out + BOX_HEIGHT + 8
    said = {name: shape_text(shape) for name, shape in shapes.items()}
    steps = (f"X ({said['X']}) is multiplied by W_Q, W_K and W_V into Q ({said['Q']}), K ({said['K']}) and "
             f"V ({said['V']}). Q Kᵀ gives the scores ({said['scores']}); they are divided by √d_k with "
             f"d_k = {d_k}, the blocked keys are masked, and a softmax along each row gives the weights "
             f"({said['weights']}). The weights times V give the output ({said['output']}).")
    picture = svg_image(ident, "One attention head, step by step, with its shapes", steps, WIDTH, height,
                        background(WIDTH, height) + "".join(parts))
    mask = None if visible is None else r.visible.tolist()
    given = {"x": x, "w_q": w_q, "w_k": w_k, "w_v": w_v}
    values = {"inputs": {**{name: np.asarray(a, float).tolist() for name, a in given.items()}, "visible": mask},
              "d_k": d_k, "shapes": {name: list(shape) for name, shape in shapes.items()}}
    return figure(ident, picture, caption, kind="head-flow", values=values)


def masking_flow(scaled: Any, visible: Any, tokens: Sequence[str], *, ident: str, caption: str) -> str:
    """The scaled scores with the keys ``visible`` hides hatched (−∞), beside the weights a softmax gives."""
    grid = as_matrix("scaled", scaled)
    n, m = grid.shape
    seen = as_mask("visible", visible, grid.shape)
    weights = np.array([softmax(row, ok) for row, ok in zip(grid, seen)])
    left, top, cell = 48, 36, 40
    second = left + m * cell + 56  # the rows line up with the scores', so they need no labels of their own
    width = second + m * cell + 8
    bottom = top + n * 22
    score_words = [[fmt(s) if ok else "−∞" for s, ok in zip(row, oks)] for row, oks in zip(grid, seen)]
    weight_words = [[fmt(w) if ok else "0" for w, ok in zip(row, oks)] for row, oks in zip(weights, seen)]
    parts = [defs(ident, blocked=True), background(width, bottom + 64),
             text(left, 14, "scaled scores", FONT, bold=True), text(second, 14, "weights", FONT, bold=True),
             *(labelled_cells(ident, x, top, values, seen, words, queries, tokens, width=cell, height=22, shaded=shaded)
               for x, values, words, queries, shaded in ((left, grid, score_words, tokens, False),
                                                         (second, weights, weight_words, [""] * n, True))),
             arrow(ident, [(left + m * cell + 6, top + n * 11), (second - 6, top + n * 11)]),
             text((left + m * cell + second) / 2, top + n * 11 - 6, "softmax", SMALL, anchor="middle"),
             weight_legend(ident, left - 40, bottom + 16, blocked=True)]
    height = bottom + 16 + 14 + SMALL + 8
    rows = "; ".join(f"{q}: " + ", ".join(f"{k} {fmt(s) if ok else 'blocked'}" for k, s, ok in zip(tokens, row, oks))
                     for q, row, oks in zip(tokens, grid, seen))
    desc = (f"Left, the scaled scores of each query (row) for each key (column), {rows}; a blocked key's score "
            "is minus infinity, hatched. Right, the weights a softmax of each row gives: a blocked key gets "
            "exactly 0, and each row's visible weights sum to 1.")
    picture = svg_image(ident, "Scores with the blocked keys hatched, beside the weights they give", desc, width,
                        height, "".join(parts))
    values = {"tokens": list(tokens), "scaled": grid.tolist(), "visible": seen.tolist(), "weights": weights.tolist()}
    return figure(ident, picture, caption, kind="masked-scores", values=values)


def heads_flow(x: Any, params: MultiHeadParams, visible: Any = None, *, tokens: Sequence[str], ident: str,
               caption: str) -> str:
    """:func:`attnlab.multi_head` on ``x``: each head's projections and weights, the concatenation, ``W_O``."""
    rows = as_matrix("x", x)
    result = multi_head(rows, rows, params, visible)
    heads = len(params.heads)
    width = max(WIDTH, heads * 170)  # 170 a head: more than two heads widen the picture past a phone's column
    centres = [width / heads * (h + 0.5) for h in range(heads)]
    mid = width / 2
    seen = result.heads[0].visible  # every key where ``visible`` is None
    parts = [defs(ident, blocked=True), box(mid, 8, 150, "X, the input rows"),
             text(mid + 83, 8 + BOX_HEIGHT / 2 + FONT / 2 - 2, shape_text(rows.shape), FONT, fill=MUTED)]
    fan = 8 + BOX_HEIGHT
    map_top = fan + 44 + 22 + BOX_HEIGHT + 40
    cell = 36
    for h, (centre, head, run) in enumerate(zip(centres, params.heads, result.heads), start=1):
        n, m = run.weights.shape
        left = centre - m * cell / 2 + 14
        into = left + m * cell / 2  # the arrow from the projections lands on the middle of the map
        q_shape, v_shape = shape_text(np.shape(head.w_q)), shape_text(np.shape(head.w_v))
        same = np.shape(head.w_q) == np.shape(head.w_k) == np.shape(head.w_v)
        words = [[f"{w:.2f}" if ok else "0" for w, ok in zip(row, oks)] for row, oks in zip(run.weights, seen)]
        parts += [arrow(ident, [(mid, fan), (centre, fan + 43)]),
                  text(centre, fan + 44 + 14, f"head {h}", FONT, anchor="middle", bold=True),
                  box(centre, fan + 44 + 22, 150, "× W_Q, W_K, W_V"),
                  arrow(ident, [(into, fan + 44 + 22 + BOX_HEIGHT), (into, map_top - 16)]),
                  text(into + 6, map_top - 22, f"{q_shape} each" if same else f"{q_shape}; V {v_shape}", SMALL,
                       fill=MUTED),
                  labelled_cells(ident, left, map_top, run.weights, seen, words, tokens, tokens, width=cell,
                                 shaded=True)]
        parts += [text(centre, map_top + n * 20 + dy, said, SMALL, anchor="middle", fill=MUTED)
                  for dy, said in ((16, f"weights {shape_text(run.weights.shape)}"),
                                    (32, f"× V: output {shape_text(run.output.shape)}"))]
    top = map_top + len(tokens) * 20 + 64
    parts += [arrow(ident, [(centre, top - 26), (centre, top - 1)]) for centre in centres]
    for i, (across, label) in enumerate(((width - 40, f"concatenate: {shape_text(result.concat.shape)}"),
                                         (200, f"× W_O ({shape_text(np.shape(params.w_o))})"),
                                         (200, f"output {shape_text(result.output.shape)}"))):
        if i:  # an arrow down from the box above
            parts.append(arrow(ident, [(mid, top - 30), (mid, top - 1)]))
        parts.append(box(mid, top, across, label))
        top += BOX_HEIGHT + 30
    legend_top = top - 14
    parts.append(weight_legend(ident, 8, legend_top, blocked=not seen.all()))
    height = legend_top + 14 + SMALL + 8
    desc = (f"The input rows X ({shape_text(rows.shape)}) go to {heads} heads. Each head multiplies them by its "
            "own W_Q, W_K and W_V and gives its own weight map: "
            + "; ".join(f"head {h}: " + ", ".join(f"{q} row {' '.join(fmt(w, 2) for w in row)}"
                                                  for q, row in zip(tokens, run.weights))
                        for h, run in enumerate(result.heads, start=1))
            + f". Each head's output is {shape_text(result.heads[0].output.shape)}; side by side they make "
              f"{shape_text(result.concat.shape)}, which W_O ({shape_text(np.shape(params.w_o))}) maps back to "
              f"{shape_text(result.output.shape)}.")
    picture = svg_image(ident, f"{heads} heads side by side, then concatenated and projected by W_O", desc,
                        width, height, background(width, height) + "".join(parts))
    values = {"tokens": list(tokens), "x": rows.tolist(), "visible": seen.tolist(),
              "heads": [{**{name: np.asarray(getattr(head, name)).tolist() for name in ("w_q", "w_k", "w_v")},
                         "weights": run.weights.tolist(), "output": list(run.output.shape)}
                        for head, run in zip(params.heads, result.heads)],
              "w_o": np.asarray(params.w_o).tolist(),
              "shapes": {"concat": list(result.concat.shape), "output": list(result.output.shape)}}
    return figure(ident, picture, caption, kind="heads-flow", values=values)


LABELS = {"input": "input rows x", "output": "output rows", "branch": "branch the residual", "add": "add the residual",
          "attention": "Multi-head self-attention", "feed-forward": "Feed-forward (each row alone)",
          "dropout": "Dropout (training only)", "norm": "Layer norm", "final": "Layer norm, after the last block"}
BLOCK_STEPS = {order: tuple((op, LABELS[op]) for op in ops.split()) for order, ops in (
    ("post", "input branch attention dropout add norm branch feed-forward dropout add norm output"),
    ("pre", "input branch norm attention dropout add branch norm feed-forward dropout add final output"))}
"""The block's (operation, label) per layer-norm order; Pre-LN's ``final`` norm follows the last block (CL-039)."""
HEIGHTS = {"input": 20, "output": 20, "branch": 4, "add": 24, "dropout": 30}  # a sublayer's box: BOX_HEIGHT + 4


def block_picture(order: str, ident: str) -> str:
    """One encoder block (Post-LN or Pre-LN) as a picture: boxes are sublayers, circles the residual additions."""
    name = "Post-LN (the original order)" if order == "post" else "Pre-LN (a later variant)"
    cx, left, width, font = 190, 40, 330, 14
    parts = [defs(ident, blocked=True), text(cx, 20, name, font, anchor="middle", bold=True)]
    top, above, branch = 34, 0, 0.0
    for i, (op, label) in enumerate(BLOCK_STEPS[order]):
        bottom = top + HEIGHTS.get(op, BOX_HEIGHT + 4)
        mid = (top + bottom) / 2
        if i and op == "branch":
            parts.append(f'<path d="M{cx} {above}V{top}" stroke="{INDIGO}" stroke-width="1.5"/>')
        elif i:
            parts.append(arrow(ident, [(cx, above), (cx, top)]))
        if op in ("input", "output"):
            parts.append(text(cx, mid + 5, label, font, anchor="middle"))
        elif op == "branch":
            branch = mid
            parts.append(f'<circle cx="{cx}" cy="{num(mid)}" r="3" fill="{INDIGO}"/>')
        elif op == "add":
            parts.append(f'<circle cx="{cx}" cy="{num(mid)}" r="12" fill="{PAPER}" stroke="{INDIGO}"/>'
                         + text(cx, mid + 6, "+", 18, anchor="middle"))
            parts.append(arrow(ident, [(cx, branch), (left, branch), (left, mid), (cx - 12, mid)]))
        else:
            dash, fill = {"dropout": ("5 4", PAPER), "final": ("2 3", PAPER)}.get(op, ("", TINT))
            parts.append(box(cx, top, 240, label, height=bottom - top, font=font, dash=dash, fill=fill))
        above, top = bottom, bottom + 18
    flow = ", then ".join(label for _, label in BLOCK_STEPS[order])
    return svg_image(ident, f"Encoder block, {name}", f"From top to bottom: {flow}.", width, top,
                     background(width, top) + "".join(parts))


def block_flow(*, ident: str, caption: str) -> str:
    """The encoder block in both layer-norm orders, side by side where they fit, carrying each order's steps."""
    pictures = "".join(block_picture(order, f"{ident}-{order}") for order in BLOCK_STEPS)
    values = {"orders": {order: [op for op, _ in steps] for order, steps in BLOCK_STEPS.items()}}
    return figure(ident, f'<div class="attnlab-panels">{pictures}</div>', caption, kind="block-flow", values=values)


MODEL_WIDTH, STACK_WIDTH = 420, 170
MODEL_FONT = min_font(MODEL_WIDTH)  # wider than a phone's column: the text reads at 11 px once shrunk
ENCODER = ("self-attention", "add & norm", "feed-forward", "add & norm")  # sublayers, top to bottom (CL-013, CL-021)
DECODER = ("causal self-attention", "add & norm", "cross-attention", "add & norm", "feed-forward", "add & norm")
SYMBOLS = {"N": "N", "heads": "h", "d_model": "d_model", "source": "m", "target": "n", "vocabulary": "V"}
"""The sizes as symbols: blocks per stack, heads, row width, source and target lengths, vocabulary."""


def stack(ident: str, centre: float, top: float, steps: Sequence[str], repeat: Any, title: str, *,
          label_left: bool) -> tuple[str, float, dict[str, float]]:
    """A frame around a block's sublayers, ``repeat ×`` beside it; returns it, its bottom and each box's middle."""
    font, half = MODEL_FONT, STACK_WIDTH / 2
    parts = [text(centre, top + font + 2, title, font, anchor="middle", bold=True)]
    y, middles = top + font + 10, dict[str, float]()
    for i, step in enumerate(steps):
        thin = step == "add & norm"
        height = 22 if thin else 26
        parts.append(box(centre, y, STACK_WIDTH - 16, step, height=height, font=font, fill=PAPER if thin else TINT))
        middles.setdefault(step, y + height / 2)
        if i + 1 < len(steps):
            parts.append(arrow(ident, [(centre, y + height), (centre, y + height + 9)]))
        y += height + 10
    frame = (f'<rect x="{num(centre - half)}" y="{num(top)}" width="{STACK_WIDTH}" height="{num(y - top)}" '
             f'rx="8" fill="none" stroke="{INK}" stroke-dasharray="6 3"/>')
    side = centre - half - 4 if label_left else centre + half + 4
    label = text(side, top + (y - top) / 2 + font / 2, f"{repeat} ×", font, anchor="end" if label_left else "start",
                 bold=True)
    return frame + label + "".join(parts), y, middles


def model_flow(sizes: Mapping[str, Any] = SYMBOLS, *, decoder: bool = True, ident: str, caption: str,
               pooling: str = "", embedding_norm: bool = False) -> str:
    """The whole Transformer in ``sizes`` (:data:`SYMBOLS`' keys, optionally ``positions`` and ``token_types``),
    carrying each labelled arrow's shape; ``decoder=False`` ends the encoder in ``pooling`` (MiniLM), and
    ``embedding_norm`` draws BERT's layer norm of the embedded rows."""
    if not decoder and not pooling:
        raise ValueError("an encoder without a decoder needs its pooling named")
    font, d = MODEL_FONT, sizes["d_model"]
    n_src, n_tgt, vocabulary = sizes["source"], sizes["target"] if decoder else None, sizes["vocabulary"]
    gap = 34
    enc_x = 30 + STACK_WIDTH / 2 if decoder else MODEL_WIDTH / 2
    dec_x = MODEL_WIDTH - 30 - STACK_WIDTH / 2
    parts = [defs(ident)]
    shapes: dict[str, list[Any]] = {}

    def chain(centre: float, top: float, links: Sequence[Any]) -> float:
        """Boxes (a label) and arrows with their shapes (name, shape) down from ``top``; returns the bottom."""
        for link in links:
            if isinstance(link, str):
                width = min(max(STACK_WIDTH, 0.6 * font * len(link) + 20), 2 * min(centre, MODEL_WIDTH - centre) - 4)
                parts.append(box(centre, top, width, link, font=font))
                top += BOX_HEIGHT
            else:
                shapes[link[0]] = link[1]
                parts.append(arrow(ident, [(centre, top), (centre, top + gap - 1)])
                             + text(centre + 6, top + gap / 2 + font / 2 - 2, shape_text(link[1]), font, fill=MUTED))
                top += gap
        return top

    def column(centre: float, top: float, label: str, embed: str, name: str, rows: Any) -> float:
        parts.append(text(centre, top + font, label, font, anchor="middle"))
        norm = [("embedded rows", [rows, d]), "layer norm"] if embedding_norm else []
        return chain(centre, top + font + 8, [embed, *norm, (name, [rows, d])])

    embed = "embed + positions" if "positions" not in sizes else f"embed + positions (up to {sizes['positions']})"
    if "token_types" in sizes:
        embed += f" + token type (of {sizes['token_types']})"
    enc_top = column(enc_x, 4, "source tokens" if decoder else f"tokens, from a vocabulary of {vocabulary}",
                     embed, "source rows", n_src)
    drawn, enc_bottom, _ = stack(ident, enc_x, enc_top, ENCODER, sizes["N"], f"encoder block, {sizes['heads']} heads",
                                 label_left=True)
    parts.append(drawn)
    if decoder:
        # the decoder starts lower, so the encoder's output runs down and across into its cross-attention
        dec_top = column(dec_x, enc_bottom - 124, "target, shifted right", embed, "target rows", n_tgt)
        drawn, dec_bottom, middles = stack(ident, dec_x, dec_top, DECODER, sizes["N"],
                                           f"decoder block, {sizes['heads']} heads", label_left=False)
        cross = middles["cross-attention"]
        shapes["encoder output"] = [n_src, d]
        parts += [drawn, arrow(ident, [(enc_x, enc_bottom), (enc_x, cross), (dec_x - STACK_WIDTH / 2 + 7, cross)]),
                  text(enc_x + 6, (enc_bottom + cross) / 2 + 2, "keys, values", font, fill=MUTED),
                  text(enc_x + 6, (enc_bottom + cross) / 2 + font + 4, shape_text([n_src, d]), font, fill=MUTED)]
        end, words = dec_x, "next-token probabilities"
        bottom = chain(end, dec_bottom, [("decoder output", [n_tgt, d]), "linear: to the vocabulary",
                                         ("scores over the vocabulary", [n_tgt, vocabulary]), "softmax",
                                         (words, [n_tgt, vocabulary])])
        desc = (f"Left, the encoder: the source tokens are embedded and given positions ({shape_text([n_src, d])}), "
                f"then pass through {sizes['N']} encoder blocks, each self-attention and a feed-forward network, "
                f"each followed by a residual addition and a layer norm. Right, the decoder: the target tokens, "
                f"shifted right, are embedded ({shape_text([n_tgt, d])}) and pass through {sizes['N']} decoder "
                f"blocks: causal self-attention, cross-attention whose keys and values are the encoder's output "
                f"rows ({shape_text([n_src, d])}, an arrow from the encoder), and a feed-forward network. A linear "
                f"map and a softmax turn the decoder's rows into next-token probabilities "
                f"({shape_text([n_tgt, vocabulary])}).")
        title = "The whole Transformer: encoder beside decoder"
    else:
        end, words = enc_x, "one sentence vector"
        bottom = chain(end, enc_bottom, [("encoder output", [n_src, d]), pooling, ("sentence vector", [1, d])])
        embedded = ("embedded with their positions and token type, then layer-normalised" if embedding_norm
                    else "embedded with their positions")
        desc = (f"The tokens are {embedded} ({shape_text([n_src, d])}) and pass through "
                f"{sizes['N']} encoder blocks, each {sizes['heads']} heads of self-attention and a feed-forward "
                f"network, each followed by a residual addition and a layer norm; then {pooling} gives one "
                f"sentence vector ({shape_text([1, d])}).")
        title = "The whole encoder, from tokens to a sentence vector"
    parts.append(text(end, bottom + font + 2, words, font, anchor="middle"))
    height = bottom + font + 10
    picture = svg_image(ident, title, desc, MODEL_WIDTH, height, background(MODEL_WIDTH, height) + "".join(parts))
    values = {"sizes": dict(sizes), "decoder": decoder, "encoder_block": list(ENCODER),
              "decoder_block": list(DECODER) if decoder else None, "shapes": shapes}
    return figure(ident, picture, caption, kind="model-flow", values=values)


START, END = "⟨start⟩", "⟨end⟩"


def shifted_targets(target: Sequence[str], *, ident: str, caption: str) -> str:
    """What each decoder position reads (``target`` shifted right behind :data:`START`) above what it must predict."""
    if len(target) < 2 or target[-1] != END:
        raise ValueError(f"target must be at least one token followed by {END}, got {list(target)!r}")
    reads = [START, *target[:-1]]
    left, top = 64, 24
    column = min(72, (PHONE_COLUMN - left - 4) // len(target))  # a phone's column at full size, text at 11 px
    width = left + len(target) * column + 4
    parts = [defs(ident), text(4, top + 20, "reads", FONT), text(4, top + 100, "predicts", FONT)]
    for i, (read, predicted) in enumerate(zip(reads, target)):
        x = left + i * column
        mid = x + column / 2 - 4
        parts += [text(mid, top - 8, f"position {i + 1}", SMALL, anchor="middle", fill=MUTED),
                  box(mid, top + 2, column - 12, read, height=28), arrow(ident, [(mid, top + 30), (mid, top + 79)]),
                  box(mid, top + 80, column - 12, predicted, height=28, fill=PAPER)]
        if i + 1 < len(target):
            parts.append(arrow(ident, [(x + column - 10, top + 84), (x + column + 2, top + 28)], MUTED))
    height = top + 116
    desc = ("Position by position, the decoder reads " + ", ".join(reads) + " and must predict "
            + ", ".join(target) + ": each position reads the token the position before it must predict, "
            "so no position reads the token it is asked for.")
    picture = svg_image(ident, "Shifted targets: what each decoder position reads and predicts", desc, width,
                        height, background(width, height) + "".join(parts))
    return figure(ident, picture, caption, kind="shifted-targets",
                  values={"target": list(target), "reads": reads, "start": START})
