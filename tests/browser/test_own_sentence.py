"""The explorer with the model loaded in the page: a reader's own sentence, from disk, with the network off.

The built site gets the model's files (``attnlab.site.build.model_files``) in a copy
of its own; Chromium opens the explorer from ``file://`` offline, loads the
model through the page's button, types a sentence, and the map, the
thumbnails, the neuron view and the contribution sizes are compared with
``attnlab.bert`` on the same float16 weights. A damaged file, an empty text
and one of 129 word pieces each get their message and no map. Every wait is
for a state the page shows (``data-model-state``), never for a time.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import numpy as np
import pytest
from model_js import reference, write_model_files
from playwright.sync_api import Locator, Page, expect

from attnlab.site.build import model_files
from attnlab.site.build.explorer import SCALES

from .axe import serious_violations
from .labpage import watch

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SENTENCE = "The engineer checked the pump because it was leaking."
SHIPPED = {measure: 0.5 / scale + 1e-5 for measure, scale in SCALES.items()}
"""A shown number is the page's value rounded to the shown decimals: within half a step (and the 1e-5 the
page's own model may be from Python's)."""
LOADS = 120_000
"""How long Playwright waits for a state, in ms: a bound on a hung page, not a speed test."""


@pytest.fixture(scope="session")
def model_site(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the built site with the model's files in it."""
    site = tmp_path_factory.mktemp("model-site") / "site"
    shutil.copytree(built_site, site)
    write_model_files(site)
    return site


