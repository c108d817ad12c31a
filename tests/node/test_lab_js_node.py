"""docs/assets/attnlab.js under Node gives Python's numbers in JavaScript's terms and refuses bad controls.

Node loads the file with ``require`` (the browser lab's computation, unchanged)
and gets the toy's constants from ``attnlab.lab.toy_data()``, as the page gets
them from the data the build emits. Its controls and fields of two words are
camelCase (``queryScale``, ``weightMap``; snake_case names are aliases), and it
refuses bad controls in words of its own, naming the control: the messages
need not match Python's, only the numbers and the shown digits must.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import pytest
from browser.agreement import assert_agrees, camel, control_settings, in_javascript_terms
from hypothesis import example, given, settings
from hypothesis import strategies as st
from sites import ROOT

from attnlab import attention
from attnlab.lab import TOKENS, compute, toy_data
from attnlab.text import MAX_DECIMALS, fmt

ATTNLAB_JS = ROOT / "docs" / "assets" / "attnlab.js"

RUNNER = """
const attnlab = require(process.argv[1]);
const {toy, settings} = JSON.parse(require("fs").readFileSync(0, "utf8"));
const lab = attnlab.withToy(toy);
const run = c => { try { return {result: lab.compute(c)}; } catch (e) { return {error: e.name + ": " + e.message}; } };
process.stdout.write(JSON.stringify(settings.map(run)));
"""
"""Reads {toy, settings} on stdin, writes one {result} or {error} per setting."""


def node(script: str, *args: str, stdin: str = "") -> str:
    """Run ``script`` with ``node -e`` and return what it printed; fail clearly without Node."""
    executable = shutil.which("node")
    assert executable, "Node.js is needed for this test (Debian: apt-get install nodejs)"
    finished = subprocess.run([executable, "-e", script, *args], input=stdin,
                              capture_output=True, text=True, timeout=60, check=False)
    assert finished.returncode == 0, finished.stderr
    return finished.stdout


def run_in_node(settings: list[Any]) -> list[dict[str, Any]]:
    """Compute each setting with attnlab.js in a fresh Node process, with the toy from ``toy_data()``."""
    return json.loads(node(RUNNER, str(ATTNLAB_JS), stdin=json.dumps({"toy": toy_data(), "settings": settings})))


def python(controls: dict[str, Any]) -> dict[str, Any]:
    """Python's result for ``controls`` (snake_case), renamed as JavaScript names its fields."""
    return in_javascript_terms(compute(controls).to_dict())


def test_node_agrees_with_python_over_1020_settings_by_camel_case_names_and_480_by_snake_case_aliases() -> None:
    camel_case, snake_case = control_settings(), control_settings(count=60)
    asked = [{camel(name): value for name, value in controls.items()} for controls in camel_case] + snake_case
    for controls, answer in zip(camel_case + snake_case, run_in_node(asked), strict=True):
        assert_agrees(answer.get("result", answer), python(controls), where=f"compute({controls})")


def test_node_names_in_camel_case_fills_defaults_takes_an_alias_beside_a_camel_name_and_gives_exact_weights() -> None:
    given = {"token": "load", "queryScale": 2.0, "causal": False, "valueY": 4.0, "scaleScores": False}
    camel_case, mixed, empty, blocked, uniform = (answer["result"] for answer in run_in_node([
        given, {"query_scale": 0.5, "valueY": -1.0}, {}, {"token": "grid", "causal": True},
        {"token": "rises", "queryScale": 0, "causal": False}]))
    assert "weightMap" in camel_case and "weight_map" not in camel_case and camel_case["controls"] == given
    assert_agrees(mixed, python({"query_scale": 0.5, "value_y": -1.0}))
    assert_agrees(empty, python({}))
    assert (blocked["weights"], blocked["visible"]) == ([1.0, 0.0, 0.0], [True, False, False])
    assert uniform["weights"] == [1 / 3, 1 / 3, 1 / 3]


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
"""Bad controls, each refused by attnlab.js under Node in its own words, naming the control (JavaScript's name)."""
NOT_PLAIN_CONTROLS = ['new Map([["token", "grid"]])', "new Date(0)", "/grid/", '["grid"]', "null", '"grid"',
                      'Object.create({token: "grid"})',
                      "new (class Controls { constructor() { this.token = 'grid'; } })()"]
