"""Turn computed arrays into what a page shows: labelled matrices, weight maps, the block diagram.

Chapters call these inside build-time code blocks and ``print`` the result;
markdown-exec then parses it as Markdown (HTML passes through). Numbers are
rounded only for display (``attnlab.text``); the arrays keep full precision.
Every table and weight map printed here is followed by its export marker, so
the page offers it for download at full precision (:mod:`attnlab.site.pages.exports`).
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import numpy as np

from attnlab import text
from attnlab.checks import as_mask
from attnlab.site.pages.exports import marker
from attnlab.text import fmt


def one_label_each(name: str, labels: Sequence[str], count: int, what: str) -> None:
    """Raise unless ``labels`` names each of ``count`` rows or columns (``zip`` would drop the rest silently)."""
    if len(labels) != count:
        raise ValueError(f"{name} has {len(labels)} labels but there are {count} {what}")


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], caption: str = "") -> str:
    """A Markdown table (``attnlab.text.table``) that the page offers for download at full precision.

    Cells are used as given: a number made by ``fmt`` or ``vector`` is
    exported exactly, other text as it reads (``caption`` names the export).
    """
    return f"{text.table(headers, rows)}\n{marker(headers, rows, caption)}\n"


def matrix(m: Any, row_labels: Sequence[str], col_labels: Sequence[str],
           corner: str = "token", decimals: int = 3) -> str:
    """A labelled matrix as a Markdown table (rows are tokens, columns features or keys).

    ``corner`` heads the label column; it is never empty, so screen readers
    announce what the row labels are.
    """
    if not corner.strip():
        raise ValueError("corner must name the row labels (an empty header cell is unlabelled for screen readers)")
    values = np.atleast_2d(m)
    one_label_each("row_labels", row_labels, values.shape[0], "rows")
    one_label_each("col_labels", col_labels, values.shape[1], "columns")
    rows = [[f"**{label}**", *(fmt(x, decimals) for x in row)]
            for label, row in zip(row_labels, values)]
    return table([corner, *col_labels], rows)


WIDE_MAP = 6
"""Maps with more keys than this get compact cells and a tab stop on their box, which scrolls sideways on a phone."""
WIDE_COMPACT_MAP = 10
"""The same for maps drawn ``compact``, whose narrow cells fit more keys in a phone's text column."""


def weight_map(weights: Any, queries: Sequence[str], keys: Sequence[str], caption: str,
               visible: Any = None, decimals: int = 3, corner: str = "query \\ key",
               compact: bool = False) -> str:
    """An accessible HTML attention map: one row per query, one cell per key.

    Each cell carries its number and a ``--w`` style variable (the weight)
    that the stylesheet turns into a shade; blocked keys read "blocked".
    The table sits in a box that scrolls sideways where the column is too
    narrow for it.
    ``corner`` names what the rows and columns are (rows may be settings).
    ``compact`` draws smaller type and narrow cells with the keys written
    upwards, so a map of a short sentence fits the text column, even a phone's.
    """
    w = np.atleast_2d(weights)
    one_label_each("queries", queries, w.shape[0], "rows of weights")
    one_label_each("keys", keys, w.shape[1], "columns of weights")
    mask = np.atleast_2d(np.ones(w.shape, dtype=bool) if visible is None
                         else as_mask("visible", visible, np.shape(weights)))
    head = "".join(f'<th scope="col">{escape(k)}</th>' for k in keys)
    shown = [[fmt(x, decimals) if ok else "blocked" for x, ok in zip(row, seen)] for row, seen in zip(w, mask)]
    body = []
    for label, row, seen, cells in zip(queries, w, mask, shown):
        tds = "".join(f'<td style="--w:{x:.4f}">{cell}</td>' if ok else f'<td class="blocked">{cell}</td>'
                      for x, ok, cell in zip(row, seen, cells))
        body.append(f'<tr><th scope="row">{escape(label)}</th>{tds}</tr>')
    wide = len(keys) > (WIDE_COMPACT_MAP if compact else WIDE_MAP)
    classes = "attn-map" + (" compact" if compact else "") + (" attn-map-wide" if wide else "")
    html = (
        f'<table class="{classes}"><caption>{escape(caption)}</caption>'
        f'<thead><tr><td class="corner">{escape(corner)}</td>{head}</tr></thead>'
        f'<tbody>{"".join(body)}</tbody></table>'
    )
    # Every map scrolls inside its own box when the column is too narrow (a phone). A wide map surely
    # will, so its box is a tab stop from the start; scroll-boxes.js gives any other box one when it scrolls.
    focusable = f' tabindex="0" role="group" aria-label="{escape(caption)}"' if wide else ""
    exported = [[label, *cells] for label, cells in zip(queries, shown)]
    return (f'<div class="attn-map-scroll"{focusable}>{html}</div>\n'
            f"{marker([corner, *keys], exported, caption, markdown=False)}\n")


