"""The dot product drawn: q · k = ‖q‖ × (the length of k's projection onto q's direction), for 2-number rows.

The query and the keys are arrows from the origin, each key dropped (dashed) onto the query's line, with its
score and, for comparison, its cosine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from attnlab.checks import as_array
from attnlab.site.figures.palette import INDIGO, INK, MUTED, RUST
from attnlab.site.figures.plane import Frame, frame_around, ticks
from attnlab.site.figures.svg import LAB_COLUMN, arrow_marker, background, figure, min_font, num, svg_image, text
from attnlab.text import fmt

WIDTH, HEIGHT, LEGEND = 360, 300, 22
"""The picture's size, and the height of each line of the legend under the plane."""


def projections(query: Sequence[float], keys: Sequence[Sequence[float]]) -> dict[str, list]:
    """Each key's score q · k, its cosine with q, and the foot of its projection onto q's line."""
    q = as_array("query", query, 1)
    k = as_array("keys", keys, 2)
    if q.shape != (2,) or k.shape[1:] != (2,) or not np.linalg.norm(q) > 0:
        raise ValueError(f"the dot-product plane draws a non-zero 2-number query and 2-number keys, got "
                         f"{q.shape} and {k.shape}")
    scores = k @ q
    cosines = scores / (np.linalg.norm(q) * np.linalg.norm(k, axis=1))
    feet = np.outer(scores / (q @ q), q)
    return {"scores": scores.tolist(), "cosines": cosines.tolist(), "feet": feet.tolist()}


def square(frame: Frame) -> Frame:
    """``frame`` with one data unit the same length across and up (a right angle must look like one)."""
    unit = min(frame.width / (frame.x_high - frame.x_low), frame.height / (frame.y_high - frame.y_low))
    x, y = (frame.x_low + frame.x_high) / 2, (frame.y_low + frame.y_high) / 2
    across, up = frame.width / unit / 2, frame.height / unit / 2
    return replace(frame, x_low=x - across, x_high=x + across, y_low=y - up, y_high=y + up)


def dot_plane(query: Sequence[float], keys: Sequence[Sequence[float]], tokens: Sequence[str], *, ident: str,
              caption: str) -> str:
    """The query ``query`` and the ``keys`` (named ``tokens``) as arrows, with projections, scores and cosines."""
    found = projections(query, keys)
    points = [(0.0, 0.0), tuple(query), *map(tuple, keys), *map(tuple, found["feet"])]
    frame = square(frame_around(points, WIDTH, HEIGHT))
    height = HEIGHT + LEGEND * len(tokens)
    font = min_font(WIDTH, LAB_COLUMN)  # the block shows it in a bordered box, narrower than the column
    origin = frame.to_pixels((0, 0))
    parts = [f"<defs>{arrow_marker(ident, INDIGO)}{arrow_marker(ident + '-q', RUST)}</defs>",
             background(WIDTH, height), ticks(frame, font)]
    # the query's line, as far as the frame reaches both ways
    q = np.asarray(query, float)
    span = max(frame.x_high - frame.x_low, frame.y_high - frame.y_low) * 2 / np.linalg.norm(q)
    a, b = frame.to_pixels(-span * q), frame.to_pixels(span * q)
    parts.append(f'<clipPath id="{ident}-box"><rect x="{num(frame.left)}" y="{num(frame.top)}" '
                 f'width="{num(frame.width)}" height="{num(frame.height)}"/></clipPath>')
    parts.append(f'<path d="M{num(a[0])} {num(a[1])}L{num(b[0])} {num(b[1])}" stroke="{RUST}" '
                 f'stroke-dasharray="2 4" clip-path="url(#{ident}-box)"/>')
    top = frame.to_pixels(query)
    parts.append(f'<path d="M{num(origin[0])} {num(origin[1])}L{num(top[0])} {num(top[1])}" stroke="{RUST}" '
                 f'stroke-width="3" marker-end="url(#{ident}-q-arrow)"/>')
    parts.append(text(top[0] + 8, top[1] + font + 4, "query", font, bold=True, fill=RUST))
    drawn = zip(tokens, keys, found["feet"], found["scores"], found["cosines"])
    for row, (token, key, foot, score, cosine) in enumerate(drawn):
        tip, at = frame.to_pixels(key), frame.to_pixels(foot)
        parts.append(f'<path d="M{num(tip[0])} {num(tip[1])}L{num(at[0])} {num(at[1])}" stroke="{MUTED}" '
                     f'stroke-dasharray="5 3"/>')
        parts.append(f'<path d="M{num(origin[0])} {num(origin[1])}L{num(tip[0])} {num(tip[1])}" stroke="{INDIGO}" '
                     f'stroke-width="2" marker-end="url(#{ident}-arrow)"/>')
        left = tip[0] > frame.left + frame.width / 2
        parts.append(text(tip[0] + (-8 if left else 8), tip[1] - 4, token, font, anchor="end" if left else "start"))
        parts.append(text(frame.left, HEIGHT + LEGEND * row + 4,
                          f"{token}: score {fmt(score)} = ‖q‖ × {fmt(score / np.linalg.norm(q))}, cosine {fmt(cosine)}",
                          font))
    parts.append(f'<rect x="{num(frame.left)}" y="{num(frame.top)}" width="{num(frame.width)}" '
                 f'height="{num(frame.height)}" fill="none" stroke="{INK}"/>')
    desc = (f"The query {fmt(q[0])}, {fmt(q[1])} and the keys as arrows from the origin; each key's dashed drop "
            "meets the query's line at its projection. " + "; ".join(
                f"{t}: score {fmt(s)}, cosine {fmt(c)}" for t, s, c in zip(tokens, found["scores"], found["cosines"]))
            + ".")
    picture = svg_image(ident, "Scores as projections onto the query", desc, WIDTH, height, "".join(parts))
    return figure(ident, picture, caption, kind="dot-plane",
                  values={"query": [float(x) for x in query], "keys": [[float(x) for x in k] for k in keys],
                          "tokens": list(tokens), **found})
