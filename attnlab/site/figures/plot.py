"""Charts of lines and bands on log or linear axes, each series its own dash and marker, and the chapters' charts."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attnlab.checks import as_array, as_vector
from attnlab.lab import MULTIPLIERS, TOKENS, compute
from attnlab.site.figures.palette import INK, SERIES
from attnlab.site.figures.svg import LAB_COLUMN, background, figure, grid, min_font, num, svg_image, text, upright
from attnlab.site.pages.mathml import SUPERSCRIPTS
from attnlab.site.pages.sliders import SLIDER_RANGES
from attnlab.text import fmt

WIDTH, PLOT_HEIGHT, LEFT, RIGHT, TOP = 400, 220, 64, 14, 12  # the plotting area's height and margins (SVG units)
TICK_FONT = min_font(WIDTH, LAB_COLUMN)  # 11 px in a box narrower than the column (a folded "Going deeper")
LABEL_FONT, LEGEND_ROW = TICK_FONT + 1, 22
MARKERS: tuple[str, ...] = ("circle", "square", "triangle", "diamond")
DASHES: tuple[str, ...] = ("", "8 5", "2 4", "12 4 2 4")  # marker and dash per series, in the order of SERIES
MARKER_PATHS = {"square": (-4, -4, "h8v8h-8z"), "triangle": (0, -5, "l5 9h-10z"), "diamond": (0, -5, "l5 5l-5 5l-5-5z")}
"""Each marker but the circle as a start offset from its centre and the rest of a short path."""


@dataclass(frozen=True)
class Axis:
    """One axis: the values it spans (``low`` to ``high``), its ticks, its label, linear or logarithmic."""

    low: float
    high: float
    ticks: tuple[float, ...]
    label: str
    log: bool = False

    def share(self, value: float) -> float:
        """How far along the axis ``value`` lies: 0 at ``low``, 1 at ``high``."""
        if self.log:
            return (math.log10(value) - math.log10(self.low)) / (math.log10(self.high) - math.log10(self.low))
        return (value - self.low) / (self.high - self.low)

    def tick_text(self, value: float) -> str:
        """A tick's label: a power of ten on a log axis as ``10⁴``, any other value as its shortest decimal."""
        power = round(math.log10(value)) if self.log else None
        if power is not None and math.isclose(value, 10.0**power):
            return "10" + "".join(SUPERSCRIPTS[digit] for digit in str(power))
        return f"{value:g}"


def log_axis(values: Sequence[float], label: str) -> Axis:
    """A logarithmic axis over the whole decades that enclose ``values`` (all positive), one tick per decade."""
    if min(values) <= 0:
        raise ValueError(f"a log axis cannot show {min(values)}: every value must be > 0")
    first, last = math.floor(math.log10(min(values))), math.ceil(math.log10(max(values)))
    last = max(last, first + 1)
    return Axis(10.0**first, 10.0**last, tuple(10.0**e for e in range(first, last + 1)), label, log=True)


def nice_step(span: float, count: int) -> float:
    """The round step (1, 2 or 5 times a power of ten) nearest to cutting ``span`` into ``count`` parts."""
    raw = span / count
    power = 10.0 ** math.floor(math.log10(raw))
    return min((m * power for m in (1, 2, 5, 10)), key=lambda step: abs(math.log(step / raw)))


def multiples(step: float, low: float, high: float) -> tuple[float, ...]:
    """The multiples of ``step`` from ``low`` to ``high``, ends included (a hair of rounding allowed)."""
    first, last = math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)
    return tuple(round(i * step, 12) + 0.0 for i in range(first, last + 1))


def ticks_within(low: float, high: float, count: int) -> tuple[float, ...]:
    """About ``count`` round ticks between ``low`` and ``high``."""
    return multiples(nice_step(high - low, count), low, high)


def linear_axis(values: Sequence[float], label: str) -> Axis:
    """A linear axis of about four round steps, its ends the steps at or beyond ``min(values)`` and ``max(values)``."""
    low, high = min(values), max(values)
    if high == low:
        low, high = low - 1, high + 1
    step = nice_step(high - low, 4)
    ticks = multiples(step, math.floor(low / step + 1e-9) * step, math.ceil(high / step - 1e-9) * step)
    return Axis(ticks[0], ticks[-1], ticks, label)