"""JavaScript values Python has no counterpart for (a Map, a Date, a RegExp, an array, null, a token string, controls
inherited from a prototype, an instance of a class), each refused by attnlab.js as not a plain object of controls."""
REFUSALS = [*BAD_CONTROLS, *((source, "TypeError: controls must be a plain object with keys token, queryScale, causal, "
                                      "valueY, scaleScores, got [object ") for source in NOT_PLAIN_CONTROLS)]


def refusals_in_node(calls: list[str]) -> list[str]:
    """How attnlab.js (with the toy loaded as ``lab``) refuses each JavaScript call, or "" where it returns."""
    lab = f"const lab = require(process.argv[1]).withToy({json.dumps(toy_data())});"
    tries = ", ".join(f"() => {call}" for call in calls)
    return json.loads(node(f"{lab} const attnlab = require(process.argv[1]); process.stdout.write(JSON.stringify("
                           f"[{tries}].map(f => {{ try {{ f(); return ''; }} catch (e) {{ return e.name + ': ' + "
                           "e.message; } })));", str(ATTNLAB_JS)))


def test_node_refuses_each_bad_control_naming_it() -> None:
    printed = refusals_in_node([f"lab.compute({source})" for source, _ in REFUSALS])
    for (source, message), answer in zip(REFUSALS, printed, strict=True):
        assert answer.startswith(message), (source, answer[:300])


def test_node_visible_map_refuses_what_python_causal_refuses_naming_the_argument() -> None:
    cases = {"1, 3": "TypeError: causal must be true or false, got 1",
             "true, 2.5": "TypeError: n must be an integer, got 2.5",
             "true, '3'": 'TypeError: n must be an integer, got "3"',
             "false, 0": "RangeError: n must be at least 1, got 0"}
    assert refusals_in_node([f"attnlab.visibleMap({args})" for args in cases]) == list(cases.values())


def test_node_ignores_controls_added_to_every_object_through_object_prototype() -> None:
    lab = f"require(process.argv[1]).withToy({json.dumps(toy_data())})"
    printed = node(f"Object.prototype.token = 'grid'; Object.prototype.queryScale = 3; Object.prototype.value_y = 5; "
                   f"process.stdout.write(JSON.stringify({lab}.compute({{}})))", str(ATTNLAB_JS))
    assert_agrees(json.loads(printed), python({}))


def test_node_attend_refuses_scores_that_overflow_as_python_does_and_a_missing_toy_is_named() -> None:
    attend, compute_without_toy, toy_without_data = refusals_in_node([
        "attnlab.attend([1e200, 1e200], [[1e200, 1e200], [1, 1]], [[1, 1], [1, 1]])", "attnlab.compute({})",
        "attnlab.toy()"])
    assert "the scores of query and keys overflow" in attend
    with pytest.raises(ValueError, match="overflow"):
        attention([1e200, 1e200], [[1e200, 1e200], [1, 1]], [[1, 1], [1, 1]])
    assert "toy data is missing" in compute_without_toy
    assert "load assets/lab-data.js first" in toy_without_data


def test_toy_returns_the_data_it_is_given() -> None:
    printed = node(f"process.stdout.write(JSON.stringify(require(process.argv[1]).toy({json.dumps(toy_data())})))",
                   str(ATTNLAB_JS))
    assert json.loads(printed) == toy_data()


SETTING = st.fixed_dictionaries({}, optional={
    "token": st.sampled_from(TOKENS),
    "query_scale": st.floats(-1e3, 1e3, allow_nan=False),
    "causal": st.booleans(),
    "value_y": st.floats(-1e12, 1e12, allow_nan=False) | st.floats(allow_nan=False, allow_infinity=False),
    "scale_scores": st.booleans(),
})
"""Any finite controls; third values up to ±1.8e308 (the example: at the edge) are mixed without overflow in both
languages."""


@settings(max_examples=5, deadline=None)  # a Node launch each
@given(st.lists(st.tuples(SETTING, st.booleans()), min_size=1, max_size=120))
@example([({"token": t, "causal": False, "value_y": y}, True) for t in TOKENS for y in (1.79e308, -1e308)])
def test_node_agrees_with_python_for_any_finite_controls_under_either_name(
    batch: list[tuple[dict[str, Any], bool]],
) -> None:
    asked = [{camel(k) if in_camel else k: v for k, v in controls.items()} for controls, in_camel in batch]
    for (controls, _), answer in zip(batch, run_in_node(asked), strict=True):
        assert_agrees(answer.get("result", answer), python(controls), where=f"compute({controls})")


