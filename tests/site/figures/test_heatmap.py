"""The heatmap (``attnlab.site.figures.heatmap``): a cell per entry, a legend for its colours, a marked block."""

from __future__ import annotations

import re
from xml.etree import ElementTree

import numpy as np
import pytest
from pictures import SVG, texts

from attnlab.site.figures.heatmap import CELL_HEIGHT, CELL_WIDTH, LEFT, TOP, heatmap
from attnlab.site.figures.palette import diverging as shade

VALUES = np.array([[0.0, 1.0, -1.0], [0.5, -0.5, 0.25]])


def drawn(values: object = VALUES, **kwargs: object) -> ElementTree.Element:
    options = {"kind": "k", "ident": "h", "title": "T", "desc": "D", "caption": "C", "row_name": "r",
               "column_name": "c"}
    return ElementTree.fromstring(heatmap(values, **{**options, **kwargs}))


def cell_colours(figure: ElementTree.Element) -> dict[tuple[int, int], str]:
    """Colour of each cell by (row, column), from where its part of a path starts; each is one cell in size."""
    found = {}
    for path in figure.iter(f"{SVG}path"):
        for x, y, size in re.findall(r"M(\d+) (\d+)(h\d+v\d+h-\d+z)", path.get("d")):
            assert size == f"h{CELL_WIDTH}v{CELL_HEIGHT}h-{CELL_WIDTH}z"
            found[(int(y) - TOP) // CELL_HEIGHT, (int(x) - LEFT) // CELL_WIDTH] = path.get("fill")
    return found


def test_each_cell_has_the_colour_of_its_value_and_cells_of_one_colour_step_share_a_path() -> None:
    assert cell_colours(drawn()) == {(r, c): shade(VALUES[r, c]) for r in range(2) for c in range(3)}
    figure = drawn([[0.51, 0.49, 0.5, -0.5]])
    assert cell_colours(figure) == {(0, 0): shade(0.5), (0, 1): shade(0.5), (0, 2): shade(0.5), (0, 3): shade(-0.5)}
    assert len([p for p in figure.iter(f"{SVG}path") if "h16v11" in p.get("d")]) == 2


def test_the_colour_scale_has_a_legend_from_minus_one_to_plus_one() -> None:
    figure = drawn()
    assert {"−1", "0", "+1"} <= set(texts(figure))
    assert figure.find(f".//{SVG}linearGradient").get("id") == "h-scale"


def test_the_marked_block_is_outlined_and_explained() -> None:
    # the values and the block carried: test_figures_site.position_encoding
    figure = drawn(marked=(0, 1, 2, 2), mark_note="these four\nsecond line")
    outlines = [r for r in figure.iter(f"{SVG}rect") if r.get("stroke-width") == "3"]
    assert (outlines[0].get("x"), outlines[0].get("y"), outlines[0].get("width")) == (
        str(LEFT + CELL_WIDTH), str(TOP), str(2 * CELL_WIDTH))
    assert {"these four", "second line"} <= set(texts(figure))


def test_values_outside_minus_one_to_one_and_a_marked_block_that_does_not_fit_are_refused() -> None:
    with pytest.raises(ValueError, match=r"must lie in \[-1, 1\], got 2"):
        drawn([[2.0]])
    with pytest.raises(ValueError, match="does not fit a 2 × 3 heatmap"):
        drawn(marked=(1, 2, 2, 2))
