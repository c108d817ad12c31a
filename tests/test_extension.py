"""The guide's Markdown extension on single pages: what it resolves, refuses, adds and publishes.

Pages are converted with Python-Markdown directly, the page named in the
extension's options; ``test_build_refuses.py`` shows the same inside the
real MkDocs build of the guide, and ``test_zensical.py`` under Zensical.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import markdown_exec
import pytest
import threadpoolctl
from markdown import Markdown

import attnlab


from attnlab.site import explorer
from attnlab.site.context import nav_pages, page_of, zensical_nav_pages
from attnlab.site.extension import AttnlabExtension, PageError, placed_blocks
from attnlab.site.markdown import FRONT_MATTER

EXECUTED = {"pymdownx.superfences": {"custom_fences": [
    {"name": "python", "class": "python", "validator": markdown_exec.validator, "format": markdown_exec.formatter},
]}}
"""markdown-exec's Python blocks, configured as its MkDocs plugin would."""


def convert(tmp_path: Path, markdown: str, path: str = "p.md", site: Path | None = None,
            extensions: tuple = ("toc", "pymdownx.superfences")) -> str:
    """``markdown`` saved as ``docs/<path>`` and converted as a builder would (front matter stripped)."""
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / path).write_text(markdown, encoding="utf-8")
    guide = AttnlabExtension(page=path, docs_dir=str(docs), site_dir=str(site) if site else "")
    md = Markdown(extensions=[*extensions, "pymdownx.arithmatex", guide],
                  extension_configs={**EXECUTED, "pymdownx.arithmatex": {"generic": True}})
    return md.convert(FRONT_MATTER.sub("", markdown))


def test_a_binding_shows_its_number(tmp_path: Path) -> None:
    assert "<p>One third is 0.333.</p>" in convert(tmp_path, "One third is [[0.333 = 1 / 3]].\n")


def test_a_stale_binding_stops_the_page_naming_its_line_counted_with_front_matter(tmp_path: Path) -> None:
    with pytest.raises(PageError, match=r"^docs/p\.md:5: quoted 0\.334 but 1 / 3 gives 0\.333$"):
        convert(tmp_path, "---\nliterals: [1]\n---\n\nIt is [[0.334 = 1 / 3]].\n")


def test_a_malformed_form_stops_the_page(tmp_path: Path) -> None:
    with pytest.raises(PageError, match=r"docs/p\.md:1: '\[\[CL-05\]\]' is neither a claim citation"):
        convert(tmp_path, "See [[CL-05]].\n")


def test_a_citation_becomes_a_link_to_its_claim(tmp_path: Path) -> None:
    assert 'href="claims.md#cl-005"' in convert(tmp_path, "Scaled [[CL-005]].\n", extensions=("attr_list",))


def test_a_formula_becomes_mathml(tmp_path: Path) -> None:
    html = convert(tmp_path, "Divide by $\\sqrt{d_k}$.\n")
    assert "<msqrt>" in html and "arithmatex" not in html


def test_an_unbalanced_formula_stops_the_page_naming_it(tmp_path: Path) -> None:
    with pytest.raises(PageError, match=r"docs/p\.md: formula 'x\^\{2': 1 brace group"):
        convert(tmp_path, "Square $x^{2$.\n")


def test_the_provenance_line_ends_the_page_and_stays_out_of_headings(tmp_path: Path) -> None:
    html = convert(tmp_path, "# A title\n\nText.\n")
    assert '<h1 id="a-title">A title</h1>' in html
    assert html.rstrip().endswith("</p>") and html.count('class="attn-provenance"') == 1


def test_an_executed_block_is_given_its_place_and_a_stable_id_prefix() -> None:
    placed = placed_blocks('a\n\n```python exec="on"\nprint(1)\n```\n', "docs/p.md")
    assert '```python exec="on" id="docs/p.md:3" idprefix="block-3-"' in placed


def test_a_block_with_an_id_of_its_own_keeps_it() -> None:
    fence = '```python exec="on" id="mine"\nprint(1)\n```\n'
    assert placed_blocks(fence, "docs/p.md") == fence


def test_a_block_that_is_not_executed_gets_no_id() -> None:
    fence = "```python\nprint(1)\n```\n"
    assert placed_blocks(fence, "docs/p.md") == fence


def test_a_failing_block_stops_the_page_naming_its_line_and_error(tmp_path: Path) -> None:
    page = 'Intro.\n\n```python exec="on"\nraise ValueError("boom")\n```\n'
    with pytest.raises(PageError, match=r"^docs/p\.md:3: a code block raised ValueError: boom"):
        convert(tmp_path, page)


def test_a_block_printing_nan_stops_the_page(tmp_path: Path) -> None:
    with pytest.raises(PageError, match=r"docs/p\.md: 'nan' is not a finite number"):
        convert(tmp_path, '```python exec="on"\nprint(f"| w |\\n|---|\\n| {float(\'nan\')} |")\n```\n')


def test_what_a_block_prints_is_not_checked_as_page_prose(tmp_path: Path) -> None:
    html = convert(tmp_path, '```python exec="on"\nprint("rows [[1, 0], [0, 1]] and [[CL-05]]")\n```\n')
    assert "[[CL-05]]" in html


