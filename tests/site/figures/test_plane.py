"""The value plane (``attnlab.site.figures.plane``): values as points, their hull, the output inside it."""

from __future__ import annotations

import itertools
import json
import math
from xml.etree import ElementTree

import pytest
from browser.agreement import control_settings
from hypothesis import given
from hypothesis import strategies as st
from pictures import SVG

from attnlab.lab import compute
from attnlab.site.figures import plane
from attnlab.site.figures.plane import geometry, hull, lab_frame
from attnlab.site.figures.svg import LAB_COLUMN, PHONE_COLUMN
from attnlab.site.pages.sliders import SLIDER_RANGES

SETTINGS = {"Baseline": {}, "Query × 0": {"query_scale": 0.0}, "Raised": {"value_y": 4.0}}
INSIDE = [c for c in control_settings(count=60)
          if SLIDER_RANGES["value_y"][0] <= c["value_y"] <= SLIDER_RANGES["value_y"][1]]
"""Settings whose values the lab's plane shows (the value slider's range)."""


def test_hull_is_the_corners_counter_clockwise_whatever_the_order_of_the_points() -> None:
    assert hull([(1, 0), (0, 2), (1, 2)]) == [(0, 2), (1, 0), (1, 2)]
    assert hull([(0, 0), (2, 0), (2, 2), (0, 2), (1, 1), (1, 0)]) == [(0, 0), (2, 0), (2, 2), (0, 2)]  # inside, edge
    assert hull([(0, 0), (1, 1), (3, 3)]) == [(0, 0), (3, 3)] and hull([(1, 2)] * 3) == [(1, 2)]
    points = [(0, 0), (3, 1), (1, 3), (2, 2)]
    assert len({tuple(hull(list(p))) for p in itertools.permutations(points)}) == 1


@given(st.lists(st.tuples(st.integers(-20, 20), st.integers(-20, 20)), min_size=1, max_size=12))
def test_every_point_lies_inside_or_on_the_hull(points: list[tuple[int, int]]) -> None:
    corners = hull(points)
    if len(corners) >= 3:
        for p in points:
            assert all((b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) >= 0
                       for a, b in zip(corners, corners[1:] + corners[:1]))


def test_frame_maps_the_window_to_the_box_leaving_room_around_the_points_and_ticks_inside() -> None:
    frame = plane.frame_around([(0, 0), (1, 4)], 200, 200)
    assert frame.to_pixels((frame.x_low, frame.y_high)) == (frame.left, frame.top)
    assert frame.to_pixels((frame.x_high, frame.y_low)) == pytest.approx((frame.left + frame.width,
                                                                          frame.top + frame.height))
    assert frame.x_low < 0 and frame.x_high > 1 and frame.y_low < 0 and frame.y_high > 4
    assert all(frame.x_low <= t <= frame.x_high for t in frame.x_ticks)


def test_lab_frame_holds_every_value_the_value_slider_reaches() -> None:
    frame = lab_frame()
    for y in SLIDER_RANGES["value_y"][:2]:
        for x_px, y_px in geometry(compute(value_y=y), frame)["values"]:
            assert frame.left < x_px < frame.left + frame.width and frame.top < y_px < frame.top + frame.height


def test_the_output_sits_at_the_weighted_average_inside_the_hull_and_no_label_runs_off_the_picture() -> None:
    for controls in INSIDE:
        r = compute(controls)
        g = geometry(r, lab_frame())
        for axis in (0, 1):
            assert g["output"][axis] == pytest.approx(sum(w * p[axis] for w, p in zip(r.weights, g["values"])))
        assert {tuple(p) for p in g["hull"]} <= {tuple(p) for p, seen in zip(g["values"], r.visible) if seen}, controls
        for label in g["labels"]:
            left = label["x"] - label["width"] if label["anchor"] == "end" else label["x"]
            assert 0 <= left and left + label["width"] <= plane.LIVE_WIDTH, (controls, label)


def test_labels_write_each_weight_on_its_value_blocked_values_as_blocked_and_do_not_overlap() -> None:
    texts = [label["text"] for label in geometry(compute("load", causal=True), lab_frame())["labels"]]
    assert texts == ["output", "grid 0.500", "load 0.500", "rises blocked"]
    labels = geometry(compute(value_y=0.0), lab_frame())["labels"]  # rises's value is grid's, (1, 0)
    assert abs(labels[1]["y"] - labels[3]["y"]) >= plane.FONT


def test_a_blocked_value_is_drawn_hollow_and_the_output_as_a_diamond() -> None:
    svg = f'<svg xmlns="http://www.w3.org/2000/svg">{plane.marks(compute("grid"), lab_frame())}</svg>'
    circles = ElementTree.fromstring(svg).findall(f"{SVG}circle")
    assert [c.get("class") for c in circles] == ["attnlab-plane-value", "attnlab-plane-value attnlab-plane-blocked",
                                                 "attnlab-plane-value attnlab-plane-blocked"]
    assert 'class="attnlab-plane-output"' in svg


def test_panels_are_named_pictures_carrying_each_settings_numbers_and_their_shared_frame() -> None:
    figure = ElementTree.fromstring(plane.panels(SETTINGS, ident="p", caption="c"))
    carried = json.loads(figure.get("data-values"))  # each panel's numbers: test_figures_site.value_plane
    assert [panel["heading"] for panel in carried["panels"]] == list(SETTINGS)
    assert plane.Frame(**carried["frame"]).picture_width == plane.PANEL_WIDTH  # the frame round-trips
    pictures = figure.findall(f".//{SVG}svg")
    assert [svg.find(f"{SVG}title").text for svg in pictures] == [f"Value plane: {h}" for h in SETTINGS]
    assert plane.PANEL_WIDTH <= PHONE_COLUMN and plane.LIVE_WIDTH <= LAB_COLUMN
    with pytest.raises(ValueError, match="at least one setting"):
        plane.panels({}, ident="p", caption="c")


def test_geometry_reads_a_result_dict_like_a_result() -> None:
    r = compute("grid", 2.0, False, -1.0)
    assert geometry(r.to_dict(), lab_frame()) == geometry(r, lab_frame())
    assert math.isclose(geometry(r, lab_frame())["radii"][0], 4 + 9 * math.sqrt(r.weights[0]))
