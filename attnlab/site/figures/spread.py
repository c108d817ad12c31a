"""Why scale: mean ± one standard deviation of raw and scaled scores against the key width d_k (log axis)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from attnlab.checks import as_array
from attnlab.site.figures.plot import Axis, Band, chart_svg, linear_axis
from attnlab.text import fmt


def mean_and_sd(scores: Any, name: str) -> tuple[float, float]:
    """The mean and the (population) standard deviation of one width's scores."""
    values = as_array(name, scores, 1)
    return float(values.mean()), float(values.std())


def spread_chart(widths: Sequence[int], raw: Sequence[Any], scaled: Sequence[Any], *, ident: str,
                 drawn: Mapping[str, Any]) -> str:
    """Bands of mean ± 1 standard deviation of ``raw`` and ``scaled`` scores, one array per width, as a figure."""
    if not len(widths) == len(raw) == len(scaled) >= 2:
        raise ValueError(f"need one raw and one scaled array per width (two widths at least), got "
                         f"{len(widths)} widths, {len(raw)} raw and {len(scaled)} scaled")
    raw_stats = np.array([mean_and_sd(s, f"raw[{i}]") for i, s in enumerate(raw)])
    scaled_stats = np.array([mean_and_sd(s, f"scaled[{i}]") for i, s in enumerate(scaled)])
    bands = [Band(label, widths, stats[:, 0] - stats[:, 1], stats[:, 0] + stats[:, 1])
             for label, stats in (("raw q · k: mean ± 1 sd", raw_stats),
                                  ("scaled q · k / √d_k: mean ± 1 sd", scaled_stats))]
    x = Axis(float(min(widths)), float(max(widths)), tuple(float(w) for w in widths),
             "key width d_k (log scale)", log=True)
    y = linear_axis(np.concatenate([band.lows for band in bands] + [band.highs for band in bands]).tolist(), "score")
    desc = (f"For d_k from {widths[0]} to {widths[-1]}, the raw scores' standard deviation grows from "
            f"{fmt(raw_stats[0, 1])} to {fmt(raw_stats[-1, 1])}, about the square root of d_k, while the "
            f"scaled scores' stays between {fmt(scaled_stats[:, 1].min())} and {fmt(scaled_stats[:, 1].max())}.")
    return chart_svg(x, y, bands=bands, kind="score-spread", ident=ident,
                     title="Spread of raw and scaled scores as d_k grows", desc=desc, inputs=drawn)
