"""What a page prints: inputs as typed, tables, accessible weight maps, the checklist and the lab."""

from __future__ import annotations

import json
import math
import re
from html import unescape
from xml.etree import ElementTree

import pytest
from hypothesis import given as given_numbers
from hypothesis import strategies as st

from attnlab.site.figures.tables import WIDE_COMPACT_MAP, WIDE_MAP, matrix, weight_map
from attnlab.site.figures.widgets import LAB_SCRIPTS, LAB_STYLES, PLANE_SCRIPT, checklist, lab
from attnlab.site.pages.mathml import with_math
from attnlab.text import given, table


@given_numbers(st.integers(min_value=2, max_value=10**6).filter(lambda n: math.isqrt(n) ** 2 != n))
def test_given_writes_the_root_of_a_whole_number_with_a_root_sign(n: int) -> None:
    assert given(math.sqrt(n)) == f"√{n}" and given(-math.sqrt(n)) == f"-√{n}"


def test_table_and_matrix_have_a_header_rule_and_a_line_per_row_labelled_in_bold() -> None:
    assert table(["a", "b"], [[1, 2], [3, 4]]).splitlines() == ["| a | b |", "|---|---|", "| 1 | 2 |", "| 3 | 4 |"]
    assert matrix([[1, 0]], ["grid"], ["x", "y"]).splitlines()[:3] == [
        "| token | x | y |", "|---|---|---|", "| **grid** | 1.000 | 0.000 |"]


def test_table_and_matrix_refuse_labels_that_do_not_fit_naming_them() -> None:
    for call, message in [(lambda: table(["a", "b"], [[1, 2], [3]]), r"rows\[1\] has 1 cells but there are 2 headers"),
                          (lambda: matrix([[1]], ["grid"], ["x"], corner=" "), "corner"),
                          (lambda: matrix([[1, 2], [3, 4]], ["grid"], ["x", "y"]),
                           "row_labels has 1 labels but there are 2 rows"),
                          (lambda: matrix([[1, 2]], ["grid"], ["x"]), "col_labels has 1 labels but there are 2"),
                          (lambda: weight_map([[0.25, 0.75]], ["q"], ["a"], "Map"), "keys has"),
                          (lambda: weight_map([[0.25, 0.75]], ["q", "r"], ["a", "b"], "Map"), "queries has"),
                          (lambda: weight_map([[0.25, 0.75]], ["q"], ["a", "b"], "Map", visible=[[True]]),
                           r"visible must have shape \(1, 2\), got \(1, 1\)")]:
        with pytest.raises(ValueError, match=message):
            call()


def test_weight_map_has_a_caption_escaped_scoped_headers_a_named_corner_and_numbers_on_shades_or_blocked() -> None:
    html = weight_map([[0.25, 0.75]], ["<q>"], ["a", "b"], "Map", visible=[[True, False]], corner="set \\ key")
    found = [(e.tag, e.attrib, "".join(e.itertext()).strip())  # (tag, attributes, text) of each th, td and caption
             for e in ElementTree.fromstring(re.search(r"<table.*</table>", html, re.S).group(0)).iter()
             if e.tag in ("th", "td", "caption")]
    assert ("caption", {}, "Map") in found
    assert [(a.get("scope"), t) for tag, a, t in found if tag == "th"] == [("col", "a"), ("col", "b"), ("row", "<q>")]
    assert [(a.get("class"), a.get("style"), t) for tag, a, t in found if tag == "td"] == [
        ("corner", None, "set \\ key"), (None, "--w:0.2500", "0.250"), ("blocked", None, "blocked")]


def test_a_wide_weight_map_scrolls_in_a_focusable_labelled_box_and_a_narrow_one_without_a_tab_stop() -> None:
    assert weight_map([[1.0]], ["q"], ["k"], "Map").startswith('<div class="attn-map-scroll"><table class="attn-map">')
    keys = [f"k{i}" for i in range(WIDE_MAP + 1)]
    html = weight_map([[1.0] + [0.0] * WIDE_MAP], ["q"], keys, "Wide map")
    assert html.startswith('<div class="attn-map-scroll" tabindex="0" role="group" aria-label="Wide map">'
                           '<table class="attn-map attn-map-wide">')

    def compact(keys: int) -> str:
        return weight_map([[1.0] + [0.0] * (keys - 1)], ["q"], [f"k{i}" for i in range(keys)], "Map", compact=True)

    assert '<table class="attn-map compact">' in compact(1)
    assert "tabindex" not in compact(WIDE_COMPACT_MAP) and 'tabindex="0"' in compact(WIDE_COMPACT_MAP + 1)


def test_a_checklist_step_shows_its_symbols_as_mathml_and_escapes_the_words_around_it() -> None:
    label = re.search(r'<label for="step-4">(.*?)</label>', checklist()).group(1)
    assert label.startswith("Scale by <math ") and "<msqrt>" in label and "d_k" not in label
    assert with_math("a < b and $x$") == (
        'a &lt; b and <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><mi>x</mi></mrow></math>')


def test_a_lab_starts_from_the_controls_it_is_given_checked_at_build_time_as_python_checks_them() -> None:
    def start_of(html: str) -> dict:
        return json.loads(unescape(re.search(r'data-start="([^"]*)"', html).group(1)))

    # the rest are the toy's defaults, which lab-ui.js fills in from assets/lab-data.js
    assert start_of(lab(start={"token": "grid", "causal": False})) == {"token": "grid", "causal": False}
    assert start_of(lab()) == {} and start_of(lab(start={"query_scale": 2})) == {"query_scale": 2.0}
    with pytest.raises(ValueError, match="token must be one of"):
        lab(start={"token": "sun"})
    with pytest.raises(TypeError, match="scale_scores must be a boolean"):
        lab(start={"scale_scores": "no"})
    assert 'aria-label="Lab for &quot;experiment&quot; 1"' in lab('Lab for "experiment" 1')


def test_a_full_lab_loads_everything_a_compact_one_leaves_the_plane_out_and_a_later_one_the_assets() -> None:
    for compact, loaded in ((False, LAB_SCRIPTS), (True, [s for s in LAB_SCRIPTS if s != PLANE_SCRIPT])):
        html = lab(compact=compact)
        assert re.findall(r'<script src="([^"]*)"></script>', html) == list(loaded)
        assert f'<link rel="stylesheet" href="{LAB_STYLES}">' in html
        assert ("attnlab-plane-template" in html) == (not compact)
    html = lab(compact=True, assets=False)
    assert "<script" not in html and "<link" not in html and 'class="attnlab-lab"' in html
