"""The explorer with the model loaded in the page, from ``file://`` with the network off: a reader's own sentence
gets ``attnlab.bert``'s numbers on the same float16 weights, or its refusal; a missing file gets its message."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from model_js import reference, write_model_files
from playwright.sync_api import Locator, Page, expect

from attnlab.site.build import model_files
from attnlab.site.build.explorer import SCALES

from .axe import serious_violations
from .labpage import CEILING_MS, watch
from .test_explorer import show

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SENTENCE = "The engineer checked the pump because it was leaking."
SHIPPED = {measure: 0.5 / scale + 1e-5 for measure, scale in SCALES.items()}
"""A shown number is the page's value rounded to the shown decimals: within half a step (and the 1e-5 the
page's own model may be from Python's)."""


@pytest.fixture(scope="session")
def model_site(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the built site with the model's files in it."""
    site = tmp_path_factory.mktemp("model-site") / "site"
    shutil.copytree(built_site, site)
    write_model_files(site)
    return site


def open_offline(page: Page, site: Path) -> tuple[Locator, Locator, list[str]]:
    """The explorer opened from disk with the network off, its first sentence shown; its own-sentence part; and the
    page's problems."""
    base = site.as_uri() + "/"
    problems = watch(page, base)
    page.context.set_offline(True)
    page.goto(base + "explorer.html")
    root = page.locator(".attnlab-explorer")
    expect(root).to_have_attribute("data-sentence", "toy-words")
    return root, root.locator(".explorer-own"), problems


def run_sentence(own: Locator, text: str, state: str = "shown") -> None:
    """Type a sentence, ask for every head, and wait for the page's answer."""
    own.get_by_test_id("own-text").fill(text)
    own.get_by_test_id("own-run").click()
    expect(own).to_have_attribute("data-model-state", state, timeout=CEILING_MS)


def test_the_model_loads_and_runs_by_keyboard_and_a_typed_sentence_gets_pythons_numbers_or_its_refusal(
        page: Page, model_site: Path) -> None:
    root, own, problems = open_offline(page, model_site)
    own.get_by_test_id("model-load").focus()
    page.keyboard.press("Enter")
    expect(own).to_have_attribute("data-model-state", "ready", timeout=CEILING_MS)
    expect(own.get_by_test_id("own-text")).to_be_focused()
    page.keyboard.type("grid load rises")
    page.keyboard.press("Tab")
    expect(own.get_by_test_id("own-run")).to_be_focused()
    page.keyboard.press("Enter")
    expect(own).to_have_attribute("data-model-state", "shown", timeout=CEILING_MS)
    expect(root.get_by_test_id("status")).to_contain_text("5 tokens")
    nothing = "There is nothing to split into word pieces: type a sentence."
    limit = ("This text gives 257 word pieces ([CLS] and [SEP] included), and the model here takes at most 256: "
             "shorten it by 1.")
    for text, message in (("", nothing), ("grid " * 255, limit), ("   \n", nothing)):  # each message waits for its own
        run_sentence(own, text, "refused")
        expect(own.get_by_test_id("model-status")).to_have_text(message)
    expect(root.get_by_test_id("status")).to_contain_text("5 tokens")  # the map shown before stays
    run_sentence(own, SENTENCE)
    expected = reference(SENTENCE)
    n = len(expected.tokens)
    expect(root).to_have_attribute("data-sentence", "own")
    expect(root.get_by_test_id("status")).to_contain_text(f"{n} tokens")
    assert tuple(root.get_by_test_id("map").locator("thead th").all_inner_texts()) == expected.tokens
    for layer, head in ((0, 0), (2, 7), (5, 11)):
        for measure, values in (("weights", expected.weights), ("sizes", expected.sizes)):
            show(root, "own", layer, head, measure)
            shown = np.array([float(t) for t in root.get_by_test_id("map").locator("td[data-query]").all_inner_texts()])
            assert np.abs(shown - values[layer, head].ravel()).max() <= SHIPPED[measure], (layer, head, measure)
    painted = root.get_by_test_id("model-view").locator("canvas").evaluate_all("cs => cs.map(c => c.width)")
    assert painted == [n] * 72
    root.get_by_test_id("measure-weights").check()
    root.get_by_test_id("cell-7-5").click()  # query "it", key "pump", in layer 6, head 12
    neuron = root.get_by_test_id("neuron-view")
    expect(neuron).to_be_visible()
    at = (5, 11, 7, 5)
    for part, value in (("sum", expected.scores[at]), ("scaled", expected.scores[at] / np.sqrt(32)),
                        ("weight", expected.weights[at]), ("size", expected.sizes[at])):
        assert f"{value:.3f}" in neuron.get_by_test_id(f"neuron-{part}").inner_text(), part
    assert neuron.get_by_test_id("neuron-row").locator("tbody tr").count() == n
    given = "t => attnlab.model.encode(t + t).then(r => (attnlab.model.release(r), r.attentions[0][0][0].length))"
    assert page.evaluate(given, SENTENCE) == 0  # the worker has its memory back, and writes the next sentence there
    result = page.evaluate("text => attnlab.model.load().then(() => attnlab.model.encode(text))", SENTENCE)
    assert tuple(result["tokens"]) == expected.tokens
    assert np.abs(np.array(result["attentions"]) - expected.weights).max() <= 1e-5
    np.testing.assert_allclose(np.array(result["sizes"]), expected.sizes, rtol=1e-4)
    assert problems == []
    axe = {"desktop": serious_violations(page)}  # axe reads the stylesheets: after the problems
    page.set_viewport_size({"width": 390, "height": 844})
    axe["phone"] = serious_violations(page)
    assert axe == {"desktop": [], "phone": []}


def test_a_missing_weights_file_gives_its_message_where_the_files_belong_and_no_map(page: Page, model_site: Path,
                                                                                    tmp_path: Path) -> None:
    # a damaged file's refusals, minilm.js's own: tests/node/test_model_js_node.py
    site = tmp_path / "site"
    shutil.copytree(model_site, site)
    (site / model_files.FOLDER / "weights-2.js").unlink()
    root, own, _ = open_offline(page, site)
    own.get_by_test_id("model-load").click()
    expect(own).to_have_attribute("data-model-state", "failed", timeout=CEILING_MS)
    expect(own.get_by_test_id("model-status")).to_contain_text(
        "weights-2.js is missing: the model's files belong in assets/model/ beside the guide's pages (in a copy on "
        f"disk, unzip {model_files.archive_name()} where you unzipped the guide)")
    expect(own.get_by_test_id("own-run")).to_be_hidden()
    expect(own.get_by_test_id("model-load")).to_be_visible()
    assert root.get_by_test_id("sentence").locator('option[value="own"]').count() == 0


def test_loading_says_how_far_it_is_and_can_be_cancelled(page: Page, model_site: Path) -> None:
    _, own, _ = open_offline(page, model_site)
    own.get_by_test_id("model-load").click()
    expect(own.get_by_test_id("model-progress")).to_be_visible()
    expect(own.get_by_test_id("model-progress")).to_have_accessible_name("Loading the model")
    own.get_by_test_id("model-cancel").click()
    expect(own).to_have_attribute("data-model-state", "failed", timeout=CEILING_MS)
    expect(own.get_by_test_id("model-status")).to_have_text("Loading was cancelled: nothing of the model is kept.")
    expect(own.get_by_test_id("model-load")).to_be_visible()
