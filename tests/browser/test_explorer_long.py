"""A sentence of 128 word pieces in the explorer: its map of 16,384 cells is drawn a few rows a frame."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from attnlab.site.build.explorer import SCALES

from .test_explorer import open_explorer, show_data

pytestmark = pytest.mark.browser

N = 128


def steps(at: int) -> list[int]:
    """Head number ``at``'s weights in whole thousandths: each query's row a different mix of steps."""
    return [(7 * i + 13 * j + 31 * at) % 17 for i in range(N) for j in range(N)]


def long_data() -> dict[str, Any]:
    """A 128-piece sentence as the explorer's data files hold one (its numbers made up, not a model's)."""
    tokens = ["[CLS]", *(f"w{i}" for i in range(1, N - 1)), "[SEP]"]
    return {"key": "long", "label": "A 128-piece sentence", "lookFor": "", "batch": [" ".join(tokens[1:-1])],
            "tokens": tokens, "real": [1] * N, "layers": 6, "heads": 12, "scales": SCALES,
            "weights": [steps(at) for at in range(72)], "sizes": [steps(at + 1) for at in range(72)]}


def shown_steps(root: Locator) -> list[int]:
    """Every cell's number in the map, row by row, in thousandths."""
    texts = root.get_by_test_id("map").locator("td[data-query]").all_inner_texts()
    return [round(float(t) * SCALES["weights"]) for t in texts]


def test_the_map_of_128_pieces_ends_whole_with_every_number_and_the_keyboard_reaches_rows_not_yet_drawn(
        page: Page, file_url: str) -> None:
    root = open_explorer(page, file_url)
    show_data(page, root, long_data())
    at = int(root.get_by_test_id("layer").input_value()) * 12 + int(root.get_by_test_id("head").input_value())
    expect(root.get_by_test_id("map").locator("td[data-query]")).to_have_count(N * N)
    assert shown_steps(root) == steps(at)
    last = root.get_by_test_id(f"cell-{N - 1}-{N - 1}")
    expect(last).to_have_attribute("title", f"“[SEP]” → “[SEP]”: {steps(at)[-1] / 1000:.3f}")
    rows = page.evaluate("""() => {  // one task: a new map, its first rows only, then a cell focused and PageDown
        const head = document.querySelector("#explorer-head");
        head.value = "0";
        head.dispatchEvent(new Event("change"));
        const map = document.querySelector('[data-testid="map"]');
        const rows = map.tBodies[0].rows.length;
        map.querySelector('td[data-query="0"]').focus();
        document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: "PageDown", bubbles: true }));
        return rows; }""")
    assert rows < N
    expect(root.get_by_test_id(f"cell-{N - 1}-0")).to_be_focused()
    expect(root.get_by_test_id("readout")).to_contain_text(f"Query {N} “[SEP]”, key 1 “[CLS]”: weight ")


def test_the_rest_of_a_map_waits_while_a_new_sentence_is_computed_and_comes_if_it_is_refused(
        page: Page, file_url: str) -> None:
    root = open_explorer(page, file_url)
    rows = page.evaluate("""async d => {  // the model stands in: its answer comes when the test says
        ATTNLAB_EXPLORER[d.key] = d;
        document.querySelector(".attnlab-explorer").explorer.choose(d.key);
        await null;  // choose() shows the sentence in a microtask: the map's first rows
        attnlab.model = { loaded: () => true, encode: () => new Promise((_, reject) => {
            globalThis.refuse = () => reject(new Error("Refused.")); }) };
        document.querySelector('[data-testid="own-form"]').requestSubmit();
        await new Promise(requestAnimationFrame);  // the frame that shows the first rows,
        await new Promise(resolve => setTimeout(resolve));  // then the rest's turn
        return document.querySelector('[data-testid="map"]').tBodies[0].rows.length; }""", long_data())
    assert rows < N
    page.evaluate("refuse()")
    expect(root.locator(".explorer-own")).to_have_attribute("data-model-state", "refused")
    expect(root.get_by_test_id("map").locator("td[data-query]")).to_have_count(N * N)
