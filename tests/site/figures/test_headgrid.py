"""``attnlab.site.figures.headgrid``: the grid of every head draws each weight where it belongs, in its shade."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from pictures import SVG

from attnlab.bert import encode
from attnlab.site.figures.headgrid import CELL, FONT, LEVELS, head_grid, runs
from attnlab.site.figures.palette import DEEP, mix

SENTENCE = "The grid load rises every evening."
PAGE_BUDGET_KB = 24
"""What the figure may add to 'A real head' and keep it within 500 KB at first load."""


def chapter_weights() -> np.ndarray:
    """Every head's weights for the chapter's sentence: layers × heads × n × n."""
    enc = encode(SENTENCE)[0]
    return np.stack([[h.weights for h in layer.heads] for layer in enc.layers])


def figure(weights: np.ndarray, **options: object) -> str:
    return head_grid(weights, sentence="a sentence", ident="t", title="All heads", desc="What it shows.", **options)


def test_the_outlined_heads_and_the_size_fit_the_page() -> None:
    # every cell in the shade of its weight, where the grid it carries puts it: test_figures_site.head_grid
    html = figure(chapter_weights(), outlined=[(0, 2), (2, 9), (5, 6)])
    outlined = [r.get("data-outlined") for r in ET.fromstring(html).iter(f"{SVG}rect") if r.get("data-outlined")]
    assert outlined == ["0 2", "2 9", "5 6"]
    assert len(html.encode("utf-8")) <= PAGE_BUDGET_KB * 1024


def test_neighbouring_cells_of_one_shade_are_one_rectangle() -> None:
    # each path read back into its cells, each cell once: test_figures_site.head_grid
    found = runs(np.array([[4, 4, 0, 4], [0, 1, 1, 1]]), left=100, top=50)
    assert found == {4: [(100, 50, 2 * CELL), (100 + 3 * CELL, 50, CELL)], 1: [(100 + CELL, 50 + CELL, 3 * CELL)]}


def test_the_figure_is_named_and_described_with_a_legend_of_every_shade_and_labels_of_one_size() -> None:
    html = figure(chapter_weights())
    svg = ET.fromstring(html).find(f"{SVG}svg")
    assert (svg.find(f"{SVG}title").text, svg.find(f"{SVG}desc").text) == ("All heads", "What it shows.")
    assert html.endswith("<figcaption>All heads</figcaption></figure>\n")
    assert {float(t.get("font-size")) for t in svg.iter(f"{SVG}text")} == {FONT}
    fills = [r.get("fill") for r in svg.iter(f"{SVG}rect")]
    assert all(mix(DEEP, s / LEVELS) in fills for s in range(LEVELS + 1))
    assert [t.text for t in svg.iter(f"{SVG}text")][-4:] == ["weight", "0", "0.5", "1"]


def test_head_grid_refuses_maps_that_are_not_square_and_an_outline_outside_the_model() -> None:
    with pytest.raises(ValueError, match="square maps"):
        figure(np.ones((1, 1, 2, 3)))
    with pytest.raises(ValueError, match="head must be from 0 to 11, got 12"):
        figure(chapter_weights(), outlined=[(0, 12)])
