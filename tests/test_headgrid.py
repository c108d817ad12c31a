"""``attnlab.site.headgrid``: the grid of every head draws each weight where it belongs, in its shade."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from attnlab.bert import encode
from attnlab.site.headgrid import CELL, FONT, LEVELS, colour, head_grid, level

SVG = "{http://www.w3.org/2000/svg}"
PHONE_COLUMN_PX = 358
"""The text column of a 390 px wide phone (Material's 0.8 rem margins)."""
SENTENCE = "The grid load rises every evening."


def chapter_weights() -> np.ndarray:
    """Every head's weights for the chapter's sentence: layers × heads × n × n."""
    enc = encode(SENTENCE)[0]
    return np.stack([[h.weights for h in layer.heads] for layer in enc.layers])


def svg_of(html: str) -> ET.Element:
    """The figure's <svg> element, parsed."""
    return ET.fromstring(re.search(r"<svg.*</svg>", html, re.S).group(0))


def drawn(svg: ET.Element) -> dict[tuple[int, int], dict[str, set[tuple[int, int]]]]:
    """(layer, head) → shade level → the (query, key) cells its paths draw."""
    found: dict[tuple[int, int], dict[str, set[tuple[int, int]]]] = {}
    for group in svg.iter(f"{SVG}g"):
        cells: dict[str, set[tuple[int, int]]] = {}
        for path in group.iter(f"{SVG}path"):
            starts = re.findall(r"M(\d+) (\d+)h", path.get("d"))
            cells[path.get("data-level")] = {(int(y) // CELL, int(x) // CELL) for x, y in starts}
        found[(int(group.get("data-layer")), int(group.get("data-head")))] = cells
    return found


def figure(weights: np.ndarray, **options: object) -> str:
    return head_grid(weights, ident="t", title="All heads", desc="What the grid shows.", **options)


def test_every_cell_of_every_head_is_drawn_in_the_shade_of_its_weight() -> None:
    weights = chapter_weights()
    found = drawn(svg_of(figure(weights)))
    assert len(found) == weights.shape[0] * weights.shape[1]
    for (layer, head), cells in found.items():
        steps = level(weights[layer, head])
        expected = {str(s): {tuple(c) for c in np.argwhere(steps == s)} for s in range(1, LEVELS + 1)}
        assert cells == {s: c for s, c in expected.items() if c}, (layer, head)


def test_a_changed_weight_would_be_drawn_elsewhere() -> None:
    # mutation check: the test above must see a single moved weight
    weights = chapter_weights()
    changed = weights.copy()
    changed[0, 2, 3] = np.roll(changed[0, 2, 3], 1)
    assert drawn(svg_of(figure(changed)))[(0, 2)] != drawn(svg_of(figure(weights)))[(0, 2)]


def test_the_chosen_heads_are_outlined_and_no_other() -> None:
    svg = svg_of(figure(chapter_weights(), outlined=[(0, 2), (2, 9), (5, 6)]))
    marked = {(int(g.get("data-layer")), int(g.get("data-head"))) for g in svg.iter(f"{SVG}g")
              if g.get("data-outlined") == "true"}
    frames = [r for r in svg.iter(f"{SVG}rect") if r.get("stroke-width") == "3"]
    assert marked == {(0, 2), (2, 9), (5, 6)} and len(frames) == 3


def test_blocked_keys_are_grey_not_a_shade() -> None:
    weights = np.zeros((1, 1, 2, 2))
    weights[..., 0] = 1.0
    cells = drawn(svg_of(figure(weights, visible=np.array([[True, False], [True, False]]))))[(0, 0)]
    assert cells == {"blocked": {(0, 1), (1, 1)}, str(LEVELS): {(0, 0), (1, 0)}}


def test_the_figure_is_an_image_named_by_its_title_and_description() -> None:
    html = figure(chapter_weights())
    svg = svg_of(html)
    assert svg.get("role") == "img" and svg.get("aria-labelledby") == "t-title t-desc"
    assert svg.find(f"{SVG}title").text == "All heads" and svg.find(f"{SVG}desc").text == "What the grid shows."
    assert html.endswith("<figcaption>All heads</figcaption></figure>\n")


def test_its_labels_stay_at_least_11_px_in_a_phones_column() -> None:
    width = float(svg_of(figure(chapter_weights())).get("viewBox").split()[2])
    sizes = {float(t.get("font-size")) for t in svg_of(figure(chapter_weights())).iter(f"{SVG}text")}
    assert sizes == {FONT} and FONT * PHONE_COLUMN_PX / width >= 11


def test_the_legend_shows_every_shade_with_weights_0_to_1() -> None:
    svg = svg_of(figure(chapter_weights()))
    fills = [r.get("fill") for r in svg.iter(f"{SVG}rect")]
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert all(colour(s) in fills for s in range(LEVELS + 1))
    assert texts[-4:] == ["weight", "0", "0.5", "1"]


def test_level_rounds_the_weight_to_eighths() -> None:
    assert level(np.array([0.0, 0.06, 0.07, 0.5, 1.0])).tolist() == [0, 0, 1, 4, LEVELS]


def test_colour_runs_from_white_to_indigo() -> None:
    assert (colour(0), colour(LEVELS)) == ("#ffffff", "#283593")


def test_head_grid_refuses_maps_that_are_not_square() -> None:
    with pytest.raises(ValueError, match="square maps"):
        figure(np.ones((1, 1, 2, 3)))


def test_head_grid_refuses_an_outline_outside_the_model_naming_it() -> None:
    with pytest.raises(ValueError, match="head must be from 0 to 11, got 12"):
        figure(chapter_weights(), outlined=[(0, 12)])
