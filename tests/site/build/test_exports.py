"""Every generated table and weight map downloads as CSV and JSON, at full precision, from where it stands.

Unit tests pass renderer output through Python-Markdown, the page's
``exports.resolve`` and the post-build pass's ``taken_out`` as the build does;
the rest read the session's built site.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import markdown
import pytest
from sites import DOCS
from test_site import pages

from attnlab.lab import TOKENS, compute
from attnlab.site.build.exports import taken_out
from attnlab.site.figures.tables import matrix, table, weight_map
from attnlab.site.pages import exports as export
from attnlab.text import Rounded, fmt, vector

THIRD = 1 / 3


def built(text: str, page: str = "mixing.md") -> tuple[str, dict[str, str]]:
    """Renderer output converted as a page is (Markdown with tables and HTML blocks), resolved, and the
    finished page's tables taken out as the post-build pass does: the page and the files it makes."""
    html = export.resolve(markdown.markdown(text, extensions=["tables", "md_in_html"]), page)
    return taken_out(html, page.removesuffix(".md") + ".html")


def rows_of(files: dict[str, str], name: str) -> list[list[str]]:
    """The CSV file ``name`` of ``files``, parsed."""
    return list(csv.reader(io.StringIO(files[name])))


# --- what a cell exports ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "plain"), [
    ("**grid**", "grid"), ("`rises`", "rises"), ("*n*", "n"), ("[CL-001](claims.html#cl-001)", "CL-001"),
    ("**`grid`**", "grid"), ("$d_k$", "d_k"), ("a &amp; b", "a & b"), ("row <br>two", "row two"),
])
def test_markup_is_exported_as_the_text_it_shows(text: str, plain: str) -> None:
    assert export.plain(text) == plain


def test_a_rounded_cell_exports_its_exact_value() -> None:
    assert export.exact(fmt(THIRD)) == THIRD and export.exact(vector([THIRD, 1])) == [THIRD, 1.0]


def test_numbers_given_as_numbers_export_as_python_numbers() -> None:
    import numpy as np
    assert [export.exact(x) for x in (np.int64(3), np.float64(0.5), np.bool_(True))] == [3, 0.5, True]


def test_html_text_is_exported_as_written() -> None:
    assert export.exact("<b>", markdown=False) == "<b>"


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), Rounded("[1.000, -inf]", [1.0, float("-inf")])])
def test_a_cell_that_is_not_a_finite_number_is_refused_naming_it(bad: Any) -> None:
    with pytest.raises(ValueError, match="exports hold finite numbers only"):
        export.exact(bad)


# --- from renderer to links and files ----------------------------------------------------------------------


def test_a_table_is_followed_by_csv_and_json_links() -> None:
    html, _ = built(table(["key", "weight"], [["grid", fmt(THIRD)]]))
    assert re.search(r'</table>\s*<p class="attnlab-export"[^>]*>.*<a href="exports/mixing-1.csv" download[^>]*>CSV<'
                     r'.*<a href="exports/mixing-1.json" download[^>]*>JSON<.*</p>', html, re.S)


def test_each_link_says_what_it_downloads_and_the_control_that_the_page_rounds() -> None:
    html, _ = built(table(["a"], [[fmt(THIRD)]]))
    names = re.findall(r' download>(CSV|JSON)<span class="attnlab-sr"> ([^<]*)</span></a>', html)
    assert names == [("CSV", "of this table, every digit"), ("JSON", "of this table, every digit")]
    assert re.search(r'<p class="attnlab-export" title="[^"]*page rounds[^"]*">', html), "the tooltip is kept"


def test_the_control_replaces_the_sentence_under_every_table() -> None:
    html, _ = built(table(["a"], [[fmt(THIRD)]]))
    assert "Full precision (the page rounds)" not in html


def test_the_csv_holds_the_exact_numbers_behind_the_rounded_ones() -> None:
    _, files = built(table(["key", "weight", "value"], [["**grid**", fmt(THIRD), vector([THIRD, 2])]]))
    assert rows_of(files, "exports/mixing-1.csv") == [["key", "weight", "value"],
                                                      ["grid", repr(THIRD), f"[{THIRD!r}, 2.0]"]]


def test_the_json_holds_the_table_and_says_the_page_rounds() -> None:
    _, files = built(table(["key", "weight"], [["grid", fmt(THIRD)]], caption="Weights"))
    data = json.loads(files["exports/mixing-1.json"])
    assert (data["page"], data["caption"], data["columns"], data["rows"]) == (
        "mixing.html", "Weights", ["key", "weight"], [["grid", THIRD]])
    assert "rounded" in data["note"] and data["computed_by"].startswith("attnlab ")


def test_tables_are_numbered_in_page_order() -> None:
    html, files = built(table(["a"], [[fmt(1)]]) + "\ntext\n\n" + table(["b"], [[fmt(2)]]))
    assert sorted(files) == [f"exports/mixing-{n}.{kind}" for n in (1, 2) for kind in ("csv", "json")]
    assert html.index("mixing-1.csv") < html.index("mixing-2.csv")
    assert json.loads(files["exports/mixing-2.json"])["rows"] == [[2.0]]


