"""Each figure is on its page, drawn from the same computation as the numbers beside it.

Every figure carries its numbers in ``data-values`` (``attnlab.site.figures.svg``);
these tests read them from the built pages and compare them with attnlab
(or, for the spread of scores, with the table printed above the figure).
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attnlab import causal, positional_encoding
from attnlab.cost import cost
from attnlab.lab import MULTIPLIERS, TOKENS, W_K, W_Q, W_V, X, compute
from attnlab.site.figures.sliders import SLIDER_RANGES
from attnlab.site.figures.flow import shapes_of
from attnlab.site.figures.plane import lab_frame
from attnlab.streaming import BLOCK

FIGURE = re.compile(r'<figure class="attnlab-figure[^"]*" id="([^"]+)" data-values="([^"]*)">(.*?)</figure>', re.S)
FIGURES = {
    "rows.html": ["head-flow"],
    "scores.html": ["score-spread"],
    "mixing.html": ["value-plane"],
    "experiments.html": ["concentration-rises", "concentration-tied"],
    "positions.html": ["position-heatmap"],
    "cost.html": ["cost-growth"],
}
"""The guide's figures, by page."""


def figures(site: Path, page: str) -> dict[str, tuple[dict[str, Any], str]]:
    """Each figure on a built page: its id, its carried numbers and its markup."""
    html = (site / page).read_text(encoding="utf-8")
    return {ident: (json.loads(unescape(data)), body) for ident, data, body in FIGURE.findall(html)}


def carried(site: Path, page: str, ident: str) -> dict[str, Any]:
    return figures(site, page)[ident][0]


@pytest.mark.parametrize(("page", "idents"), FIGURES.items())
def test_each_figure_is_on_its_page(built_site: Path, page: str, idents: list[str]) -> None:
    assert list(figures(built_site, page)) == idents


@pytest.mark.parametrize("page", FIGURES)
def test_every_picture_is_an_image_named_and_described_by_elements_it_holds(built_site: Path, page: str) -> None:
    for ident, (_, body) in figures(built_site, page).items():
        pictures = re.findall(r'<svg role="img" aria-labelledby="([^"]+)" aria-describedby="([^"]+)"', body)
        assert pictures, ident
        for title, desc in pictures:
            assert re.search(f'<title id="{title}">[^<]+</title><desc id="{desc}">[^<]+</desc>', body), ident
        assert "<figcaption>" in body


def test_the_head_flow_shows_the_toy_head_shapes(built_site: Path) -> None:
    shown = carried(built_site, "rows.html", "head-flow")
    assert shown == {"d_k": len(W_K[0]), "shapes": {k: list(v) for k, v in shapes_of(X, W_Q, W_K, W_V, causal(3)).items()}}


def test_the_value_plane_panels_are_the_lab_results_they_name(built_site: Path) -> None:
    shown = carried(built_site, "mixing.html", "value-plane")
    assert [p["heading"] for p in shown["panels"]] == ["Baseline", "Query × 0", "rises value raised"]
    for panel in shown["panels"]:
        r = compute(panel["controls"]).to_dict()
        assert (panel["values"], panel["weights"], panel["visible"], panel["output"]) == (
            r["values"], r["weights"], r["visible"], r["output"])
    assert [p["controls"] for p in shown["panels"]][1]["query_scale"] == 0.0


@pytest.mark.parametrize(("ident", "token", "causal_on"), [("concentration-rises", "rises", True),
                                                          ("concentration-tied", "grid", False)])
def test_concentration_lines_are_the_weights_compute_gives(built_site: Path, ident: str, token: str,
                                                           causal_on: bool) -> None:
    lines = list(carried(built_site, "experiments.html", ident)["lines"].values())
    for j, line in enumerate(lines):
        assert (line["x"][0], line["x"][-1]) == SLIDER_RANGES["query_scale"][:2]
        assert set(MULTIPLIERS) <= set(line["x"])
        expected = [compute(token, query_scale=s, causal=causal_on).weights[j] for s in line["x"]]
        assert np.allclose(line["y"], expected, rtol=1e-5, atol=1e-9), (ident, TOKENS[j])


def test_the_spread_of_scores_matches_the_table_above_it(built_site: Path) -> None:
    html = (built_site / "scores.html").read_text(encoding="utf-8")
    chart = html.index('id="score-spread"')
    table = html[html.rindex("<table", 0, chart):chart]  # the table the same block printed above the chart
    rows = [[float(c) for c in re.findall(r"<td>([^<]+)</td>", row)]
            for row in re.findall(r"<tr>\s*(<td>.*?)</tr>", table, re.S)]
    bands = carried(built_site, "scores.html", "score-spread")["bands"]
    raw, scaled = bands["raw q · k: mean ± 1 sd"], bands["scaled q · k / √d_k: mean ± 1 sd"]
    assert raw["x"] == [row[0] for row in rows]
    for i, (_, mean, variance, scaled_variance) in enumerate(rows):
        assert (raw["low"][i] + raw["high"][i]) / 2 == pytest.approx(mean, abs=6e-4)
        assert ((raw["high"][i] - raw["low"][i]) / 2) ** 2 == pytest.approx(variance, rel=1e-3)
        assert ((scaled["high"][i] - scaled["low"][i]) / 2) ** 2 == pytest.approx(scaled_variance, rel=1e-3)


def test_the_position_heatmap_is_the_encoding_with_the_width_two_pair_marked(built_site: Path) -> None:
    shown = carried(built_site, "positions.html", "position-heatmap")
    values = np.array(shown["values"])
    assert np.allclose(values, positional_encoding(shown["rows"], shown["columns"]), atol=5e-5)
    row, column, rows, columns = shown["marked"]
    block = values[row:row + rows, column:column + columns]
    assert np.allclose(block, positional_encoding(2, 2), atol=5e-5)


def test_the_cost_chart_draws_the_exact_counts(built_site: Path) -> None:
    lines = carried(built_site, "cost.html", "cost-growth")["lines"]
    ts = [int(t) for t in lines["naive score matrix, bytes"]["x"]]
    counts = [cost(t, d_k=64, bytes_per_number=8) for t in ts]
    assert lines["naive score matrix, bytes"]["y"] == [c.score_bytes for c in counts]
    assert lines["multiply-adds (scores and weighted sum)"]["y"] == [c.madds for c in counts]
    assert lines[f"streaming slice (block {BLOCK}), bytes"]["y"] == [c.block_bytes(BLOCK) for c in counts]


def test_every_lab_ships_the_value_plane_frame_it_is_drawn_on(built_site: Path) -> None:
    # a page whose labs are all compact draws no plane and loads no value-plane.js (widgets.lab)
    labs = {page.name: page.read_text(encoding="utf-8") for page in sorted(built_site.glob("*.html"))
            if '<script src="assets/value-plane.js">' in page.read_text(encoding="utf-8")}
    assert "lab.html" in labs
    frames = {name: re.findall(r'<template class="attnlab-plane-template" data-frame="([^"]+)"', html)
              for name, html in labs.items()}
    assert labs and {name: bool(found) and all(json.loads(unescape(f)) == lab_frame().to_dict() for f in found)
                     for name, found in frames.items()} == dict.fromkeys(labs, True)
