"""The explorer finds its own stories: the head it opens on, the heads a word or a cell lists, the neuron view."""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import Locator, Page, expect

from attnlab import bert
from attnlab.site.build import explorer
from attnlab.site.build.explorer import PREPARED, SCALES, prepared

from .test_explorer import DESKTOP, PHONE, open_explorer, show

pytestmark = pytest.mark.browser


def word_heads(key: str, query: int) -> list[tuple[float, int, int]]:
    """Every head for one word of a prepared sentence, from its data file: (weight, head number, key) of the largest
    weight the word gives one other word two or more places away, largest first, ties in the order of the heads;
    none where no word is that far from it."""
    data = explorer.sentence_data(key)
    n = len(data["tokens"])
    words = [i for i, t in enumerate(data["tokens"]) if data["real"][i] and t not in ("[CLS]", "[SEP]")]
    far = [k for k in words if abs(k - query) >= 2]
    looks = []
    for at, head in enumerate(data["weights"] if far else []):
        row = [head[query * n + k] for k in far]
        looks.append((max(row) / SCALES["weights"], at, far[row.index(max(row))]))
    return sorted(looks, key=lambda look: (-look[0], look[1]))


def story(key: str) -> tuple[int, float, int, int]:
    """(query, weight, head number, key) where the explorer opens: the word and head of the largest such weight."""
    data = explorer.sentence_data(key)
    words = [i for i, t in enumerate(data["tokens"]) if data["real"][i] and t not in ("[CLS]", "[SEP]")]
    tops = [(query, *word_heads(key, query)[0]) for query in words if word_heads(key, query)]
    return max(tops, key=lambda top: (top[1], -tops.index(top)))


def expect_head(root: Locator, at: int) -> None:
    """Wait until the explorer shows head number ``at`` (layer × 12 + head, from 0)."""
    expect(root.get_by_test_id("status")).to_contain_text(f"Layer {at // 12 + 1}, head {at % 12 + 1} of")


def test_each_sentence_opens_on_the_head_where_a_word_gives_a_distant_word_the_most_weight_with_a_folded_answer(
        page: Page, file_url: str) -> None:
    root = open_explorer(page, file_url)
    for p in PREPARED:
        root.get_by_test_id("sentence").select_option(value=p.key)
        expect(root).to_have_attribute("data-sentence", p.key)
        query, weight, at, key = story(p.key)
        tokens = explorer.sentence_data(p.key)["tokens"]
        expect_head(root, at)
        expect(root.get_by_test_id("opening")).to_contain_text(
            f"where “{tokens[query]}” gives “{tokens[key]}” {weight:.3f}")
        expect(root.get_by_test_id(f"word-{query}")).to_have_attribute("aria-pressed", "true")
        expect(root.get_by_test_id(f"cell-{query}-{key}")).to_have_class("explorer-chosen-cell")
        look = root.get_by_test_id("look-for")
        expect(look.get_by_test_id("hint")).to_have_text("Hint: " + p.hint)
        answer = look.get_by_test_id("answer")
        expect(answer.locator("p")).to_be_hidden()
        answer.locator("summary").click()
        expect(answer.locator("p")).to_have_text(explorer.answer(p))


