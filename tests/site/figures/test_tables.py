"""What a page prints: rounding for display, tables, accessible weight maps and the checklist."""

from __future__ import annotations

import math
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import given as given_numbers
from hypothesis import strategies as st

from attnlab.site.figures.tables import WIDE_COMPACT_MAP, WIDE_MAP, matrix, weight_map
from attnlab.site.figures.widgets import checklist
from attnlab.site.pages.mathml import with_math
from attnlab.text import fmt, given, given_vector, table, vector


class Cells(HTMLParser):
    """Collects (tag, attributes, text) for every th/td/caption of a table."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[str, dict[str, str | None], str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("th", "td", "caption"):
            self.cells.append((tag, dict(attrs), ""))

    def handle_data(self, data: str) -> None:
        if self.cells:
            tag, attrs, text = self.cells[-1]
            self.cells[-1] = (tag, attrs, text + data)


def cells(html: str) -> list[tuple[str, dict[str, str | None], str]]:
    parser = Cells()
    parser.feed(html)
    return [(tag, attrs, text.strip()) for tag, attrs, text in parser.cells]


def test_fmt_keeps_the_requested_decimals() -> None:
    assert fmt(1 / 3) == "0.333" and fmt(2, 6) == "2.000000"


def test_fmt_never_prints_negative_zero() -> None:
    assert fmt(-0.0001) == "0.000"


def test_fmt_writes_every_digit_of_a_large_number() -> None:
    assert fmt(1e21, 3) == "1000000000000000000000.000" and fmt(-2.0**70, 0) == f"-{2**70}"


@pytest.mark.parametrize(("x", "text"), [(math.nan, "x must be finite, got nan"),
                                         (-math.inf, "x must be finite, got -inf")])
def test_fmt_refuses_a_value_that_is_not_finite_naming_x(x: float, text: str) -> None:
    with pytest.raises(ValueError, match=re.escape(text)):
        fmt(x)


@pytest.mark.parametrize(("x", "error", "text"), [
    ("1", TypeError, "x must be a real number, got '1'"), (None, TypeError, "x must be a real number, got None"),
    (True, TypeError, "x must be a real number, got True"),
])
def test_fmt_refuses_what_is_not_a_real_number_naming_x(x: Any, error: type, text: str) -> None:
    with pytest.raises(error, match=f"^{re.escape(text)}$"):
        fmt(x)


@pytest.mark.parametrize(
    ("decimals", "error", "text"),
    [
        (-1, ValueError, "decimals must be from 0 to 20, got -1"),
        (21, ValueError, "decimals must be from 0 to 20, got 21"),
        (2.0, TypeError, "decimals must be an integer"),
        (True, TypeError, "decimals must be an integer"),
    ],
)
def test_fmt_refuses_decimals_outside_0_to_20_naming_decimals(decimals: Any, error: type, text: str) -> None:
    with pytest.raises(error, match=text):
        fmt(1.0, decimals)


def test_vector_is_a_bracketed_row() -> None:
    assert vector([0.5, -1]) == "[0.500, -1.000]"


def test_given_writes_a_whole_number_without_decimals() -> None:
    assert [given(1.0), given(-3.0), given(-0.0)] == ["1", "-3", "0"]


@given_numbers(st.integers(min_value=2, max_value=10**6).filter(lambda n: math.isqrt(n) ** 2 != n))
def test_given_writes_the_root_of_a_whole_number_with_a_root_sign(n: int) -> None:
    assert given(math.sqrt(n)) == f"√{n}" and given(-math.sqrt(n)) == f"-√{n}"


def test_given_writes_other_numbers_in_their_shortest_exact_decimals() -> None:
    assert [given(0.5), given(0.1), given(2.25)] == ["0.5", "0.1", "2.25"]


def test_given_vector_shows_inputs_as_typed() -> None:
    assert given_vector([math.sqrt(2.0), 0.0]) == "[√2, 0]"


def test_given_refuses_a_number_that_is_not_finite_naming_it() -> None:
    with pytest.raises(ValueError, match="x"):
        given(float("nan"))


def test_table_has_header_rule_and_one_line_per_row() -> None:
    assert table(["a", "b"], [[1, 2], [3, 4]]).splitlines() == ["| a | b |", "|---|---|", "| 1 | 2 |", "| 3 | 4 |"]


def test_table_refuses_a_row_with_another_count_of_cells_naming_the_row() -> None:
    with pytest.raises(ValueError, match=r"rows\[1\] has 1 cells but there are 2 headers"):
        table(["a", "b"], [[1, 2], [3]])


def test_matrix_labels_rows_in_bold() -> None:
    assert matrix([[1, 0]], ["grid"], ["x", "y"]).splitlines()[2] == "| **grid** | 1.000 | 0.000 |"


def test_matrix_heads_the_label_column_with_token_by_default() -> None:
    assert matrix([[1, 0]], ["grid"], ["x", "y"]).splitlines()[0] == "| token | x | y |"


def test_matrix_refuses_an_empty_corner() -> None:
    with pytest.raises(ValueError, match="corner"):
        matrix([[1]], ["grid"], ["x"], corner=" ")


def test_weight_map_has_caption_and_scoped_headers() -> None:
    found = cells(weight_map([[0.25, 0.75]], ["q"], ["a", "b"], "Map"))
    assert ("caption", {}, "Map") in found
    assert [(a.get("scope"), t) for tag, a, t in found if tag == "th"] == [("col", "a"), ("col", "b"), ("row", "q")]


def test_weight_map_cells_show_the_number_and_carry_the_weight_as_shade() -> None:
    found = [(a.get("style"), t) for tag, a, t in cells(weight_map([[0.25, 0.75]], ["q"], ["a", "b"], "Map"))
             if tag == "td" and a.get("class") != "corner"]
    assert found == [("--w:0.2500", "0.250"), ("--w:0.7500", "0.750")]


def test_weight_map_says_blocked_for_invisible_keys() -> None:
    found = [(a.get("class"), t) for tag, a, t in cells(weight_map([[1.0, 0.0]], ["q"], ["a", "b"], "Map",
                                                                  visible=[[True, False]]))
             if tag == "td" and a.get("class") != "corner"]
    assert found[1] == ("blocked", "blocked")


def test_weight_map_corner_names_rows_and_columns() -> None:
    found = [t for tag, a, t in cells(weight_map([[1.0]], ["x"], ["k"], "Map", corner="setting \\ key"))
             if a.get("class") == "corner"]
    assert found == ["setting \\ key"]


def test_a_narrow_weight_map_sits_in_a_scroll_box_without_a_tab_stop() -> None:
    assert weight_map([[1.0]], ["q"], ["k"], "Map").startswith('<div class="attn-map-scroll"><table class="attn-map">')


def test_a_wide_weight_map_scrolls_in_a_focusable_labelled_box_with_compact_cells() -> None:
    keys = [f"k{i}" for i in range(WIDE_MAP + 1)]
    html = weight_map([[1.0] + [0.0] * WIDE_MAP], ["q"], keys, "Wide map")
    assert html.startswith('<div class="attn-map-scroll" tabindex="0" role="group" aria-label="Wide map">'
                           '<table class="attn-map attn-map-wide">')


def test_a_compact_weight_map_says_so_in_its_class() -> None:
    assert '<table class="attn-map compact">' in weight_map([[1.0]], ["q"], ["k"], "Map", compact=True)


def test_a_compact_map_of_ten_keys_needs_no_tab_stop_and_one_more_gets_one() -> None:
    def compact(keys: int) -> str:
        return weight_map([[1.0] + [0.0] * (keys - 1)], ["q"], [f"k{i}" for i in range(keys)], "Map", compact=True)

    assert "tabindex" not in compact(WIDE_COMPACT_MAP) and 'tabindex="0"' in compact(WIDE_COMPACT_MAP + 1)


def test_weight_map_escapes_labels() -> None:
    assert "<b>" not in weight_map([[1.0]], ["<b>"], ["k"], "Map")


def test_matrix_refuses_fewer_row_labels_than_rows_naming_row_labels() -> None:
    with pytest.raises(ValueError, match="row_labels has 1 labels but there are 2 rows"):
        matrix([[1, 2], [3, 4]], ["grid"], ["x", "y"])


def test_matrix_refuses_fewer_column_labels_than_columns_naming_col_labels() -> None:
    with pytest.raises(ValueError, match="col_labels has 1 labels but there are 2 columns"):
        matrix([[1, 2]], ["grid"], ["x"])


@pytest.mark.parametrize(("queries", "keys", "name"), [(["q"], ["a"], "keys"), (["q", "r"], ["a", "b"], "queries")])
def test_weight_map_refuses_labels_that_do_not_match_the_weights(
    queries: list[str], keys: list[str], name: str
) -> None:
    with pytest.raises(ValueError, match=f"{name} has"):
        weight_map([[0.25, 0.75]], queries, keys, "Map")


def test_weight_map_refuses_a_visible_mask_of_another_shape_naming_visible() -> None:
    with pytest.raises(ValueError, match=r"visible must have shape \(1, 2\), got \(1, 1\)"):
        weight_map([[0.25, 0.75]], ["q"], ["a", "b"], "Map", visible=[[True]])


def test_a_checklist_step_shows_its_symbols_as_mathml() -> None:
    label = re.search(r'<label for="step-4">(.*?)</label>', checklist()).group(1)
    assert label.startswith("Scale by <math ") and "<msqrt>" in label and "d_k" not in label


def test_checklist_words_are_escaped_around_the_math() -> None:
    assert with_math("a < b and $x$") == (
        'a &lt; b and <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><mi>x</mi></mrow></math>')
