"""The small decoder in its chapter, from ``file://``: load, type a prompt, step, ablate, with no other host;
the cache grows a row per layer per step and the bars are Python's probabilities, ablated or not."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from attnlab import decoder

from .axe import serious_violations
from .labpage import CEILING_MS, watch

PROMPT = "qwertzqwe"
FIELDS = ("[data-prompt]", "[data-seed]")  # what a reader types into


def bars(page: Page) -> dict[str, float]:
    """The page's next-letter bars: each letter's probability as the bar carries it."""
    return {row.get_attribute("data-token") or "": float(row.get_attribute("data-p") or "nan")
            for row in page.locator(".decoder-bar").all()}


def python_bars(text: str, ablate: frozenset[tuple[int, int]] = frozenset()) -> dict[str, float]:
    """Python's five likeliest next letters after ``text`` with the heads in ``ablate`` removed."""
    model = decoder.load()
    p = model.forward(text, ablate).probabilities[-1]
    return {model.vocabulary[i]: float(p[i]) for i in np.argsort(-p)[:5]}


def test_stepping_three_tokens_grows_the_cache_and_matches_python(page: Page, built_site: Path) -> None:
    url = (built_site / "small-decoder.html").resolve().as_uri()
    problems = watch(page, "file://")
    page.set_viewport_size({"width": 390, "height": 800})  # a phone: the heads' boxes fit, the typed fields are framed
    page.goto(url)
    page.locator("[data-load]").click()
    expect(page.locator("[data-controls]")).to_be_visible(timeout=CEILING_MS)
    assert page.eval_on_selector("[data-heads]", "f => f.getBoundingClientRect().right <= innerWidth")
    assert {page.eval_on_selector(f, "e => getComputedStyle(e).borderStyle") for f in FIELDS} == {"solid"}
    expect(page.locator("[data-load]")).to_be_hidden()  # the theme's button style does not override hidden
    page.locator("[data-prompt]").fill(PROMPT)
    page.locator("[data-prompt]").dispatch_event("change")
    expect(page.locator("[data-text]")).to_have_text(PROMPT)
    for step in range(1, 4):
        page.locator("[data-step]").click()
        expect(page.locator("[data-text]")).to_have_text(re.compile(f"^{PROMPT}.{{{step}}}$"))
        rows = len(PROMPT) + step
        expect(page.locator("[data-cache]")).to_contain_text(f"layer 1 holds {rows} rows, layer 2 holds {rows} rows")
    text = page.locator("[data-text]").inner_text()
    assert text == PROMPT + decoder.load().generate(PROMPT, 3).text
    assert bars(page) == pytest.approx(python_bars(text), abs=1e-6)
    layer, head = decoder.study().induction_head
    page.locator(f'[data-head="{layer},{head}"]').check()
    expect(page.locator("[data-status]")).to_contain_text("Started again")
    assert bars(page) == pytest.approx(python_bars(PROMPT, frozenset({(layer, head)})), abs=1e-6)
    assert not problems
    assert not serious_violations(page)
