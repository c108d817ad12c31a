"""The companion: ``python -m attnlab`` prints the lab's baseline and the brief's contrasts.

``--json`` prints one JSON object instead, for scripts and for comparing
with the browser lab.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import fields
from types import MappingProxyType
from typing import Any

from attnlab.cli import Parser, run
from attnlab.examples import WE002_QUERY, we002
from attnlab.lab import LabResult, compute
from attnlab.text import given_vector, vector

CONTRASTS: Mapping[str, tuple[str, Mapping[str, Any]]] = MappingProxyType({
    "baseline": ("Baseline: rises, multiplier 1, causal on, third value y = 2", MappingProxyType({})),
    "zero_query": ("Experiment 1: query multiplier 0 on rises", MappingProxyType({"query_scale": 0.0})),
    "causal_grid": ("Experiment 2: grid with causal visibility", MappingProxyType({"token": "grid"})),
    "no_causal_grid": ("Experiment 2: grid with causal visibility off",
                       MappingProxyType({"token": "grid", "causal": False})),
    "value_y_4": ("Experiment 3: third value's y raised from 2 to 4", MappingProxyType({"value_y": 4.0})),
})
"""Each contrast's title and controls, read-only (see ``attnlab.lab.DEFAULTS``)."""


def report() -> dict[str, Any]:
    """Every contrast as a ``compute`` result dict, plus WE-002."""
    result: dict[str, Any] = {key: compute(controls).to_dict() for key, (_, controls) in CONTRASTS.items()}
    example = we002()
    result["we002"] = {field.name: getattr(example, field.name).tolist() for field in fields(example)}
    return result


def describe(title: str, r: LabResult) -> str:
    """A few readable lines for one lab result."""
    return "\n".join([
        title,
        f"  query {r.token:<5} {vector(r.query)}",
        f"  scaled scores  {vector(r.scaled)}",
        f"  visible        {list(r.visible)}",
        f"  weights        {vector(r.weights)}",
        f"  output         {vector(r.output)}",
    ])


def we002_heading() -> str:
    """The first line of WE-002's part: its query as typed (``[√2, 0]``), not rounded."""
    return f"WE-002: q = {given_vector(WE002_QUERY)} against three keys"


def show(as_json: bool) -> int:
    """Print the baseline and contrasts as text, or as one JSON object; return the exit status 0."""
    if as_json:
        print(json.dumps(report(), indent=2))
        return 0
    for title, controls in CONTRASTS.values():
        print(describe(title, compute(controls)), end="\n\n")
    example = we002()
    print(we002_heading())
    print(f"  scaled logits  {vector(example.scaled, 6)}")
    print(f"  weights        {vector(example.weights, 6)}")
    print(f"  output         {vector(example.output, 6)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the companion with the flags in ``argv`` (default: the command line); return the exit status."""
    parser = Parser(prog="python -m attnlab", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    return run(parser.prog, lambda: show(args.json))


if __name__ == "__main__":
    sys.exit(main())
