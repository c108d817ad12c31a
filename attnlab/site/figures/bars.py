"""Bar charts: a panel per quantity, a bar per key with its number at its end; panels of one quantity share a scale."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from attnlab.checks import as_vector
from attnlab.lab import TOKENS, compute
from attnlab.site.figures.palette import INDIGO, INK, MUTED, RUST
from attnlab.site.figures.svg import background, blocked_pattern, figure, min_font, num, svg_image, text
from attnlab.site.pages.trained import QUERY, SENTENCES, STEPS, found, position, step_values
from attnlab.text import fmt

FONT, ROW, LABEL, NUMBER = 13, 20, 52, 46  # a bar's font and row height; the room for the labels and numbers


@dataclass(frozen=True)
class Bars:
    """One panel: its heading, a label and a value per bar, and the value a full-length bar stands for."""

    heading: str
    labels: Sequence[str]
    values: Sequence[float]
    full: float
    colours: Sequence[str] = (INDIGO,)  # one per bar, or one for all of them
    decimals: int = 3


def panel(x: float, y: float, width: float, bars: Bars) -> tuple[str, float]:
    """A panel's heading and bars with their top-left corner at (x, y), ``width`` wide; returns it and its bottom."""
    values = as_vector(f"values of {bars.heading!r}", bars.values, len(bars.labels), "its labels")
    if (values < 0).any() or bars.full <= 0 or (values > bars.full * (1 + 1e-12)).any():
        raise ValueError(f"panel {bars.heading!r}: bars run from 0 to {bars.full:g}, got {values.tolist()}")
    start, room = x + LABEL + 6, width - LABEL - 6 - NUMBER
    parts = [text(x, y + FONT, bars.heading, FONT, bold=True)]
    top = y + FONT + 6
    colours = list(bars.colours) * len(values) if len(bars.colours) == 1 else list(bars.colours)
    for i, (label, value, colour) in enumerate(zip(bars.labels, values, colours)):
        row = top + i * ROW
        length = room * value / bars.full
        parts.append(text(x + LABEL, row + ROW / 2 + FONT / 2 - 2, label, FONT, anchor="end", fill=MUTED))
        parts.append(f'<rect x="{num(start)}" y="{num(row + 3)}" width="{num(max(length, 0.5))}" '
                     f'height="{ROW - 6}" fill="{colour}"/>')
        parts.append(text(start + length + 4, row + ROW / 2 + FONT / 2 - 2, fmt(value, bars.decimals), FONT))
    bottom = top + len(values) * ROW
    parts.append(f'<path d="M{num(start)} {num(top)}V{num(bottom)}" stroke="{INK}"/>')
    return "".join(parts), bottom


def panels(ident: str, width: float, heading: str, stacked: Sequence[Bars], title: str, desc: str) -> str:
    """One picture of ``stacked`` panels, one under the other, below a ``heading`` (none if empty)."""
    parts, y = [], 8.0
    if heading:
        parts.append(text(8, y + FONT, heading, FONT + 1, bold=True))
        y += FONT + 12
    for bars in stacked:
        drawn, bottom = panel(8, y, width - 16, bars)
        parts.append(drawn)
        y = bottom + 14
    return svg_image(ident, title, desc, width, y, background(width, y) + "".join(parts))


def softmax_steps(token: str, multipliers: Sequence[float], *, ident: str, caption: str) -> str:
    """``token``'s row at each query multiplier: its scaled scores, their exponentials, and the weights."""
    if not multipliers:
        raise ValueError("softmax_steps needs at least one multiplier")
    results = [compute(token, query_scale=m) for m in multipliers]
    exps = [np.exp(r.scaled) for r in results]
    top_score, top_exp = max(max(r.scaled) for r in results), max(float(e.max()) for e in exps)
    pictures = []
    for i, (m, r, e) in enumerate(zip(multipliers, results, exps)):
        stacked = [Bars("scaled score s", TOKENS, r.scaled, max(top_score, 1e-9)),
                   Bars("exp(s)", TOKENS, e.tolist(), top_exp, decimals=2),
                   Bars("weight = exp(s) / sum", TOKENS, r.weights, 1.0)]
        desc = (f"Multiplier {m:g}. Scaled scores " + ", ".join(f"{t} {fmt(s)}" for t, s in zip(TOKENS, r.scaled))
                + "; their exponentials " + ", ".join(f"{t} {fmt(x, 2)}" for t, x in zip(TOKENS, e))
                + "; weights " + ", ".join(f"{t} {fmt(w)}" for t, w in zip(TOKENS, r.weights)) + ".")
        pictures.append(panels(f"{ident}-{i}", 226, f"query × {m:g}", stacked,
                               f"The {token} row from scores to weights at multiplier {m:g}", desc))
    values = {"rows": [{"controls": dict(r.controls), "scaled": list(r.scaled), "exp": e.tolist(),
                        "weights": list(r.weights)} for r, e in zip(results, exps)]}
    return figure(ident, f'<div class="attnlab-panels">{"".join(pictures)}</div>', caption, kind="softmax-steps",
                  values=values)


