"""The value plane and the dot-product plane; ``docs/assets/value-plane.js`` repeats :class:`Frame`, :func:`hull` and
:func:`geometry` for the lab's live plane (``tests/node/test_value_plane_js.py`` compares)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import numpy as np

from attnlab.checks import as_array
from attnlab.lab import TOKENS, LabResult, compute
from attnlab.site.figures.palette import INDIGO, INK, MUTED, RUST
from attnlab.site.figures.plot import ticks_within
from attnlab.site.figures.svg import LAB_COLUMN, background, carried, defs, figure, grid, min_font, num, svg_image, text
from attnlab.site.pages.sliders import SLIDER_RANGES
from attnlab.text import fmt, vector

PANEL_WIDTH, PANEL_HEIGHT = 226, 236  # a small multiple: three side by side in a desktop column, one on a phone
LIVE_WIDTH, LIVE_HEIGHT = 300, 330  # the lab's live plane fits the lab's box on a phone without shrinking
MARGIN = {"left": 44, "right": 10, "top": 30, "bottom": 42}  # for the heading, the tick labels and the axis names
FONT = max(13, min_font(LIVE_WIDTH, LAB_COLUMN))
PAD = 0.12  # share of the data's span left empty on each side, so points on the edge keep their labels


@dataclass(frozen=True)
class Frame:
    """Where data coordinates land in the picture: a data window, the pixel box it fills, and its ticks."""

    x_low: float
    x_high: float
    y_low: float
    y_high: float
    left: float
    top: float
    width: float
    height: float
    x_ticks: tuple[float, ...]
    y_ticks: tuple[float, ...]
    picture_width: float
    font: float

    def to_pixels(self, point: Sequence[float]) -> tuple[float, float]:
        """The pixel position of a data point (y grows upwards in the data, downwards on screen)."""
        x, y = point
        return (self.left + (x - self.x_low) / (self.x_high - self.x_low) * self.width,
                self.top + (self.y_high - y) / (self.y_high - self.y_low) * self.height)

    def outline(self, attributes: str = "") -> str:
        """The plotting box as a ``<rect>`` with ``attributes``."""
        return (f'<rect x="{num(self.left)}" y="{num(self.top)}" width="{num(self.width)}" '
                f'height="{num(self.height)}"{attributes}/>')

    def to_dict(self) -> dict[str, Any]:
        """The frame as JSON-ready data (the browser's plane reads the same keys)."""
        return {key: list(value) if isinstance(value, tuple) else value for key, value in asdict(self).items()}


def frame_around(points: Sequence[Sequence[float]], width: float, height: float) -> Frame:
    """A frame for a ``width`` × ``height`` picture whose plotting box holds every one of ``points``."""
    box_width = width - MARGIN["left"] - MARGIN["right"]
    box_height = height - MARGIN["top"] - MARGIN["bottom"]
    windows = []
    for axis, length in ((0, box_width), (1, box_height)):
        low, high = min(p[axis] for p in points), max(p[axis] for p in points)
        pad = PAD * (high - low) if high > low else 1.0
        windows.append((low - pad, high + pad, ticks_within(low - pad, high + pad, max(2, int(length // 70)))))
    (x_low, x_high, x_ticks), (y_low, y_high, y_ticks) = windows
    return Frame(x_low, x_high, y_low, y_high, MARGIN["left"], MARGIN["top"], box_width, box_height,
                 x_ticks, y_ticks, width, FONT)


def cross(o: Sequence[float], a: Sequence[float], b: Sequence[float]) -> float:
    """The z-component of (a − o) × (b − o): positive when o → a → b turns counter-clockwise."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def hull(points: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    """The corners of the smallest convex shape holding ``points`` (Andrew's monotone chain)."""
    ordered = sorted({(float(x), float(y)) for x, y in points})
    if len(ordered) <= 2:
        return ordered

    def half(chain_points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        chain: list[tuple[float, float]] = []
        for p in chain_points:
            while len(chain) >= 2 and cross(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        return chain

    return half(ordered)[:-1] + half(ordered[::-1])[:-1]  # lower then upper chain, each without the other's start


def label_place(point: Sequence[float], centre: Sequence[float], gap: float, words: str,
                frame: Frame) -> dict[str, Any]:
    """Where the label ``words`` goes: ``gap`` beside ``point``, on the side away from ``centre``."""
    font = frame.font
    width = 0.6 * font * len(words)
    left_side = point[0] < centre[0]
    if left_side and point[0] - gap - width < 0:
        left_side = False
    elif not left_side and point[0] + gap + width > frame.picture_width:
        left_side = True
    below = point[1] >= centre[1]
    return {"text": words, "x": point[0] - gap if left_side else point[0] + gap,
            "y": point[1] + (font + 2 if below else -4), "anchor": "end" if left_side else "start",
            "below": below, "width": width, "height": font + 2}


def overlap(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether two placed labels' boxes (estimated width, one line high) overlap."""
    def span(label: Mapping[str, Any]) -> tuple[float, float]:
        return (label["x"] - label["width"], label["x"]) if label["anchor"] == "end" else (
            label["x"], label["x"] + label["width"])

    (a_left, a_right), (b_left, b_right) = span(a), span(b)
    return a_left < b_right and b_left < a_right and abs(a["y"] - b["y"]) < a["height"]


def separate(labels: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The labels in order, each moved a line further from the centre while it overlaps an earlier one."""
    placed: list[dict[str, Any]] = []
    for label in labels:
        moved = dict(label)
        for _ in range(len(labels)):
            if not any(overlap(moved, other) for other in placed):
                break
            moved["y"] += moved["height"] if moved["below"] else -moved["height"]
        placed.append(moved)
    return placed


def geometry(result: LabResult | Mapping[str, Any], frame: Frame) -> dict[str, Any]:
    """Every pixel the plane needs for a lab result (or its ``to_dict()``): values, radii, labels, hull, output."""
    r = result.to_dict() if isinstance(result, LabResult) else result
    values = [frame.to_pixels(v) for v in r["values"]]
    centre = (sum(x for x, _ in values) / len(values), sum(y for _, y in values) / len(values))
    output = frame.to_pixels(r["output"])
    # a value's area grows with its weight; a blocked value keeps a small ring
    radii = [4 + 9 * math.sqrt(w) if seen else 4.0 for w, seen in zip(r["weights"], r["visible"])]
    nearest = min(values, key=lambda p: math.dist(p, output))
    labels = [label_place(output, nearest, 9, "output", frame)]  # away from the value nearest to it
    labels += [label_place(p, centre, rad + 4, f"{t} {fmt(w) if seen else 'blocked'}", frame)
               for p, rad, t, w, seen in zip(values, radii, TOKENS, r["weights"], r["visible"])]
    return {"values": [list(p) for p in values], "radii": radii,
            "hull": [list(p) for p in hull([p for p, seen in zip(values, r["visible"]) if seen])],
            "output": list(output), "labels": separate(labels)}


def marks(result: LabResult, frame: Frame) -> str:
    """The hull, the values with their weights, and the output, as SVG; the guide's stylesheet colours them."""
    g = geometry(result, frame)
    parts = [f'<polygon points="{" ".join(f"{num(x)},{num(y)}" for x, y in g["hull"])}" class="attnlab-plane-hull"/>']
    for (x, y), rad, seen in zip(g["values"], g["radii"], result.visible):
        blocked = "" if seen else " attnlab-plane-blocked"
        parts.append(f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(rad)}" class="attnlab-plane-value{blocked}"/>')
    x, y = g["output"]
    parts.append(f'<path d="M{num(x)},{num(y - 7)} L{num(x + 7)},{num(y)} L{num(x)},{num(y + 7)} '
                 f'L{num(x - 7)},{num(y)} z" class="attnlab-plane-output"/>')
    parts.extend(text(place["x"], place["y"], place["text"], frame.font, anchor=place["anchor"])
                 for place in g["labels"])
    return "".join(parts)


def ticks(frame: Frame, font: float) -> str:
    """The frame's grid and its tick labels."""
    right, bottom = frame.left + frame.width, frame.top + frame.height
    xs = [frame.to_pixels((tick, frame.y_low))[0] for tick in frame.x_ticks]
    ys = [frame.to_pixels((frame.x_low, tick))[1] for tick in frame.y_ticks]
    return "".join([grid([(x, frame.top, x, bottom) for x in xs] + [(frame.left, y, right, y) for y in ys]),
                    *(text(x, bottom + 16, f"{t:g}", font, anchor="middle", fill=MUTED)
                      for x, t in zip(xs, frame.x_ticks)),
                    *(text(frame.left - 5, y + 4, f"{t:g}", font, anchor="end", fill=MUTED)
                      for y, t in zip(ys, frame.y_ticks))])


def axes(frame: Frame, heading: str) -> str:
    """The plotting box, its grid and tick labels, the axis names, and a heading above."""
    right, bottom = frame.left + frame.width, frame.top + frame.height
    return "".join([background(right + MARGIN["right"], bottom + MARGIN["bottom"]),
                    text(frame.left, 18, heading, FONT, bold=True), ticks(frame, FONT),
                    frame.outline(f' fill="none" stroke="{INK}"'),
                    text(frame.left + frame.width / 2, bottom + 34, "value, 1st number", FONT, anchor="middle"),
                    text(0, 0, "value, 2nd number", FONT, anchor="middle",
                         extra=f' transform="translate(13 {num(frame.top + frame.height / 2)}) rotate(-90)"')])


def describe(result: LabResult) -> str:
    """The plane in words, for a screen reader: values, weights, output."""
    shares = "; ".join(f"{t} value {vector(v)}, " + (f"weight {fmt(w)}" if seen else "blocked")
                       for t, v, w, seen in zip(TOKENS, result.values, result.weights, result.visible))
    return (f"Query {result.token}. {shares}. The output {vector(result.output)} lies inside the shape "
            f"spanned by the visible values.")


def panels(settings: Mapping[str, Mapping[str, Any]], *, ident: str, caption: str) -> str:
    """Small multiples of the value plane, one panel per named setting of the lab's controls, on one frame."""
    if not settings:
        raise ValueError("panels needs at least one setting")
    results = {heading: compute(controls) for heading, controls in settings.items()}
    points = [p for r in results.values() for p in (*r.values, r.output)]
    frame = frame_around(points, PANEL_WIDTH, PANEL_HEIGHT)
    pictures = "".join(svg_image(f"{ident}-{i}", f"Value plane: {h}", describe(r), PANEL_WIDTH, PANEL_HEIGHT,
                                 axes(frame, h) + marks(r, frame)) for i, (h, r) in enumerate(results.items()))
    numbers = {"frame": frame.to_dict(), "panels": [
        {"heading": heading, "controls": dict(r.controls), "values": r.values, "weights": r.weights,
         "visible": r.visible, "output": r.output} for heading, r in results.items()]}
    return figure(ident, f'<div class="attnlab-panels">{pictures}</div>', caption, kind="value-plane", values=numbers)


def lab_frame() -> Frame:
    """The live plane's frame: every value the lab's controls can reach, at both ends of the value slider."""
    points = [p for y in SLIDER_RANGES["value_y"][:2] for p in compute(value_y=y).values]
    return frame_around(points, LIVE_WIDTH, LIVE_HEIGHT)


def live_plane() -> str:
    """The lab's plane before any numbers: axes drawn here, marks left to the browser."""
    frame = lab_frame()
    picture = svg_image("attnlab-plane", "Value plane of the selected query",
                        "The values as points, the shape the visible ones span, and the output inside it; "
                        "the numbers are those in the table above.", LIVE_WIDTH, LIVE_HEIGHT,
                        axes(frame, "Value plane") + '<g data-marks=""></g>')
    return f'<template class="attnlab-plane-template" data-frame="{carried(frame.to_dict())}">{picture}</template>'


DOT_WIDTH, DOT_HEIGHT, DOT_LEGEND = 360, 300, 22  # the dot plane's size, and each legend line's height under it


def projections(query: Sequence[float], keys: Sequence[Sequence[float]]) -> dict[str, list]:
    """Each key's score q · k, its cosine with q, and the foot of its projection onto q's line."""
    q = as_array("query", query, 1)
    k = as_array("keys", keys, 2)
    if q.shape != (2,) or k.shape[1:] != (2,) or not np.linalg.norm(q) > 0:
        raise ValueError(f"the dot-product plane draws a non-zero 2-number query and 2-number keys, got "
                         f"{q.shape} and {k.shape}")
    scores = k @ q
    cosines = scores / (np.linalg.norm(q) * np.linalg.norm(k, axis=1))
    return {"scores": scores.tolist(), "cosines": cosines.tolist(), "feet": np.outer(scores / (q @ q), q).tolist()}


def segment(start: Sequence[float], end: Sequence[float], attributes: str) -> str:
    """A straight ``<path>`` from ``start`` to ``end`` with ``attributes``."""
    return f'<path d="M{num(start[0])} {num(start[1])}L{num(end[0])} {num(end[1])}" {attributes}/>'


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
    frame = square(frame_around(points, DOT_WIDTH, DOT_HEIGHT))
    height = DOT_HEIGHT + DOT_LEGEND * len(tokens)
    font = min_font(DOT_WIDTH, LAB_COLUMN)  # the block shows it in a bordered box, narrower than the column
    origin = frame.to_pixels((0, 0))
    parts = [defs(ident, query=True), background(DOT_WIDTH, height), ticks(frame, font)]
    # the query's line, as far as the frame reaches both ways
    q = np.asarray(query, float)
    span = max(frame.x_high - frame.x_low, frame.y_high - frame.y_low) * 2 / np.linalg.norm(q)
    a, b = frame.to_pixels(-span * q), frame.to_pixels(span * q)
    top = frame.to_pixels(query)
    parts += [f'<clipPath id="{ident}-box">{frame.outline()}</clipPath>',
              segment(a, b, f'stroke="{RUST}" stroke-dasharray="2 4" clip-path="url(#{ident}-box)"'),
              segment(origin, top, f'stroke="{RUST}" stroke-width="3" marker-end="url(#{ident}-q-arrow)"'),
              text(top[0] + 8, top[1] + font + 4, "query", font, bold=True, fill=RUST)]
    drawn = zip(tokens, keys, found["feet"], found["scores"], found["cosines"])
    for row, (token, key, foot, score, cosine) in enumerate(drawn):
        tip, at = frame.to_pixels(key), frame.to_pixels(foot)
        left = tip[0] > frame.left + frame.width / 2
        parts += [segment(tip, at, f'stroke="{MUTED}" stroke-dasharray="5 3"'),
                  segment(origin, tip, f'stroke="{INDIGO}" stroke-width="2" marker-end="url(#{ident}-arrow)"'),
                  text(tip[0] + (-8 if left else 8), tip[1] - 4, token, font, anchor="end" if left else "start"),
                  text(frame.left, DOT_HEIGHT + DOT_LEGEND * row + 4, f"{token}: score {fmt(score)} = ‖q‖ × "
                       f"{fmt(score / np.linalg.norm(q))}, cosine {fmt(cosine)}", font)]
    parts.append(frame.outline(f' fill="none" stroke="{INK}"'))
    desc = (f"The query {fmt(q[0])}, {fmt(q[1])} and the keys as arrows from the origin; each key's dashed drop "
            "meets the query's line at its projection. " + "; ".join(
                f"{t}: score {fmt(s)}, cosine {fmt(c)}" for t, s, c in zip(tokens, found["scores"], found["cosines"]))
            + ".")
    picture = svg_image(ident, "Scores as projections onto the query", desc, DOT_WIDTH, height, "".join(parts))
    return figure(ident, picture, caption, kind="dot-plane",
                  values={"query": [float(x) for x in query], "keys": [[float(x) for x in k] for k in keys],
                          "tokens": list(tokens), **found})
