"""The toy LAB-001 (``attnlab.lab``) against arithmetic by hand, never numbers copied from a run.

X rows grid [1, 0], load [0, 1], rises [1, 1]; W_Q = I, W_K = [[1, 1], [0, 1]], W_V = [[1, 0], [0, 2]], d_k = 2: so
queries = X, keys [1, 1], [0, 1], [1, 2], values [1, 0], [0, 2], [1, 2].
"""

from __future__ import annotations

import inspect
import json
import math
import operator
import re
from typing import Any

import numpy as np
import pytest

from attnlab import lab
from attnlab.lab import DEFAULTS, LabResult, compute, controls, toy_data

SQRT2 = math.sqrt(2.0)
KEYS = [[1.0, 1.0], [0.0, 1.0], [1.0, 2.0]]
VALUES = [[1.0, 0.0], [0.0, 2.0], [1.0, 2.0]]

# rises: q = [1, 1]; q·keys = 1+1, 0+1, 1+2
RISES_SCORES = [2.0, 1.0, 3.0]
RISES_SCALED = [2 / SQRT2, 1 / SQRT2, 3 / SQRT2]
_Z = math.exp(2 / SQRT2) + math.exp(1 / SQRT2) + math.exp(3 / SQRT2)
RISES_WEIGHTS = [math.exp(2 / SQRT2) / _Z, math.exp(1 / SQRT2) / _Z, math.exp(3 / SQRT2) / _Z]
W0, W1, W2 = RISES_WEIGHTS
# output = w0·[1, 0] + w1·[0, 2] + w2·[1, 2]
RISES_OUTPUT = [W0 + W2, 2 * W1 + 2 * W2]
# causal: grid sees only itself; load sees grid and load with q = [0, 1] giving scores 1 and 1
CAUSAL_MAP = [[1.0, 0.0, 0.0], [1 / 2, 1 / 2, 0.0], RISES_WEIGHTS]
# the brief's four controls, and the switch that divides the scores by √d_k (on, as the paper does)
TOY_DEFAULTS = {"token": "rises", "query_scale": 1.0, "causal": True, "value_y": 2.0, "scale_scores": True}


def close(actual: Any, expected: Any) -> bool:
    """True when a result's nested tuples agree to 1e-12 with the equally nested lists expected."""
    if isinstance(expected, list):
        return isinstance(actual, tuple) and len(actual) == len(expected) and all(
            close(a, e) for a, e in zip(actual, expected))
    return math.isclose(actual, expected, rel_tol=1e-12, abs_tol=1e-12)


def test_baseline_matches_hand_arithmetic() -> None:
    r = compute()
    expected = {"query": [1.0, 1.0], "keys": KEYS, "values": VALUES, "scores": RISES_SCORES, "scaled": RISES_SCALED,
                "weights": RISES_WEIGHTS, "output": RISES_OUTPUT, "weight_map": CAUSAL_MAP}
    assert [field for field, value in expected.items() if not close(getattr(r, field), value)] == []
    assert (r.visible, toy_data()["defaults"], compute({})) == ((True, True, True), TOY_DEFAULTS, r)


def test_keyword_defaults_equal_the_lab_defaults() -> None:
    for function in (compute, controls):
        signature = inspect.signature(function).parameters
        assert {name: p.default.value for name, p in signature.items()} == TOY_DEFAULTS == DEFAULTS


def test_the_exponentials_are_taken_after_the_row_maximum_and_the_map_row_is_the_weights() -> None:
    r = compute()
    assert close(r.exponentials, [math.exp((2 - 3) / SQRT2), math.exp((1 - 3) / SQRT2), 1.0])
    assert close(r.weights, [e / sum(r.exponentials) for e in r.exponentials])
    # load under the causal rule: q = [0, 1] scores grid 1 and load 1 (tied, both the maximum); rises blocked
    assert compute("load").exponentials == (1.0, 1.0, 0.0)
    for token in lab.TOKENS:
        other = compute(token, causal=False, query_scale=0.5)
        assert other.weight_map[other.row] == other.weights


A = math.exp(1 / SQRT2)  # grid: q = [1, 0] scores 1, 0, 1, scaled 1/√2, 0, 1/√2
E1, E2, E3 = math.exp(1), math.exp(2), math.exp(3)  # rises' scores 1, 2, 3 left unscaled
BY_HAND = [  # controls, weights, output = Σ w_j · value_j with values [1, 0], [0, 2], [1, value_y]
    ({"token": "grid"}, [1.0, 0.0, 0.0], [1.0, 0.0]),  # causal: grid sees only itself
    ({"token": "grid", "causal": False}, [A / (2 * A + 1), 1 / (2 * A + 1), A / (2 * A + 1)],
     [2 * A / (2 * A + 1), (2 + 2 * A) / (2 * A + 1)]),
    ({"query_scale": 0.0}, [1 / 3] * 3, [(1 + 0 + 1) / 3, (0 + 2 + 2) / 3]),
    ({"token": "load", "query_scale": 0.0}, [1 / 2, 1 / 2, 0.0], [1 / 2, 1.0]),  # uniform over visible keys only
    ({"scale_scores": False}, [E2 / (E1 + E2 + E3), E1 / (E1 + E2 + E3), E3 / (E1 + E2 + E3)],
     [(E2 + E3) / (E1 + E2 + E3), (2 * E1 + 2 * E3) / (E1 + E2 + E3)]),
    ({"value_y": 4.0}, RISES_WEIGHTS, [W0 + W2, 2 * W1 + 4 * W2]),
]


