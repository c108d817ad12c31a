"""Concentration (``attnlab.site.figures.concentration``): one query's weights over the lab's whole multiplier range."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import numpy as np
from pictures import SVG

from attnlab.lab import MULTIPLIERS, TOKENS, compute
from attnlab.site.figures.concentration import SAMPLES, concentration_chart, sweep, ties
from attnlab.site.pages.sliders import SLIDER_RANGES


def carried(token: str, causal: bool) -> dict:
    return json.loads(ElementTree.fromstring(concentration_chart(token, causal, ident="c")).get("data-values"))


def test_the_sweep_runs_over_the_labs_range_holding_every_multiplier_experiment_one_tabulates_marked() -> None:
    scales, _ = sweep("rises", True)
    assert (scales[0], scales[-1]) == SLIDER_RANGES["query_scale"][:2] and len(scales) >= SAMPLES
    assert set(MULTIPLIERS) <= set(scales.tolist())
    svg = ElementTree.fromstring(concentration_chart("rises", True, ident="c")).find(f"{SVG}svg")
    markers = svg.findall(f"{SVG}circle") + svg.findall(f"{SVG}path[@class='marker']")
    assert len(markers) == len(TOKENS) * (len(MULTIPLIERS) + 1)  # and one in each legend entry


def test_each_line_is_the_weight_compute_gives_at_each_multiplier_and_rises_takes_more_but_never_all() -> None:
    lines = carried("rises", True)["lines"]
    for j, token in enumerate(TOKENS):
        line = lines[f"weight on {token}"]
        expected = [compute("rises", query_scale=s).weights[j] for s in line["x"]]
        assert np.allclose(line["y"], expected, rtol=1e-5, atol=1e-9), token
    _, weights = sweep("rises", True)
    assert (np.diff(weights[:, 2]) > 0).all() and weights[-1, 2] < 1.0
    lines = carried("grid", True)["lines"]  # blocked keys lie flat at zero
    assert set(lines["weight on load"]["y"]) == {0.0} and set(lines["weight on grid"]["y"]) == {1.0}


def test_tied_keys_have_equal_weights_and_the_legend_and_description_say_so() -> None:
    assert ties("grid", False) == [[0, 2]] and ties("rises", True) == []
    _, weights = sweep("grid", False)
    assert (weights[:, 0] == weights[:, 2]).all()
    lines = carried("grid", False)["lines"]
    assert list(lines) == ["weight on grid (tied with rises)", "weight on load", "weight on rises (tied with grid)"]
    desc = ElementTree.fromstring(concentration_chart("grid", False, ident="c")).find(f".//{SVG}desc").text
    assert "At multiplier 0 the weights are grid 0.333, load 0.333, rises 0.333" in desc
    assert "grid and rises score the same" in desc
