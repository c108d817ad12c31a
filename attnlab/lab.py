"""The toy calculation LAB-001 and its five controls.

Three made-up tokens, ``grid``, ``load`` and ``rises``, with two numbers each
(claim CL-004). The browser lab reads the same constants from ``toy_data()``
and returns the same fields as ``compute``. The controls: the selected row,
the query multiplier, causal visibility, the third value's second coordinate,
and ``scale_scores``, the division by √d_k.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import Any

import numpy as np

from attnlab.attention import causal as causal_mask
from attnlab.attention import mix, project, scale, scores, shifted_exponentials, softmax
from attnlab.checks import finite_number, shown

__all__ = ["DEFAULTS", "TOKENS", "W_K", "W_Q", "W_V", "LabResult", "X", "compute", "controls", "toy_data"]

TOKENS: tuple[str, ...] = ("grid", "load", "rises")
X = ((1.0, 0.0), (0.0, 1.0), (1.0, 1.0))
W_Q = ((1.0, 0.0), (0.0, 1.0))
W_K = ((1.0, 1.0), (0.0, 1.0))
W_V = ((1.0, 0.0), (0.0, 2.0))

DEFAULTS: Mapping[str, Any] = MappingProxyType({"token": "rises", "query_scale": 1.0, "causal": True,
                                                "value_y": 2.0, "scale_scores": True})
"""The controls' defaults, read-only (a chapter's edit would reach the published lab)."""
MULTIPLIERS: tuple[float, ...] = (0.0, 0.5, 1.0, 2.0, 4.0, 8.0)
"""The query multipliers experiment 1 compares."""


@dataclass(frozen=True)
class Default:
    """Marks a control argument that was not passed (so an explicit default mixed with a dict is refused)."""

    value: Any

    def __repr__(self) -> str:
        return repr(self.value)


Vector = tuple[float, ...]


@dataclass(frozen=True)
class LabResult:
    """Every intermediate of the selected query row, plus the full weight map (immutable: tuples).

    ``to_dict()`` equals the browser's JSON. ``weight_map[i][j]`` is the weight
    query i gives key j; ``scaled`` is what the softmax receives (the raw
    scores when ``scale_scores`` is off); ``exponentials`` are exp(s − max)
    of the visible keys, 0 for blocked ones.
    """

    controls: Mapping[str, Any]
    token: str
    row: int
    query: Vector
    keys: tuple[Vector, ...]
    values: tuple[Vector, ...]
    scores: Vector
    scaled: Vector
    visible: tuple[bool, ...]
    exponentials: Vector
    weights: Vector
    output: Vector
    weight_map: tuple[Vector, ...]

    def to_dict(self) -> dict[str, Any]:
        """The result as a new JSON-ready dict of lists (the browser returns the same keys)."""
        return {field.name: as_lists(getattr(self, field.name)) for field in fields(self)}

    def to_json(self) -> str:
            return json.dumps(self.to_dict())


def as_lists(value: Any) -> Any:
    """``value`` with tuples turned into lists and mappings into dicts, all the way down (new objects)."""
    if isinstance(value, Mapping):
        return {key: as_lists(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [as_lists(item) for item in value]
    return value


def as_tuples(array: np.ndarray) -> Any:
    """A numpy array as nested tuples of Python numbers."""
    return tuple(as_tuples(row) for row in array) if array.ndim > 1 else tuple(array.tolist())


def controls(token: str | Mapping[str, Any] | Default = Default("rises"), query_scale: Any = Default(1.0),
             causal: Any = Default(True), value_y: Any = Default(2.0),
             scale_scores: Any = Default(True)) -> dict[str, Any]:
    """Validate the five controls, given as arguments or as one dict (missing keys take their defaults)."""
    keywords = {"query_scale": query_scale, "causal": causal, "value_y": value_y, "scale_scores": scale_scores}
    if isinstance(token, Mapping):
        extra = [name for name, value in keywords.items() if not isinstance(value, Default)]
        if extra:
            raise TypeError(f"controls were given as a dict and also as arguments {extra}: use one or the other")
        unknown = sorted(set(token) - set(DEFAULTS), key=str)
        if unknown:
            raise ValueError(f"unknown control(s) {shown(unknown)}; known: {shown(sorted(DEFAULTS))}")
        given = {**DEFAULTS, **token}
    else:
        given = {name: DEFAULTS[name] if isinstance(value, Default) else value
                 for name, value in {"token": token, **keywords}.items()}
    if not isinstance(given["token"], str) or given["token"] not in TOKENS:
        raise ValueError(f"token must be one of {shown(list(TOKENS))}, got {shown(given['token'])}")
    for switch in ("causal", "scale_scores"):
        if not isinstance(given[switch], (bool, np.bool_)):
            raise TypeError(f"{switch} must be a boolean, got {shown(given[switch])}")
    return {
        "token": str(given["token"]),
        "query_scale": finite_number("query_scale", given["query_scale"]),
        "causal": bool(given["causal"]),
        "value_y": finite_number("value_y", given["value_y"]),
        "scale_scores": bool(given["scale_scores"]),
    }


def toy_data() -> dict[str, Any]:
    """The toy's constants and control defaults as JSON-ready data for the browser."""
    return {"tokens": list(TOKENS), "x": as_lists(X), "w_q": as_lists(W_Q), "w_k": as_lists(W_K),
            "w_v": as_lists(W_V), "defaults": dict(DEFAULTS)}


def compute(token: str | Mapping[str, Any] | Default = Default("rises"), query_scale: Any = Default(1.0),
            causal: Any = Default(True), value_y: Any = Default(2.0),
            scale_scores: Any = Default(True)) -> LabResult:
    """Run the toy under the given controls with ``attnlab.attention``'s steps, keeping every intermediate.

    Examples
    --------
    >>> r = compute("rises")
    >>> [round(w, 3) for w in r.weights]
    [0.284, 0.14, 0.576]
    >>> compute({"token": "grid"}).weights
    (1.0, 0.0, 0.0)
    >>> [round(w, 3) for w in compute("rises", scale_scores=False).weights]
    [0.245, 0.09, 0.665]
    """
    c = controls(token, query_scale, causal, value_y, scale_scores)
    row = TOKENS.index(c["token"])
    queries = project(X, W_Q, "W_Q")
    queries[row] *= c["query_scale"]
    keys = project(X, W_K, "W_K")
    values = project(X, W_V, "W_V")
    values[2, 1] = c["value_y"]
    visible = causal_mask(len(X)) if c["causal"] else np.ones((len(X), len(X)), dtype=bool)
    try:
        raw = scores(queries, keys)
    except ValueError as error:
        raise ValueError(f"query_scale {shown(c['query_scale'])} is too large: "
                         "the toy's scores overflow float64") from error
    scaled = scale(raw, keys.shape[1]) if c["scale_scores"] else raw
    weights = softmax(scaled, visible)
    output = mix(weights, values)
    exponentials = shifted_exponentials(scaled[row:row + 1], visible[row:row + 1])[0]
    arrays = {"query": queries[row], "keys": keys, "values": values, "scores": raw[row], "scaled": scaled[row],
              "visible": visible[row], "exponentials": exponentials, "weights": weights[row], "output": output[row],
              "weight_map": weights}
    return LabResult(MappingProxyType(c), c["token"], row, **{name: as_tuples(a) for name, a in arrays.items()})
