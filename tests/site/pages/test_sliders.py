"""The lab's sliders reach what the chapters discuss."""

from __future__ import annotations

import math

from attnlab.lab import MULTIPLIERS
from attnlab.site.pages.sliders import SLIDER_RANGES


def test_the_sliders_reach_their_defaults_the_experiment_values_and_exactly_experiment_ones_multipliers() -> None:
    for name, reachable in [("query_scale", [0.0, 1.0, *MULTIPLIERS]), ("value_y", [2.0, 4.0])]:
        low, high, step = SLIDER_RANGES[name]
        for value in reachable:
            steps = (value - low) / step
            assert low <= value <= high and math.isclose(steps, round(steps), abs_tol=1e-9), value
    assert SLIDER_RANGES["query_scale"][:2] == (min(MULTIPLIERS), max(MULTIPLIERS))