@dataclass(frozen=True)
class Line:
    """A line through (``xs``, ``ys``) with a marker on each point whose x is in ``marked`` (None: every point)."""

    label: str
    xs: Sequence[float]
    ys: Sequence[float]
    marked: Sequence[float] | None = None


@dataclass(frozen=True)
class Band:
    """A shaded band between ``lows`` and ``highs`` over ``xs``, with its outline drawn."""

    label: str
    xs: Sequence[float]
    lows: Sequence[float]
    highs: Sequence[float]


def marker(shape: str, x: float, y: float, colour: str) -> str:
    """One data-point marker centred on (x, y)."""
    if shape == "circle":
        return f'<circle cx="{num(x)}" cy="{num(y)}" r="4" fill="{colour}"/>'
    dx, dy, rest = MARKER_PATHS[shape]
    return f'<path class="marker" d="M{num(x + dx)} {num(y + dy)}{rest}" fill="{colour}"/>'


def label_every(room: float, needed: float) -> int:
    """Label every n-th of ticks, rows or columns ``room`` units apart so each label gets ``needed``."""
    return max(1, math.ceil(needed / room))


def compact(values: Sequence[float]) -> list[float]:
    """Numbers for the figure's ``data-values``: whole numbers exact, others to six significant digits."""
    return [int(v) if float(v).is_integer() else float(f"{v:.6g}") for v in values]


def chart_svg(x: Axis, y: Axis, lines: Sequence[Line] = (), bands: Sequence[Band] = (), *,
              kind: str, ident: str, title: str, desc: str, inputs: Mapping[str, Any] | None = None) -> str:
    """A chart of ``bands`` (drawn first) and ``lines`` on the axes ``x`` and ``y``, with a legend below."""
    count = len(lines) + len(bands)
    if not 1 <= count <= len(SERIES):
        raise ValueError(f"a chart must have 1 to {len(SERIES)} lines and bands, got {count}")
    right, bottom = WIDTH - RIGHT, TOP + PLOT_HEIGHT

    def px(value: float) -> float:
        return LEFT + x.share(value) * (right - LEFT)

    def py(value: float) -> float:
        return bottom - y.share(value) * PLOT_HEIGHT

    carried: dict[str, Any] = {"lines": {}, "bands": {}, **({"inputs": dict(inputs)} if inputs else {})}
    widest = max(len(x.tick_text(t)) for t in x.ticks) * TICK_FONT * 0.6 + 8
    parts = [grid([(px(t), TOP, px(t), bottom) for t in x.ticks] + [(LEFT, py(t), right, py(t)) for t in y.ticks])]
    every = label_every((right - LEFT) / max(len(x.ticks) - 1, 1), widest)
    parts += [text(px(t), bottom + 18, x.tick_text(t), TICK_FONT, anchor="middle") for t in x.ticks[::every]]
    every = label_every(PLOT_HEIGHT / max(len(y.ticks) - 1, 1), TICK_FONT * 1.5)
    parts += [text(LEFT - 6, py(t) + 5, y.tick_text(t), TICK_FONT, anchor="end") for t in y.ticks[::every]]
    parts.append(f'<rect x="{LEFT}" y="{TOP}" width="{right - LEFT}" height="{PLOT_HEIGHT}" fill="none" '
                 f'stroke="{INK}"/>')
    parts.append(text((LEFT + right) / 2, bottom + 40, x.label, LABEL_FONT, anchor="middle"))
    parts.append(upright(16, num(TOP + PLOT_HEIGHT / 2), y.label, LABEL_FONT))
    legend_top = bottom + 58
    drawn: list[Band | Line] = [*bands, *lines]  # bands first
    for i, series in enumerate(drawn):
        colour, dash, shape, key_y = SERIES[i], DASHES[i], MARKERS[i], legend_top + LEGEND_ROW * i
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        xs = as_array(f"x of {series.label!r}", series.xs, 1).tolist()
        if isinstance(series, Band):
            lows, highs = (as_vector(f"{name} of {series.label!r}", ends, len(xs), "its x").tolist()
                           for name, ends in (("lows", series.lows), ("highs", series.highs)))
            if any(low > high for low, high in zip(lows, highs)):
                raise ValueError(f"band {series.label!r} has a low above its high")
            outline = " ".join(f"{num(px(a))},{num(py(b))}" for a, b in [*zip(xs, highs), *zip(xs[::-1], lows[::-1])])
            look = f'fill="{colour}" fill-opacity="0.22" stroke="{colour}" stroke-width="1.5"{dashed}'
            parts.append(f'<polygon class="band" points="{outline}" {look}/>')
            parts.append(f'<rect x="{LEFT}" y="{key_y - 7}" width="36" height="14" {look}/>')
            carried["bands"][series.label] = {"x": compact(xs), "low": compact(lows), "high": compact(highs)}
        else:
            ys = as_vector(f"y of {series.label!r}", series.ys, len(xs), "its x").tolist()
            points = [(px(a), py(b)) for a, b in zip(xs, ys)]
            parts.append(f'<polyline points="{" ".join(f"{num(a)},{num(b)}" for a, b in points)}" '
                         f'fill="none" stroke="{colour}" stroke-width="2"{dashed}/>')
            parts.extend(marker(shape, a, b, colour) for (a, b), value in zip(points, xs)
                         if series.marked is None or any(math.isclose(value, m) for m in series.marked))
            parts.append(f'<line x1="{LEFT}" y1="{key_y}" x2="{LEFT + 36}" y2="{key_y}" stroke="{colour}" '
                         f'stroke-width="2"{dashed}/>' + marker(shape, LEFT + 18, key_y, colour))
            carried["lines"][series.label] = {"x": compact(xs), "y": compact(ys)}
        parts.append(text(LEFT + 44, key_y + 5, series.label, LABEL_FONT))
    height = legend_top + LEGEND_ROW * (count - 1) + 14
    body = background(WIDTH, height) + "".join(parts)
    return figure(ident, svg_image(ident, title, desc, WIDTH, height, body), title, kind=kind, values=carried)


