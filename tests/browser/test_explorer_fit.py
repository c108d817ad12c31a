"""The explorer fits its column and puts the reader's sentence first: at 1280 × 900 and 390 × 844, the sentence
box and load button are in the first screen, a 32-piece sentence's map needs no sideways scrolling (its numbers
read on hover and focus, and shown in the numbers view), and the neuron view's cells are padded apart."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from playwright.sync_api import Locator, Page, expect

from attnlab import bert
from attnlab.site.build import explorer
from attnlab.site.build.explorer import SCALES, prepared

from .test_explorer import DESKTOP, PHONE, open_explorer, show

pytestmark = pytest.mark.browser

SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
WHERE = pytest.mark.parametrize("where", ["site_url", "file_url"])
LONG = ("The animal didn't cross the busy street yesterday because it was far too tired after walking all day "
        "long in the summer heat of the old city.")
"""A sentence of 32 word pieces, [CLS] and [SEP] included."""


def long_sentence() -> dict[str, Any]:
    """LONG as the explorer's data files hold a sentence, computed by attnlab.bert."""
    enc = bert.encode(LONG)[0]
    assert len(enc.tokens) == 32
    weights = np.stack([np.stack([h.weights for h in layer.heads]) for layer in enc.layers])
    sizes = np.stack([bert.contributions(enc, layer) for layer in range(len(enc.layers))])
    return {"key": "long", "label": "A long sentence", "lookFor": "", "batch": [LONG], "tokens": list(enc.tokens),
            "real": [1] * 32, "layers": weights.shape[0], "heads": weights.shape[1], "scales": SCALES,
            "weights": explorer.quantised(weights, SCALES["weights"]),
            "sizes": explorer.quantised(sizes, SCALES["sizes"])}


def show_long(page: Page, root: Locator) -> None:
    """Put LONG among the sentences and choose it, as the reader's own sentence is."""
    page.evaluate("""d => { globalThis.ATTNLAB_EXPLORER[d.key] = d;
        const menu = document.querySelector("#explorer-sentence");
        menu.add(new Option(d.label, d.key)); menu.value = d.key; menu.dispatchEvent(new Event("change")); }""",
                  long_sentence())
    expect(root).to_have_attribute("data-sentence", "long")


@SIZES
def test_the_sentence_box_and_the_load_button_come_first(page: Page, file_url: str, size: dict[str, int]) -> None:
    page.set_viewport_size(size)
    root = open_explorer(page, file_url)
    for part in ("own-text", "model-load"):
        expect(root.get_by_test_id(part)).to_be_in_viewport(ratio=1)


@WHERE
@SIZES
def test_a_32_piece_map_fits_its_column_without_sideways_scrolling(page: Page, where: str, size: dict[str, int],
                                                                  request: pytest.FixtureRequest) -> None:
    page.set_viewport_size(size)
    root = open_explorer(page, request.getfixturevalue(where))
    show_long(page, root)
    assert root.get_by_test_id("map").locator("thead th").count() == 32
    box = root.get_by_test_id("view").locator(".explorer-scroll")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


def test_a_square_hides_its_digits_and_gives_its_number_on_hover_on_focus_and_as_numbers(page: Page,
                                                                                        file_url: str) -> None:
    root = open_explorer(page, file_url)
    show(root, "pronoun", 2, 7)
    p = prepared("pronoun")
    tokens = explorer.encoding(p).tokens
    query, key = tokens.index("it"), tokens.index("pump")
    number = f"{explorer.weights(p)[2, 7, query, key]:.3f}"
    cell = root.get_by_test_id(f"cell-{query}-{key}")
    assert cell.locator("span").evaluate("s => s.getBoundingClientRect().width <= 1")  # no digits in sight
    expect(cell).to_have_attribute("title", f"“it” → “pump”: {number}")
    cell.focus()
    expect(root.get_by_test_id("readout")).to_contain_text(f"weight {number}")
    root.get_by_test_id("view-numbers").check()
    shown = root.get_by_test_id(f"cell-{query}-{key}").locator("span")
    expect(shown).to_have_text(number)
    assert shown.evaluate("s => s.getBoundingClientRect().width > 10")


def neuron_of_it_and_pump(root: Locator) -> tuple[Locator, np.ndarray, np.ndarray]:
    """The neuron view of “it” and “pump” in layer 4, head 7 of the pronoun sentence, with attnlab's q and k."""
    show(root, "pronoun", 3, 6)
    enc = explorer.encoding(prepared("pronoun"))
    query, key = enc.tokens.index("it"), enc.tokens.index("pump")
    root.get_by_test_id(f"cell-{query}-{key}").click()
    q, k, _ = bert.head_inputs(enc, 3, 6)
    return root.get_by_test_id("neuron-view"), q[query], k[key]


@SIZES
def test_the_neuron_views_cells_have_at_least_four_pixels_of_padding(page: Page, file_url: str,
                                                                    size: dict[str, int]) -> None:
    page.set_viewport_size(size)
    neuron, _, _ = neuron_of_it_and_pump(open_explorer(page, file_url))
    expect(neuron.get_by_test_id("neuron-vectors")).to_be_visible()
    padding = neuron.locator("td, th").evaluate_all("""cells => Math.min(...cells.map(c => Math.min(
        ...["Top", "Right", "Bottom", "Left"].map(side => parseFloat(getComputedStyle(c)["padding" + side])))))""")
    assert padding >= 4


def test_the_neuron_view_shows_the_eight_largest_products_first_and_all_on_request(page: Page,
                                                                                  file_url: str) -> None:
    neuron, q, k = neuron_of_it_and_pump(open_explorer(page, file_url))
    rows = neuron.get_by_test_id("neuron-vectors").locator("tbody tr")
    products = q * k
    order = sorted(range(len(q)), key=lambda c: (-abs(products[c]), c))
    expect(rows).to_have_count(8)
    assert [int(t) for t in rows.locator("th").all_inner_texts()] == [c + 1 for c in order[:8]]
    first = rows.first.locator("td").all_inner_texts()
    assert [float(t) for t in first] == pytest.approx([q[order[0]], k[order[0]], products[order[0]]], abs=2e-3)
    assert rows.first.locator(".explorer-bar").count() == 3
    neuron.get_by_test_id("neuron-all").click()
    expect(rows).to_have_count(len(q))
    assert "-0.000" not in neuron.inner_text()
