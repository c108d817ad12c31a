"""The browser lab's sliders: the range and step of each control a reader drags.

Python accepts any finite value for these controls (:func:`attnlab.lab.compute`);
the sliders offer a range that shows what the chapters discuss. The live
value plane spans the third value's range so it never needs rescaling, and
the concentration chart sweeps the multiplier's, so both read it here; the
lab gets it through ``assets/lab-data.js``.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from attnlab.lab import MULTIPLIERS

SLIDER_RANGES: Mapping[str, tuple[float, float, float]] = MappingProxyType({
    "query_scale": (min(MULTIPLIERS), max(MULTIPLIERS), 0.1),
    "value_y": (-4.0, 6.0, 0.5),
})
"""(minimum, maximum, step) of each slider (read-only): the multiplier spans the multipliers experiment 1
compares."""
