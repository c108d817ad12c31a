"""A small, accessible log-log line chart as inline SVG, drawn while the site is built.

On log-log axes a quantity that grows like T^p is a straight line of slope
p, which is why the cost chapter plots on them: T² and T separate at a glance.
Pure Python: no plotting library, no fonts or files to fetch. Colour is never
the only cue (each line has its own dash pattern and marker), and the chart
carries a ``<title>`` and ``<desc>`` for screen readers.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape

from attnlab.checks import as_array

WIDTH, HEIGHT = 640, 420
LEFT, RIGHT, TOP, BOTTOM = 78, 16, 16, 58
"""Canvas size and the margins around the plotting area (SVG user units)."""
INK, GRID = "#1a1a1a", "#d0d0d0"
STYLES: tuple[tuple[str, str, str], ...] = (
    ("#3f51b5", "", "circle"),
    ("#b5400c", "8 5", "square"),
    ("#2e7d32", "2 4", "triangle"),
    ("#6a1b9a", "12 4 2 4", "diamond"),
)
"""(colour, dash pattern, marker) per line, in order; each colour has ≥ 4.5:1 contrast on white."""


def _decades(values: Sequence[float]) -> range:
    """The powers of ten (as exponents) that enclose ``values``."""
    return range(math.floor(math.log10(min(values))), math.ceil(math.log10(max(values))) + 1)


def _power_of_ten(exponent: int, x: float, y: float, anchor: str) -> str:
    """A tick label "10^exponent" with the exponent raised."""
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="14" fill="{INK}">'
            f'10<tspan dy="-6" font-size="11">{exponent}</tspan></text>')


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    """One data-point marker centred on (x, y)."""
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>'
    points = {
        "square": ((-4, -4), (4, -4), (4, 4), (-4, 4)),
        "triangle": ((0, -5), (5, 4), (-5, 4)),
        "diamond": ((0, -5), (5, 0), (0, 5), (-5, 0)),
    }[shape]
    return (f'<polygon points="{" ".join(f"{x + dx:.1f},{y + dy:.1f}" for dx, dy in points)}" '
            f'fill="{colour}"/>')


def loglog_svg(series: Mapping[str, tuple[Sequence[float], Sequence[float]]], *, ident: str,
               title: str, desc: str, x_label: str, y_label: str) -> str:
    """A log-log chart of each named (x values, y values) line, as one line of HTML.

    ``ident`` makes the element ids unique on the page; ``title`` and
    ``desc`` are what a screen reader announces (``desc`` should state what
    the lines show, since the picture cannot). Axes span whole decades;
    every value must be positive.
    """
    if not 1 <= len(series) <= len(STYLES):
        raise ValueError(f"series must have 1 to {len(STYLES)} lines, got {len(series)}")
    lines = {}
    for label, (xs, ys) in series.items():
        x, y = as_array(f"x of {label!r}", xs, 1), as_array(f"y of {label!r}", ys, 1)
        if x.shape != y.shape:
            raise ValueError(f"line {label!r} has {x.size} x values but {y.size} y values")
        if (x <= 0).any() or (y <= 0).any():
            raise ValueError(f"line {label!r} has a value <= 0, which a log axis cannot show")
        lines[label] = (x.tolist(), y.tolist())
    x_decades = _decades([v for x, _ in lines.values() for v in x])
    y_decades = _decades([v for _, y in lines.values() for v in y])
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM

    def at(value: float, decades: range, low: float, high: float) -> float:
        """Position of ``value`` between pixel ``low`` (first decade) and ``high`` (last)."""
        share = (math.log10(value) - decades[0]) / max(decades[-1] - decades[0], 1)
        return low + share * (high - low)

    parts = []
    for e in x_decades:
        px = at(10.0**e, x_decades, LEFT, right)
        parts.append(f'<line x1="{px:.1f}" y1="{TOP}" x2="{px:.1f}" y2="{bottom}" stroke="{GRID}"/>')
        parts.append(_power_of_ten(e, px, bottom + 22, "middle"))
    for e in y_decades:
        py = at(10.0**e, y_decades, bottom, TOP)
        parts.append(f'<line x1="{LEFT}" y1="{py:.1f}" x2="{right}" y2="{py:.1f}" stroke="{GRID}"/>')
        parts.append(_power_of_ten(e, LEFT - 8, py + 5, "end"))
    parts.append(f'<rect x="{LEFT}" y="{TOP}" width="{right - LEFT}" height="{bottom - TOP}" '
                 f'fill="none" stroke="{INK}"/>')
    parts.append(f'<text x="{(LEFT + right) / 2:.1f}" y="{HEIGHT - 8}" text-anchor="middle" '
                 f'font-size="15" fill="{INK}">{escape(x_label)}</text>')
    parts.append(f'<text transform="translate(18 {(TOP + bottom) / 2:.1f}) rotate(-90)" '
                 f'text-anchor="middle" font-size="15" fill="{INK}">{escape(y_label)}</text>')
    for i, (label, (xs, ys)) in enumerate(lines.items()):
        colour, dash, shape = STYLES[i]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        points = [(at(x, x_decades, LEFT, right), at(y, y_decades, bottom, TOP)) for x, y in zip(xs, ys)]
        parts.append(f'<polyline points="{" ".join(f"{px:.1f},{py:.1f}" for px, py in points)}" '
                     f'fill="none" stroke="{colour}" stroke-width="2"{dashed}/>')
        parts.extend(_marker(shape, px, py, colour) for px, py in points)
        key_y = TOP + 20 + 22 * i
        parts.append(f'<line x1="{LEFT + 12}" y1="{key_y}" x2="{LEFT + 48}" y2="{key_y}" '
                     f'stroke="{colour}" stroke-width="2"{dashed}/>')
        parts.append(_marker(shape, LEFT + 30, key_y, colour))
        parts.append(f'<text x="{LEFT + 56}" y="{key_y + 5}" font-size="14" fill="{INK}">'
                     f'{escape(label)}</text>')
    return (
        f'<figure class="loglog-plot"><svg role="img" aria-labelledby="{ident}-title {ident}-desc" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'style="max-width: 100%; height: auto; background: #fff" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ident}-title">{escape(title)}</title><desc id="{ident}-desc">{escape(desc)}</desc>'
        f'{"".join(parts)}</svg><figcaption>{escape(title)}</figcaption></figure>\n'
    )
