"""The companion command ``python -m attnlab`` and the weight of ``import attnlab``.

Each runs in a fresh interpreter (``sys.executable``), as a reader would run it.
Expected numbers are the toy's and WE-002's arithmetic done by hand.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from typing import Any

import pytest
from sites import ROOT

from attnlab.lab import compute
from attnlab.text import vector

SQRT2 = math.sqrt(2.0)
E = math.e


def softmax_by_hand(scaled: list[float]) -> list[float]:
    """exp(s_j) / Σ exp(s), for a few small numbers written out in a test."""
    exps = [math.exp(s) for s in scaled]
    return [x / sum(exps) for x in exps]


# rises: scores 2, 1, 3 over √2; values [1, 0], [0, 2], [1, 2] (third y = 4 in experiment 3)
RISES = softmax_by_hand([2 / SQRT2, 1 / SQRT2, 3 / SQRT2])
# grid, causal off: scores 1, 0, 1 over √2
GRID_OPEN = softmax_by_hand([1 / SQRT2, 0.0, 1 / SQRT2])
WE002_WEIGHTS = [E / (2 * E + 1), 1 / (2 * E + 1), E / (2 * E + 1)]
WE002_OUTPUT = [4 * E / (2 * E + 1), (E + 2) / (2 * E + 1)]

# (JSON key, controls, weights, output) for the five documented contrasts
CONTRASTS: list[tuple[str, dict[str, Any], list[float], list[float]]] = [
    ("baseline", {}, RISES, [RISES[0] + RISES[2], 2 * RISES[1] + 2 * RISES[2]]),
    ("zero_query", {"query_scale": 0.0}, [1 / 3, 1 / 3, 1 / 3], [2 / 3, 4 / 3]),
    ("causal_grid", {"token": "grid"}, [1.0, 0.0, 0.0], [1.0, 0.0]),
    ("no_causal_grid", {"token": "grid", "causal": False}, GRID_OPEN,
     [GRID_OPEN[0] + GRID_OPEN[2], 2 * GRID_OPEN[1] + 2 * GRID_OPEN[2]]),
    ("value_y_4", {"value_y": 4.0}, RISES, [RISES[0] + RISES[2], 2 * RISES[1] + 4 * RISES[2]]),
]
NOT_A_NUMBER = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python <args>`` from the repository root and return the finished process."""
    return subprocess.run([sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def text() -> str:
    """What ``python -m attnlab`` prints."""
    done = run("-m", "attnlab")
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    """What ``python -m attnlab --json`` prints, parsed; NaN or Infinity would fail the parse."""
    done = run("-m", "attnlab", "--json")
    assert (done.returncode, done.stderr) == (0, ""), done.stderr

    def refuse(constant: str) -> None:
        raise AssertionError(f"--json printed {constant}")

    return json.loads(done.stdout, parse_constant=refuse)


def blocks(text: str) -> list[str]:
    """The printed paragraphs: five contrasts, then WE-002."""
    return [b for b in text.strip().split("\n\n") if b]


def test_companion_prints_five_contrasts_then_we002_each_with_its_weights_and_output(text: str) -> None:
    titles = [b.splitlines()[0] for b in blocks(text)]
    assert len(titles) == 6 and titles[0].startswith("Baseline") and titles[5].startswith("WE-002")
    for block, (_, _, weights, output) in zip(blocks(text), CONTRASTS):
        assert re.search(rf"weights\s+{re.escape(vector(weights))}", block), block
        assert re.search(rf"output\s+{re.escape(vector(output))}", block), block
    assert not NOT_A_NUMBER.search(text)


def test_companion_prints_we002s_query_as_given_and_its_numbers_with_six_decimals(text: str) -> None:
    block = blocks(text)[5]
    assert block.startswith("WE-002: q = [√2, 0] against three keys")
    assert re.search(rf"scaled logits\s+{re.escape(vector([1, 0, 1], 6))}", block), block
    assert re.search(rf"weights\s+{re.escape(vector(WE002_WEIGHTS, 6))}", block), block
    assert re.search(rf"output\s+{re.escape(vector(WE002_OUTPUT, 6))}", block), block


def test_companion_json_is_compute_for_each_contrast_and_the_hand_arithmetic(report: dict[str, Any]) -> None:
    assert set(report) == {"baseline", "zero_query", "causal_grid", "no_causal_grid", "value_y_4", "we002"}
    for key, controls, weights, output in CONTRASTS:
        assert report[key] == compute(controls).to_dict()
        assert report[key]["weights"] == pytest.approx(weights, rel=1e-12, abs=1e-15)
        assert report[key]["output"] == pytest.approx(output, rel=1e-12)
    we = report["we002"]
    assert we["scaled"] == pytest.approx([1.0, 0.0, 1.0], rel=1e-15, abs=1e-15)
    assert we["weights"] == pytest.approx(WE002_WEIGHTS, rel=1e-15)
    assert we["output"] == pytest.approx(WE002_OUTPUT, rel=1e-15)
    assert we["visible"] == [True, True, True]


def test_import_attnlab_loads_only_numpy_and_the_standard_library() -> None:
    probe = ("import json, sys; before = set(sys.modules); import attnlab; "
             "print(json.dumps(sorted({m.split('.')[0] for m in set(sys.modules) - before})))")
    done = run("-c", probe)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) - sys.stdlib_module_names - {"numpy", "attnlab"} == set()
