"""The lab's sliders reach what the chapters discuss."""

from __future__ import annotations

import math

import pytest

from attnlab.lab import MULTIPLIERS
from attnlab.site.pages.sliders import SLIDER_RANGES


@pytest.mark.parametrize(("name", "reachable"), [("query_scale", [0.0, 1.0]), ("value_y", [2.0, 4.0])])
def test_slider_range_reaches_the_default_and_the_experiment_value(name: str, reachable: list[float]) -> None:
    low, high, step = SLIDER_RANGES[name]
    for value in reachable:
        steps = (value - low) / step
        assert low <= value <= high and math.isclose(steps, round(steps), abs_tol=1e-9), value


def test_the_multiplier_slider_spans_exactly_the_multipliers_experiment_one_shows() -> None:
    low, high, step = SLIDER_RANGES["query_scale"]
    assert (low, high) == (min(MULTIPLIERS), max(MULTIPLIERS))
    assert all(math.isclose((m - low) / step, round((m - low) / step), abs_tol=1e-9) for m in MULTIPLIERS)
