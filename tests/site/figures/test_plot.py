"""Charts with axes (``plot``, and the concentration and spread charts drawn with it): labelled, legible on a phone,
drawn where their numbers say."""

from __future__ import annotations

import json
import math
from typing import Any
from xml.etree import ElementTree

import numpy as np
import pytest
from pictures import SVG, texts

from attnlab.lab import MULTIPLIERS, TOKENS
from attnlab.site.figures import plot
from attnlab.site.figures.plot import Axis, Band, Line, chart_svg, linear_axis

LINES = {"squares": ([1, 10, 100], [1, 100, 10_000]), "linear": ([1, 10, 100], [5, 50, 500])}


def chart(series: Any = LINES) -> ElementTree.Element:
    """The <svg> element of a log-log chart of ``series``."""
    html = plot.loglog_svg(series, kind="k", ident="t", title="Growth", desc="Two lines.", x_label="T", y_label="count")
    return ElementTree.fromstring(html).find(f"{SVG}svg")


def drawn(html: str) -> tuple[dict, ElementTree.Element]:
    """A figure's carried numbers and its <svg> element."""
    figure = ElementTree.fromstring(html)
    return json.loads(figure.get("data-values")), figure.find(f"{SVG}svg")


def markers(svg: ElementTree.Element) -> list[ElementTree.Element]:
    return svg.findall(f"{SVG}circle") + svg.findall(f"{SVG}path[@class='marker']")


def test_a_log_log_chart_is_named_and_draws_a_line_and_a_marker_per_point_labelled_and_legended() -> None:
    svg = chart()
    assert (svg.find(f"{SVG}title").text, svg.find(f"{SVG}desc").text) == ("Growth", "Two lines.")
    assert (len(svg.findall(f"{SVG}polyline")), len(markers(svg))) == (2, 2 * 3 + 2)
    assert {"T", "count", "squares", "linear", "10⁰", "10¹", "10²", "10³", "10⁴"} <= set(texts(svg))
    assert (plot.TICK_FONT, plot.LABEL_FONT) == (14, 15)


def test_chart_carries_the_numbers_it_draws_counts_exact_and_fractions_to_six_digits() -> None:
    carried, _ = drawn(plot.loglog_svg({**LINES, "n": ([1, 2], [2**53 - 1, 1 / 3])}, kind="k", ident="t", title="a",
                                       desc="b", x_label="c", y_label="d"))
    assert carried["lines"] == {**{label: {"x": list(map(float, xs)), "y": list(map(float, ys))}
                                   for label, (xs, ys) in LINES.items()},
                                "n": {"x": [1, 2], "y": [2**53 - 1, 0.333333]}}


def test_each_point_is_drawn_where_its_axes_put_it_and_marked_only_where_asked() -> None:
    x, y = linear_axis([0, 8], "x"), linear_axis([0, 1], "y")
    _, svg = drawn(chart_svg(x, y, [Line("w", [0, 2, 8], [0, 0.25, 1], marked=(2, 8))], kind="k", ident="t",
                             title="a", desc="b"))
    points = [float(c) for p in svg.find(f"{SVG}polyline").get("points").split() for c in p.split(",")]
    expected = [c for a, b in ((0, 0), (2, 0.25), (8, 1))
                for c in (plot.LEFT + x.share(a) * (plot.WIDTH - plot.RIGHT - plot.LEFT),
                          plot.TOP + plot.PLOT_HEIGHT - y.share(b) * plot.PLOT_HEIGHT)]
    assert points == pytest.approx(expected, abs=0.051)
    assert len(svg.findall(f"{SVG}circle")) == 2 + 1  # two on the line, one in the legend


def test_a_band_is_drawn_between_its_lows_and_highs_with_a_legend_swatch() -> None:
    _, svg = drawn(chart_svg(linear_axis([0, 2], "x"), linear_axis([-2, 2], "y"),
                             bands=[Band("spread", [0, 1, 2], [-1, -1, -2], [1, 1, 2])], kind="k", ident="t",
                             title="a", desc="b"))
    band = svg.find(f"{SVG}polygon")
    assert band.get("class") == "band" and len(band.get("points").split()) == 6 and "spread" in texts(svg)


