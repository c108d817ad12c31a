"""Why scale (``attnlab.site.figures.spread``): bands of mean ± one standard deviation of raw and scaled scores."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import numpy as np
import pytest
from pictures import SVG, label

from attnlab.site.figures.spread import mean_and_sd, spread_chart

RAW = [np.array([-1.0, 1.0]), np.array([-3.0, 1.0, 5.0])]
SCALED = [np.array([-0.5, 0.5]), np.array([-1.0, 0.0, 1.0])]


def chart() -> ElementTree.Element:
    return ElementTree.fromstring(spread_chart([2, 8], RAW, SCALED, ident="s", drawn={"seed": 1}))


def test_mean_and_sd_use_the_population_formula() -> None:
    assert mean_and_sd([-3.0, 1.0, 5.0], "x") == (1.0, pytest.approx(np.sqrt(32 / 3)))


def test_each_band_spans_mean_plus_and_minus_one_standard_deviation() -> None:
    bands = json.loads(chart().get("data-values"))["bands"]
    raw = bands["raw q · k: mean ± 1 sd"]
    assert raw["x"] == [2, 8]
    assert raw["low"] == pytest.approx([-1, 1 - np.sqrt(32 / 3)], rel=1e-5)
    assert raw["high"] == pytest.approx([1, 1 + np.sqrt(32 / 3)], rel=1e-5)
    assert bands["scaled q · k / √d_k: mean ± 1 sd"]["high"] == pytest.approx([0.5, np.sqrt(2 / 3)], rel=1e-5)


def test_widths_sit_on_a_log_axis_and_the_description_names_the_spreads_at_both_ends() -> None:
    texts = [label(t) for t in chart().iter(f"{SVG}text")]
    assert {"2", "8", "key width d_k (log scale)", "score"} <= set(texts)
    assert "grows from 1.000 to 3.266" in chart().find(f".//{SVG}desc").text
    with pytest.raises(ValueError, match="one raw and one scaled array per width"):
        spread_chart([2, 8], RAW, SCALED[:1], ident="s", drawn={"seed": 1})
