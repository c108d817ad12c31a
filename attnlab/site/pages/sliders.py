"""The browser lab's sliders: the range and step of each control (Python accepts any finite value); the
live plane and the concentration chart read them here, the lab through ``assets/lab-data.js``."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from attnlab.lab import MULTIPLIERS

SLIDER_RANGES: Mapping[str, tuple[float, float, float]] = MappingProxyType({
    "query_scale": (min(MULTIPLIERS), max(MULTIPLIERS), 0.1), "value_y": (-4.0, 6.0, 0.5)})
"""(minimum, maximum, step) of each slider (read-only): the multiplier spans the multipliers experiment 1 compares."""
