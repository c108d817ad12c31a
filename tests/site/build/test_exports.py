"""Every generated table and weight map downloads as CSV and JSON, at full precision, and each figure as SVG."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from itertools import groupby
from pathlib import Path
from xml.etree import ElementTree

import markdown
import numpy as np
import pytest
from sites import DOCS
from test_figures_site import scan
from test_site import pages

import attnlab
from attnlab import causal
from attnlab.lab import TOKENS, compute
from attnlab.site.build.exports import figure_style, taken_out
from attnlab.site.figures.palette import TINT
from attnlab.site.figures.svg import figure, svg_image
from attnlab.site.figures.tables import matrix, table, weight_map
from attnlab.site.pages import exports as export
from attnlab.text import Rounded, fmt, vector

THIRD = 1 / 3
SVG = "http://www.w3.org/2000/svg"


def built(text: str, page: str = "mixing.md") -> tuple[str, dict[str, str]]:
    """Renderer output converted as a page is (Markdown with tables and HTML blocks), resolved, and the
    finished page's tables taken out as the post-build pass does: the page and the files it makes."""
    html = export.resolve(markdown.markdown(text, extensions=["tables", "md_in_html"]), page)
    return taken_out(html, page.removesuffix(".md") + ".html")


def rows_of(files: dict[str, str], name: str) -> list[list[str]]:
    """The CSV file ``name`` of ``files``, parsed."""
    return list(csv.reader(io.StringIO(files[name])))


PLAIN = {"**grid**": "grid", "`rises`": "rises", "*n*": "n", "[CL-001](claims.html#cl-001)": "CL-001",
         "**`grid`**": "grid", "$d_k$": "d_k", "a &amp; b": "a & b", "row <br>two": "row two"}


def test_a_cell_exports_the_text_it_shows_or_its_exact_number_and_never_a_non_finite_one() -> None:
    assert {text: export.plain(text) for text in PLAIN} == PLAIN
    assert export.exact(fmt(THIRD)) == THIRD and export.exact(vector([THIRD, 1])) == [THIRD, 1.0]
    assert [export.exact(x) for x in (np.int64(3), np.float64(0.5), np.bool_(True))] == [3, 0.5, True]
    assert export.exact("<b>", markdown=False) == "<b>", "HTML text as written"
    for bad in (float("nan"), float("inf"), Rounded("[1.000, -inf]", [1.0, float("-inf")])):
        with pytest.raises(ValueError, match="exports hold finite numbers only"):
            export.exact(bad)


CONTROL = re.compile(r'<details class="attnlab-downloads"[^>]*><summary>(?P<summary>[^<]*)</summary><ul>(?P<list>.*?)'
                     r"</ul></details>", re.S)


def picture(ident: str, width: int) -> str:
    """A small picture drawn by the guide's convention."""
    box = f'<rect class="attnlab-plane-hull" width="{width}" height="20"/>'
    return svg_image(ident, "A box", "One box.", width, 20, box)


FIGURE = figure("two-boxes", picture("a", 30) + picture("b", 40), "Two $W_O$ boxes", kind="boxes",
                values={"widths": [30, 40], "label": "it's"})
STYLE = ".attnlab-plane-hull { fill: var(--attnlab-tint); }\n.other { fill: var(--attnlab-ink); }"


def test_a_page_ends_with_one_control_listing_each_table_and_figure_by_name_linking_up_from_a_folder() -> None:
    html, files = built(table(["key", "weight"], [["grid", fmt(THIRD)]], caption="Weights") + "\ntext\n\n"
                        + table(["$d_k$", "w"], [[fmt(1), fmt(2)]]) + "\n" + FIGURE)
    [control] = CONTROL.finditer(html)
    assert control["summary"] == "Download this page's tables and figures" and html.endswith("</details>\n")
    entries = re.findall(r"<li>(.*?) <a", control["list"])
    caption = re.search("<figcaption>(.*)</figcaption>", FIGURE)
    assert caption and "<math" in caption[1], "the figure's caption, formulas drawn"
    assert entries == ["Table 1: Weights", "Table 2: $d_k$, w", f"Figure 1: {caption[1]}"], "headers as shown"
    assert re.findall(r'href="([^"]*)" download', control["list"]) == [
        "exports/mixing-1.csv", "exports/mixing-1.json", "exports/mixing-2.csv", "exports/mixing-2.json",
        "exports/mixing-figure-1.svg"] == sorted(files), "numbered in page order"
    assert json.loads(files["exports/mixing-2.json"])["rows"] == [[1.0, 2.0]]
    html, files = built(table(["a"], [[fmt(1)]]) + "\n" + FIGURE, page="more/page.md")  # a page in a folder
    assert 'href="../exports/more-page-1.csv"' in html and 'href="../exports/more-page-figure-1.svg"' in html
    assert sorted(files) == ["exports/more-page-1.csv", "exports/more-page-1.json", "exports/more-page-figure-1.svg"]