def test_each_control_by_hand() -> None:
    for given, weights, output in BY_HAND:
        r = compute(given)
        assert close(r.weights, weights) and close(r.output, output), given
    r = compute(query_scale=2.0)
    assert r.query == (2.0, 2.0) and close(r.scaled, [4 / SQRT2, 2 / SQRT2, 6 / SQRT2])
    assert close(r.weight_map[:2], CAUSAL_MAP[:2])  # the selected query only


def test_what_a_control_leaves_alone_it_leaves_exactly() -> None:
    def steps(r: LabResult) -> tuple[Any, ...]:
        return r.scores, r.visible, r.weights, r.output

    # rises sees every key either way; with a zero query there is nothing for √d_k to scale
    assert steps(compute("rises", causal=True)) == steps(compute("rises", causal=False))
    assert steps(compute(query_scale=0.0)) == steps(compute(query_scale=0.0, scale_scores=False))
    assert compute("load", value_y=4.0).output == compute("load").output  # the third key is blocked there


def test_controls_as_one_dict_equal_them_as_arguments_missing_keys_taking_defaults_but_never_both_ways() -> None:
    given = {"token": "load", "query_scale": 0.5, "causal": False, "value_y": -1.0}
    assert compute(given) == compute(**given)
    assert compute({"value_y": 4.0}) == compute(value_y=4.0)
    assert controls({"query_scale": 3}) == {**TOY_DEFAULTS, "query_scale": 3.0}
    with pytest.raises(TypeError, match=r"dict and also as arguments \['causal'\]"):
        compute({"token": "grid"}, causal=False)
    for name in ("query_scale", "causal", "value_y"):
        with pytest.raises(TypeError, match=rf"dict and also as arguments \['{name}'\]"):
            compute({name: DEFAULTS[name]}, **{name: DEFAULTS[name]})


def test_nothing_inside_a_result_the_toys_defaults_or_the_companions_contrasts_can_be_edited() -> None:
    from attnlab.__main__ import CONTRASTS
    from attnlab.site.pages.sliders import SLIDER_RANGES

    r = compute()
    with pytest.raises(AttributeError):
        r.weights = [1.0, 0.0, 0.0]  # type: ignore[misc]
    for edit in (lambda: operator.setitem(r.weights, 0, 1.0), lambda: operator.setitem(r.weight_map[0], 0, 1.0),
                 lambda: operator.setitem(r.controls, "token", "grid"),
                 *(lambda m=m: operator.setitem(m, "value_y", 3.0)
                   for m in (lab.DEFAULTS, SLIDER_RANGES, CONTRASTS, *(given for _, given in CONTRASTS.values())))):
        with pytest.raises(TypeError):
            edit()
    changed = r.to_dict()
    changed["weights"][0], changed["controls"]["token"] = 99.0, "grid"
    assert r.to_dict() == compute().to_dict()


def test_to_dict_has_every_field_and_to_json_round_trips_to_it() -> None:
    assert set(compute().to_dict()) == set(inspect.signature(LabResult).parameters)
    r = compute("load", query_scale=1.5, causal=False, value_y=-2.5)
    assert json.loads(r.to_json()) == r.to_dict()


def test_toy_data_holds_the_brief_constants_json_ready() -> None:
    data = toy_data()
    assert [data[key] for key in ("tokens", "x", "w_q", "w_k", "w_v")] == [
        ["grid", "load", "rises"], [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]],
        [[1.0, 1.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 2.0]]]
    assert json.loads(json.dumps(data)) == data


def test_a_bad_control_is_refused_naming_it_and_its_value() -> None:
    tokens = "token must be one of ['grid', 'load', 'rises'], got "
    for given, error, message in [  # query_scale and value_y: test_refusals.py's table of numbers
        *((dict(token=t), ValueError, re.escape(tokens + w)) for t, w in [("RISES", "'RISES'"), (None, "None")]),
        # numpy compares an array equal to "grid", but it is not a token
        (dict(token=np.array(["grid"])), ValueError, re.escape(tokens + "array(['grid']")),
        (dict(token={"token": "Rises"}), ValueError, re.escape(tokens + "'Rises'")),
        (dict(token={"query_scale": "0"}), TypeError, "query_scale must be a real number"),
        *(({switch: v}, TypeError, f"{switch} must be a boolean, got") for switch in ("causal", "scale_scores")
          for v in (1, "true", None)),
        (dict(token={"temperature": 1.0}), ValueError,
         re.escape("unknown control(s) ['temperature']; known: ['causal', 'query_scale',")),
    ]:
        with pytest.raises(error, match=message):
            compute(**given)
