"""docs/assets/attnlab.js under Node gives Python's fields and numbers and refuses the same bad controls.

Node loads the file with ``require`` (the browser lab's computation, unchanged)
and gets the toy's constants from ``attnlab.lab.toy_data()``, as the page gets
them from the data the build emits.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnlab.lab import TOKENS, compute, toy_data
from attnlab.text import fmt
from browser.agreement import assert_agrees, control_settings

ATTNLAB_JS = Path(__file__).resolve().parent.parent / "docs" / "assets" / "attnlab.js"

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


@pytest.mark.parametrize(("controls", "named"), [
    ({"token": "sun"}, "token"),
    ({"token": 2}, "token"),
    ({"query_scale": "1"}, "query_scale"),
    ({"query_scale": True}, "query_scale"),
    ({"value_y": None}, "value_y"),
    ({"causal": 1}, "causal"),
    ({"colour": "red"}, "colour"),
    ({"query_scale": 1e308}, "scores overflowed"),
])
def test_node_refuses_the_controls_python_refuses(controls: dict[str, Any], named: str) -> None:
    with pytest.raises((TypeError, ValueError)):
        compute(controls)
    [answer] = run_in_node([controls])
    assert named in answer["error"]


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
