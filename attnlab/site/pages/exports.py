"""One download control per page for its tables (CSV, JSON) and figures (SVG): each table is followed by a hidden
:func:`marker` holding its exact values; :func:`resolve` takes the markers out and ends the page with the control;
the post-build pass (:mod:`attnlab.site.build.exports`) writes the files under ``exports/``."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from html import escape, unescape
from typing import Any

import numpy as np

from attnlab.site.pages.practice import slug
from attnlab.site.pages.running import link
from attnlab.text import Rounded

FOLDER = "exports"
MARKER = re.compile(r'(?P<p><p>)?<div class="attnlab-export" data-export="(?P<data>[^"]*)"[^>]*></div>(?(p)</p>)')
""":func:`marker`'s placeholder in the page (in tabs, Python-Markdown may wrap it in a paragraph)."""
MARKUP = re.compile(r"\[([^\]]*)\]\([^)]*\)|\*\*(.+?)\*\*|(?<!\w)\*(.+?)\*(?!\w)|`([^`]*)`|\$([^$]*)\$|<[^>]+>")
"""Markdown links, emphasis, code spans, inline math and HTML tags: an export keeps their text."""

Cell = str | int | float | bool | list[float] | None


def plain(text: str) -> str:
    """``text`` without Markdown or HTML markup: ``**grid**`` → ``grid``, ``[CL-001](claims.html)`` → ``CL-001``."""
    previous = None
    while previous != text:  # markup may nest: **`grid`**
        previous, text = text, MARKUP.sub(lambda m: next((g for g in m.groups() if g is not None), ""), text)
    return unescape(text).strip()


def exact(cell: Any, markdown: bool = True) -> Cell:
    """What an export holds for one table cell: the exact value behind a rounded one, else its text."""
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
    """The hidden placeholder printed after a table: its caption, headers and exact cells as escaped JSON."""
    data = {"caption": exact(caption, markdown), "columns": [exact(str(c), markdown) for c in columns],
            "rows": [[exact(cell, markdown) for cell in row] for row in rows]}
    return f'<div class="attnlab-export" data-export="{escape(json.dumps(data), quote=True)}" hidden></div>'


FIGURE = re.compile(r'<figure class="attnlab-figure[^"]*" id="(?P<ident>[^"]*)"[^>]*>.*?'
                    r"<figcaption>(?P<caption>.*?)</figcaption></figure>", re.S)
"""A figure as :func:`attnlab.site.figures.svg.figure` writes it."""
PARTS = re.compile(f"{MARKER.pattern}|{FIGURE.pattern}", re.S)
DATA = re.compile(r'<li (?:data-export="(?P<data>[^"]*)"|data-export-figure="(?P<figure>[^"]*)") '
                  r'data-export-file="(?P<file>[^"]*)">')
"""An entry of the control carrying its table or naming its figure, for the post-build pass."""
HEADER_CELL = re.compile(r"<th(?:\s[^>]*)?>(.*?)</th>", re.S)
WHY = "The page rounds; the CSV and JSON files have every digit"


def entry(name: str, label: str, carries: str, base: str, page: str, kinds: Sequence[str]) -> str:
    """One line of the control on ``page``: ``name`` (HTML), then a link per file kind, named "CSV of ``label``"."""
    links = " ".join(link(page, f"{base}.{kind}", f'{kind.upper()}<span class="attnlab-sr"> of {label}</span>')
                     for kind in kinds)
    return f'<li {carries} data-export-file="{escape(base)}">{name} {links}</li>'


def resolve(html: str, page: str) -> str:
    """``html`` of ``page`` without its tables' markers, ending in its download control if it has a table or figure:
    the n-th table of ``mixing.md`` is ``exports/mixing-n.csv`` and ``.json``, its n-th figure ``…-figure-n.svg``."""
    stem = slug(page)
    tables: list[str] = []
    figures: list[str] = []

    def take(match: re.Match[str]) -> str:
        if match.group("data") is not None:
            caption, n = json.loads(unescape(match.group("data")))["caption"], len(tables) + 1
            head = html.rfind("<thead", 0, match.start())  # else named by the last table's header as shown
            name = escape(caption) or (", ".join(HEADER_CELL.findall(html, head, html.find("</thead>", head)))
                                       if head >= 0 else "")
            tables.append(entry(f"Table {n}: {name}", f"table {n}", f'data-export="{match.group("data")}"',
                                f"{FOLDER}/{stem}-{n}", page, ("csv", "json")))
            return ""
        n = len(figures) + 1
        figures.append(entry(f"Figure {n}: {match.group('caption')}", f"figure {n}",
                             f'data-export-figure="{match.group("ident")}"', f"{FOLDER}/{stem}-figure-{n}", page,
                             ("svg",)))
        return match.group(0)

    html = PARTS.sub(take, html)
    what = " and ".join(kind for kind, found in (("tables", tables), ("figures", figures)) if found)
    return html + (f'<details class="attnlab-downloads" title="{WHY}"><summary>Download this page\'s {what}</summary>'
                   f'<ul>{"".join(tables + figures)}</ul></details>\n' if what else "")
