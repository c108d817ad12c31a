"""The whole head at a glance (``attnlab.site.figures.flow``): every arrow carries the shape a real run produced."""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree

import numpy as np
import pytest

from attnlab import causal
from attnlab.lab import TOKENS, W_K, W_Q, W_V, X
from attnlab.site.figures.flow import CELL, MOST_CELLS, WIDTH, glyph, head_flow, shape_text, shapes_of
from attnlab.site.figures.svg import MIN_TEXT, PHONE_COLUMN

SVG = "{http://www.w3.org/2000/svg}"
WIDER_W_V = [[1.0, 0.0, 1.0], [0.0, 2.0, 1.0]]  # d_v = 3


def flow(w_v: object = W_V) -> ElementTree.Element:
    return ElementTree.fromstring(head_flow(X, W_Q, W_K, w_v, causal(len(TOKENS)), ident="f", caption="Head"))


def texts(element: ElementTree.Element) -> list[str]:
    return ["".join(t.itertext()) for t in element.iter(f"{SVG}text")]


def test_the_toy_head_has_the_shapes_of_its_chapter() -> None:
    assert shapes_of(X, W_Q, W_K, W_V) == {"X": (3, 2), "Q": (3, 2), "K": (3, 2), "V": (3, 2), "scores": (3, 3),
                                           "scaled": (3, 3), "weights": (3, 3), "output": (3, 2)}


def test_every_step_of_the_head_is_drawn_in_order() -> None:
    shown = texts(flow())
    steps = ["X, the input rows", "× W_Q", "× W_K", "× W_V", "Q Kᵀ", "÷ √d_k (d_k = 2)", "mask the blocked keys",
             "softmax, row by row", "× V: mix the values", "output rows"]
    assert [t for t in shown if t in steps] == steps


def test_each_arrow_is_labelled_with_the_shape_it_carries() -> None:
    assert {"Q 3 × 2", "K 3 × 2", "V 3 × 2", "scores 3 × 3", "scaled 3 × 3", "masked 3 × 3", "weights 3 × 3",
            "output 3 × 2"} <= set(texts(flow()))


def test_a_wider_w_v_widens_the_value_and_output_arrows() -> None:
    wider = flow(WIDER_W_V)
    assert {"V 3 × 3", "output 3 × 3", "Q 3 × 2", "scores 3 × 3"} <= set(texts(wider))
    assert json.loads(wider.get("data-values"))["shapes"]["output"] == [3, 3]


def test_a_wider_w_v_draws_wider_glyphs() -> None:
    def cells(element: ElementTree.Element) -> int:
        return sum(len(g.findall(f"{SVG}rect")) for g in element.iter(f"{SVG}g"))

    assert cells(flow(WIDER_W_V)) - cells(flow()) == 3 + 3  # one more column on V and on the output


def test_the_figure_carries_every_shape_and_d_k() -> None:
    carried = json.loads(flow().get("data-values"))
    assert carried == {"d_k": 2, "shapes": {k: list(v) for k, v in shapes_of(X, W_Q, W_K, W_V).items()}}


def test_the_description_states_the_shapes_in_words() -> None:
    desc = flow().find(f"{SVG}svg").find(f"{SVG}desc").text
    assert "Q (3 × 2)" in desc and "weights (3 × 3)" in desc and "d_k = 2" in desc


def test_a_glyph_has_one_cell_per_number_up_to_eight_a_side() -> None:
    assert len(re.findall("<rect", glyph(0, 0, (3, 2)))) == 6
    assert len(re.findall("<rect", glyph(0, 0, (100, 5)))) == MOST_CELLS * 5
    assert f'width="{CELL}"' in glyph(0, 0, (1, 1))


def test_shape_text_reads_rows_by_columns() -> None:
    assert shape_text((3, 2)) == "3 × 2"


def test_the_flow_fits_a_phone_column_without_shrinking_its_text() -> None:
    svg = flow().find(f"{SVG}svg")
    sizes = {float(t.get("font-size")) for t in svg.iter(f"{SVG}text")}
    assert WIDTH <= PHONE_COLUMN and min(sizes) >= MIN_TEXT


def test_shapes_that_do_not_fit_are_refused_by_attention() -> None:
    with pytest.raises(ValueError, match="width"):
        head_flow(X, W_Q, np.ones((2, 3)), W_V, ident="f", caption="c")
