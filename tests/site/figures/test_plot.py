"""Charts with axes (``attnlab.site.figures.plot``): labelled, legible on a phone, drawn where their numbers say."""

from __future__ import annotations

import json
import math
from typing import Any
from xml.etree import ElementTree

import pytest

from attnlab.site.figures.plot import (
    LABEL_FONT,
    LEFT,
    PLOT_HEIGHT,
    RIGHT,
    TICK_FONT,
    TOP,
    WIDTH,
    Axis,
    Band,
    Line,
    chart_svg,
    linear_axis,
    log_axis,
    loglog_svg,
    nice_step,
    ticks_within,
)
from attnlab.site.figures.svg import LAB_COLUMN, MIN_TEXT

SVG = "{http://www.w3.org/2000/svg}"
LINES = {"squares": ([1, 10, 100], [1, 100, 10_000]), "linear": ([1, 10, 100], [5, 50, 500])}


def figure_of(html: str) -> ElementTree.Element:
    """The <figure> element of a chart's HTML."""
    return ElementTree.fromstring(html)


def chart(series: Any = None) -> ElementTree.Element:
    """The <svg> element of a log-log chart of ``series`` (default: two lines)."""
    html = loglog_svg(LINES if series is None else series, kind="k", ident="t", title="Growth",
                      desc="Two lines.", x_label="T", y_label="count")
    return figure_of(html).find(f"{SVG}svg")


def texts(svg: ElementTree.Element) -> list[str]:
    return ["".join(t.itertext()) for t in svg.iter(f"{SVG}text")]


def test_chart_is_named_by_its_title_and_described_by_its_description() -> None:
    svg = chart()
    assert (svg.get("role"), svg.get("aria-labelledby"), svg.get("aria-describedby")) == ("img", "t-title", "t-desc")
    assert (svg.find(f"{SVG}title").get("id"), svg.find(f"{SVG}title").text) == ("t-title", "Growth")
    assert (svg.find(f"{SVG}desc").get("id"), svg.find(f"{SVG}desc").text) == ("t-desc", "Two lines.")


def test_chart_draws_one_line_per_series_and_one_marker_per_point_plus_legend() -> None:
    svg = chart()
    markers = svg.findall(f"{SVG}circle") + svg.findall(f"{SVG}path[@class='marker']")
    assert (len(svg.findall(f"{SVG}polyline")), len(markers)) == (2, 2 * 3 + 2)


def test_chart_shows_both_axis_labels_and_a_legend_entry_per_line() -> None:
    shown = texts(chart())
    assert {"T", "count", "squares", "linear"} <= set(shown)


def test_log_chart_labels_decades_as_powers_of_ten() -> None:
    assert {"10⁰", "10¹", "10²", "10³", "10⁴"} <= set(texts(chart()))


def test_chart_puts_a_power_law_on_a_straight_line_of_its_slope() -> None:
    line = chart({"squares": ([1, 10, 100], [1, 100, 10_000])}).find(f"{SVG}polyline")
    (x0, y0), (x1, y1), (x2, y2) = (map(float, p.split(",")) for p in line.get("points").split())
    assert (x1 - x0, y1 - y0) == pytest.approx((x2 - x1, y2 - y1), abs=0.11)


def test_chart_carries_the_numbers_it_draws() -> None:
    carried = json.loads(figure_of(loglog_svg(LINES, kind="k", ident="t", title="a", desc="b", x_label="c",
                                              y_label="d")).get("data-values"))
    assert carried["lines"] == {label: {"x": list(map(float, xs)), "y": list(map(float, ys))}
                                for label, (xs, ys) in LINES.items()}


def test_each_point_is_drawn_where_its_axes_put_it() -> None:
    x, y = linear_axis([0, 8], "x"), linear_axis([0, 1], "y")
    svg = figure_of(
        chart_svg(x, y, [Line("w", [0, 2, 8], [0, 0.25, 1])], kind="k", ident="t", title="a", desc="b")
    ).find(f"{SVG}svg")
    points = [float(c) for p in svg.find(f"{SVG}polyline").get("points").split() for c in p.split(",")]
    expected = [c for a, b in ((0, 0), (2, 0.25), (8, 1))
                for c in (LEFT + x.share(a) * (WIDTH - RIGHT - LEFT), TOP + PLOT_HEIGHT - y.share(b) * PLOT_HEIGHT)]
    assert points == pytest.approx(expected, abs=0.051)


def test_a_band_is_drawn_between_its_lows_and_highs_with_a_legend_swatch() -> None:
    svg = figure_of(chart_svg(linear_axis([0, 2], "x"), linear_axis([-2, 2], "y"),
                              bands=[Band("spread", [0, 1, 2], [-1, -1, -2], [1, 1, 2])],
                              kind="k", ident="t", title="a", desc="b")).find(f"{SVG}svg")
    band = svg.find(f"{SVG}polygon")
    assert band.get("class") == "band" and len(band.get("points").split()) == 6
    assert "spread" in texts(svg)


