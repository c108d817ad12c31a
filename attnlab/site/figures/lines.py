"""The lines view (BertViz's head view) of a trained head: ``docs/assets/lines.js`` redraws it for another word."""

from __future__ import annotations

from html import escape
from typing import Any

from attnlab.site.figures.palette import DEEP, INK, MUTED
from attnlab.site.figures.svg import figure, min_font, num, text
from attnlab.site.pages.trained import SENTENCES, Sentence, shown

SCRIPT = "assets/lines.js"
ROW, WIDTH, TOP = 20, 360, 6  # a word's row, the picture's width, the space above the first row (CSS px)
QUERY_END, LINE_START, LINE_END, KEY_START = 116, 124, 226, 234  # the query words' end, the lines, the key words
STROKE = (0.75, 7.0)  # a line's width: the first number plus the second times its weight (lines.js reads both)
OPACITY = (0.12, 0.88)  # a line's opacity, the same way: faint lines stay visible, weight 1 is opaque


def head_line(data: dict[str, Any]) -> str:
    """The line saying which head is shown and why."""
    q, k = data["tokens"][data["query"]], data["tokens"][data["key"]]
    return (f"Layer {data['layer'] + 1}, head {data['head'] + 1} of {data['heads']}: the head where “{q}” gives "
            f"“{k}” the most weight, found by searching them all.")


def picture(ident: str, data: dict[str, Any]) -> str:
    """The two columns of words and the lines from the sentence's pronoun, as an ``<svg>``."""
    tokens, query, weights = data["tokens"], data["query"], data["weights"]
    font = min_font(WIDTH)
    height = TOP * 2 + ROW * len(tokens)
    ys = [TOP + ROW * i + ROW / 2 for i in range(len(tokens))]  # each row's middle
    lines = "".join(f'<line x1="{LINE_START}" y1="{num(ys[query])}" x2="{num(LINE_END)}" y2="{num(y)}" data-key="{j}" '
                    f'data-weight="{w!r}" stroke-width="{STROKE[0] + STROKE[1] * w:.2f}" '
                    f'stroke-opacity="{OPACITY[0] + OPACITY[1] * w:.2f}"/>'
                    for j, (y, w) in enumerate(zip(ys, weights[query])))  # the width and opacity by the weight
    queries = "".join(
        text(QUERY_END, ys[i] + font * 0.35, token, font, anchor="end", bold=i == query,
             extra=f' role="radio" aria-checked="{str(i == query).lower()}" tabindex="{0 if i == query else -1}" '
                   f'data-query="{i}" data-y="{num(ys[i])}" class="lines-query"')
        for i, token in enumerate(tokens))
    keys = "".join(text(KEY_START, ys[j] + font * 0.35, token, font) for j, token in enumerate(tokens))
    shares = "".join(text(WIDTH - 6, ys[j] + font * 0.35, f"{w:.3f}", font, anchor="end", fill=MUTED,
                          extra=f' data-share="{j}"') for j, w in enumerate(weights[query]))
    # a group, not an image: an image's parts are not controls, and the words on the left are
    return (f'<svg viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" fill="{INK}" role="group" '
            f'aria-labelledby="{ident}-title" aria-describedby="{ident}-desc" xmlns="http://www.w3.org/2000/svg">'
            f'<title id="{ident}-title">{escape(data["text"])} One head\'s weights, as lines</title>'
            f'<desc id="{ident}-desc">The sentence’s words twice, queries on the left and keys on the right; a '
            f'line from the chosen query to each key, as thick as its weight, the weight beside the key.</desc>'
            f'<g class="lines-links" stroke="{DEEP}" aria-hidden="true">{lines}</g>'
            f'<g role="radiogroup" aria-label="The word that looks (the query): arrow keys choose">{queries}</g>'
            f'<g aria-hidden="true">{keys}{shares}</g></svg>')


def lines_view(ident: str, sentences: tuple[Sentence, ...] = SENTENCES,
               caption: str = "Choose a word on the left (click, tap or arrow keys): the thicker a line, "
                              "the more weight; each word's weights add up to one.") -> str:
    """The lines view of ``sentences`` (the first shown; a button for each where there are several)."""
    if not sentences:
        raise ValueError("the lines view needs at least one sentence")
    drawn = [shown(s) for s in sentences]
    buttons = ""
    if len(sentences) > 1:
        buttons = ('<div class="lines-sentences" role="group" aria-label="Sentence">' + "".join(
            f'<button type="button" class="md-button" data-sentence="{k}" aria-pressed="{str(k == 0).lower()}">'
            f'“it” and {escape(s.label)}</button>' for k, s in enumerate(sentences)) + "</div>")
    panels = "".join(f'<div class="lines-panel" data-sentence="{k}"{"" if k == 0 else " hidden"}>'
                     f'{picture(f"{ident}-{k}", data)}<p class="lines-head">{escape(head_line(data))}</p></div>'
                     for k, data in enumerate(drawn))
    values = {"sentences": drawn, "stroke": list(STROKE), "opacity": list(OPACITY)}
    return (figure(ident, buttons + panels + '<p class="lines-readout" aria-live="polite"></p>', caption,
                   kind="attention-lines", values=values).rstrip("\n")
            + f'<script src="{SCRIPT}"></script>\n')