def test_converting_the_home_page_publishes_the_sites_files(tmp_path: Path) -> None:
    convert(tmp_path, "Home, citing [[CL-001]].\n", path="index.md", site=tmp_path / "site")
    claims = json.loads((tmp_path / "site" / "claims.json").read_text(encoding="utf-8"))
    assert claims["claims"][0]["cited_on"] == ["index.html"]
    assert (tmp_path / "site" / "sources.bib").read_text(encoding="utf-8").startswith("@")
    assert "globalThis.ATTNLAB_TOY = {" in (tmp_path / "site" / "assets" / "lab-data.js").read_text()


def guide_data(site: Path) -> dict:
    """The data the build wrote for the progress script."""
    script = (site / "assets" / "guide-data.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"ATTNLAB_GUIDE = (\{.*\});", script, re.S).group(1))


def test_the_home_page_publishes_the_chapters_a_reader_can_mark_read(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "softmax.md").write_text("# Softmax\n", encoding="utf-8")
    (docs / "claims.md").write_text("---\nread_mark: false\n---\n\n# Claims\n", encoding="utf-8")
    convert(tmp_path, "---\nread_mark: false\n---\n\nHome.\n", path="index.md", site=tmp_path / "site")
    assert guide_data(tmp_path / "site")["chapters"] == ["softmax.html"]


def test_the_guide_data_names_the_guide_and_its_version(tmp_path: Path) -> None:
    convert(tmp_path, "Home.\n", path="index.md", site=tmp_path / "site")
    data = guide_data(tmp_path / "site")
    assert (data["name"], data["version"]) == ("attention-lab", attnlab.__version__)


def test_a_read_mark_that_is_not_true_or_false_stops_the_build_naming_the_page(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "notes.md").write_text("---\nread_mark: no\n---\n\nNotes.\n", encoding="utf-8")
    with pytest.raises(PageError, match=r"docs/notes\.md: front matter 'read_mark' must be true or false, got 'no'"):
        convert(tmp_path, "Home.\n", path="index.md", site=tmp_path / "site")


def test_a_pages_tables_are_published_beside_it_with_links_to_them(tmp_path: Path) -> None:
    block = ('```python exec="on"\nfrom attnlab.site.render import table\nfrom attnlab.text import fmt\n'
             'print(table(["w"], [[fmt(1 / 3)]]))\n```\n')
    html = convert(tmp_path, block, path="mixing.md", site=tmp_path / "site",
                   extensions=("tables", "pymdownx.superfences"))
    assert 'href="exports/mixing-1.csv"' in html and "data-export" not in html
    assert (tmp_path / "site" / "exports" / "mixing-1.csv").read_bytes() == f"w\r\n{1 / 3!r}\r\n".encode()


def test_a_page_with_the_explorer_marker_gets_the_explorer_and_publishes_its_data(tmp_path: Path) -> None:
    html = convert(tmp_path, f"# Explore\n\n{explorer.MARKER}\n", path="explore.md", site=tmp_path / "site")
    assert '<div class="attnlab-explorer"' in html and explorer.MARKER not in html
    written = sorted(p.relative_to(tmp_path / "site").as_posix() for p in (tmp_path / "site").rglob("*.js"))
    assert written == sorted(explorer.published())


def test_other_pages_publish_nothing(tmp_path: Path) -> None:
    convert(tmp_path, "A chapter.\n", path="mixing.md", site=tmp_path / "site")
    assert not (tmp_path / "site").exists()


def test_a_build_runs_numpys_matrix_products_on_one_thread() -> None:
    AttnlabExtension()
    blas = [pool for pool in threadpoolctl.threadpool_info() if pool["user_api"] == "blas"]
    assert blas and all(pool["num_threads"] == 1 for pool in blas)


def test_without_a_builder_or_options_the_page_is_asked_for() -> None:
    with pytest.raises(LookupError, match="pass page= and docs_dir="):
        page_of(Markdown(), {})


def test_mkdocs_nav_gives_paths_and_titles_in_order() -> None:
    nav = [{"Home": "index.md"}, {"Part": [{"Softmax": "softmax.md"}, {"Mixing": "mixing.md"}]}]
    assert list(nav_pages(nav)) == [("index.md", "Home"), ("softmax.md", "Softmax"), ("mixing.md", "Mixing")]


def test_zensical_nav_gives_paths_and_titles_in_order() -> None:
    nav = [{"title": "Home", "url": "index.md", "children": []},
           {"title": "Part", "url": None, "children": [{"title": "Softmax", "url": "softmax.md", "children": []}]}]
    assert list(zensical_nav_pages(nav)) == [("index.md", "Home"), ("softmax.md", "Softmax")]


def test_the_claims_page_lists_its_claims_where_its_marker_is(tmp_path: Path) -> None:
    html = convert(tmp_path, "# Claims\n\n<!-- attnlab:claims -->\n", path="claims.md", extensions=("attr_list",))
    assert re.search(r'<h2 id="cl-001">CL-001</h2>', html)


def test_a_claims_page_without_its_marker_stops(tmp_path: Path) -> None:
    with pytest.raises(PageError, match="docs/claims.md: the marker line <!-- attnlab:claims --> is missing"):
        convert(tmp_path, "# Claims\n", path="claims.md")