def test_a_picked_word_and_a_chosen_cell_list_their_heads_and_show_the_one_clicked(page: Page, file_url: str) -> None:
    root = open_explorer(page, file_url)
    p = prepared("pronoun")
    show(root, p.key, 0, 0)
    tokens = explorer.sentence_data(p.key)["tokens"]
    it, pump = tokens.index("it"), tokens.index("pump")
    root.get_by_test_id(f"word-{it}").click()
    heads = word_heads(p.key, it)[:5]
    listed = root.get_by_test_id("word-heads").locator("button")
    expect(listed).to_have_text([f"layer {at // 12 + 1}, head {at % 12 + 1}: “{tokens[key]}” {weight:.3f}"
                                 for weight, at, key in heads])
    expect_head(root, heads[0][1])
    expect(root.get_by_test_id(f"cell-{it}-{heads[0][2]}")).to_have_class("explorer-chosen-cell")
    listed.nth(2).click()
    expect_head(root, heads[2][1])
    expect(root.get_by_test_id(f"cell-{it}-{heads[2][2]}")).to_be_focused()
    cell = root.get_by_test_id(f"cell-{it}-{pump}")
    cell.click()
    expect(cell).to_have_class("explorer-chosen-cell")
    expect(cell).to_have_attribute("aria-selected", "true")
    assert root.locator("td.explorer-chosen-cell").count() == 1
    weights = np.rint(explorer.weights(p)[:, :, it, pump] * 1000).ravel()  # as the data file ships them
    order = sorted(range(weights.size), key=lambda at: (-weights[at], at))[:5]
    listed = root.get_by_test_id("top-heads").locator("button")
    assert listed.all_inner_texts() == [f"layer {at // 12 + 1}, head {at % 12 + 1}: {weights[at] / 1000:.3f}"
                                        for at in order]
    listed.nth(1).click()
    expect_head(root, order[1])
    expect(root.get_by_test_id(f"cell-{it}-{pump}")).to_be_focused()


def test_a_thumbnail_brings_the_map_it_changed_into_view(page: Page, file_url: str) -> None:
    page.set_viewport_size(DESKTOP)
    root = open_explorer(page, file_url)
    thumb = root.get_by_test_id("thumb-4-9")
    thumb.scroll_into_view_if_needed()
    page.mouse.wheel(0, 400)  # the map above is off screen now
    thumb.click()
    expect(root.get_by_test_id("status")).to_contain_text("Layer 5, head 10 of")
    expect(root.get_by_test_id("map")).to_be_in_viewport()


PADDING = """cells => Math.min(...cells.map(c => Math.min(
    ...["Top", "Right", "Bottom", "Left"].map(side => parseFloat(getComputedStyle(c)["padding" + side])))))"""
"""The smallest padding of any side of any of the cells."""


def test_the_neuron_view_shows_attnlabs_numbers_the_eight_largest_products_first_and_pads_its_cells(
        page: Page, file_url: str) -> None:
    root = open_explorer(page, file_url)
    show(root, "pronoun", 3, 6)
    enc = explorer.encoding(prepared("pronoun"))
    query, key = enc.tokens.index("it"), enc.tokens.index("pump")
    root.get_by_test_id(f"cell-{query}-{key}").click()
    neuron = root.get_by_test_id("neuron-view")
    expect(neuron).to_contain_text("Neuron view: layer 4, head 7")
    attention = enc.layers[3].heads[6]
    expect(neuron.get_by_test_id("neuron-sum")).to_contain_text(f"{attention.scores[query, key]:.3f}")
    expect(neuron.get_by_test_id("neuron-scaled")).to_contain_text(f"{attention.scaled[query, key]:.3f}")
    expect(neuron.get_by_test_id("neuron-weight")).to_contain_text(f"{attention.weights[query, key]:.3f}")
    assert neuron.get_by_test_id("neuron-row").locator("tbody tr").count() == len(enc.tokens)
    q, k, _ = bert.head_inputs(enc, 3, 6)
    q, k = q[query], k[key]
    rows = neuron.get_by_test_id("neuron-vectors").locator("tbody tr")
    products = q * k
    order = sorted(range(len(q)), key=lambda c: (-abs(products[c]), c))
    expect(rows).to_have_count(8)
    assert [int(t) for t in rows.locator("th").all_inner_texts()] == [c + 1 for c in order[:8]]
    first = rows.first.locator("td").all_inner_texts()
    assert [float(t) for t in first] == pytest.approx([q[order[0]], k[order[0]], products[order[0]]], abs=2e-3)
    assert rows.first.locator(".explorer-bar").count() == 3
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        assert neuron.locator("td, th").evaluate_all(PADDING) >= 4, size
    neuron.get_by_test_id("neuron-all").click()
    expect(rows).to_have_count(len(q))
    assert "-0.000" not in neuron.inner_text()
