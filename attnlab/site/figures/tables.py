"""Tables, labelled matrices and weight maps, rounded for display, each followed by its export marker."""

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
    """A Markdown table (``attnlab.text.table``) that the page offers for download at full precision."""
    return f"{text.table(headers, rows)}\n{marker(headers, rows, caption)}\n"


def matrix(m: Any, row_labels: Sequence[str], col_labels: Sequence[str],
           corner: str = "token", decimals: int = 3) -> str:
    """A labelled matrix as a Markdown table (rows are tokens, columns features or keys)."""
    if not corner.strip():
        raise ValueError("corner must name the row labels (an empty header cell is unlabelled for screen readers)")
    values = np.atleast_2d(m)
    one_label_each("row_labels", row_labels, values.shape[0], "rows")
    one_label_each("col_labels", col_labels, values.shape[1], "columns")
    rows = [[f"**{label}**", *(fmt(x, decimals) for x in row)] for label, row in zip(row_labels, values)]
    return table([corner, *col_labels], rows)


WIDE_MAP, WIDE_COMPACT_MAP = 6, 10  # more keys than this (compact maps: the second) get a tab stop on their box


def weight_map(weights: Any, queries: Sequence[str], keys: Sequence[str], caption: str, visible: Any = None,
               decimals: int = 3, corner: str = "query \\ key", compact: bool = False) -> str:
    """An accessible HTML map, each number on its shade (``--w``) or "blocked", in a sideways-scrolling box."""
    w = np.atleast_2d(weights)
    one_label_each("queries", queries, w.shape[0], "rows of weights")
    one_label_each("keys", keys, w.shape[1], "columns of weights")
    mask = np.atleast_2d(np.ones(w.shape, bool) if visible is None else as_mask("visible", visible, np.shape(weights)))
    head = "".join(f'<th scope="col">{escape(k)}</th>' for k in keys)
    shown = [[fmt(x, decimals) if ok else "blocked" for x, ok in zip(row, seen)] for row, seen in zip(w, mask)]
    body = []
    for label, row, seen, cells in zip(queries, w, mask, shown):
        tds = "".join(f'<td style="--w:{x:.4f}">{cell}</td>' if ok else f'<td class="blocked">{cell}</td>'
                      for x, ok, cell in zip(row, seen, cells))
        body.append(f'<tr><th scope="row">{escape(label)}</th>{tds}</tr>')
    wide = len(keys) > (WIDE_COMPACT_MAP if compact else WIDE_MAP)
    classes = "attn-map" + (" compact" if compact else "") + (" attn-map-wide" if wide else "")
    html = (f'<table class="{classes}"><caption>{escape(caption)}</caption><thead><tr><td class="corner">'
            f'{escape(corner)}</td>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')
    # a wide map will scroll on a phone, so its box is a tab stop from the start (scroll-boxes.js: any that scrolls)
    focusable = f' tabindex="0" role="group" aria-label="{escape(caption)}"' if wide else ""
    exported = [[label, *cells] for label, cells in zip(queries, shown)]
    return (f'<div class="attn-map-scroll"{focusable}>{html}</div>\n'
            f"{marker([corner, *keys], exported, caption, markdown=False)}\n")
