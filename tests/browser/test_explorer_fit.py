"""The explorer fits its column and puts the reader's sentence first, on a desktop and a phone."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from attnlab import bert
from attnlab.site.build import explorer
from attnlab.site.build.explorer import SCALES, prepared

from .test_explorer import DESKTOP, PHONE, open_explorer, show, show_data

pytestmark = pytest.mark.browser

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


def test_the_sentence_box_and_load_button_come_first_and_a_32_piece_map_fits_its_column(
        page: Page, file_url: str, site_url: str) -> None:
    for base, size in itertools.product((file_url, site_url), (DESKTOP, PHONE)):
        page.set_viewport_size(size)
        root = open_explorer(page, base)
        for part in ("own-text", "model-load"):
            expect(root.get_by_test_id(part)).to_be_in_viewport(ratio=1)
        show_data(page, root, long_sentence())
        assert root.get_by_test_id("map").locator("thead th").count() == 32
        assert root.get_by_test_id("view").locator(".explorer-scroll").evaluate("b => b.scrollWidth <= b.clientWidth")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], (base, size)


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
