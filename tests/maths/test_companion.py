"""The companion command ``python -m attnlab`` and the weight of ``import attnlab``.

Each runs in a fresh interpreter (``sys.executable``), as a reader would run it. The numbers must be
``compute``'s and ``we002``'s, which test_lab.py and test_examples.py check by hand.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import fields
from typing import Any

import pytest
from sites import ROOT

from attnlab.examples import we002
from attnlab.lab import compute
from attnlab.text import vector

CONTRASTS: list[tuple[str, dict[str, Any]]] = [
    ("baseline", {}), ("zero_query", {"query_scale": 0.0}), ("causal_grid", {"token": "grid"}),
    ("no_causal_grid", {"token": "grid", "causal": False}), ("value_y_4", {"value_y": 4.0}),
]
"""The five documented contrasts (JSON key, controls); test_lab.py works each one's numbers out by hand."""
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
    for block, (_, controls) in zip(blocks(text), CONTRASTS):
        r = compute(controls)
        assert re.search(rf"weights\s+{re.escape(vector(r.weights))}", block), block
        assert re.search(rf"output\s+{re.escape(vector(r.output))}", block), block
    assert not NOT_A_NUMBER.search(text)


def test_companion_prints_we002s_query_as_given_and_its_numbers_with_six_decimals(text: str) -> None:
    block = blocks(text)[5]
    assert block.startswith("WE-002: q = [√2, 0] against three keys")
    example = we002()
    assert re.search(rf"scaled logits\s+{re.escape(vector([1, 0, 1], 6))}", block), block
    assert re.search(rf"weights\s+{re.escape(vector(example.weights, 6))}", block), block
    assert re.search(rf"output\s+{re.escape(vector(example.output, 6))}", block), block


def test_companion_json_is_compute_for_each_contrast_and_we002(report: dict[str, Any]) -> None:
    assert list(report) == [*(key for key, _ in CONTRASTS), "we002"]
    for key, controls in CONTRASTS:
        assert report[key] == compute(controls).to_dict()
    example = we002()
    assert report["we002"] == {field.name: getattr(example, field.name).tolist() for field in fields(example)}


def test_import_attnlab_loads_only_numpy_and_the_standard_library() -> None:
    probe = ("import json, sys; before = set(sys.modules); import attnlab; "
             "print(json.dumps(sorted({m.split('.')[0] for m in set(sys.modules) - before})))")
    done = run("-c", probe)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) - sys.stdlib_module_names - {"numpy", "attnlab"} == set()
