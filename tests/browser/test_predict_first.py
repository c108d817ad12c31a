"""Predict first, for real: a chapter's answer (computed here with ``attnlab``) is out of sight until opened."""

from __future__ import annotations

import itertools

import numpy as np
from playwright.sync_api import Page

from attnlab import attention, softmax
from attnlab.lab import compute
from attnlab.text import fmt, vector


def shape_answer() -> str:
    """Rows: the shape of the score matrix for 2 queries and 4 keys, as the page writes a shape."""
    scores = attention(np.zeros((2, 3)), np.zeros((4, 3)), np.zeros((4, 5))).scores
    return " × ".join(str(n) for n in scores.shape)


def scaled_top_weight() -> str:
    """Scores: the median top weight of 1000 queries over 8 keys, 512 wide, scores divided by √512."""
    rng = np.random.default_rng([2018, 512])
    s = rng.standard_normal((1000, 512)) @ rng.standard_normal((8, 512)).T / np.sqrt(512)
    return fmt(np.median(softmax(s, np.ones(s.shape, dtype=bool)).max(axis=1)))


def shifted_weights() -> str:
    """Softmax: the `rises` row's weights once 100 is added to every scaled score, as the answer prints them."""
    scaled = np.array(compute("rises").scaled)
    return f"weights after adding 100 {vector(softmax(scaled + 100, np.ones(3, dtype=bool)))}"


def zero_score_weight() -> str:
    """Masking: the weight `rises` keeps for `load` when its scaled score is set to 0 instead of blocked."""
    scaled = np.array(compute("load").scaled) * [1, 1, 0]
    return fmt(softmax(scaled, np.ones(3, dtype=bool))[2])


ANSWERS = {"rows.html": shape_answer, "scores.html": scaled_top_weight, "softmax.html": shifted_weights,
           "masking.html": zero_score_weight}
"""Each chapter, and the text that answers its predict-first prompt."""

SHOWN = """([needle, inView]) => {
    const found = [];
    const walker = document.createTreeWalker(document.querySelector(".md-content"), NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        if (!node.textContent.includes(needle)) continue;
        const parent = node.parentElement;
        if (!parent.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const drawn = Array.from(range.getClientRects()).filter(r => r.width > 0 && r.height > 0);
        const seen = inView
          ? drawn.filter(r => r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth)
                            : drawn;
        if (seen.length) found.push(parent.tagName.toLowerCase() + ": " + node.textContent.trim().slice(0, 80));
    }
    return found;
}"""
"""The visible pieces of text holding ``needle`` (only those inside the window when ``inView``)."""


def test_a_prompts_answer_is_not_in_view_until_it_is_opened(page: Page, site_url: str) -> None:
    for width, chapter in itertools.product((1280, 390), sorted(ANSWERS)):
        answer = ANSWERS[chapter]()
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(site_url + chapter)
        prompt = page.locator(".admonition.question", has_text="Predict first").first
        prompt.evaluate("p => p.scrollIntoView({block: 'start'})")
        page.wait_for_function("p => Math.abs(p.getBoundingClientRect().top) < 2", arg=prompt.element_handle())
        assert page.evaluate(SHOWN, [answer, True]) == [], f"{chapter} at {width}: {answer} in view before opened"
        opened = prompt.locator("details", has=page.locator("summary", has_text="Answer"))
        opened.locator("summary").first.click()
        page.wait_for_function("d => d.open", arg=opened.element_handle())
        assert page.evaluate(SHOWN, [answer, False]) != [], f"{chapter}: the opened answer does not show {answer}"
