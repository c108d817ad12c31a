"""docs/assets/attnlab.js under Node, with the toy of ``attnlab.lab.toy_data()`` as the page gets it: Python's
numbers under JavaScript's camelCase names (snake_case names are aliases), and refusals naming the control."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from browser.agreement import assert_agrees, camel, control_settings, in_javascript_terms
from hypothesis import example, given, settings
from hypothesis import strategies as st
from model_js import node_output
from sites import ROOT

from attnlab.lab import DEFAULTS, TOKENS, compute, toy_data
from attnlab.text import MAX_DECIMALS, fmt

ATTNLAB_JS = ROOT / "docs" / "assets" / "attnlab.js"

EVALUATE = """
const attnlab = require(process.argv[1]);
const lab = attnlab.withToy(JSON.parse(process.argv[2]));
process.stdout.write(JSON.stringify(JSON.parse(require("fs").readFileSync(0, "utf8")).map(call => {
  try { return {result: eval(call)}; } catch (e) { return {error: e.name + ": " + e.message}; }
})));
"""
"""Reads JavaScript expressions (``attnlab``: the file's exports, ``lab``: with the toy); writes {result} or {error}."""


def in_node(calls: list[str]) -> list[dict[str, Any]]:
    """Each JavaScript expression's {result} or {error: "Name: message"}, in one Node process."""
    return json.loads(node_output("-e", EVALUATE, str(ATTNLAB_JS), json.dumps(toy_data()), stdin=json.dumps(calls)))


def run_in_node(settings: list[Any]) -> list[dict[str, Any]]:
    """``lab.compute`` of each setting: {result} or {error}."""
    return in_node([f"lab.compute({json.dumps(controls)})" for controls in settings])


def python(controls: dict[str, Any]) -> dict[str, Any]:
    """Python's result for ``controls`` (snake_case), renamed as JavaScript names its fields."""
    return in_javascript_terms(compute(controls).to_dict())


def test_node_gives_exact_weights_to_a_lone_visible_key_and_to_equal_scores() -> None:
    blocked, uniform = (answer["result"]["weights"] for answer in run_in_node([
        {"token": "grid", "causal": True}, {"token": "rises", "queryScale": 0, "causal": False}]))
    assert (blocked, uniform) == ([1.0, 0.0, 0.0], [1 / 3] * 3)


TOKEN, NUMBER, SWITCH = "RangeError: token must be one of", "must be a number, got", "must be true or false, got"
BAD_CONTROLS = [
    ("{token: 'sun'}", f'{TOKEN} grid, load, rises; got "sun"'), ("{token: 'Rises'}", TOKEN),
    ("{token: 2}", f"{TOKEN} grid, load, rises; got 2"), ("{token: null}", f"{TOKEN} grid, load, rises; got null"),
    *((f"{{{name}: {value}}}", f"TypeError: queryScale {NUMBER} {shown}") for name, value, shown in [
        ("queryScale", "'1'", '"1"'), ("query_scale", "true", "true"), ("queryScale", "[1]", "[1]"),
        ("queryScale", "2n", "2n")]),
    *((f"{{queryScale: {x}}}", f"RangeError: queryScale must be a finite number, got {x}") for x in ("NaN", "Infinity",
                                                                                                    "-Infinity")),
    ("{valueY: -Infinity}", "RangeError: valueY must be a finite number, got -Infinity"),
    ("{value_y: null}", f"TypeError: valueY {NUMBER} null"),
    ("{queryScale: 1e308}", "RangeError: queryScale 1e+308 is too large"),
    ("{causal: 1}", f"TypeError: causal {SWITCH} 1"), ("{causal: 'true'}", f'TypeError: causal {SWITCH} "true"'),
    ("{scaleScores: 0}", f"TypeError: scaleScores {SWITCH} 0"),
    ("{scale_scores: null}", f"TypeError: scaleScores {SWITCH} null"),
    ("{valueY: 4.0, value_y: 4.0}", "TypeError: valueY is given twice, as valueY and value_y: give it once"),
    ("{queryScale: 1.0, query_scale: 2.0}", "TypeError: queryScale is given twice, as queryScale and query_scale"),
    ("{colour: 'red', value_y: 4.0}", 'RangeError: unknown control "colour"; the known controls are token, queryScale, '
                                      "causal, valueY, scaleScores (snake_case aliases such as query_scale work too)"),
    ("{colour: 'red', size: 2}", 'RangeError: unknown controls "colour", "size"; the known'),
]
NOT_PLAIN_CONTROLS = ['new Map([["token", "grid"]])', "new Date(0)", "/grid/", '["grid"]', "null", '"grid"',
                      'Object.create({token: "grid"})',
                      "new (class Controls { constructor() { this.token = 'grid'; } })()"]
"""JavaScript values with no Python counterpart: not a plain object of controls."""
REFUSALS = [*((f"lab.compute({source})", message) for source, message in BAD_CONTROLS),
            *((f"lab.compute({source})", "TypeError: controls must be a plain object with keys token, queryScale, "
               "causal, valueY, scaleScores, got [object ") for source in NOT_PLAIN_CONTROLS),
            ("attnlab.visibleMap(1, 3)", "TypeError: causal must be true or false, got 1"),
            ("attnlab.visibleMap(true, 2.5)", "TypeError: n must be an integer, got 2.5"),
            ("attnlab.visibleMap(true, '3')", 'TypeError: n must be an integer, got "3"'),
            ("attnlab.visibleMap(false, 0)", "RangeError: n must be at least 1, got 0"),
            *((f"attnlab.{call}", "Error: toy data is missing: load assets/lab-data.js first")
              for call in ("compute({})", "toy()")),
            ("attnlab.attend([1e200, 1e200], [[1e200, 1e200], [1, 1]], [[1, 1], [1, 1]])",
             "RangeError: the scores of query and keys overflow")]  # as attnlab.attention does (test_attention.py)
"""Each call refused and the start of its refusal, naming the control or argument by its JavaScript name."""


def refusals_in_node(calls: list[str]) -> list[str]:
    """How each JavaScript call is refused, or "" where it returns."""
    return [answer.get("error", "") for answer in in_node(calls)]


def test_node_refuses_each_bad_control_or_argument_naming_it() -> None:
    for (call, message), answer in zip(REFUSALS, refusals_in_node([call for call, _ in REFUSALS]), strict=True):
        assert answer.startswith(message), (call, answer[:300])


def test_node_ignores_controls_added_to_every_object_through_object_prototype() -> None:
    [answer] = in_node(["Object.assign(Object.prototype, {token: 'grid', queryScale: 3, value_y: 5}) && "
                        "lab.compute({})"])
    assert_agrees(answer["result"], python({}))


SETTING = st.fixed_dictionaries({}, optional={
    "token": st.sampled_from(TOKENS), "query_scale": st.floats(-1e3, 1e3, allow_nan=False), "causal": st.booleans(),
    "value_y": st.floats(-1e12, 1e12, allow_nan=False) | st.floats(allow_nan=False, allow_infinity=False),
    "scale_scores": st.booleans()})
"""Any finite controls; third values up to ±1.8e308 (the edge: an example) mix without overflow in both languages."""


@settings(max_examples=5, deadline=None)  # a Node launch each
@given(st.lists(st.tuples(SETTING, st.sets(st.sampled_from(list(DEFAULTS)))), min_size=1, max_size=120))
@example([({}, set()), ({"query_scale": 0.5, "value_y": -1.0}, {"value_y"})]
         + [({"token": t, "causal": False, "value_y": y}, set(DEFAULTS)) for t in TOKENS for y in (1.79e308, -1e308)])
@example([(c, set(c)) for c in control_settings()] + [(c, set()) for c in control_settings(count=60)])
def test_node_agrees_with_python_for_any_finite_controls_each_under_either_name(
        batch: list[tuple[dict[str, Any], set[str]]]) -> None:
    # the names in the set are asked in camelCase (queryScale), the others in snake_case (query_scale)
    asked = [{camel(k) if k in in_camel else k: v for k, v in controls.items()} for controls, in_camel in batch]
    for (controls, _), answer in zip(batch, run_in_node(asked), strict=True):
        assert_agrees(answer.get("result", answer), python(controls), where=f"compute({controls})")


@settings(max_examples=5, deadline=None)  # a Node launch each
@given(st.lists(st.tuples(st.floats(-1e15, 1e15, allow_nan=False) | st.floats(allow_nan=False, allow_infinity=False),
                          st.integers(0, 6) | st.integers(0, MAX_DECIMALS)), min_size=1, max_size=800))
@example([(1 / 16, 3), (-1 / 16, 3), (3 / 16, 3), (1 / 8, 2), (5 / 2, 0), (7 / 2, 0), (-1 / 2, 0), (-0.0, 3),
          (-0.0004, 3), (1.5e21, 2)])  # halfway cases, negative zero, where toFixed turns to an exponent
def test_node_fmt_prints_what_python_prints_for_any_finite_number_and_decimals(pairs: list[tuple[float, int]]) -> None:
    printed = in_node([f"attnlab.fmt({json.dumps(x)}, {decimals})" for x, decimals in pairs])
    assert printed == [{"result": fmt(x, decimals)} for x, decimals in pairs]


FMT_REFUSALS = [("1", 3, 'x must be a number, got "1"'), (True, 3, "x must be a number, got true"),
                (1.0, 21, "decimals must be from 0 to 20, got 21"), (1.0, -1, "decimals must be from 0 to 20, got -1"),
                (1.0, 1.5, "decimals must be a whole number, got 1.5"),
                (math.nan, 3, "x must be a finite number, got NaN"),
                (math.inf, 3, "x must be a finite number, got Infinity")]
"""Calls Python's fmt refuses too, in attnlab.js's words (json.dumps writes NaN and Infinity as JavaScript does)."""


def test_node_fmt_refuses_what_python_fmt_refuses_naming_the_argument() -> None:
    printed = refusals_in_node([f"attnlab.fmt({json.dumps(x)}, {d})" for x, d, _ in FMT_REFUSALS])
    for (x, decimals, message), in_node_ in zip(FMT_REFUSALS, printed, strict=True):
        with pytest.raises((TypeError, ValueError), match=f"^{message.split()[0]} must be"):
            fmt(x, decimals)
        assert in_node_.split(": ", 1)[1] == message, (x, decimals, in_node_)


def test_the_models_encode_refuses_anything_but_a_sentence_before_it_asks_for_the_model() -> None:
    given_texts = ("", "undefined", "null", "42")
    script = ("require(process.argv[1]); Promise.all([" + ", ".join(
        f"globalThis.attnlab.model.encode({text}).then(() => 'encoded', (e) => e.name + ': ' + e.message)"
        for text in given_texts) + "]).then((answers) => process.stdout.write(JSON.stringify(answers)));")
    printed = json.loads(node_output("-e", script, str(ROOT / "docs" / "assets" / "explorer-model.js")))
    assert printed == [f"TypeError: encode takes the sentence as a string, got {text or 'undefined'}"
                       for text in given_texts]