@pytest.fixture(scope="session")
def damaged_site(model_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same site with one weight changed in weights-3.js (two bytes in the middle of its string)."""
    site = tmp_path_factory.mktemp("damaged-site") / "site"
    shutil.copytree(model_site, site)
    path = site / "assets" / "model" / "weights-3.js"
    data = bytearray(path.read_bytes())
    middle = len(data) // 2 & ~1
    data[middle:middle + 2] = (0x3C00 if data[middle:middle + 2] != b"\x00\x3c" else 0x3C01).to_bytes(2, "little")
    path.write_bytes(bytes(data))
    return site


def open_offline(page: Page, site: Path) -> tuple[Locator, list[str]]:
    """The explorer opened from disk with the network off, its first sentence shown; and the page's problems."""
    base = site.as_uri() + "/"
    problems = watch(page, base)
    page.context.set_offline(True)
    page.goto(base + "explorer.html")
    root = page.locator(".attnlab-explorer")
    expect(root).to_have_attribute("data-sentence", "toy-words")
    return root, problems


def load_model(root: Locator, state: str = "ready") -> Locator:
    """Press the load button and wait for the model's state; returns the own-sentence part."""
    own = root.locator(".explorer-own")
    own.get_by_test_id("model-load").click()
    expect(own).to_have_attribute("data-model-state", state, timeout=LOADS)
    return own


def run_sentence(own: Locator, text: str, state: str = "shown") -> None:
    """Type a sentence, ask for every head, and wait for the page's answer."""
    own.get_by_test_id("own-text").fill(text)
    own.get_by_test_id("own-run").click()
    expect(own).to_have_attribute("data-model-state", state, timeout=LOADS)


def test_a_typed_sentence_gets_its_map_thumbnails_sizes_and_neuron_view_as_python_computes_them(
        page: Page, model_site: Path) -> None:
    root, problems = open_offline(page, model_site)
    own = load_model(root)
    run_sentence(own, SENTENCE)
    expected = reference(SENTENCE)
    n = len(expected.tokens)
    expect(root).to_have_attribute("data-sentence", "own")
    expect(root.get_by_test_id("status")).to_contain_text(f"{n} tokens")
    headers = root.get_by_test_id("map").locator("thead th").all_inner_texts()
    assert tuple(headers) == expected.tokens
    for layer, head in ((0, 0), (2, 7), (5, 11)):
        root.get_by_test_id("layer").select_option(index=layer)
        root.get_by_test_id("head").select_option(index=head)
        for measure, values in (("weights", expected.weights), ("sizes", expected.sizes)):
            root.get_by_test_id(f"measure-{measure}").check()
            expect(root.get_by_test_id("status")).to_contain_text(f"Layer {layer + 1}, head {head + 1} of")
            shown = np.array([float(t) for t in root.get_by_test_id("map").locator("td[data-query]").all_inner_texts()])
            assert np.abs(shown - values[layer, head].ravel()).max() <= SHIPPED[measure], (layer, head, measure)
    painted = root.get_by_test_id("model-view").locator("canvas").evaluate_all("cs => cs.map(c => c.width)")
    assert painted == [n] * 72
    root.get_by_test_id("measure-weights").check()
    root.get_by_test_id(f"cell-{7}-{5}").click()  # query "it", key "pump", in layer 6, head 12
    neuron = root.get_by_test_id("neuron-view")
    expect(neuron).to_be_visible()
    layer, head = 5, 11
    assert f"{expected.scores[layer, head, 7, 5]:.3f}" in neuron.get_by_test_id("neuron-sum").inner_text()
    assert (
        f"{expected.scores[layer, head, 7, 5] / np.sqrt(32):.3f}" in neuron.get_by_test_id("neuron-scaled").inner_text()
    )
    assert f"{expected.weights[layer, head, 7, 5]:.3f}" in neuron.get_by_test_id("neuron-weight").inner_text()
    assert f"{expected.sizes[layer, head, 7, 5]:.3f}" in neuron.get_by_test_id("neuron-size").inner_text()
    rows = neuron.get_by_test_id("neuron-row").locator("tbody tr")
    assert rows.count() == n
    assert problems == []


def test_the_page_exposes_the_model_to_scripts_with_pythons_numbers(page: Page, model_site: Path) -> None:
    root, _ = open_offline(page, model_site)
    page.evaluate("() => attnlab.model.load()")
    result = page.evaluate("text => attnlab.model.encode(text)", SENTENCE)
    expected = reference(SENTENCE)
    assert tuple(result["tokens"]) == expected.tokens
    assert np.abs(np.array(result["attentions"]) - expected.weights).max() <= 1e-5
    np.testing.assert_allclose(np.array(result["sizes"]), expected.sizes, rtol=1e-4)
    expect(root.locator(".explorer-own")).not_to_have_attribute("data-model-state", "failed")


def test_a_damaged_weights_file_gives_its_message_and_no_map(page: Page, damaged_site: Path) -> None:
    root, _ = open_offline(page, damaged_site)
    own = load_model(root, "failed")
    expect(own.get_by_test_id("model-status")).to_contain_text(
        "weights-3.js is not the file the manifest lists (its SHA-256 differs)")
    expect(own.get_by_test_id("own-run")).to_be_hidden()
    expect(own.get_by_test_id("model-load")).to_be_visible()
    assert root.get_by_test_id("sentence").locator('option[value="own"]').count() == 0


def test_one_piece_past_the_limit_gives_the_limit_message_and_keeps_the_map(page: Page, model_site: Path) -> None:
    root, _ = open_offline(page, model_site)
    own = load_model(root)
    run_sentence(own, "grid " * 255, "refused")
    expect(own.get_by_test_id("model-status")).to_have_text(
        "This text gives 257 word pieces ([CLS] and [SEP] included), and the model here takes at most 256: "
        "shorten it by 1.")
    expect(root).to_have_attribute("data-sentence", "toy-words")


@pytest.mark.parametrize("text", ["", "   \n"])
def test_a_text_without_word_pieces_gets_a_message(page: Page, model_site: Path, text: str) -> None:
    root, _ = open_offline(page, model_site)
    run_sentence(load_model(root), text, "refused")
    expect(root.locator(".explorer-own").get_by_test_id("model-status")).to_have_text(
        "There is nothing to split into word pieces: type a sentence.")


def test_the_model_is_loaded_and_run_with_the_keyboard_alone(page: Page, model_site: Path) -> None:
    root, _ = open_offline(page, model_site)
    own = root.locator(".explorer-own")
    button = own.get_by_test_id("model-load")
    button.focus()
    page.keyboard.press("Enter")
    expect(own).to_have_attribute("data-model-state", "ready", timeout=LOADS)
    expect(own.get_by_test_id("own-text")).to_be_focused()
    page.keyboard.type("grid load rises")
    page.keyboard.press("Tab")
    expect(own.get_by_test_id("own-run")).to_be_focused()
    page.keyboard.press("Enter")
    expect(own).to_have_attribute("data-model-state", "shown", timeout=LOADS)
    expect(root.get_by_test_id("status")).to_contain_text("5 tokens")


def test_loading_says_how_far_it_is_and_can_be_cancelled(page: Page, model_site: Path) -> None:
    root, _ = open_offline(page, model_site)
    own = root.locator(".explorer-own")
    own.get_by_test_id("model-load").click()
    expect(own.get_by_test_id("model-progress")).to_be_visible()
    expect(own.get_by_test_id("model-progress")).to_have_accessible_name("Loading the model")
    own.get_by_test_id("model-cancel").click()
    expect(own).to_have_attribute("data-model-state", "failed", timeout=LOADS)
    expect(own.get_by_test_id("model-status")).to_have_text("Loading was cancelled: nothing of the model is kept.")
    expect(own.get_by_test_id("model-load")).to_be_visible()


@pytest.mark.parametrize(
    "size", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}], ids=["desktop", "phone"]
)
def test_the_own_sentence_and_its_neuron_view_pass_axe(page: Page, model_site: Path, size: dict[str, int]) -> None:
    page.set_viewport_size(size)
    root, _ = open_offline(page, model_site)
    run_sentence(load_model(root), SENTENCE)
    root.get_by_test_id("cell-2-4").click()
    expect(root.get_by_test_id("neuron-view")).to_be_visible()
    assert serious_violations(page) == []


def test_the_models_download_unzipped_beside_the_guides_copy_runs_from_disk(
        page: Page, offline_copy: Path, tmp_path: Path) -> None:
    copy = tmp_path / offline_copy.name
    shutil.copytree(offline_copy, copy)  # the session's copy stays as the guide's zip made it
    with zipfile.ZipFile(io.BytesIO(model_files.archive("2024-05-06"))) as zipped:
        zipped.extractall(tmp_path)  # where the guide's copy was unzipped
    root, problems = open_offline(page, copy)
    run_sentence(load_model(root), "grid load rises")
    expect(root.get_by_test_id("status")).to_contain_text("5 tokens")
    assert problems == []


def test_a_copy_without_the_models_files_says_which_file_is_missing_and_how_to_get_it(
        page: Page, model_site: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    shutil.copytree(model_site, site)
    (site / model_files.FOLDER / "weights-2.js").unlink()
    root, _ = open_offline(page, site)
    own = load_model(root, "failed")
    expect(own.get_by_test_id("model-status")).to_contain_text(
        f"weights-2.js is missing: the model's files belong in assets/model/ beside the guide's pages (in a copy "
        f"on disk, unzip {model_files.archive_name()} where you unzipped the guide)")
    expect(own.get_by_test_id("own-run")).to_be_hidden()