def loglog_svg(series: Mapping[str, tuple[Sequence[float], Sequence[float]]], *, kind: str, ident: str,
               title: str, desc: str, x_label: str, y_label: str, inputs: Mapping[str, Any] | None = None) -> str:
    """A log-log chart of each named (x values, y values) line, as one line of HTML."""
    lines = [Line(label, as_array(f"x of {label!r}", xs, 1).tolist(), as_array(f"y of {label!r}", ys, 1).tolist())
             for label, (xs, ys) in series.items()]  # checked before the axes read them
    xs, ys = [v for line in lines for v in line.xs], [v for line in lines for v in line.ys]
    return chart_svg(log_axis(xs, x_label), log_axis(ys, y_label), lines, kind=kind, ident=ident, title=title,
                     desc=desc, inputs=inputs)


SAMPLES = 17  # multipliers evenly spread over the range, besides those experiment 1 tabulates (marked)


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

    desc = (f"Query {token}, causal visibility {'on' if causal else 'off'}. At multiplier {scales[0]:g} the weights "
            f"are {said(weights[0])}; at {scales[-1]:g} they are {said(weights[-1])}. "
            + ("".join(f"{' and '.join(TOKENS[k] for k in group)} score the same, so their lines lie on top of "
                       f"each other at every multiplier. " for group in groups)))
    return chart_svg(linear_axis(scales.tolist(), "query multiplier"), linear_axis([0.0, 1.0], "weight"), lines,
                     kind="concentration", ident=ident, title=f"Weights of the {token} query as its multiplier grows",
                     desc=desc.strip(), inputs={"token": token, "causal": causal})


def spread_chart(widths: Sequence[int], raw: Sequence[Any], scaled: Sequence[Any], *, ident: str,
                 drawn: Mapping[str, Any]) -> str:
    """Bands of mean ± 1 standard deviation of ``raw`` and ``scaled`` scores, one array per width, as a figure."""
    if not len(widths) == len(raw) == len(scaled) >= 2:
        raise ValueError(f"need one raw and one scaled array per width (two widths at least), got "
                         f"{len(widths)} widths, {len(raw)} raw and {len(scaled)} scaled")

    def moments(name: str, arrays: Sequence[Any]) -> np.ndarray:
        """Each width's mean and (population) standard deviation: widths × 2."""
        checked = [as_array(f"{name}[{i}]", scores, 1) for i, scores in enumerate(arrays)]
        return np.array([(scores.mean(), scores.std()) for scores in checked])

    raw_stats, scaled_stats = moments("raw", raw), moments("scaled", scaled)
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