def test_the_summary_names_only_what_the_page_has_each_link_what_it_downloads_and_words_have_no_control() -> None:
    assert CONTROL.search(built(FIGURE)[0])["summary"] == "Download this page's figures"  # type: ignore[index]
    assert CONTROL.search(built(table(["a"], [[1]]))[0])["summary"] == "Download this page's tables"  # type: ignore[index]
    assert built("# Words\n\nOnly words.\n") == ("<h1>Words</h1>\n<p>Only words.</p>", {})

    html, _ = built(table(["a"], [[fmt(THIRD)]]) + "\n" + FIGURE)
    names = re.findall(r' download>(CSV|JSON|SVG)<span class="attnlab-sr"> ([^<]*)</span></a>', html)
    assert names == [("CSV", "of table 1"), ("JSON", "of table 1"), ("SVG", "of figure 1")]
    assert re.search(r'<details class="attnlab-downloads" title="[^"]*page rounds[^"]*">', html), "the tooltip"


def test_the_csv_and_json_hold_the_exact_numbers_behind_the_rounded_ones_and_the_json_says_so() -> None:
    _, files = built(table(["key", "weight", "value"], [["**grid**", fmt(THIRD), vector([THIRD, 2])]],
                           caption="Weights"))
    assert rows_of(files, "exports/mixing-1.csv") == [["key", "weight", "value"],
                                                      ["grid", repr(THIRD), f"[{THIRD!r}, 2.0]"]]
    data = json.loads(files["exports/mixing-1.json"])
    assert (data["page"], data["caption"], data["columns"], data["rows"]) == (
        "mixing.html", "Weights", ["key", "weight", "value"], [["grid", THIRD, [THIRD, 2.0]]])
    assert "rounded" in data["note"]
    assert data["computed_by"] == f"attnlab {attnlab.__version__} with numpy {np.__version__}"


def test_a_download_naming_a_file_outside_the_exports_folder_or_a_figure_not_on_the_page_is_refused() -> None:
    html = export.resolve(markdown.markdown(table(["a"], [[fmt(1)]]) + "\n" + FIGURE,
                                            extensions=["tables", "md_in_html"]), "mixing.md")
    for name in ("../../../ESCAPED", "/tmp/ESCAPED", "exports/../../ESCAPED", "ESCAPED"):
        for found in ("exports/mixing-1", "exports/mixing-figure-1"):
            with pytest.raises(ValueError, match=rf"^mixing\.html: a download names '{re.escape(name)}' as its"):
                taken_out(html.replace(f'data-export-file="{found}"', f'data-export-file="{name}"'), "mixing.html")
    with pytest.raises(ValueError, match=r"^mixing\.html: the download control names figure 'gone'"):
        taken_out(html.replace('data-export-figure="two-boxes"', 'data-export-figure="gone"'), "mixing.html")


def test_a_marker_markdown_wrapped_in_a_paragraph_leaves_none_empty_and_one_in_a_sentence_keeps_it() -> None:
    marker = export.marker(["a"], [[fmt(1)]]).replace(" hidden>", ' hidden="hidden">')
    assert export.resolve(f"<p>{marker}</p>", "mixing.md").startswith('<details class="attnlab-downloads"')
    html = export.resolve(f"<p>Before {export.marker(['a'], [[fmt(1)]])}</p>", "mixing.md")
    assert html.startswith("<p>Before </p><details")


def test_a_figures_pictures_are_published_side_by_side_in_one_svg_in_the_palettes_colours() -> None:
    # its kind and numbers as its page carries them: test_every_figure_is_published_standalone_with_the_numbers...
    root = ElementTree.fromstring(built(FIGURE)[1]["exports/mixing-figure-1.svg"])
    pictures = root.findall(f"{{{SVG}}}svg")
    assert [(p.get("x"), p.get("width")) for p in pictures] == [("0.0", "30.0"), ("46.0", "40.0")]
    assert (root.get("width"), root.get("height")) == ("86.0", "20.0"), "side by side, a gap between"
    _, files = taken_out(export.resolve(FIGURE, "mixing.md"), "mixing.html", figure_style(STYLE))
    style = ElementTree.fromstring(files["exports/mixing-figure-1.svg"]).find(f"{{{SVG}}}style")
    assert style is not None and style.text == f".attnlab-plane-hull {{ fill: {TINT}; }}"


