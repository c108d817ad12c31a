"""Turn computed arrays into what a page shows: numbers, Markdown tables, weight maps.

Chapters call these inside build-time code blocks and ``print`` the result;
markdown-exec then parses it as Markdown (HTML passes through). Numbers are
rounded only here, for display; the arrays keep full precision.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

import numpy as np


def fmt(x: float, decimals: int = 3) -> str:
    """A number with a fixed count of decimals; never prints "-0.000"."""
    text = f"{float(x):.{decimals}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def vector(v: Any, decimals: int = 3) -> str:
    """A row vector as ``[a, b, c]`` with fixed decimals."""
    return "[" + ", ".join(fmt(x, decimals) for x in np.ravel(v)) + "]"


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table; cells are used as given (format numbers first)."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def matrix(m: Any, row_labels: Sequence[str], col_labels: Sequence[str],
           corner: str = "", decimals: int = 3) -> str:
    """A labelled matrix as a Markdown table (rows are tokens, columns features or keys)."""
    rows = [[f"**{label}**", *(fmt(x, decimals) for x in row)]
            for label, row in zip(row_labels, np.atleast_2d(m))]
    return table([corner, *col_labels], rows)


def weight_map(weights: Any, queries: Sequence[str], keys: Sequence[str], caption: str,
               visible: Any = None, decimals: int = 3) -> str:
    """An accessible HTML attention map: one row per query, one cell per key.

    Each cell carries its number and a ``--w`` style variable (the weight)
    that the stylesheet turns into a shade; blocked keys read "blocked".
    """
    w = np.atleast_2d(weights)
    mask = np.ones(w.shape, dtype=bool) if visible is None else np.atleast_2d(visible)
    head = "".join(f'<th scope="col">{escape(k)}</th>' for k in keys)
    body = []
    for label, row, seen in zip(queries, w, mask):
        cells = "".join(
            f'<td style="--w:{x:.4f}">{fmt(x, decimals)}</td>' if ok
            else '<td class="blocked">blocked</td>'
            for x, ok in zip(row, seen)
        )
        body.append(f'<tr><th scope="row">{escape(label)}</th>{cells}</tr>')
    return (
        f'<table class="attn-map"><caption>{escape(caption)}</caption>'
        f'<thead><tr><td class="corner">query \\ key</td>{head}</tr></thead>'
        f'<tbody>{"".join(body)}</tbody></table>\n'
    )
