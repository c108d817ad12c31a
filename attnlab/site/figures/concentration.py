"""Concentration: one query's weights (:func:`attnlab.lab.compute`) as its multiplier sweeps the lab's range."""

from __future__ import annotations

import numpy as np

from attnlab.lab import MULTIPLIERS, TOKENS, compute
from attnlab.site.figures.plot import Line, chart_svg, linear_axis
from attnlab.site.pages.sliders import SLIDER_RANGES
from attnlab.text import fmt

SAMPLES = 17
"""Evenly spaced multipliers drawn across the range, besides those experiment 1 tabulates (which get markers)."""


def sweep(token: str, causal: bool) -> tuple[np.ndarray, np.ndarray]:
    """Multipliers across the lab's range, the tabulated ones included, and ``token``'s weights at each (a row each)."""
    low, high, _ = SLIDER_RANGES["query_scale"]
    scales = np.union1d(np.linspace(low, high, SAMPLES), MULTIPLIERS)
    return scales, np.array([compute(token, query_scale=s, causal=causal).weights for s in scales])


def ties(token: str, causal: bool) -> list[list[int]]:
    """Groups of two or more visible keys with equal scores for ``token``'s query: their weights stay equal."""
    r = compute(token, causal=causal)
    groups: dict[float, list[int]] = {}
    for j, (score, seen) in enumerate(zip(r.scores, r.visible)):
        if seen:
            groups.setdefault(score, []).append(j)
    return [group for group in groups.values() if len(group) > 1]


def concentration_chart(token: str, causal: bool, *, ident: str) -> str:
    """The weights of ``token``'s query against its multiplier, one line per key, as a figure."""
    scales, weights = sweep(token, causal)
    groups = ties(token, causal)
    tied = {j: group for group in groups for j in group}
    labels = [f"weight on {t}" + (f" (tied with {', '.join(TOKENS[k] for k in tied[j] if k != j)})"
                                  if j in tied else "") for j, t in enumerate(TOKENS)]
    lines = [Line(label, scales.tolist(), weights[:, j].tolist(), marked=MULTIPLIERS) for j, label in enumerate(labels)]

    def said(row: np.ndarray) -> str:
        return ", ".join(f"{t} {fmt(w)}" for t, w in zip(TOKENS, row))

    visibility = "causal visibility on" if causal else "causal visibility off"
    desc = (f"Query {token}, {visibility}. At multiplier {scales[0]:g} the weights are {said(weights[0])}; "
            f"at {scales[-1]:g} they are {said(weights[-1])}. "
            + ("".join(f"{' and '.join(TOKENS[k] for k in group)} score the same, so their lines lie on top of "
                       f"each other at every multiplier. " for group in groups)))
    return chart_svg(linear_axis(scales.tolist(), "query multiplier"), linear_axis([0.0, 1.0], "weight"), lines,
                     kind="concentration", ident=ident, title=f"Weights of the {token} query as its multiplier grows",
                     desc=desc.strip(), inputs={"token": token, "causal": causal})
