"""Numbers to take away: each generated table and weight map downloads as CSV and JSON at full precision.

A page shows its numbers rounded (:mod:`attnlab.text`). The renderers that
print tables (:func:`attnlab.site.render.table`, ``matrix`` and
``weight_map``) follow each one with a hidden marker (:func:`marker`) holding
the same table with exact values: a cell made by ``fmt`` or ``vector`` is a
:class:`~attnlab.text.Rounded` that keeps the float it was rounded from, so
the export comes from the arrays the table was printed from, never from its
rounded text. When the page is finished, the extension calls
:func:`resolve`: each marker becomes a line of two download links, and the
files are published beside the pages as ``exports/<page>-<n>.csv`` and
``.json``. Plain ``<a download>`` links to files work from a server and from
``file://`` alike and cost a page nothing until they are clicked.
"""

from __future__ import annotations

import csv
import io
import json
import math
import posixpath
import re
from collections.abc import Sequence
from html import escape, unescape
from typing import Any

import numpy as np

import attnlab
from attnlab.text import Rounded

FOLDER = "exports"
"""Where the exported files are published, inside the site."""
NOTE = ("Full precision: each number is the float64 that attnlab computed, written with the fewest digits that "
        "read back exactly. The page shows the same numbers rounded.")
"""What every JSON export says about its numbers."""
MARKER = re.compile(r'(?P<p><p>)?<div class="attnlab-export" data-export="(?P<data>[^"]*)"[^>]*></div>(?(p)</p>)')
"""The placeholder :func:`marker` prints, as it stands in the page's HTML: where the output sits in
tabs, Python-Markdown may write ``hidden="hidden"`` and wrap it in a paragraph."""
MARKUP = re.compile(r"\[([^\]]*)\]\([^)]*\)|\*\*(.+?)\*\*|(?<!\w)\*(.+?)\*(?!\w)|`([^`]*)`|\$([^$]*)\$|<[^>]+>")
"""Markdown links, emphasis, code spans, inline math and HTML tags: kept as their text in an export."""

Cell = str | int | float | bool | list[float] | None
"""What one exported cell holds: a number, a row of numbers, or text."""


def plain(text: str) -> str:
    """``text`` without Markdown or HTML markup: ``**grid**`` → ``grid``, ``[CL-001](claims.html)`` → ``CL-001``."""
    previous = None
    while previous != text:  # markup may nest: **`grid`**
        previous, text = text, MARKUP.sub(lambda m: next((g for g in m.groups() if g is not None), ""), text)
    return unescape(text).strip()


def exact(cell: Any, markdown: bool = True) -> Cell:
    """What an export holds for one table cell: the exact value behind a rounded one, else its text.

    Text is Markdown (a Markdown table's cell) unless ``markdown`` is false
    (an HTML table's escaped label), and is exported without its markup.
    Raises ``ValueError`` for a number that is not finite: CSV and JSON
    readers disagree about NaN and infinity, and no page shows them.
    """
    if isinstance(cell, Rounded):
        value = cell.exact
    elif isinstance(cell, (bool, np.bool_)):
        return bool(cell)
    elif isinstance(cell, (int, np.integer)):
        return int(cell)
    elif isinstance(cell, (float, np.floating)):
        value = float(cell)
    else:
        return plain(str(cell)) if markdown else str(cell)
    if not all(math.isfinite(x) for x in np.ravel(value)):
        raise ValueError(f"a table cell shown as {str(cell)!r} is {value}: exports hold finite numbers only")
    return value


def marker(columns: Sequence[Any], rows: Sequence[Sequence[Any]], caption: str = "", markdown: bool = True) -> str:
    """The hidden placeholder printed after a table: its caption, headers and exact cells as escaped JSON.

    ``markdown`` says whether the table's text is Markdown (see :func:`exact`).
    """
    data = {"caption": exact(caption, markdown), "columns": [exact(str(c), markdown) for c in columns],
            "rows": [[exact(cell, markdown) for cell in row] for row in rows]}
    return f'<div class="attnlab-export" data-export="{escape(json.dumps(data), quote=True)}" hidden></div>'


def csv_text(table: dict[str, Any]) -> str:
    """The table as CSV: a header row, then one line per row; a row of numbers is one cell, ``[a, b]``."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(table["columns"])
    writer.writerows([json.dumps(c) if isinstance(c, list) else "" if c is None else c for c in row]
                     for row in table["rows"])
    return out.getvalue()


def json_text(table: dict[str, Any], page_url: str) -> str:
    """The table as JSON, saying where it comes from, what computed it and that the page rounds it.

    One line per field and per table row, so the file reads like the table.
    """
    about = {"guide": "Attention Lab", "page": page_url,
             "computed_by": f"attnlab {attnlab.__version__} with numpy {np.__version__}", "note": NOTE,
             "caption": table["caption"], "columns": table["columns"]}
    fields = [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}," for key, value in about.items()]
    rows = ",\n".join(f"  {json.dumps(row, ensure_ascii=False, allow_nan=False)}" for row in table["rows"])
    return "{\n" + "\n".join(fields) + f'\n "rows": [\n{rows}\n ]\n}}\n'


def links(csv_href: str, json_href: str) -> str:
    """The line under a table that downloads it."""
    return (f'<p class="attnlab-export">Full precision (the page rounds): '
            f'<a href="{escape(csv_href)}" download>CSV</a> · <a href="{escape(json_href)}" download>JSON</a></p>')


def resolve(html: str, page: str) -> tuple[str, dict[str, str]]:
    """``html`` of ``page`` (its path in ``docs/``) with every marker turned into links, and the files to publish.

    The files are numbered in page order: the n-th exported table of
    ``mixing.md`` is ``exports/mixing-n.csv`` and ``exports/mixing-n.json``.
    """
    stem = page.removesuffix(".md").replace("/", "-")
    page_url = page.removesuffix(".md") + ".html"
    files: dict[str, str] = {}

    def publish(match: re.Match[str]) -> str:
        table = json.loads(unescape(match.group("data")))
        base = f"{FOLDER}/{stem}-{len(files) // 2 + 1}"
        files[f"{base}.csv"], files[f"{base}.json"] = csv_text(table), json_text(table, page_url)
        here = posixpath.dirname(page) or "."
        return links(posixpath.relpath(f"{base}.csv", here), posixpath.relpath(f"{base}.json", here))

    return MARKER.sub(publish, html), files
