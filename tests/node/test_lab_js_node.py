"""docs/assets/attnlab.js under Node gives Python's fields and numbers and refuses the same bad controls.

Node loads the file with ``require`` (the browser lab's computation, unchanged)
and gets the toy's constants from ``attnlab.lab.toy_data()``, as the page gets
them from the data the build emits.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sites import ROOT

from attnlab.checks import js_number
from attnlab.lab import TOKENS, compute, toy_data
from attnlab.text import MAX_DECIMALS, fmt
from browser.agreement import assert_agrees, control_settings

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


def test_node_agrees_with_python_over_810_settings() -> None:
    settings = control_settings()
    for controls, answer in zip(settings, run_in_node(settings), strict=True):
        assert_agrees(answer.get("result", answer), compute(controls).to_dict(), where=f"compute({controls})")


def test_node_fills_missing_controls_with_the_toy_defaults() -> None:
    [answer] = run_in_node([{}])
    assert_agrees(answer["result"], compute().to_dict())


def test_node_blocked_keys_get_exactly_zero_weight() -> None:
    [answer] = run_in_node([{"token": "grid", "causal": True}])
    assert answer["result"]["weights"] == [1.0, 0.0, 0.0]
    assert answer["result"]["visible"] == [True, False, False]


def test_node_zero_multiplier_gives_exactly_uniform_weights() -> None:
    [answer] = run_in_node([{"token": "rises", "query_scale": 0, "causal": False}])
    assert answer["result"]["weights"] == [1 / 3, 1 / 3, 1 / 3]


BAD_CONTROLS = ROOT / "tests" / "bad_controls.json"
"""The one list of bad controls: Python's ``compute`` and attnlab.js under Node must refuse each alike."""
REFUSALS: list[dict[str, Any]] = json.loads(BAD_CONTROLS.read_text(encoding="utf-8"))
JS_ERROR = {TypeError: "TypeError", ValueError: "RangeError"}
"""attnlab.js throws a RangeError where Python raises a ValueError."""

REFUSAL_RUNNER = """
const fs = require("fs");
const lab = require(process.argv[1]).withToy(JSON.parse(fs.readFileSync(0, "utf8")));
const bad = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));  // the file itself: 1e400 is Infinity here too
const refusal = c => { try { lab.compute(c); return null; } catch (e) { return e.name + ": " + e.message; } };
process.stdout.write(JSON.stringify(bad.map(entry => refusal(entry.controls))));
"""
"""Reads the toy on stdin and the bad controls from their file; writes each refusal, or null if accepted."""


def python_refusal(controls: Any) -> str | None:
    """How Python's ``compute`` refuses ``controls``, written as attnlab.js writes an error; None if accepted."""
    try:
        compute(controls)
    except (TypeError, ValueError) as error:
        return f"{JS_ERROR[type(error)]}: {error}"
    return None


@pytest.fixture(scope="module")
def node_refusals() -> list[str | None]:
    """attnlab.js's refusal of each bad control, in one Node process."""
    return json.loads(node(REFUSAL_RUNNER, str(ATTNLAB_JS), str(BAD_CONTROLS), stdin=json.dumps(toy_data())))


@pytest.mark.parametrize("entry", REFUSALS, ids=[entry["why"] for entry in REFUSALS])
def test_node_refuses_each_bad_control_with_pythons_error_and_message(
        entry: dict[str, Any], node_refusals: list[str | None]) -> None:
    expected = python_refusal(entry["controls"])
    assert expected is not None and entry["names"] in expected
    assert node_refusals[REFUSALS.index(entry)] == expected


NODE_ONLY_REFUSALS = {
    "a BigInt multiplier": ("{query_scale: 2n}", "TypeError: query_scale must be a real number, got 2n"),
    "a Map of controls": ('new Map([["token", "grid"]])', "TypeError: controls must be a plain object"),
    "a Date": ("new Date(0)", "TypeError: controls must be a plain object"),
    "a RegExp": ("/grid/", "TypeError: controls must be a plain object"),
    "an array": ('["grid"]', "TypeError: controls must be a plain object"),
    "null": ("null", "TypeError: controls must be a plain object"),
    "a token string": ('"grid"', "TypeError: controls must be a plain object"),
    "controls inherited from a prototype": ('Object.create({token: "grid"})', "TypeError: controls must be a plain object"),
    "an instance of a class": ("new (class Controls { constructor() { this.token = 'grid'; } })()",
                               "TypeError: controls must be a plain object"),
}
"""JavaScript values Python has no counterpart for, each refused by attnlab.js with a clear error."""