@pytest.mark.parametrize("name", ["../../../ESCAPED", "/tmp/ESCAPED", "exports/../../ESCAPED", "ESCAPED"])
def test_a_download_naming_a_file_outside_the_exports_folder_is_refused_naming_the_page(name: str) -> None:
    html = export.resolve(markdown.markdown(table(["a"], [[fmt(1)]]), extensions=["tables", "md_in_html"]),
                          "mixing.md")
    changed = html.replace('data-export-file="exports/mixing-1"', f'data-export-file="{name}"')
    with pytest.raises(ValueError, match=rf"^mixing\.html: a table's download names '{re.escape(name)}' as its"):
        taken_out(changed, "mixing.html")


def test_a_page_in_a_folder_links_up_to_the_exports() -> None:
    html, files = built(table(["a"], [[fmt(1)]]), page="more/page.md")
    assert 'href="../exports/more-page-1.csv"' in html and "exports/more-page-1.csv" in files


def test_a_marker_wrapped_by_markdown_in_a_paragraph_leaves_no_empty_paragraph() -> None:
    marker = export.marker(["a"], [[fmt(1)]]).replace(" hidden>", ' hidden="hidden">')
    html = export.resolve(f"<p>{marker}</p>", "mixing.md")
    assert html.startswith('<p class="attnlab-export" data-export=') and "<p><p" not in html and "</p></p>" not in html


def test_a_marker_inside_a_sentence_keeps_the_sentence_whole() -> None:
    html = export.resolve(f"<p>Before {export.marker(['a'], [[fmt(1)]])}</p>", "mixing.md")
    assert html.startswith("<p>Before <p") and html.endswith("</p></p>")


def test_a_matrix_exports_its_exact_entries_under_its_labels() -> None:
    _, files = built(matrix([[THIRD, 1.0]], ["grid"], ["x", "y"]))
    assert rows_of(files, "exports/mixing-1.csv") == [["token", "x", "y"], ["grid", repr(THIRD), "1.0"]]


def test_a_weight_map_exports_exact_weights_and_blocked_keys() -> None:
    r = compute("load")
    _, files = built(weight_map(r.weight_map, TOKENS, TOKENS, "Map", visible=[[True, False, False],
                                                                            [True, True, False],
                                                                            [True, True, True]]))
    data = json.loads(files["exports/mixing-1.json"])
    assert data["caption"] == "Map" and data["columns"] == ["query \\ key", *TOKENS]
    assert data["rows"][1] == ["load", *r.weight_map[1][:2], "blocked"]


# --- the built site ------------------------------------------------------------------------------------------

TABLE_LINE = re.compile(r"^\|.*\|[ \t]*\n\|[-:| \t]+\|[ \t]*$", re.M)
"""A hand-written Markdown table's header and rule lines."""
CODE = re.compile(r"^([ \t]*)(`{3,})[^\n]*\n.*?^\1\2[ \t]*$", re.M | re.S)
DOCSTRING_TABLE = re.compile(r'<table>(?:(?!<table).)*?<tbody>\s*<tr class="doc-section-item">', re.S)
"""A table mkdocstrings writes for a docstring's parameters or returns (Reference page): not numbers."""


def hand_written_tables(page: str) -> int:
    """How many Markdown tables the page's source writes by hand, outside code blocks."""
    source = (DOCS / page.replace(".html", ".md")).read_text(encoding="utf-8")
    return len(TABLE_LINE.findall(CODE.sub("", source)))


def test_every_generated_table_on_every_page_offers_its_numbers(built_site: Path) -> None:
    missing = {}
    for page in pages(built_site):
        html = page.read_text(encoding="utf-8")
        tables = len(re.findall(r'<table>|<table class="attn-map[ "]', html)) - len(DOCSTRING_TABLE.findall(html))
        exported = len(re.findall(r'</table>\s*(?:</div>\s*)?<p class="attnlab-export"[ >]', html))
        if page.name != "404.html" and tables - exported != hand_written_tables(page.name):
            missing[page.name] = (tables, exported)
    assert missing == {}


def test_no_export_marker_is_left_on_any_page(built_site: Path) -> None:
    assert [p.name for p in pages(built_site) if "data-export=" in p.read_text(encoding="utf-8")] == []


ROUNDED_IN_TEXT = re.compile(r"(?<![§.\d])(?:\d{1,3}(?:,\d{3})+|-?\d+\.\d+)(?![.\d])")
"""A number with a decimal point or thousands separators inside text: what a rounded number looks like.
Section locators (§3.2.1, "§§3.1, 3.4") are text and are left out."""


def test_every_exported_number_is_a_number_not_rounded_text(built_site: Path) -> None:
    rounded = {}
    for path in sorted((built_site / "exports").glob("*.json")):
        rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
        found = [cell for row in rows for cell in row[1:]  # the first column labels the rows
                 if isinstance(cell, str) and "§" not in cell and ROUNDED_IN_TEXT.search(cell)]
        if found:
            rounded[path.name] = found
    assert rounded == {}


def test_the_toy_states_export_exactly_from_the_home_page(built_site: Path) -> None:
    rows = list(csv.reader(io.StringIO((built_site / "exports" / "index-1.csv").read_text(encoding="utf-8"))))
    assert rows == [["token", "feature 1", "feature 2"], ["grid", "1.0", "0.0"], ["load", "0.0", "1.0"],
                    ["rises", "1.0", "1.0"]]
