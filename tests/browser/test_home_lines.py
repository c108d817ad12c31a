"""Home's first screen: a trained head's lines view and the two ways in, inside the first viewport, and live.

At a desktop (1280 × 900) and a phone (390 × 844) viewport, from the local
server and from disk: the lines view and both buttons sit inside the first
screen; choosing another word by click and by the arrow keys redraws the
lines, whose weights are attnlab.bert's for that word in the head the page
names.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from playwright.sync_api import Page

from attnlab import bert

VIEWPORTS = ((1280, 900), (390, 844))

IN_VIEW = """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
  return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth; }"""
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
    drawn = page.evaluate(DRAWN)
    assert drawn["chosen"] == query
    keys, weights, starts = zip(*drawn["lines"])
    assert list(keys) == list(range(len(keys))) and len(set(starts)) == 1
    np.testing.assert_allclose(weights, expected(page, sentence, query), rtol=1e-12)


@pytest.fixture(params=VIEWPORTS, ids=lambda size: f"{size[0]}x{size[1]}")
def viewport(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param


@pytest.fixture(params=["server", "disk"])
def home(request: pytest.FixtureRequest, page: Page, viewport: tuple[int, int]) -> Page:
    base = request.getfixturevalue("site_url" if request.param == "server" else "file_url")
    page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
    page.goto(base + "index.html", wait_until="networkidle")
    return page


def test_the_lines_view_and_both_buttons_are_in_the_first_viewport(home: Page) -> None:
    assert home.evaluate(IN_VIEW, "#home-lines .lines-panel:not([hidden]) svg")
    for label in ("Start the", "Try your own sentence"):
        button = home.locator(".attnlab-start a", has_text=label)
        assert button.count() == 1 and home.evaluate(
            "(el) => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }",
            button.element_handle())


def test_a_click_on_a_word_draws_its_lines_with_attnlabs_weights(home: Page) -> None:
    check_drawn(home, 0, 7)  # the page opens on the pronoun
    home.locator("#home-lines .lines-panel:not([hidden]) .lines-query").nth(5).click()
    check_drawn(home, 0, 5)
    assert home.evaluate(DRAWN)["focused"] == "5"


def test_the_arrow_keys_move_the_chosen_word(home: Page) -> None:
    home.locator("#home-lines .lines-panel:not([hidden]) [aria-checked='true']").focus()
    home.keyboard.press("ArrowDown")
    check_drawn(home, 0, 8)
    home.keyboard.press("ArrowUp")
    home.keyboard.press("ArrowUp")
    check_drawn(home, 0, 6)
    home.keyboard.press("End")
    check_drawn(home, 0, 11)


def test_the_second_sentence_opens_on_its_own_pronoun(home: Page) -> None:
    home.locator("#home-lines .lines-sentences button").nth(1).click()
    shown = home.evaluate("() => JSON.parse(document.querySelector('#home-lines').dataset.values).sentences[1]")
    check_drawn(home, 1, shown["query"])
    assert home.locator("#home-lines .lines-sentences button").nth(1).get_attribute("aria-pressed") == "true"


def test_try_your_own_sentence_leads_to_the_explorers_sentence_box(home: Page) -> None:
    home.locator(".attnlab-start a", has_text="Try your own sentence").click()
    home.wait_for_url("**/explorer.html#*")
    assert home.evaluate("() => document.getElementById(location.hash.slice(1)) !== null")
