"""The page pass on single pages, converted in-process as the plugin does: what it resolves, refuses and adds;
``test_build_refuses.py`` builds real sites only where the build itself must show the refusal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import threadpoolctl
from sites import converted

from attnlab.site.build import explorer
from attnlab.site.build.convert import PageError, one_blas_thread, squeezed

RESOLVED = {  # a page → a piece of its HTML
    "One third is [[0.333 = 1 / 3]].\n": "<p>One third is 0.333.</p>",  # a binding shows its number
    "Scaled [[CL-005]].\n": 'href="claims.md#cl-005"',  # a citation links to its claim
    "Since $a < b$.\n": '<p>Since <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><mi>a</mi>'
                        "<mo>&lt;</mo>",  # a formula becomes MathML
    "$$\nd_k\n$$\n": '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">',  # on a line of its own
    '```python exec="on"\nprint("rows [[1, 0], [0, 1]] and [[CL-05]]")\n```\n': "[[CL-05]]",  # output is no prose
}


def test_a_pages_bindings_citations_and_formulas_are_written_in_and_what_a_block_prints_is_left_as_it_is(
        tmp_path: Path) -> None:
    assert {page: expected in converted(tmp_path, page) for page, expected in RESOLVED.items()} == dict.fromkeys(
        RESOLVED, True)


STOPPED = {  # a page → how its refusal starts (its line counted with the front matter)
    "---\nliterals: [1]\n---\n\nIt is [[0.334 = 1 / 3]].\n": "docs/p.md:5: quoted 0.334 but 1 / 3 gives 0.333",
    'Intro.\n\n```python exec="on"\nraise ValueError("boom")\n```\n':
        "docs/p.md:3: a code block raised ValueError: boom",
    'Intro.\n\n```python exec="on"\nimport attnlab.lab as L\nL.DEFAULTS["value_y"] = 3.0\n```\n':
        "docs/p.md:3: a code block raised TypeError",  # the toy's defaults are read-only
    "---\nkind: reference\n---\n\nThe weight $w = nan$ is shown.\n": "docs/p.md: 'nan' is not a finite number",
    "---\nkind: reference\n---\n\nIt is [[0.000000000000000000001 = 1e-21]].\n":
        "docs/p.md:5: [[0.000000000000000000001 = ...]] quotes more than 20",
    "---\nkind: appendix\n---\n\n# A\n": "docs/p.md: front matter 'kind' must be one of chapter, page, reference, "
                                         "got 'appendix'",
    "---\nkind: [chapter]\n---\n\n# A\n": "docs/p.md: front matter 'kind' must be one of chapter, page, "
                                          "reference, got ['chapter']",
    "---\nkind: !!python/name:os.system reference\n---\n\n# A\n": "docs/p.md:2: front matter is not YAML that "
                                                                  "MkDocs reads: could not determine a constructor",
    "---\nkind: reference\nliterals: [1\n---\n\n# A\n": "docs/p.md:3: front matter is not YAML that MkDocs reads: "
                                                         "expected ','",
    "---\nliterals: [2]\n---\n\nSquare $x^{2$.\n": "docs/p.md: formula 'x^{2': 1 brace group",
    "---\nliterals: [2]\n---\n\nSee [[CL-099]].\n": "docs/p.md:5: unknown claim ID CL-099 in [[CL-099]]",
    "Intro.\n\nIt is [[the largest\nof all ? max(compute().weights) == compute().weights[1]]].\n":
        "docs/p.md:3: 'the largest of all' is false now",
}


def test_a_stale_binding_a_failing_block_a_bad_number_formula_citation_relation_or_front_matter_stops_the_page(
        tmp_path: Path) -> None:
    for page, message in STOPPED.items():
        with pytest.raises(PageError, match="^" + re.escape(message)) as stopped:
            converted(tmp_path, page)
        assert "\n" not in str(stopped.value), "in one line"


def test_every_problem_of_a_page_is_listed_at_once_with_its_line(tmp_path: Path) -> None:
    with pytest.raises(PageError) as stopped:
        converted(tmp_path, "# A page\n\nSee [[CL-05]].\n\nA weight of 0.576 typed by hand.\n")
    first, second = str(stopped.value).splitlines()
    assert first.startswith("docs/p.md:3: '[[CL-05]]' is neither a claim citation")
    assert second.startswith("docs/p.md:5: 0.576 is neither bound")


def test_the_provenance_line_ends_the_page_and_stays_out_of_headings(tmp_path: Path) -> None:
    html = converted(tmp_path, "# A title\n\nText.\n")
    assert '<h1 id="a-title">A title<a class="headerlink"' in html
    assert html.rstrip().endswith("</details>") and html.count('class="attn-provenance"') == 1


def test_a_pages_tables_get_a_download_control_that_carries_their_data_and_no_file_is_written(tmp_path: Path) -> None:
    block = ('```python exec="on"\nfrom attnlab.site.figures.tables import table\nfrom attnlab.text import fmt\n'
             'print(table(["w"], [[fmt(1 / 3)]]))\n```\n')
    html = converted(tmp_path, block, path="mixing.md")
    assert re.search(r'<details class="attnlab-downloads".*href="exports/mixing-1.csv".*</details>', html, re.S)
    assert 'data-export-file="exports/mixing-1"' in html
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["mixing.md"]


def test_only_a_page_with_the_explorer_marker_gets_the_explorer(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    html = converted(tmp_path, f"# Explore\n\n{explorer.MARKER}\n", path="explore.md")
    assert f'<div class="{explorer.CLASS}"' in html and explorer.MARKER not in html

    def refuse(page: str) -> str:  # the widget weighs the model's files: a page not showing it must not pay that
        raise AssertionError(f"the explorer was built for {page}")

    monkeypatch.setattr(explorer, "widget", refuse)
    assert "Nothing here" in converted(tmp_path, "# A page\n\nNothing here.\n")


def test_a_build_runs_numpys_matrix_products_on_one_thread() -> None:
    one_blas_thread()
    blas = [pool for pool in threadpoolctl.threadpool_info() if pool["user_api"] == "blas"]
    assert blas and all(pool["num_threads"] == 1 for pool in blas)


def test_the_claims_page_lists_its_claims_where_its_marker_is_and_stops_without_it(tmp_path: Path) -> None:
    html = converted(tmp_path, "# Claims\n\n<!-- attnlab:claims -->\n", path="claims.md")
    assert '<h2 id="cl-001">CL-001' in html
    with pytest.raises(PageError, match=r"docs/claims.md: the marker line <!-- attnlab:claims --> is missing"):
        converted(tmp_path, "# Claims\n", path="claims.md")


def test_whitespace_between_tags_is_cut_to_one_newline_but_not_inside_pre() -> None:
    html = '<div>\n\n    <p>a</p>\n  <pre><code>x\n\n    <span>y</span>\n</code></pre>\n\n<b>c</b> <i>d</i>'
    assert squeezed(html) == '<div>\n<p>a</p>\n<pre><code>x\n\n    <span>y</span>\n</code></pre>\n<b>c</b> <i>d</i>'