BLOCK_STEPS: dict[str, tuple[tuple[str, str], ...]] = {
    "post": (("in", "input rows x"), ("split", ""), ("box", "Multi-head self-attention"),
             ("drop", "Dropout (training only)"), ("add", ""), ("box", "Layer norm"), ("split", ""),
             ("box", "Feed-forward (each row alone)"), ("drop", "Dropout (training only)"), ("add", ""),
             ("box", "Layer norm"), ("out", "output rows")),
    "pre": (("in", "input rows x"), ("split", ""), ("box", "Layer norm"),
            ("box", "Multi-head self-attention"), ("drop", "Dropout (training only)"), ("add", ""),
            ("split", ""), ("box", "Layer norm"), ("box", "Feed-forward (each row alone)"),
            ("drop", "Dropout (training only)"), ("add", ""), ("final", "Layer norm, after the last block"),
            ("out", "output rows")),
}
"""The encoder block's steps from input to output, per layer-norm placement; a Pre-LN stack
adds one layer norm after its last block only (claim CL-039), drawn with a dotted outline."""


def block_diagram(order: str = "post") -> str:
    """An accessible inline SVG of one encoder block (Post-LN or Pre-LN), with no numbers.

    Boxes are sublayers, circles the residual additions, the line on the left
    the residual path around each sublayer; dashed boxes act only in training,
    the dotted one (Pre-LN) only after the stack's last block.
    Self-contained markup on one line, so Markdown passes it through untouched.
    """
    if order not in BLOCK_STEPS:
        raise ValueError(f"order must be one of {sorted(BLOCK_STEPS)}, got {order!r}")
    name = "Post-LN (the original order)" if order == "post" else "Pre-LN (a later variant)"
    heights = {"in": 20, "out": 20, "split": 4, "box": 34, "drop": 30, "final": 34, "add": 24}
    cx, left, gap = 190, 40, 18
    parts, ys, y, branch = [], [], 10, 0.0
    for kind, _ in BLOCK_STEPS[order]:
        ys.append((y, y + heights[kind]))
        y += heights[kind] + gap
    for i, ((kind, label), (top, bottom)) in enumerate(zip(BLOCK_STEPS[order], ys)):
        mid = (top + bottom) / 2
        if i:
            arrow = "" if kind == "split" else f' marker-end="url(#arrow-{order})"'
            parts.append(f'<line x1="{cx}" y1="{ys[i - 1][1]}" x2="{cx}" y2="{top}" '
                         f'stroke="#3f51b5" stroke-width="1.5"{arrow}/>')
        if kind in ("box", "drop", "final"):
            dash = {"drop": ' stroke-dasharray="5 4" fill="none"', "final": ' stroke-dasharray="2 3" fill="#fff"',
                    "box": ' fill="#e8eaf6"'}[kind]
            parts.append(f'<rect x="{cx - 120}" y="{top}" width="240" height="{bottom - top}" rx="6" '
                         f'stroke="#3f51b5"{dash}/>')
        if kind == "split":
            branch = mid
            parts.append(f'<circle cx="{cx}" cy="{mid}" r="3" fill="#3f51b5"/>')
        if kind == "add":
            parts.append(f'<circle cx="{cx}" cy="{mid}" r="12" fill="#fff" stroke="#3f51b5"/><text x="{cx}" '
                         f'y="{mid + 5}" text-anchor="middle" font-size="18" fill="#1a1a1a">+</text>')
            parts.append(f'<polyline points="{cx},{branch} {left},{branch} {left},{mid} {cx - 12},{mid}" '
                         f'fill="none" stroke="#5c6bc0" marker-end="url(#arrow-{order})"/>')
        elif label:
            parts.append(f'<text x="{cx}" y="{mid + 5}" text-anchor="middle" font-size="14" fill="#1a1a1a">'
                         f'{escape(label)}</text>')
    title_id, desc_id = f"block-{order}-title", f"block-{order}-desc"
    flow = ", then ".join(label or ("add the residual" if kind == "add" else "branch the residual")
                          for kind, label in BLOCK_STEPS[order])
    return (
        f'<figure class="block-diagram"><svg role="img" aria-labelledby="{title_id} {desc_id}" '
        f'viewBox="0 0 330 {y}" width="330" height="{y}" style="max-width: 100%; height: auto" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{title_id}">Encoder block, {escape(name)}</title>'
        f'<desc id="{desc_id}">From top to bottom: {escape(flow)}.</desc>'
        f'<defs><marker id="arrow-{order}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#3f51b5"/></marker></defs>'
        f'{"".join(parts)}</svg><figcaption>{escape(name)}</figcaption></figure>\n'
    )