def saturation_bars(widths: Sequence[int], unscaled: Sequence[float], scaled: Sequence[float], *, ident: str,
                    caption: str, drawn: Mapping[str, Any]) -> str:
    """The median top weight per key width, unscaled scores beside scaled ones, as bars."""
    if not len(widths) == len(unscaled) == len(scaled) >= 1:
        raise ValueError(f"need one unscaled and one scaled weight per width, got {len(widths)} widths, "
                         f"{len(unscaled)} unscaled and {len(scaled)} scaled")
    stacked = [Bars(f"d_k = {d_k}", ("unscaled", "scaled"), (a, b), 1.0, colours=(RUST, INDIGO))
               for d_k, a, b in zip(widths, unscaled, scaled)]
    desc = ("Median top weight over the queries, for each key width: "
            + "; ".join(f"d_k {d_k}: unscaled {fmt(a)}, scaled {fmt(b)}" for d_k, a, b in zip(widths, unscaled, scaled))
            + ". Unscaled, the top weight climbs towards 1 as the keys widen; scaled, it stays where it was.")
    picture = panels(ident, 340, "", stacked, "Top weight, unscaled and scaled, as the key width grows", desc)
    values = {"drawn": dict(drawn), "widths": list(widths), "unscaled": [float(a) for a in unscaled],
              "scaled": [float(b) for b in scaled]}
    return figure(ident, picture, caption, kind="saturation", values=values)


def weights_and_sizes(token: str, *, ident: str, caption: str) -> str:
    """Key by key, ``token``'s weight beside the length of the value it weighs and of their product."""
    r = compute(token)
    values = np.array(r.values)
    lengths = np.linalg.norm(values, axis=1)
    contributions = np.linalg.norm(np.array(r.weights)[:, None] * values, axis=1)
    longest = float(lengths.max())
    stacked = [Bars("weight w", TOKENS, r.weights, 1.0),
               Bars("length of the value v", TOKENS, lengths.tolist(), longest, colours=(RUST,)),
               Bars("length of w × v", TOKENS, contributions.tolist(), longest, colours=(RUST,))]
    desc = f"Query {token}. " + "; ".join(f"key {t}: weight {fmt(w)}, value {fmt(v)} long, contribution {fmt(c)} long"
                                          for t, w, v, c in zip(TOKENS, r.weights, lengths, contributions)) + "."
    title = f"Weights of the {token} query beside the sizes of what they weigh"
    picture = panels(ident, 340, "", stacked, title, desc)
    carried = {"controls": dict(r.controls), "weights": list(r.weights), "value_lengths": lengths.tolist(),
               "contribution_lengths": contributions.tolist()}
    return figure(ident, picture, caption, kind="weights-and-sizes", values=carried)


def step_bars(step: str, *, ident: str, caption: str) -> str:
    """A bar per key of Home's sentence: ``step`` (:data:`STEPS`) for the query "it" in Home's head."""
    values, visible = step_values(step)
    tokens = found()[0].tokens
    width, row, label, number = 360, 18, 78, 50
    font = min_font(width)
    low, high = min(0.0, *values), max(0.0, *values)
    start = 8 + label + 6 + (number if low < 0 else 0)  # negative bars leave room for their numbers
    room = width - number - start
    scale = room / ((high - low) or 1.0)
    zero = start - low * scale
    parts = [blocked_pattern(ident), background(width, row * len(tokens) + 30),
             text(8, 16, f"{STEPS[step]} from “{QUERY}”", font, bold=True)]
    for j, (token, value, seen) in enumerate(zip(tokens, values, visible)):
        y = 26 + j * row
        middle = y + row / 2 + font / 2 - 2
        parts.append(text(8 + label, middle, token, font, anchor="end", fill=MUTED))
        words: str
        if seen:
            length, fill, words, colour = value * scale, RUST if value < 0 else INDIGO, fmt(value), INK
        else:  # a blocked key's bar: a third of the room, hatched
            length, fill, words, colour = room / 3, f"url(#{ident}-blocked)", "blocked", MUTED
        left = zero + min(length, 0.0)
        at, anchor = (left - 4, "end") if length < 0 else (zero + length + 4, "start")
        parts.append(f'<rect x="{num(left)}" y="{num(y + 3)}" width="{num(max(abs(length), 0.5))}" '
                     f'height="{row - 6}" fill="{fill}"/>' + text(at, middle, words, font, anchor=anchor, fill=colour))
    height = 26 + row * len(tokens) + 4
    parts.append(f'<path d="M{num(zero)} 26V{num(height - 4)}" stroke="{INK}"/>')
    desc = "; ".join(f"{t} {fmt(v) if s else 'blocked'}" for t, v, s in zip(tokens, values, visible))
    picture = svg_image(ident, f"{STEPS[step].capitalize()} from “{QUERY}”, key by key", desc + ".", width, height,
                        "".join(parts))
    _, layer, h = found()
    return figure(ident, picture, caption, kind="trained-step",
                  values={"sentence": SENTENCES[0].text, "layer": layer, "head": h, "query": position(),
                          "step": step, "values": values, "visible": visible})