def test_a_matrix_and_a_weight_map_export_exact_entries_under_their_labels_and_blocked_keys() -> None:
    _, files = built(matrix([[THIRD, 1.0]], ["grid"], ["x", "y"]))
    assert rows_of(files, "exports/mixing-1.csv") == [["token", "x", "y"], ["grid", repr(THIRD), "1.0"]]
    r = compute("load")
    _, files = built(weight_map(r.weight_map, TOKENS, TOKENS, "Map", visible=causal(len(TOKENS)).tolist()))
    data = json.loads(files["exports/mixing-1.json"])
    assert data["caption"] == "Map" and data["columns"] == ["query \\ key", *TOKENS]
    assert data["rows"][1] == ["load", *r.weight_map[1][:2], "blocked"]


TABLE_LINE = re.compile(r"^\|.*\|[ \t]*\n\|[-:| \t]+\|[ \t]*$", re.M)
"""A hand-written Markdown table's header and rule lines."""
CODE = re.compile(r"^([ \t]*)(`{3,})[^\n]*\n.*?^\1\2[ \t]*$", re.M | re.S)
DOCSTRING_TABLE = re.compile(r'<table>(?:(?!<table).)*?<tbody>\s*<tr class="doc-section-item">', re.S)
"""A table mkdocstrings writes for a docstring's parameters or returns (Reference page): not numbers."""


def hand_written_tables(page: str) -> int:
    """How many Markdown tables the page's source writes by hand, outside code blocks."""
    source = (DOCS / page.replace(".html", ".md")).read_text(encoding="utf-8")
    return len(TABLE_LINE.findall(CODE.sub("", source)))


def test_every_page_lists_each_generated_table_and_figure_in_one_control_linking_the_published_files(
        built_site: Path) -> None:
    wrong, linked, figures_on = {}, set(), Counter(f.page for f in scan(built_site))
    for page in pages(built_site):
        html = page.read_text(encoding="utf-8")
        tables = len(re.findall(r'<table>|<table class="attn-map[ "]', html)) - len(DOCSTRING_TABLE.findall(html))
        tables -= hand_written_tables(page.name) if page.name != "404.html" else 0
        figures = figures_on[page.relative_to(built_site).as_posix()]
        controls = [c["list"] for c in CONTROL.finditer(html)]
        hrefs = [href for c in controls for href in re.findall(r'href="([^"]*)" download', c)]
        linked |= {(page.parent / href).resolve() for href in hrefs}
        listed = [(c.count("<li>Table "), c.count("<li>Figure ")) for c in controls]
        if listed != ([(tables, figures)] if tables or figures else []) or re.search("data-export|attnlab-export",
                                                                                      html):  # no data left
            wrong[page.name] = (tables, figures, listed)
    assert wrong == {}
    assert linked == set((built_site / "exports").resolve().iterdir())


def test_every_figure_is_published_standalone_with_the_numbers_it_carries_on_its_page(built_site: Path) -> None:
    wrong = {}
    for page, figures in groupby(scan(built_site), key=lambda f: f.page):
        for n, shown in enumerate(figures, start=1):
            name = f"{page.removesuffix('.html')}-figure-{n}.svg"
            root = ElementTree.parse(built_site / "exports" / name).getroot()
            found = (root.tag, root.get("data-figure"), json.loads(root.get("data-values", "null")),
                     len(root.findall(f"{{{SVG}}}svg")))
            if found != (f"{{{SVG}}}svg", shown.kind, shown.values, shown.body.count("<svg ")):
                wrong[name] = found
    assert wrong == {}


ROUNDED_IN_TEXT = re.compile(r"(?<![§.\d])(?:\d{1,3}(?:,\d{3})+|-?\d+\.\d+)(?![.\d])")
"""A number with a decimal point or thousands separators inside text: what a rounded number looks like.
Source locators (§3.2.1, "§§3.1, 3.4", 'S20, changelog "2.1"') are text and are left out."""
LOCATOR = re.compile(r"§|^S\d+\b")
SOURCE_ROW = re.compile(r"S\d+$")
"""A row of the Sources table: its reference ("changelog entry 2.1", a version) is bibliographic text."""


def test_every_exported_number_is_a_number_not_rounded_text(built_site: Path) -> None:
    rounded = {}
    for path in sorted((built_site / "exports").glob("*.json")):
        rows = json.loads(path.read_text(encoding="utf-8"))["rows"]
        found = [cell for row in rows if not SOURCE_ROW.match(str(row[0]))  # a source's reference is text
                 for cell in row[1:]  # the first column labels the rows
                 if isinstance(cell, str) and not LOCATOR.search(cell) and ROUNDED_IN_TEXT.search(cell)]
        if found:
            rounded[path.name] = found
    assert rounded == {}

