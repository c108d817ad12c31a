"""Home's first screen: a trained head's lines view with attnlab.bert's weights, and the two ways in."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from playwright.sync_api import Page, expect

from attnlab import bert

VIEWPORTS = ((1280, 900), (390, 844))

DRAWN = """() => { const panel = document.querySelector("#home-lines .lines-panel:not([hidden])");
  return { chosen: Number(panel.querySelector('[aria-checked="true"]').dataset.query),
           focused: document.activeElement.dataset ? document.activeElement.dataset.query : null,
           lines: Array.from(panel.querySelectorAll(".lines-links line"), l =>
             [Number(l.dataset.key), Number(l.dataset.weight), Number(l.getAttribute("y1"))]) }; }"""


def expected(page: Page, sentence: int, query: int) -> np.ndarray:
    """attnlab.bert's weights of word ``query`` in the head the figure shows for ``sentence``."""
    shown: dict[str, Any] = page.evaluate(
        "(k) => JSON.parse(document.querySelector('#home-lines').dataset.values).sentences[k]", sentence)
    enc = bert.encode(shown["text"])[0]
    return enc.layers[shown["layer"]].heads[shown["head"]].weights[query]


def check_drawn(page: Page, sentence: int, query: int) -> None:
    """Home's lines for ``query`` of ``sentence``: one per key, all from the query, each carrying Python's weight."""
    drawn = page.evaluate(DRAWN)
    assert drawn["chosen"] == query
    keys, weights, starts = zip(*drawn["lines"])
    assert list(keys) == list(range(len(keys))) and len(set(starts)) == 1
    np.testing.assert_allclose(weights, expected(page, sentence, query), rtol=1e-12)


def test_home_opens_on_a_live_lines_view_with_both_ways_in_on_the_first_screen(page: Page, site_url: str,
                                                                              file_url: str) -> None:
    for base, (width, height) in itertools.product((site_url, file_url), VIEWPORTS):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(base + "index.html", wait_until="networkidle")
        expect(page.locator("#home-lines .lines-panel:not([hidden]) svg")).to_be_in_viewport(ratio=1)
        for label in ("Start the", "Try your own sentence"):
            expect(page.locator(".attnlab-start a", has_text=label)).to_be_in_viewport(ratio=1)  # one of each
        check_drawn(page, 0, 7)  # the page opens on the pronoun
        page.locator("#home-lines .lines-panel:not([hidden]) .lines-query").nth(5).click()
        check_drawn(page, 0, 5)
        assert page.evaluate(DRAWN)["focused"] == "5"
        page.keyboard.press("ArrowDown")
        check_drawn(page, 0, 6)
        page.keyboard.press("ArrowUp")
        page.keyboard.press("ArrowUp")
        check_drawn(page, 0, 4)
        page.keyboard.press("End")
        check_drawn(page, 0, 11)
        page.locator("#home-lines .lines-sentences button").nth(1).click()
        shown = page.evaluate("() => JSON.parse(document.querySelector('#home-lines').dataset.values).sentences[1]")
        check_drawn(page, 1, shown["query"])  # the second sentence opens on its own pronoun
        assert page.locator("#home-lines .lines-sentences button").nth(1).get_attribute("aria-pressed") == "true"
        page.locator(".attnlab-start a", has_text="Try your own sentence").click()
        page.wait_for_url("**/explorer.html#*")
        assert page.evaluate("() => document.getElementById(location.hash.slice(1)) !== null"), "its sentence box"
