"""docs/assets/value-plane.js places the lab's plane exactly as ``attnlab.site.figures.plane`` places the guide's."""

from __future__ import annotations

import json
from typing import Any

from browser.agreement import assert_agrees, control_settings
from hypothesis import given, settings
from hypothesis import strategies as st
from model_js import node_output
from sites import ROOT

from attnlab.lab import compute, toy_data
from attnlab.site.figures.plane import geometry, hull, lab_frame

ASSETS = ROOT / "docs" / "assets"

RUNNER = """
const attnlab = require(process.argv[1]);
const plane = require(process.argv[2]);
const {toy, frame, settings, points} = JSON.parse(require("fs").readFileSync(0, "utf8"));
const lab = attnlab.withToy(toy);
process.stdout.write(JSON.stringify({
  geometries: settings.map(c => plane.geometry(lab.compute(c), frame, toy.tokens)),
  hulls: points.map(p => plane.hull(p)),
}));
"""
"""Reads {toy, frame, settings, points} on stdin; writes the geometry of each setting and the hull of each point set."""


def in_node(settings_: list[dict[str, Any]], points: list[list[list[float]]] = ()) -> dict[str, Any]:
    """Geometries and hulls computed by value-plane.js in one Node process."""
    payload = {"toy": toy_data(), "frame": lab_frame().to_dict(), "settings": settings_, "points": list(points)}
    return json.loads(node_output("-e", RUNNER, str(ASSETS / "attnlab.js"), str(ASSETS / "value-plane.js"),
                                  stdin=json.dumps(payload)))


def test_node_places_every_mark_where_python_does_over_the_lab_settings_and_the_awkward_cases() -> None:
    # the awkward cases: a third value on the axis, a blocked row, a zero query
    chosen = [*control_settings(count=200), {"value_y": 0.0}, {"token": "grid", "causal": True}, {"query_scale": 0.0}]
    for controls, js in zip(chosen, in_node(chosen)["geometries"], strict=True):
        assert_agrees(js, geometry(compute(controls), lab_frame()), where=f"geometry({controls})")


@settings(max_examples=4, deadline=None)  # a Node launch each
@given(st.lists(st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5)).map(list), min_size=1, max_size=8),
                min_size=1, max_size=60))
def test_node_hull_is_python_hull(point_sets: list[list[list[int]]]) -> None:
    for points, js in zip(point_sets, in_node([], point_sets)["hulls"], strict=True):
        assert js == [list(p) for p in hull(points)], points
