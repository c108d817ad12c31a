"""The same step in a trained model (:mod:`attnlab.site.pages.trained`): a bar per key for the query "it"."""

from __future__ import annotations

from attnlab.site.figures.palette import INDIGO, INK, MUTED, RUST
from attnlab.site.figures.svg import background, blocked_pattern, figure, min_font, num, svg_image, text
from attnlab.site.pages.trained import QUERY, SENTENCES, STEPS, found, position, step_values
from attnlab.text import fmt

WIDTH, ROW, LABEL, NUMBER = 360, 18, 78, 50


def step_bars(step: str, *, ident: str, caption: str) -> str:
    """A bar per key of Home's sentence: ``step`` (:data:`STEPS`) for the query "it" in Home's head."""
    values, visible = step_values(step)
    tokens = found()[0].tokens
    font = min_font(WIDTH)
    low, high = min(0.0, *values), max(0.0, *values)
    start = 8 + LABEL + 6 + (NUMBER if low < 0 else 0)  # negative bars leave room for their numbers
    room = WIDTH - NUMBER - start
    scale = room / ((high - low) or 1.0)
    zero = start - low * scale
    parts = [blocked_pattern(ident), background(WIDTH, ROW * len(tokens) + 30),
             text(8, 16, f"{STEPS[step]} from “{QUERY}”", font, bold=True)]
    for j, (token, value, seen) in enumerate(zip(tokens, values, visible)):
        y = 26 + j * ROW
        parts.append(text(8 + LABEL, y + ROW / 2 + font / 2 - 2, token, font, anchor="end", fill=MUTED))
        if not seen:
            parts.append(f'<rect x="{num(zero)}" y="{num(y + 3)}" width="{num(room / 3)}" height="{ROW - 6}" '
                         f'fill="url(#{ident}-blocked)"/>')
            parts.append(text(zero + room / 3 + 4, y + ROW / 2 + font / 2 - 2, "blocked", font, fill=MUTED))
            continue
        length = value * scale
        left = zero + min(length, 0.0)
        parts.append(f'<rect x="{num(left)}" y="{num(y + 3)}" width="{num(max(abs(length), 0.5))}" '
                     f'height="{ROW - 6}" fill="{RUST if value < 0 else INDIGO}"/>')
        at, anchor = (left - 4, "end") if value < 0 else (zero + length + 4, "start")
        parts.append(text(at, y + ROW / 2 + font / 2 - 2, fmt(value), font, anchor=anchor))
    height = 26 + ROW * len(tokens) + 4
    parts.append(f'<path d="M{num(zero)} 26V{num(height - 4)}" stroke="{INK}"/>')
    desc = "; ".join(f"{t} {fmt(v) if s else 'blocked'}" for t, v, s in zip(tokens, values, visible))
    picture = svg_image(ident, f"{STEPS[step].capitalize()} from “{QUERY}”, key by key", desc + ".", WIDTH, height,
                        "".join(parts))
    _, layer, h = found()
    return figure(ident, picture, caption, kind="trained-step",
                  values={"sentence": SENTENCES[0].text, "layer": layer, "head": h, "query": position(),
                          "step": step, "values": values, "visible": visible})