def test_no_text_is_smaller_than_eleven_pixels_in_a_box_on_a_phone() -> None:
    sizes = [float(t.get("font-size")) for t in chart().iter(f"{SVG}text")]
    assert min(sizes) * min(1.0, LAB_COLUMN / WIDTH) >= MIN_TEXT
    assert (TICK_FONT, LABEL_FONT) == (14, 15)


def test_chart_fetches_nothing_from_elsewhere() -> None:
    html = loglog_svg(LINES, kind="k", ident="t", title="a", desc="b", x_label="c", y_label="d")
    assert "href" not in html and "url(" not in html and html.count("http") == 1  # the xmlns only


def test_chart_escapes_labels() -> None:
    assert "a &lt;b&gt; &amp; c" in loglog_svg({"a <b> & c": ([1, 2], [1, 2])}, kind="k", ident="t", title="T",
                                               desc="D", x_label="", y_label="")


@pytest.mark.parametrize(("series", "text"), [
    ({"bad": ([1, 2], [0, 1])}, "line 'bad' has a value <= 0"),
    ({"bad": ([1, 2, 3], [1, 2])}, "line 'bad' has 3 x values but 2 y values"),
    ({}, "series must have 1 to 4 lines, got 0"),
    ({str(i): ([1], [1]) for i in range(5)}, "series must have 1 to 4 lines, got 5"),
])
def test_chart_refuses_what_a_log_log_chart_cannot_show(series: Any, text: str) -> None:
    with pytest.raises(ValueError, match=text):
        chart(series)


def test_a_band_whose_low_is_above_its_high_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="band 'upside' has a low above its high"):
        chart_svg(linear_axis([0, 1], "x"), linear_axis([0, 1], "y"), bands=[Band("upside", [0, 1], [1, 1], [0, 0])],
                  kind="k", ident="t", title="a", desc="b")


def test_a_line_with_fewer_ys_than_xs_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="y of 'w' has 1 values but its x has 2"):
        chart_svg(linear_axis([0, 1], "x"), linear_axis([0, 1], "y"), [Line("w", [0, 1], [0])],
                  kind="k", ident="t", title="a", desc="b")


@pytest.mark.parametrize(("span", "count", "step"), [(1, 4, 0.2), (8, 4, 2), (12, 5, 2), (45.2, 4, 10), (1, 2, 0.5)])
def test_nice_step_is_the_round_step_nearest_the_asked_count(span: float, count: int, step: float) -> None:
    assert nice_step(span, count) == pytest.approx(step)


def test_linear_axis_covers_every_value_with_round_ends() -> None:
    axis = linear_axis([-22.6, 22.6], "y")
    assert (axis.low, axis.high, axis.ticks) == (-30, 30, (-30, -20, -10, 0, 10, 20, 30))


def test_ticks_within_stay_inside_the_window() -> None:
    assert ticks_within(-0.4, 4.4, 3) == (0, 2, 4)


def test_log_axis_spans_whole_decades_and_refuses_zero() -> None:
    assert log_axis([2, 512], "d").ticks == (1, 10, 100, 1000)
    with pytest.raises(ValueError, match="every value must be > 0"):
        log_axis([0, 1], "d")


def test_a_log_axis_writes_other_ticks_as_plain_numbers() -> None:
    axis = Axis(2, 512, (2, 8, 512), "d_k", log=True)
    assert [axis.tick_text(t) for t in axis.ticks] == ["2", "8", "512"]
    assert math.isclose(axis.share(math.sqrt(2 * 512)), 0.5)


def test_a_line_marks_only_the_x_values_it_is_asked_to() -> None:
    svg = figure_of(chart_svg(linear_axis([0, 4], "x"), linear_axis([0, 1], "y"),
                              [Line("w", [0, 1, 2, 3, 4], [0, 0.1, 0.2, 0.3, 0.4], marked=(1, 4))],
                              kind="k", ident="t", title="a", desc="b")).find(f"{SVG}svg")
    assert len(svg.findall(f"{SVG}circle")) == 2 + 1  # two on the line, one in the legend


def test_carried_counts_stay_exact_and_fractions_keep_six_digits() -> None:
    carried = json.loads(
        figure_of(
            loglog_svg(
                {"n": ([1, 2], [2**53 - 1, 1 / 3])}, kind="k", ident="t", title="a", desc="b", x_label="c", y_label="d"
            )
        ).get("data-values")
    )
    assert carried["lines"]["n"]["y"] == [2**53 - 1, 0.333333]