@pytest.mark.parametrize(("given", "message"), NODE_ONLY_REFUSALS.values(), ids=NODE_ONLY_REFUSALS.keys())
def test_node_refuses_javascript_values_that_are_not_plain_controls(given: str, message: str) -> None:
    lab = f"require(process.argv[1]).withToy({json.dumps(toy_data())})"
    printed = node(f"try {{ {lab}.compute({given}); }} catch (e) {{ process.stdout.write(e.name + ': ' + e.message); }}",
                   str(ATTNLAB_JS))
    assert printed.startswith(message)


@pytest.mark.parametrize(("args", "message"), [
    ("1, 3", "TypeError: causal must be a boolean, got 1"), ("true, 2.5", "TypeError: n must be an integer, got 2.5"),
    ("true, '3'", 'TypeError: n must be an integer, got "3"'), ("false, 0", "RangeError: n must be at least 1, got 0"),
])
def test_node_visible_map_refuses_what_python_causal_refuses_naming_the_argument(args: str, message: str) -> None:
    printed = node(f"try {{ require(process.argv[1]).visibleMap({args}); }} "
                   "catch (e) { process.stdout.write(e.name + ': ' + e.message); }", str(ATTNLAB_JS))
    assert printed == message


def test_node_ignores_controls_added_to_every_object_through_object_prototype() -> None:
    lab = f"require(process.argv[1]).withToy({json.dumps(toy_data())})"
    printed = node(f"Object.prototype.token = 'grid'; Object.prototype.query_scale = 3; "
                   f"process.stdout.write(JSON.stringify({lab}.compute({{}})))", str(ATTNLAB_JS))
    assert_agrees(json.loads(printed), compute().to_dict())


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity"])
def test_node_refuses_non_finite_numbers(number: str) -> None:
    lab = f"require(process.argv[1]).withToy({json.dumps(toy_data())})"
    printed = node(f"try {{ {lab}.compute({{query_scale: {number}}}); }} catch (e) {{ process.stdout.write(e.message); }}",
                   str(ATTNLAB_JS))
    assert "query_scale must be finite" in printed


def test_node_without_toy_data_says_where_to_get_it() -> None:
    printed = node("try { require(process.argv[1]).compute({}); } catch (e) { process.stdout.write(e.message); }",
                   str(ATTNLAB_JS))
    assert "toy data is missing" in printed


def test_toy_without_data_loaded_names_the_missing_script() -> None:
    printed = node("try { require(process.argv[1]).toy(); } catch (e) { process.stdout.write(e.message); }",
                   str(ATTNLAB_JS))
    assert "load assets/lab-data.js first" in printed


def test_toy_returns_the_data_it_is_given() -> None:
    printed = node(f"process.stdout.write(JSON.stringify(require(process.argv[1]).toy({json.dumps(toy_data())})))",
                   str(ATTNLAB_JS))
    assert json.loads(printed) == toy_data()


SETTING = st.fixed_dictionaries({}, optional={
    "token": st.sampled_from(TOKENS),
    "query_scale": st.floats(-1e3, 1e3, allow_nan=False),
    "causal": st.booleans(),
    "value_y": st.floats(-1e12, 1e12, allow_nan=False),
})


@settings(max_examples=15, deadline=None)
@given(st.lists(SETTING, min_size=1, max_size=40))
def test_node_agrees_with_python_for_any_finite_controls(batch: list[dict[str, Any]]) -> None:
    for controls, answer in zip(batch, run_in_node(batch), strict=True):
        assert_agrees(answer.get("result", answer), compute(controls).to_dict(), where=f"compute({controls})")


