"""The explorer of all-MiniLM-L6-v2: every shown number is ``attnlab.bert``'s to the precision the data files ship,
by mouse and by keyboard."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from attnlab.site.build import explorer
from attnlab.site.build.explorer import PREPARED, SCALES, prepared

from .axe import serious_violations
from .labpage import watch

SHIPPED = {measure: 0.5 / scale + 1e-12 for measure, scale in SCALES.items()}
"""How far a shown number may be from attnlab's float64 value: half a stored step."""
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def open_explorer(page: Page, base: str) -> Locator:
    """Open the explorer page and return the explorer once its first sentence is shown."""
    page.goto(base + "explorer.html")
    root = page.locator(".attnlab-explorer")
    expect(root).to_have_attribute("data-sentence", PREPARED[0].key)
    return root


def show_data(page: Page, root: Locator, data: dict[str, Any]) -> None:
    """Put a sentence's ``data`` among the sentences and choose it, as the explorer shows the reader's own."""
    page.evaluate("""d => { globalThis.ATTNLAB_EXPLORER[d.key] = d;
        const menu = document.querySelector("#explorer-sentence");
        menu.add(new Option(d.label, d.key)); menu.value = d.key; menu.dispatchEvent(new Event("change")); }""", data)
    expect(root).to_have_attribute("data-sentence", data["key"])


def show(root: Locator, key: str, layer: int, head: int, measure: str = "weights") -> None:
    """Choose a sentence, layer, head (counted from 0) and measure as a reader does, and wait for them."""
    root.get_by_test_id("sentence").select_option(value=key)
    expect(root).to_have_attribute("data-sentence", key)
    root.get_by_test_id("layer").select_option(index=layer)  # by index: a value such as "3" also matches the label "3"
    root.get_by_test_id("head").select_option(index=head)
    root.get_by_test_id(f"measure-{measure}").check()
    expect(root.get_by_test_id("status")).to_contain_text(f"Layer {layer + 1}, head {head + 1} of")


def attnlab_value(key: str, measure: str, layer: int, head: int, query: int, key_index: int) -> float:
    p = prepared(key)
    values = explorer.weights(p) if measure == "weights" else explorer.sizes(p)
    return float(values[layer, head, query, key_index])


def assert_shown(text: str, key: str, measure: str, cell: tuple[int, int, int, int]) -> None:
    """A cell's text is attnlab's value to the shipped precision, or "blocked" at a padding key."""
    layer, head, query, key_index = cell
    value = attnlab_value(key, measure, layer, head, query, key_index)
    if not explorer.encoding(prepared(key)).real[key_index]:
        assert text == "blocked" and value == 0.0
    else:
        assert abs(float(text) - value) <= SHIPPED[measure], (key, measure, cell, text, value)


def random_cells(count: int, seed: int) -> list[tuple[str, tuple[int, int, int, int]]]:
    """``count`` (sentence, (layer, head, query, key)) picks, the same in every run."""
    rng = random.Random(seed)
    picks = []
    for _ in range(count):
        p = rng.choice(PREPARED)
        n = len(explorer.encoding(p).tokens)
        picks.append((p.key, (rng.randrange(6), rng.randrange(12), rng.randrange(n), rng.randrange(n))))
    return picks


VIEWPORTS = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280px", "390px"])


def test_a_sentences_data_loads_when_it_is_chosen_and_twenty_random_cells_show_attnlabs_weight_and_size(
        page: Page, site_url: str) -> None:  # from disk: test_explorer_stories, by the same <script> loading
    problems = watch(page, site_url)
    loaded: list[str] = []
    page.on("request", lambda r: loaded.append(r.url.rsplit("/", 1)[-1]) if "/explorer/" in r.url else None)
    root = open_explorer(page, site_url)
    assert loaded == [f"{PREPARED[0].key}.js"]
    show(root, "repeated", 0, 0)
    show(root, PREPARED[0].key, 0, 0)
    assert loaded == [f"{PREPARED[0].key}.js", "repeated.js"]
    for key, cell in random_cells(20, seed=16):
        layer, head, query, key_index = cell
        for measure in ("weights", "sizes"):
            show(root, key, layer, head, measure)
            assert_shown(root.get_by_test_id(f"cell-{query}-{key_index}").inner_text(), key, measure, cell)
        root.get_by_test_id(f"cell-{query}-{key_index}").click()
        readout = root.get_by_test_id("readout").inner_text()
        if explorer.encoding(prepared(key)).real[key_index]:
            found = dict(re.findall(r"(weight|contribution size) (\d+\.\d+)", readout))
            assert abs(float(found["weight"]) - attnlab_value(key, "weights", *cell)) <= SHIPPED["weights"]
            assert abs(float(found["contribution size"]) - attnlab_value(key, "sizes", *cell)) <= SHIPPED["sizes"]
        else:
            assert "a padding key, blocked" in readout
    assert problems == []