def test_chart_refuses_what_it_cannot_show_naming_the_line_or_band() -> None:
    for series, text in [({"bad": ([1, 2], [0, 1])}, "a log axis cannot show 0"),
                         ({"bad": ([1, 2, 3], [1, 2])}, r"y of 'bad' must have shape \(3,\) to match its x"),
                         ({"bad": ([1, 2], [float("nan"), 1])}, "y of 'bad'"),
                         ({str(i): ([1], [1]) for i in range(5)}, "1 to 4 lines and bands, got 5")]:
        with pytest.raises(ValueError, match=text):
            chart(series)
    unit = linear_axis([0, 1], "x"), linear_axis([0, 1], "y")
    with pytest.raises(ValueError, match="band 'upside' has a low above its high"):
        chart_svg(*unit, bands=[Band("upside", [0, 1], [1, 1], [0, 0])], kind="k", ident="t", title="a", desc="b")
    with pytest.raises(ValueError, match=r"y of 'w' must have shape \(2,\) to match its x"):
        chart_svg(*unit, [Line("w", [0, 1], [0])], kind="k", ident="t", title="a", desc="b")


def test_axes_have_round_steps_and_ends_and_a_log_axis_whole_decades() -> None:
    assert [plot.nice_step(span, count) for span, count in [(1, 4), (8, 4), (12, 5), (45.2, 4), (1, 2)]] == \
        pytest.approx([0.2, 2, 2, 10, 0.5])
    axis = linear_axis([-22.6, 22.6], "y")
    assert (axis.low, axis.high, axis.ticks) == (-30, 30, (-30, -20, -10, 0, 10, 20, 30))
    assert plot.ticks_within(-0.4, 4.4, 3) == (0, 2, 4)
    assert plot.log_axis([2, 512], "d").ticks == (1, 10, 100, 1000)
    with pytest.raises(ValueError, match="every value must be > 0"):
        plot.log_axis([0, 1], "d")
    axis = Axis(2, 512, (2, 8, 512), "d_k", log=True)
    assert [axis.tick_text(t) for t in axis.ticks] == ["2", "8", "512"]
    assert math.isclose(axis.share(math.sqrt(2 * 512)), 0.5)


def test_the_sweep_has_its_samples_and_marks_every_multiplier_experiment_one_tabulates() -> None:
    # its range, the multipliers it holds and the weights at each: test_figures_site.concentration
    assert len(plot.sweep("rises", True)[0]) >= plot.SAMPLES
    _, svg = drawn(plot.concentration_chart("rises", True, ident="c"))
    assert len(markers(svg)) == len(TOKENS) * (len(MULTIPLIERS) + 1)  # and one in each legend entry


def test_rises_takes_more_as_the_multiplier_grows_but_never_all_and_blocked_keys_lie_flat() -> None:
    _, weights = plot.sweep("rises", True)
    assert (np.diff(weights[:, 2]) > 0).all() and weights[-1, 2] < 1.0
    lines = drawn(plot.concentration_chart("grid", True, ident="c"))[0]["lines"]
    assert set(lines["weight on load"]["y"]) == {0.0} and set(lines["weight on grid"]["y"]) == {1.0}


def test_tied_keys_have_equal_weights_and_the_legend_and_description_say_so() -> None:
    assert plot.ties("grid", False) == [[0, 2]] and plot.ties("rises", True) == []
    _, weights = plot.sweep("grid", False)
    assert (weights[:, 0] == weights[:, 2]).all()
    carried, svg = drawn(plot.concentration_chart("grid", False, ident="c"))
    assert list(carried["lines"]) == ["weight on grid (tied with rises)", "weight on load",
                                      "weight on rises (tied with grid)"]
    desc = svg.find(f"{SVG}desc").text
    assert "At multiplier 0 the weights are grid 0.333, load 0.333, rises 0.333" in desc
    assert "grid and rises score the same" in desc


RAW = [np.array([-1.0, 1.0]), np.array([-3.0, 1.0, 5.0])]
SCALED = [np.array([-0.5, 0.5]), np.array([-1.0, 0.0, 1.0])]


def test_widths_sit_on_a_log_axis_and_the_description_names_the_spreads_at_both_ends() -> None:
    # each band, mean ± one population sd of its width's scores: test_figures_site.score_spread
    _, svg = drawn(plot.spread_chart([2, 8], RAW, SCALED, ident="s", drawn={"seed": 1}))
    assert {"2", "8", "key width d_k (log scale)", "score"} <= set(texts(svg))
    assert "grows from 1.000 to 3.266" in svg.find(f"{SVG}desc").text
    with pytest.raises(ValueError, match="one raw and one scaled array per width"):
        plot.spread_chart([2, 8], RAW, SCALED[:1], ident="s", drawn={"seed": 1})
