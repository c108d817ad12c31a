"""The toy calculation LAB-001 and its four controls.

Three made-up tokens, ``grid``, ``load`` and ``rises``, with two numbers
each (claim CL-004: invented for arithmetic, no meaning intended). The
browser lab reads the same constants from ``toy_data()`` and must return
the same fields as ``compute``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from attnlab.attention import attention, causal as causal_mask, project
from attnlab.checks import finite_number

TOKENS: tuple[str, ...] = ("grid", "load", "rises")
X = ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0))
W_Q = ((1.0, 0.0), (0.0, 1.0))
W_K = ((1.0, 1.0), (0.0, 1.0))
W_V = ((1.0, 0.0), (0.0, 2.0))

DEFAULTS: dict[str, Any] = {"token": "rises", "query_scale": 1.0, "causal": True, "value_y": 2.0}
MULTIPLIERS: tuple[float, ...] = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0)
"""The query multipliers experiment 1 compares; the lab's multiplier slider spans exactly these."""
RANGES: dict[str, tuple[float, float, float]] = {
    "query_scale": (min(MULTIPLIERS), max(MULTIPLIERS), 0.1),
    "value_y": (-4.0, 6.0, 0.5),
}
"""Slider (minimum, maximum, step) of the browser lab; Python accepts any finite value."""


@dataclass(frozen=True)
class LabResult:
    """Every intermediate of the selected query row, plus the full weight map.

    Vectors are plain lists so the result compares equal to the browser's
    JSON. ``weight_map[i][j]`` is the weight query i gives key j under the
    same controls (the multiplier applies to the selected row only).
    """

    controls: dict[str, Any]
    token: str
    row: int
    query: list[float]
    keys: list[list[float]]
    values: list[list[float]]
    scores: list[float]
    scaled: list[float]
    visible: list[bool]
    weights: list[float]
    output: list[float]
    weight_map: list[list[float]]

    def to_dict(self) -> dict[str, Any]:
        """The result as a JSON-ready dict (the browser returns the same keys)."""
        return asdict(self)

    def to_json(self) -> str:
        """The result serialised to JSON."""
        return json.dumps(self.to_dict())


def controls(token: str | Mapping[str, Any] = "rises", query_scale: Any = 1.0,
             causal: Any = True, value_y: Any = 2.0) -> dict[str, Any]:
    """Validate the four controls, given as arguments or as one dict.

    A dict may leave keys out (they take their defaults) but may not add
    unknown ones, and may not be mixed with keyword controls (one of the two
    would silently lose). Returns a new dict with every key.
    """
    if isinstance(token, Mapping):
        keywords = {"query_scale": query_scale, "causal": causal, "value_y": value_y}
        unchanged = dict(zip(keywords, controls.__defaults__[1:]))  # this signature's own defaults
        extra = [name for name, value in keywords.items() if value != unchanged[name]]
        if extra:
            raise TypeError(f"controls were given as a dict and also as arguments {extra}: use one or the other")
        unknown = sorted(set(token) - set(DEFAULTS))
        if unknown:
            raise ValueError(f"unknown control(s) {unknown}; known: {sorted(DEFAULTS)}")
        given = {**DEFAULTS, **token}
    else:
        given = {"token": token, "query_scale": query_scale, "causal": causal, "value_y": value_y}
    if given["token"] not in TOKENS:
        raise ValueError(f"token must be one of {list(TOKENS)}, got {given['token']!r}")
    if not isinstance(given["causal"], (bool, np.bool_)):
        raise TypeError(f"causal must be True or False, got {given['causal']!r}")
    return {
        "token": given["token"],
        "query_scale": finite_number("query_scale", given["query_scale"]),
        "causal": bool(given["causal"]),
        "value_y": finite_number("value_y", given["value_y"]),
    }


def toy_data() -> dict[str, Any]:
    """The toy's constants and control defaults as JSON-ready data for the browser."""
    return {
        "tokens": list(TOKENS),
        "x": [list(r) for r in X],
        "w_q": [list(r) for r in W_Q],
        "w_k": [list(r) for r in W_K],
        "w_v": [list(r) for r in W_V],
        "defaults": dict(DEFAULTS),
        "ranges": {k: list(v) for k, v in RANGES.items()},
    }


def compute(token: str | Mapping[str, Any] = "rises", query_scale: Any = 1.0,
            causal: Any = True, value_y: Any = 2.0) -> LabResult:
    """Run the toy under the given controls and keep every intermediate.

    Examples
    --------
    >>> r = compute("rises")
    >>> [round(w, 3) for w in r.weights]
    [0.284, 0.14, 0.576]
    >>> compute({"token": "grid"}).weights
    [1.0, 0.0, 0.0]
    """
    c = controls(token, query_scale, causal, value_y)
    row = TOKENS.index(c["token"])
    queries = project(X, W_Q, "W_Q")
    queries[row] *= c["query_scale"]
    keys = project(X, W_K, "W_K")
    values = project(X, W_V, "W_V")
    values[2, 1] = c["value_y"]
    visible = causal_mask(len(X)) if c["causal"] else None  # None: every key visible
    try:
        full = attention(queries, keys, values, visible)
    except ValueError as error:  # the toy's rows are fixed and finite: only a huge query_scale overflows
        raise ValueError(f"query_scale={c['query_scale']:g} is too large: {error}") from error
    return LabResult(
        controls=c,
        token=c["token"],
        row=row,
        query=queries[row].tolist(),
        keys=keys.tolist(),
        values=values.tolist(),
        scores=full.scores[row].tolist(),
        scaled=full.scaled[row].tolist(),
        visible=full.visible[row].tolist(),
        weights=full.weights[row].tolist(),
        output=full.output[row].tolist(),
        weight_map=full.weights.tolist(),
    )
