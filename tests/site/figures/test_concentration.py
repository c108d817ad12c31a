"""Concentration (``attnlab.site.figures.concentration``): one query's weights over the lab's whole multiplier range."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import numpy as np
from pictures import SVG

from attnlab.lab import MULTIPLIERS, TOKENS
from attnlab.site.figures.concentration import SAMPLES, concentration_chart, sweep, ties


def carried(token: str, causal: bool) -> dict:
    return json.loads(ElementTree.fromstring(concentration_chart(token, causal, ident="c")).get("data-values"))


def test_the_sweep_has_its_samples_and_marks_every_multiplier_experiment_one_tabulates() -> None:
    # its range, the multipliers it holds and the weights at each: test_figures_site.concentration
    assert len(sweep("rises", True)[0]) >= SAMPLES
    svg = ElementTree.fromstring(concentration_chart("rises", True, ident="c")).find(f"{SVG}svg")
    markers = svg.findall(f"{SVG}circle") + svg.findall(f"{SVG}path[@class='marker']")
    assert len(markers) == len(TOKENS) * (len(MULTIPLIERS) + 1)  # and one in each legend entry


def test_rises_takes_more_as_the_multiplier_grows_but_never_all_and_blocked_keys_lie_flat() -> None:
    _, weights = sweep("rises", True)
    assert (np.diff(weights[:, 2]) > 0).all() and weights[-1, 2] < 1.0
    lines = carried("grid", True)["lines"]
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
