"""Numbers to take away: each generated table and weight map downloads as CSV and JSON at full precision.

A page shows its numbers rounded (:mod:`attnlab.text`). The renderers that
print tables (:func:`attnlab.site.figures.tables.table`, ``matrix`` and
``weight_map``) follow each one with a hidden marker (:func:`marker`) holding
the same table with exact values: a cell made by ``fmt`` or ``vector`` is a
:class:`~attnlab.text.Rounded` that keeps the float it was rounded from, so
the export comes from the arrays the table was printed from, never from its
rounded text. When the page is finished, the plugin calls
:func:`resolve`: each marker becomes a compact control of two download links to
``exports/<page>-<n>.csv`` and ``.json``, which carries the table's data
until the post-build pass writes those files and takes the data off the
page (:mod:`attnlab.site.build.exports`). Plain ``<a download>`` links to
files work from a server and from ``file://`` alike and cost a page nothing
until they are clicked.
"""

from __future__ import annotations

import json
import math
import posixpath
import re
from collections.abc import Sequence
from html import escape, unescape
from typing import Any

import numpy as np

from attnlab.text import Rounded

FOLDER = "exports"
"""Where the exported files are published, inside the site."""
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


DATA = re.compile(r'<p class="attnlab-export" data-export="(?P<data>[^"]*)" data-export-file="(?P<file>[^"]*)"'
                  r'(?P<rest>[^>]*)>')
"""A download line still carrying its table, as :func:`links` writes it and the post-build pass reads it."""


WHAT = "of this table, every digit"
"""What each download link holds, said to a screen reader after the link's visible name (CSV, JSON)."""
WHY = "The page rounds; the file has every digit"
"""The control's tooltip."""


def links(csv_href: str, json_href: str, data: str, file: str) -> str:
    """The control under a table that downloads it, carrying the table (escaped JSON) to be published as ``file``.

    Compact, so it stays out of the reading line: an arrow and the two
    formats' names, with one tooltip. Each link's accessible name says what
    it downloads ("CSV of this table, every digit"), its visible name first.
    """
    def link(href: str, kind: str) -> str:
        return f'<a href="{escape(href)}" download>{kind}<span class="attnlab-sr"> {WHAT}</span></a>'

    return (f'<p class="attnlab-export" data-export="{data}" data-export-file="{escape(file)}" title="{WHY}">'
            f'<span aria-hidden="true">↓</span>{link(csv_href, "CSV")}{link(json_href, "JSON")}</p>')


def resolve(html: str, page: str) -> str:
    """``html`` of ``page`` (its path in ``docs/``) with every marker turned into its download line.

    The files are numbered in page order: the n-th exported table of
    ``mixing.md`` is ``exports/mixing-n.csv`` and ``exports/mixing-n.json``.
    """
    stem = page.removesuffix(".md").replace("/", "-")
    here = posixpath.dirname(page) or "."
    count = 0

    def line(match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        base = f"{FOLDER}/{stem}-{count}"
        return links(posixpath.relpath(f"{base}.csv", here), posixpath.relpath(f"{base}.json", here),
                     match.group("data"), base)

    return MARKER.sub(line, html)
