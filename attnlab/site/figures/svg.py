"""What every figure shares: a described ``<svg>`` (:func:`svg_image`) in a ``<figure>`` carrying its numbers."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from attnlab.site.figures.palette import BLOCKED, FRAME, GRID, INDIGO, INK, PAPER, RUST
from attnlab.site.pages.mathml import with_math

MIN_TEXT, PHONE_COLUMN, LAB_COLUMN = 11, 358, 316  # smallest text; a 390 px phone's column, alone and in the lab


def min_font(width: float, column: float = PHONE_COLUMN) -> int:
    """Smallest font size (SVG units) that reads at :data:`MIN_TEXT` px once ``width`` units shrink to ``column`` px."""
    return math.ceil(MIN_TEXT * max(1.0, width / column))


def num(value: float) -> str:
    """A coordinate with one decimal, the precision a screen can show (``-0.0`` written ``0.0``)."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


SUBSCRIPT = re.compile(r"(?<=[A-Za-z])_([A-Za-z0-9]+)")  # as a label writes it: ``W_Q``, ``d_model``


def text(x: float, y: float, content: str, size: float, *, anchor: str = "start", fill: str = INK,
         bold: bool = False, extra: str = "") -> str:
    """A ``<text>`` of ``content``, each ``_script`` lowered at the label's own size, ``extra`` added to the tag."""
    weight = ' font-weight="700"' if bold else ""
    anchored = f' text-anchor="{anchor}"' if anchor != "start" else ""
    coloured = f' fill="{fill}"' if fill != INK else ""
    parts = SUBSCRIPT.split(content)  # text, script, text, … (the group keeps each script)
    scripted = "".join(f'<tspan baseline-shift="sub">{escape(part)}</tspan>' if i % 2 else escape(part)
                       for i, part in enumerate(parts))
    return f'<text x="{num(x)}" y="{num(y)}" font-size="{size}"{anchored}{weight}{coloured}{extra}>{scripted}</text>'


def upright(x: float | str, y: float | str, content: str, size: float) -> str:
    """``content`` centred on (x, y) and turned to read upwards, as a vertical axis is named."""
    return text(0, 0, content, size, anchor="middle", extra=f' transform="translate({x} {y}) rotate(-90)"')


def grid(lines: list[tuple[float, float, float, float]]) -> str:
    """A chart's grid lines (x1, y1, x2, y2) as one ``<path>``."""
    moves = "".join(f"M{num(x1)} {num(y1)}L{num(x2)} {num(y2)}" for x1, y1, x2, y2 in lines)
    return f'<path d="{moves}" stroke="{GRID}" fill="none"/>'


def defs(ident: str, *, blocked: bool = False, query: bool = False) -> str:
    """``<defs>`` of arrow heads (``ident``-arrow; ``ident``-q-arrow for the ``query``) and the ``blocked`` hatching."""
    heads = [(ident, INDIGO), *([(f"{ident}-q", RUST)] if query else [])]
    return ("<defs>" + "".join(f'<marker id="{name}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                               f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
                               f'fill="{colour}"/></marker>' for name, colour in heads)
            + f"{blocked_pattern(ident) if blocked else ''}</defs>")


def carried(values: Mapping[str, Any]) -> str:
    """``values`` as JSON for a ``data-values`` attribute (escaped; no NaN or infinity)."""
    return escape(json.dumps(values, separators=(",", ":"), allow_nan=False), quote=True)


def svg_image(ident: str, title: str, desc: str, width: float, height: float, body: str) -> str:
    """An ``<svg role="img">`` named by its ``<title>`` and described by its ``<desc>``; ids start with ``ident``."""
    if not ident or not title.strip() or not desc.strip():
        raise ValueError(f"a picture needs an ident, a title and a description, got {ident!r}, {title!r}, {desc!r}")
    return (f'<svg role="img" aria-labelledby="{ident}-title" aria-describedby="{ident}-desc" '
            f'viewBox="0 0 {num(width)} {num(height)}" width="{num(width)}" height="{num(height)}" fill="{INK}" '
            f'xmlns="http://www.w3.org/2000/svg"><title id="{ident}-title">{escape(title)}</title>'
            f'<desc id="{ident}-desc">{escape(desc)}</desc>{body}</svg>')


def figure(ident: str, content: str, caption: str, *, kind: str, values: Mapping[str, Any]) -> str:
    """A ``<figure>`` on one line around ``content`` (one or more pictures), with its caption, kind and numbers."""
    if not re.fullmatch(r"[a-z][a-z0-9-]*", kind):
        raise ValueError(f"a figure's kind is lower-case words joined by hyphens, got {kind!r}")
    return (f'<figure class="attnlab-figure attnlab-{kind}" id="{ident}" data-figure="{kind}" '
            f'data-values="{carried(values)}">{content}<figcaption>{with_math(caption)}</figcaption></figure>\n')


def blocked_pattern(ident: str) -> str:
    """A ``<pattern>`` of grey stripes named ``ident``-blocked: a blocked cell is hatched, never shaded."""
    return (f'<pattern id="{ident}-blocked" width="6" height="6" patternUnits="userSpaceOnUse" '
            f'patternTransform="rotate(45)"><rect width="6" height="6" fill="{BLOCKED}"/>'
            f'<path d="M0 0v6" stroke="{FRAME}" stroke-width="2"/></pattern>')


def legend_bar(ident: str, x: float, y: float, width: float, stops: Sequence[tuple[float, str]],
               labels: Sequence[tuple[float, str]], font: int, name: str = "") -> str:
    """A colour scale: a bar ``width`` long with a gradient through ``stops`` (offset 0-1, colour), labels under it."""
    start = x + (0.6 * font * len(name) + 8 if name else 0)
    gradient = "".join(f'<stop offset="{offset:.2f}" stop-color="{colour}"/>' for offset, colour in stops)
    parts = [f'<defs><linearGradient id="{ident}-scale">{gradient}</linearGradient></defs>',
             (f'<rect x="{num(start)}" y="{num(y)}" width="{num(width)}" height="12" fill="url(#{ident}-scale)" '
              f'stroke="{INK}" stroke-width="0.5"/>')]
    if name:
        parts.append(text(x, y + 11, name, font))
    parts += [text(start + share * width, y + 14 + font, label, font, anchor="middle") for share, label in labels]
    return "".join(parts)


def background(width: float, height: float) -> str:
    """The picture's paper, so it reads the same on a dark page."""
    return f'<rect width="{num(width)}" height="{num(height)}" fill="{PAPER}"/>'
