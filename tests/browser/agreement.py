"""Compare the browser's (or Node's) lab result with Python's, field by field, once ``in_javascript_terms`` has
renamed Python's snake_case (``weight_map``) to JavaScript's camelCase (``weightMap``)."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

from attnlab.lab import TOKENS
from attnlab.site.pages.sliders import SLIDER_RANGES

TOLERANCE = 1e-12
"""Largest difference allowed between a JS number and Python's (absolute, or relative for large ones)."""


def camel(name: str) -> str:
    """A Python name as JavaScript writes it: ``query_scale`` → ``queryScale``."""
    first, *rest = name.split("_")
    return first + "".join(part.capitalize() for part in rest)


def in_javascript_terms(value: Any) -> Any:
    """``value`` with every dict key renamed by ``camel``, all the way down (lists and numbers unchanged)."""
    if isinstance(value, dict):
        return {camel(key): in_javascript_terms(item) for key, item in value.items()}
    if isinstance(value, list):
        return [in_javascript_terms(item) for item in value]
    return value


def assert_agrees(js: Any, py: Any, where: str = "result") -> None:
    """Same keys, lengths, booleans and strings; numbers within ``TOLERANCE``; ``where`` names the place."""
    if isinstance(py, dict):
        assert isinstance(js, dict) and sorted(js) == sorted(py), f"{where}: keys {js!r} vs {sorted(py)}"
        for key in py:
            assert_agrees(js[key], py[key], f"{where}.{key}")
    elif isinstance(py, list):
        assert isinstance(js, list) and len(js) == len(py), f"{where}: {js!r} vs {py!r}"
        for i, (a, b) in enumerate(zip(js, py)):
            assert_agrees(a, b, f"{where}[{i}]")
    elif isinstance(py, (bool, str)):
        assert js == py and type(js) is type(py), f"{where}: JS {js!r} vs Python {py!r}"
    else:
        assert isinstance(js, (int, float)) and not isinstance(js, bool), f"{where}: JS {js!r} is not a number"
        assert math.isclose(js, py, rel_tol=TOLERANCE, abs_tol=TOLERANCE), f"{where}: JS {js!r} vs Python {py!r}"


def control_settings(count: int = 600, seed: int = 5) -> list[dict[str, Any]]:
    """Edge settings (slider ends, zero, negative zero, either side of the √d_k switch) and ``count`` seeded
    random ones, half inside the sliders' ranges and half far outside them."""
    (scale_lo, scale_hi, scale_step), (value_lo, value_hi, value_step) = (SLIDER_RANGES["query_scale"],
                                                                           SLIDER_RANGES["value_y"])
    edges = [
        {"token": t, "query_scale": s, "causal": c, "value_y": v, "scale_scores": d}
        for t, c, s, v, d in itertools.product(TOKENS, (True, False),
                                               (scale_lo, scale_lo + scale_step, 1.0, scale_hi - scale_step,
                                                scale_hi, -0.0, 1e-300),
                                               (value_lo, value_lo + value_step, 0.0, value_hi, -0.0),
                                               (True, False))
    ]
    rng = random.Random(seed)
    settings = [
        {"token": rng.choice(TOKENS), "causal": rng.random() < 0.5,
         "query_scale": rng.uniform(scale_lo, scale_hi) if inside else rng.uniform(-60.0, 60.0),
         "value_y": rng.uniform(value_lo, value_hi) if inside else rng.uniform(-1e6, 1e6),
         "scale_scores": rng.random() < 0.5}
        for inside in (i % 2 == 0 for i in range(count))
    ]
    return edges + settings
