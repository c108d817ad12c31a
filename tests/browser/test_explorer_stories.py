"""The explorer finds its own stories: it opens on a head chosen by a computation and says why, a chosen cell
is marked and lists the heads that weigh its pair most, and a thumbnail brings the map it changed into view."""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from attnlab import bert
from attnlab.site.build import explorer
from attnlab.site.build.explorer import PREPARED

from .test_explorer import DESKTOP, open_explorer

pytestmark = pytest.mark.browser


def test_it_opens_on_the_computed_head_and_gives_the_reason(page: Page, file_url: str) -> None:
    root = open_explorer(page, file_url)
    chosen = explorer.opening(PREPARED[0])
    expect(root.get_by_test_id("status")).to_contain_text(f"Layer {chosen['layer'] + 1}, head {chosen['head'] + 1} of")
    expect(root.get_by_test_id("look-for")).to_contain_text(
        f"{round(100 * chosen['share'])}% on average) rather than to [CLS], [SEP] or themselves")


def test_a_chosen_cell_is_marked_and_lists_the_heads_weighing_its_pair_most(page: Page, file_url: str) -> None:
    root = open_explorer(page, file_url)
    p = PREPARED[1]
    root.get_by_test_id("sentence").select_option(value=p.key)
    expect(root).to_have_attribute("data-sentence", p.key)
    tokens = explorer.encoding(p).tokens
    query, key = tokens.index("it"), tokens.index("pump")
    cell = root.get_by_test_id(f"cell-{query}-{key}")
    cell.click()
    expect(cell).to_have_class("explorer-chosen-cell")
    expect(cell).to_have_attribute("aria-selected", "true")
    assert root.locator("td.explorer-chosen-cell").count() == 1
    weights = np.rint(explorer.weights(p)[:, :, query, key] * 1000).ravel()  # as the data file ships them
    order = sorted(range(weights.size), key=lambda at: (-weights[at], at))[:5]
    listed = root.get_by_test_id("top-heads").locator("button")
    assert listed.all_inner_texts() == [f"layer {at // 12 + 1}, head {at % 12 + 1}: {weights[at] / 1000:.3f}"
                                        for at in order]
    listed.nth(1).click()
    expect(root.get_by_test_id("status")).to_contain_text(f"Layer {order[1] // 12 + 1}, head {order[1] % 12 + 1} of")
    expect(root.get_by_test_id(f"cell-{query}-{key}")).to_be_focused()


def test_a_thumbnail_brings_the_map_it_changed_into_view(page: Page, file_url: str) -> None:
    page.set_viewport_size(DESKTOP)
    root = open_explorer(page, file_url)
    thumb = root.get_by_test_id("thumb-4-9")
    thumb.scroll_into_view_if_needed()
    page.mouse.wheel(0, 400)  # the map above is off screen now
    thumb.click()
    expect(root.get_by_test_id("status")).to_contain_text("Layer 5, head 10 of")
    expect(root.get_by_test_id("map")).to_be_in_viewport()


def test_a_prepared_sentences_neuron_view_shows_attnlabs_vectors_score_and_weight(page: Page, file_url: str) -> None:
    root = open_explorer(page, file_url)
    p = PREPARED[1]
    root.get_by_test_id("sentence").select_option(value=p.key)
    expect(root).to_have_attribute("data-sentence", p.key)
    root.get_by_test_id("layer").select_option(index=3)
    root.get_by_test_id("head").select_option(index=6)
    expect(root.get_by_test_id("status")).to_contain_text("Layer 4, head 7 of")
    enc = explorer.encoding(p)
    query, key = enc.tokens.index("it"), enc.tokens.index("pump")
    root.get_by_test_id(f"cell-{query}-{key}").click()
    neuron = root.get_by_test_id("neuron-view")
    expect(neuron).to_contain_text("Neuron view: layer 4, head 7")
    attention = enc.layers[3].heads[6]
    expect(neuron.get_by_test_id("neuron-sum")).to_contain_text(f"{attention.scores[query, key]:.3f}")
    expect(neuron.get_by_test_id("neuron-scaled")).to_contain_text(f"{attention.scaled[query, key]:.3f}")
    expect(neuron.get_by_test_id("neuron-weight")).to_contain_text(f"{attention.weights[query, key]:.3f}")
    q, k, _ = bert.head_inputs(enc, 3, 6)
    cells = neuron.get_by_test_id("neuron-vectors").locator("tbody tr").first.locator("td").all_inner_texts()
    assert [float(c) for c in cells[:2]] == pytest.approx([q[query, 0], k[key, 0]], abs=5e-4)
    assert neuron.get_by_test_id("neuron-row").locator("tbody tr").count() == len(enc.tokens)


def test_each_question_has_a_hint_and_an_answer_folded_until_asked_for(page: Page, file_url: str) -> None:
    root = open_explorer(page, file_url)
    p = PREPARED[1]
    root.get_by_test_id("sentence").select_option(value=p.key)
    expect(root).to_have_attribute("data-sentence", p.key)
    look = root.get_by_test_id("look-for")
    expect(look.get_by_test_id("hint")).to_have_text("Hint: " + p.hint)
    answer = look.get_by_test_id("answer")
    expect(answer.locator("p")).to_be_hidden()
    answer.locator("summary").click()
    expect(answer.locator("p")).to_have_text(explorer.answer(p))