@settings(max_examples=10, deadline=None)
@given(st.lists(st.fixed_dictionaries({"token": st.sampled_from(TOKENS), "causal": st.booleans(),
                                       "value_y": st.floats(allow_nan=False, allow_infinity=False)}),
                min_size=1, max_size=40))
def test_node_agrees_with_python_for_third_values_anywhere_in_float64(batch: list[dict[str, Any]]) -> None:
    # values near ±1.8e308 are mixed without overflow in both languages
    for controls, answer in zip(batch, run_in_node(batch), strict=True):
        assert_agrees(answer.get("result", answer), compute(controls).to_dict(), where=f"compute({controls})")


FMT_RUNNER = """
const attnlab = require(process.argv[1]);
const pairs = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(pairs.map(([x, decimals]) => attnlab.fmt(x, decimals))));
"""
"""Reads [[x, decimals], ...] on stdin, writes attnlab.fmt of each."""


def fmt_in_node(pairs: list[tuple[float, int]]) -> list[str]:
    """attnlab.js's fmt of each (x, decimals), in one Node process."""
    return json.loads(node(FMT_RUNNER, str(ATTNLAB_JS), stdin=json.dumps(pairs)))


@pytest.mark.parametrize(("x", "decimals"), [
    (1 / 16, 3), (-1 / 16, 3), (3 / 16, 3), (1 / 8, 2), (5 / 2, 0), (7 / 2, 0), (-1 / 2, 0), (-0.0, 3), (-0.0004, 3),
])
def test_node_fmt_rounds_halfway_and_negative_zero_as_python(x: float, decimals: int) -> None:
    assert fmt_in_node([(x, decimals)]) == [fmt(x, decimals)]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.floats(-1e15, 1e15, allow_nan=False), st.integers(0, 6)), min_size=1, max_size=200))
def test_node_fmt_prints_what_python_prints(pairs: list[tuple[float, int]]) -> None:
    assert fmt_in_node(pairs) == [fmt(x, decimals) for x, decimals in pairs]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.floats(allow_nan=False, allow_infinity=False), st.integers(0, MAX_DECIMALS)),
                min_size=1, max_size=200))
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
FMT_REFUSALS = [("1", 3, 'x must be a real number, got "1"'), (True, 3, "x must be a real number, got true"),
                (1.0, 21, "decimals must be from 0 to 20, got 21"), (1.0, -1, "decimals must be from 0 to 20, got -1"),
                (1.0, 1.5, "decimals must be an integer")]
"""Calls Python's fmt refuses too: a non-number, decimals beyond 20 or not whole."""


def fmt_refusals_in_node(pairs: list[tuple[Any, Any]]) -> list[str | None]:
    """How attnlab.js's fmt refuses each (x, decimals), or None where it prints."""
    return json.loads(node(FMT_REFUSAL_RUNNER, str(ATTNLAB_JS), stdin=json.dumps(pairs)))


def test_node_fmt_refuses_what_python_fmt_refuses_with_the_same_message() -> None:
    printed = fmt_refusals_in_node([(x, d) for x, d, _ in FMT_REFUSALS])
    for (x, decimals, message), in_node in zip(FMT_REFUSALS, printed, strict=True):
        with pytest.raises((TypeError, ValueError), match=f"^{re.escape(message)}"):
            fmt(x, decimals)
        assert in_node is not None and in_node.startswith(message), (x, decimals, in_node)


@pytest.mark.parametrize("number", ["NaN", "Infinity"])
def test_node_fmt_refuses_nan_and_infinity_which_no_lab_result_holds(number: str) -> None:
    # Python's fmt prints nan and inf for the softmax chapter's naive formula; the lab only shows results
    assert fmt_refusals_in_node([(number, 3)]) == [f"x must be finite, got {number}"]


JS_NUMBER_RUNNER = """
const numbers = JSON.parse(require("fs").readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(numbers.map(String)));
"""
"""Reads a list of numbers on stdin and writes String(x) of each."""


@settings(max_examples=20, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=200))
def test_js_number_writes_every_float_as_javascripts_string_does(numbers: list[float]) -> None:
    assert json.loads(node(JS_NUMBER_RUNNER, stdin=json.dumps(numbers))) == [js_number(x) for x in numbers]