FMT_RUNNER = """
const attnlab = require(process.argv[1]);
const pairs = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(pairs.map(([x, decimals]) => attnlab.fmt(x, decimals))));
"""
"""Reads [[x, decimals], ...] on stdin, writes attnlab.fmt of each."""


def fmt_in_node(pairs: list[tuple[float, int]]) -> list[str]:
    """attnlab.js's fmt of each (x, decimals), in one Node process."""
    return json.loads(node(FMT_RUNNER, str(ATTNLAB_JS), stdin=json.dumps(pairs)))


@settings(max_examples=5, deadline=None)  # a Node launch each
@given(st.lists(st.tuples(st.floats(-1e15, 1e15, allow_nan=False) | st.floats(allow_nan=False, allow_infinity=False),
                          st.integers(0, 6) | st.integers(0, MAX_DECIMALS)), min_size=1, max_size=800))
@example([(1 / 16, 3), (-1 / 16, 3), (3 / 16, 3), (1 / 8, 2), (5 / 2, 0), (7 / 2, 0), (-1 / 2, 0), (-0.0, 3),
          (-0.0004, 3), (1.5e21, 2)])  # halfway cases, negative zero, where toFixed turns to an exponent
def test_node_fmt_prints_what_python_prints_for_any_finite_number_and_decimals(pairs: list[tuple[float, int]]) -> None:
    assert fmt_in_node(pairs) == [fmt(x, decimals) for x, decimals in pairs]


FMT_REFUSAL_RUNNER = """
const attnlab = require(process.argv[1]);
const special = {__proto__: null, NaN: NaN, Infinity: Infinity};  // JSON cannot hold them
const pairs = JSON.parse(require("fs").readFileSync(0, "utf8"), (key, value) => special[value] ?? value);
const refusal = ([x, d]) => { try { attnlab.fmt(x, d); return null; } catch (e) { return e.message; } };
process.stdout.write(JSON.stringify(pairs.map(refusal)));
"""
"""Reads [[x, decimals], ...] on stdin ("NaN" and "Infinity" stand for themselves) and writes how fmt refuses each."""
FMT_REFUSALS = [("1", 3, 'x must be a number, got "1"'), (True, 3, "x must be a number, got true"),
                (1.0, 21, "decimals must be from 0 to 20, got 21"), (1.0, -1, "decimals must be from 0 to 20, got -1"),
                (1.0, 1.5, "decimals must be a whole number, got 1.5"),
                ("NaN", 3, "x must be a finite number, got NaN"),
                ("Infinity", 3, "x must be a finite number, got Infinity")]
"""Calls Python's fmt refuses too (a non-number, decimals beyond 20 or not whole, NaN and infinity), each in
attnlab.js's own words."""


def fmt_refusals_in_node(pairs: list[tuple[Any, Any]]) -> list[str | None]:
    """How attnlab.js's fmt refuses each (x, decimals), or None where it prints."""
    return json.loads(node(FMT_REFUSAL_RUNNER, str(ATTNLAB_JS), stdin=json.dumps(pairs)))


def test_node_fmt_refuses_what_python_fmt_refuses_naming_the_argument() -> None:
    printed = fmt_refusals_in_node([(x, d) for x, d, _ in FMT_REFUSALS])
    for (x, decimals, message), in_node in zip(FMT_REFUSALS, printed, strict=True):
        with pytest.raises((TypeError, ValueError), match=f"^{message.split()[0]} must be"):
            fmt(float(x) if x in ("NaN", "Infinity") else x, decimals)
        assert in_node == message, (x, decimals, in_node)


def test_the_models_encode_refuses_anything_but_a_sentence_before_it_asks_for_the_model() -> None:
    given_texts = ("", "undefined", "null", "42")
    script = ("require(process.argv[1]); Promise.all([" + ", ".join(
        f"globalThis.attnlab.model.encode({text}).then(() => 'encoded', (e) => e.name + ': ' + e.message)"
        for text in given_texts) + "]).then((answers) => process.stdout.write(JSON.stringify(answers)));")
    printed = json.loads(node(script, str(ROOT / "docs" / "assets" / "explorer-model.js")))
    assert printed == [f"TypeError: encode takes the sentence as a string, got {text or 'undefined'}"
                       for text in given_texts]