@VIEWPORTS
def test_every_control_map_and_view_works_by_keyboard_and_mouse_and_passes_axe(page: Page, site_url: str,
                                                                              viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    root = open_explorer(page, site_url)
    found = {"map": serious_violations(page)}
    # the controls: sentence, layer, head and measure by their keys
    root.get_by_test_id("sentence").focus()
    page.keyboard.press("ArrowDown")
    expect(root).to_have_attribute("data-sentence", PREPARED[1].key)
    root.get_by_test_id("layer").focus()
    for key in ("Home", "ArrowDown", "ArrowDown"):  # from layer 1, whichever head the sentence opened on
        page.keyboard.press(key)
    root.get_by_test_id("head").focus()
    page.keyboard.press("End")
    expect(root.get_by_test_id("status")).to_contain_text("Layer 3, head 12 of")
    root.get_by_test_id("measure-weights").focus()
    page.keyboard.press("ArrowRight")
    expect(root.get_by_test_id("measure-sizes")).to_be_checked()
    expect(root.get_by_test_id("map").locator("caption")).to_contain_text("size of what each key")
    # the heat map: reached by Tab past the folded answer, the words and a box that scrolls; walked by arrows
    show(root, "pronoun", 4, 1)
    root.get_by_test_id("view-map").focus()
    page.keyboard.press("Tab")
    expect(root.get_by_test_id("answer").locator("summary")).to_be_focused()
    root.get_by_test_id("words").locator("button").last.focus()
    page.keyboard.press("Tab")
    box = root.get_by_test_id("view").locator(".explorer-scroll")
    if box.evaluate("b => b.scrollWidth > b.clientWidth + 1"):
        expect(box).to_be_focused()
        page.keyboard.press("Tab")
    start = root.get_by_test_id("map").locator('td[tabindex="0"]')  # the opening's pair: one tab stop
    expect(start).to_be_focused()
    query = int(start.get_attribute("data-query"))
    for key in ("ArrowRight", "ArrowRight", "ArrowDown", "End"):
        page.keyboard.press(key)
    tokens = explorer.encoding(prepared("pronoun")).tokens
    n = len(tokens)
    expect(root.get_by_test_id(f"cell-{query + 1}-{n - 1}")).to_be_focused()
    readout = root.get_by_test_id("readout").inner_text()
    assert readout.startswith(f"Query {query + 2} “{tokens[query + 1]}”, key {n} “[SEP]”: weight ")
    found_weight = float(re.search(r"weight (\d+\.\d+)", readout).group(1))
    assert abs(found_weight - attnlab_value("pronoun", "weights", 4, 1, query + 1, n - 1)) <= SHIPPED["weights"]
    # every head at once: a radio group walked by arrows (clicked: test_explorer_stories)
    show(root, "word-pieces", 1, 3)
    expect(root.get_by_test_id("thumb-1-3")).to_have_attribute("aria-checked", "true")
    root.get_by_test_id("thumb-1-3").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    expect(root.get_by_test_id("thumb-2-4")).to_be_focused()
    expect(root.get_by_test_id("thumb-2-4")).to_have_attribute("aria-checked", "true")
    expect(root.get_by_test_id("layer")).to_have_value("2")
    expect(root.get_by_test_id("head")).to_have_value("4")
    assert root.locator('[role="radio"][tabindex="0"]').count() == 1
    page.keyboard.press("End")
    expect(root.get_by_test_id("thumb-5-11")).to_be_focused()
    expect(root.get_by_test_id("status")).to_contain_text("Layer 6, head 12 of")
    assert_shown(root.get_by_test_id("cell-2-3").inner_text(), "word-pieces", "weights", (5, 11, 2, 3))
    show(root, "padded", 3, 3, "sizes")
    found["sizes of a padded sentence"] = serious_violations(page)
    # the lines view: chosen by arrows, a query chosen with Enter, its numbers beside the keys
    show(root, "pronoun", 2, 7, "sizes")
    root.get_by_test_id("view-map").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(root.get_by_test_id("view-lines")).to_be_checked()
    root.get_by_test_id("words").locator("button").last.focus()
    page.keyboard.press("Tab")
    expect(root.get_by_test_id("line-query-0")).to_be_focused()
    page.keyboard.press("Enter")
    expect(root.get_by_test_id("line-query-0")).to_have_attribute("aria-pressed", "true")
    it = tokens.index("it")
    root.get_by_test_id(f"line-query-{it}").click()
    expect(root.get_by_test_id(f"line-query-{it}")).to_have_attribute("aria-pressed", "true")
    for k in range(n):
        shown = root.get_by_test_id(f"line-key-{k}").locator(".explorer-line-value").inner_text()
        assert_shown(shown, "pronoun", "sizes", (2, 7, it, k))
    lines = root.locator(".explorer-lines-svg line")
    assert {line.get_attribute("data-query") for line in lines.all()} == {str(it)}
    found["lines"] = serious_violations(page)
    assert found == {"map": [], "sizes of a padded sentence": [], "lines": []}


def test_a_wide_map_on_a_phone_scrolls_in_its_box_with_one_cue_until_its_end(page: Page, site_url: str) -> None:
    page.set_viewport_size(PHONE)
    root = open_explorer(page, site_url)  # the first map is drawn before the page has loaded, the next after
    hints = root.get_by_test_id("view").locator(".attnlab-scroll-hint")
    root.get_by_test_id("view-numbers").check()  # the squares fit; the numbers scroll
    for key in (PREPARED[0].key, "repeated"):
        show(root, key, 0, 0)
        expect(hints.first).to_be_visible()
        assert hints.count() == 1, key
    box = root.get_by_test_id("view").locator(".explorer-scroll")
    expect(box).to_have_class(re.compile(r"\battnlab-more-right\b"))
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    n = len(explorer.encoding(prepared("repeated")).tokens)
    root.get_by_test_id(f"cell-0-{n - 1}").click()  # the box scrolls the clicked cell into view
    expect(box).not_to_have_class(re.compile(r"\battnlab-more-right\b"))


def test_the_chapters_detailed_maps_fit_the_text_column(page: Page, site_url: str) -> None:
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.goto(site_url + "real-model.html")
        overflow = page.evaluate("""() => {
            const column = document.querySelector("article").getBoundingClientRect();
            return [...document.querySelectorAll("table.attn-map.compact")].map(t => {
                const box = t.getBoundingClientRect();
                const last = t.querySelector("thead th:last-child").getBoundingClientRect();
                return Math.max(box.right, last.right) - column.right;
            });
        }""")
        assert len(overflow) == 4 and max(overflow) <= 0, viewport
