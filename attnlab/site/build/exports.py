"""The tables' downloads: each download line a page carries becomes two files, and leaves the page lighter.

A page's download line (:func:`attnlab.site.pages.exports.links`) carries its
table, exact values and all, until the build is done. This pass reads it out
of every built page, writes ``exports/<page>-<n>.csv`` and ``.json``, and takes
the data off the page, which then weighs what it shows.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import numpy as np

import attnlab
from attnlab.site.pages.exports import DATA, FOLDER

NOTE = ("Full precision: each number is the float64 that attnlab computed, written with the fewest digits that "
        "read back exactly. The page shows the same numbers rounded.")
"""What every JSON export says about its numbers."""
SAFE_NAME = re.compile(rf"{FOLDER}/\w[\w.-]*")
"""An export's file name without its suffix, as :func:`attnlab.site.pages.exports.resolve` writes it: the
page's HTML could be given another (``../../x``), and the pass must not write outside ``exports/``."""


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


def taken_out(html: str, page_url: str) -> tuple[str, dict[str, str]]:
    """``html`` of the page at ``page_url`` without its tables' data, and the files that data makes.

    Raises ``ValueError`` naming the page for a file name outside ``exports/``.
    """
    files: dict[str, str] = {}

    def take(match: Any) -> str:
        table = json.loads(unescape(match.group("data")))
        base = unescape(match.group("file"))
        if not SAFE_NAME.fullmatch(base):
            raise ValueError(f"{page_url}: a table's download names {base!r} as its file: exports are written "
                             f"as {FOLDER}/<name> (letters, digits, '.', '_', '-'), inside the site")
        files[f"{base}.csv"], files[f"{base}.json"] = csv_text(table), json_text(table, page_url)
        return f'<p class="attnlab-export"{match.group("rest")}>'

    return DATA.sub(take, html), files


def exported(site: Path) -> dict[str, str]:
    """Take every table's data off the built pages of ``site`` (rewriting them); the export files it makes."""
    files: dict[str, str] = {}
    for path in sorted(site.rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        lighter, found = taken_out(html, path.relative_to(site).as_posix())
        if found:
            path.write_text(lighter, encoding="utf-8")
            files.update(found)
    return files
