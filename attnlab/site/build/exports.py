"""A page's downloads become files, their data taken off the page: each table ``exports/<page>-<n>.csv`` and
``.json``, each figure a standalone SVG (``exports/<page>-figure-<n>.svg``)."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from pathlib import Path
from typing import Any

from attnlab.site.figures.palette import NAMED, PAPER
from attnlab.site.figures.svg import num
from attnlab.site.pages.exports import DATA, FOLDER
from attnlab.site.pages.published import COMPUTED_BY

NOTE = ("Full precision: each number is the float64 that attnlab computed, written with the fewest digits that "
        "read back exactly. The page shows the same numbers rounded.")
"""What every JSON export says about its numbers."""
SAFE_NAME = re.compile(rf"{FOLDER}/\w[\w.-]*")
"""An export's file name without its suffix: never outside ``exports/``."""


def csv_text(table: dict[str, Any]) -> str:
    """The table as CSV: a header row, then one line per row; a row of numbers is one cell, ``[a, b]``."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(table["columns"])
    writer.writerows([json.dumps(c) if isinstance(c, list) else c for c in row] for row in table["rows"])  # None: ""
    return out.getvalue()


def json_text(table: dict[str, Any], page_url: str) -> str:
    """The table as JSON, saying where it comes from and what computed it (a line per field and per row)."""
    about = {"guide": "Attention Lab", "page": page_url, "computed_by": COMPUTED_BY, "note": NOTE,
             "caption": table["caption"], "columns": table["columns"]}
    fields = [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}," for key, value in about.items()]
    rows = ",\n".join(f"  {json.dumps(row, ensure_ascii=False, allow_nan=False)}" for row in table["rows"])
    return "{\n" + "\n".join(fields) + f'\n "rows": [\n{rows}\n ]\n}}\n'


FIGURE_RULES = re.compile(r"^\.attnlab-plane-[^{]*\{[^}]*\}", re.M)
"""The stylesheet's rules for marks drawn inside figures by class (the value plane's, shared with the lab)."""
PICTURE = re.compile(r'<svg [^>]*?width="(?P<width>[\d.]+)" height="(?P<height>[\d.]+)".*?</svg>', re.S)
GAP = 16  # between a figure's pictures, side by side in its file
FONT = "Helvetica, Arial, sans-serif"


def figure_style(stylesheet: str) -> str:
    """The rules of ``stylesheet`` that style figures' marks, the palette's colours written in for its names."""
    rules = "\n".join(FIGURE_RULES.findall(stylesheet))
    return re.sub(r"var\(--attnlab-([\w-]+)\)", lambda m: NAMED[m.group(1)], rules)


def standalone(kind: str, values: str, content: str, style: str) -> str:
    """A figure's pictures side by side in one SVG file, with ``style``, ``data-figure`` and ``data-values``."""
    pictures, x, height = [], 0.0, 0.0
    for picture in PICTURE.finditer(content):
        pictures.append(picture.group(0).replace("<svg ", f'<svg x="{num(x)}" ', 1))
        x, height = x + float(picture.group("width")) + GAP, max(height, float(picture.group("height")))
    width = num(x - GAP)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {num(height)}" width="{width}" '
            f'height="{num(height)}" font-family="{FONT}" data-figure="{kind}" data-values="{values}">'
            f'<style>{style}</style><rect width="100%" height="100%" fill="{PAPER}"/>{"".join(pictures)}</svg>\n')


def taken_out(html: str, page_url: str, style: str = "") -> tuple[str, dict[str, str]]:
    """``html`` of the page at ``page_url`` without its tables' data, and the files its download control names
    (``style`` in each figure's); ``ValueError`` for a name outside ``exports/`` or a figure not on the page."""
    files: dict[str, str] = {}

    def take(match: Any) -> str:
        base = unescape(match.group("file"))
        if not SAFE_NAME.fullmatch(base):
            raise ValueError(f"{page_url}: a download names {base!r} as its file: exports are written "
                             f"as {FOLDER}/<name> (letters, digits, '.', '_', '-'), inside the site")
        if match.group("data") is not None:
            table = json.loads(unescape(match.group("data")))
            files[f"{base}.csv"], files[f"{base}.json"] = csv_text(table), json_text(table, page_url)
            return "<li>"
        shown = re.search(rf'<figure [^>]*id="{re.escape(match.group("figure"))}" data-figure="(?P<kind>[^"]*)" '
                          r'data-values="(?P<values>[^"]*)">(?P<content>.*?)<figcaption>', html, re.S)
        if shown is None:
            raise ValueError(f"{page_url}: the download control names figure {match.group('figure')!r}, "
                             "which is not on the page")
        files[f"{base}.svg"] = standalone(shown["kind"], shown["values"], shown["content"], style)
        return "<li>"

    return DATA.sub(take, html), files


def exported(site: Path) -> dict[str, str]:
    """Take every table's data off the built pages of ``site`` (rewriting them); the files their controls name."""
    files: dict[str, str] = {}
    sheet = site / "assets" / "attnlab.css"  # a site of the guide's pages alone (a test's) has no stylesheet
    style = figure_style(sheet.read_text(encoding="utf-8") if sheet.is_file() else "")
    for path in sorted(site.rglob("*.html")):
        lighter, found = taken_out(path.read_text(encoding="utf-8"), path.relative_to(site).as_posix(), style)
        if found:
            path.write_text(lighter, encoding="utf-8")
            files.update(found)
    return files
