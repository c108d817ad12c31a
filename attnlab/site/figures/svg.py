"""What every figure shares: an ``<svg role="img">`` named and described (:func:`svg_image`) in a ``<figure>``
carrying its kind and numbers as JSON (:func:`figure`, checked by ``tests/site/build/test_figures_site.py``),
its text, legends and markers.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from attnlab.site.figures.palette import BLOCKED, FRAME, GRID, INK, PAPER
from attnlab.site.pages.mathml import with_math

MIN_TEXT = 11
"""Smallest text, in CSS pixels, any figure may show at phone width."""
PHONE_COLUMN = 358
"""Width in CSS pixels of the text column on a 390-pixel-wide phone (the theme keeps 16 px each side)."""
LAB_COLUMN = 316
"""Width of the same column inside the lab's bordered, padded box."""


def min_font(width: float, column: float = PHONE_COLUMN) -> int:
    """Smallest font size (SVG units) that reads at :data:`MIN_TEXT` px once ``width`` units shrink to ``column`` px."""
    return math.ceil(MIN_TEXT * max(1.0, width / column))


def num(value: float) -> str:
    """A coordinate with one decimal, the precision a screen can show (``-0.0`` written ``0.0``)."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


SUBSCRIPT = re.compile(r"(?<=[A-Za-z])_([A-Za-z0-9]+)")
"""A subscript as a label writes it, ``W_Q`` or ``d_model``: one letter, an underscore, the script's letters."""


def scripted(content: str) -> str:
    """``content`` escaped, each ``_script`` lowered as a subscript at the label's own size (a smaller one would
    read under :data:`MIN_TEXT` px on a phone)."""
    parts = SUBSCRIPT.split(content)  # text, script, text, … (the group keeps each script)
    return "".join(f'<tspan baseline-shift="sub">{escape(part)}</tspan>' if i % 2 else escape(part)
                   for i, part in enumerate(parts))


def text(x: float, y: float, content: str, size: float, *, anchor: str = "start", fill: str = INK,
         bold: bool = False, extra: str = "") -> str:
    """One ``<text>`` of ``content`` (:func:`scripted`), ``extra`` added to the tag as given."""
    weight = ' font-weight="700"' if bold else ""
    anchored = f' text-anchor="{anchor}"' if anchor != "start" else ""
    coloured = f' fill="{fill}"' if fill != INK else ""
    return (f'<text x="{num(x)}" y="{num(y)}" font-size="{size}"{anchored}{weight}{coloured}{extra}>'
            f"{scripted(content)}</text>")


def upright(x: float | str, y: float | str, content: str, size: float) -> str:
    """``content`` centred on (x, y) and turned to read upwards, as a vertical axis is named."""
    return text(0, 0, content, size, anchor="middle", extra=f' transform="translate({x} {y}) rotate(-90)"')


def grid(lines: list[tuple[float, float, float, float]], colour: str = GRID) -> str:
    """Straight lines (x1, y1, x2, y2), such as a chart's grid, as one ``<path>``: a page holds many."""
    moves = "".join(f"M{num(x1)} {num(y1)}L{num(x2)} {num(y2)}" for x1, y1, x2, y2 in lines)
    return f'<path d="{moves}" stroke="{colour}" fill="none"/>'


def arrow_marker(ident: str, colour: str = INK) -> str:
    """A ``<marker>`` arrow head named ``ident``-arrow, for lines drawn with ``marker-end``."""
    return (f'<marker id="{ident}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')


def defs(ident: str, colour: str, blocked: bool = False) -> str:
    """``<defs>`` of an arrow head in ``colour`` and, if ``blocked``, the blocked cells' hatching."""
    return f"<defs>{arrow_marker(ident, colour)}{blocked_pattern(ident) if blocked else ''}</defs>"


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


KIND = re.compile(r"[a-z][a-z0-9-]*")
"""A figure's kind: lower-case words joined by hyphens (``concentration``, ``head-flow``)."""


def figure(ident: str, content: str, caption: str, *, kind: str, values: Mapping[str, Any]) -> str:
    """A ``<figure>`` on one line around ``content`` (one or more pictures), with its caption, kind and numbers."""
    if not KIND.fullmatch(kind):
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
