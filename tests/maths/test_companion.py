"""The companion command ``python -m attnlab`` (``compute``'s and ``we002``'s numbers) and the weight of
``import attnlab``, each in a fresh interpreter as a reader runs them."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import fields
from typing import Any

import pytest
from sites import companion, run_command

from attnlab.examples import we002
from attnlab.lab import compute
from attnlab.text import vector

CONTRASTS: list[tuple[str, dict[str, Any]]] = [
    ("baseline", {}), ("zero_query", {"query_scale": 0.0}), ("causal_grid", {"token": "grid"}),
    ("no_causal_grid", {"token": "grid", "causal": False}), ("value_y_4", {"value_y": 4.0}),
]
NOT_A_NUMBER = re.compile(r"\b(nan|inf|infinity)\b", re.IGNORECASE)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    """What ``python -m attnlab --json`` prints, parsed; NaN or Infinity would fail the parse."""
    def refuse(constant: str) -> None:
        raise AssertionError(f"--json printed {constant}")

    return json.loads(companion("--json"), parse_constant=refuse)


def test_companion_prints_five_contrasts_then_we002_each_with_its_weights_and_output() -> None:
    text = companion()
    paragraphs = [b for b in text.strip().split("\n\n") if b]
    titles = [b.splitlines()[0] for b in paragraphs]
    assert len(titles) == 6 and titles[0].startswith("Baseline") and not NOT_A_NUMBER.search(text)
    example = we002()
    assert paragraphs[5].startswith("WE-002: q = [√2, 0] against three keys")  # the query as given
    shown = [(compute(controls), 3) for _, controls in CONTRASTS] + [(example, 6)]  # WE-002 with six decimals
    for block, (r, decimals) in zip(paragraphs, shown, strict=True):
        for name in ("weights", "output"):
            assert re.search(rf"{name}\s+{re.escape(vector(getattr(r, name), decimals))}", block), block
    assert re.search(rf"scaled logits\s+{re.escape(vector([1, 0, 1], 6))}", paragraphs[5]), paragraphs[5]


def test_companion_json_is_compute_for_each_contrast_and_we002(report: dict[str, Any]) -> None:
    assert list(report) == [*(key for key, _ in CONTRASTS), "we002"]
    for key, controls in CONTRASTS:
        assert report[key] == compute(controls).to_dict()
    example = we002()
    assert report["we002"] == {field.name: getattr(example, field.name).tolist() for field in fields(example)}


def test_import_attnlab_loads_only_numpy_the_standard_library_and_no_site_module() -> None:
    done = run_command("-c", "import json, sys; before = set(sys.modules); import attnlab; "
                     "print(json.dumps(sorted(set(sys.modules) - before)))")
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert {m.split(".")[0] for m in loaded} - sys.stdlib_module_names - {"numpy", "attnlab"} == set()
    assert [m for m in loaded if m.startswith("attnlab.site")] == []
