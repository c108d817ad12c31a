"""``attnlab.site.build.explorer``'s files checked against ``attnlab.bert``; ``tests/browser/test_explorer.py``
checks what the page shows."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from model_js import node_output

from attnlab import bert
from attnlab.cost import readable_bytes
from attnlab.site.build import explorer, model_files
from attnlab.site.build.explorer import FOLDER, PREPARED, SCALES, data_script, prepared, published, widget

PUNCTUATION = set(".,;:!?()-\"'")


def refuse(*_: object) -> None:
    """Stands for a function that must not be called again: what it would make is made already."""
    raise AssertionError("called where the files are made already")


def tokens(key: str) -> tuple[str, ...]:
    return explorer.encoding(prepared(key)).tokens


def test_each_prepared_sentence_shows_what_it_is_chosen_for_under_a_key_of_its_own_and_none_other() -> None:
    keys = [p.key for p in PREPARED]
    assert len(keys) >= 6 and len(set(keys)) == len(keys)
    assert {"grid", "load", "rises"} <= set(tokens("toy-words")) and len(tokens("toy-words")) > 5
    assert tokens("pronoun").index("pump") < tokens("pronoun").index("it")
    assert tokens("repeated").count("load") == 3
    assert len([t for t in tokens("punctuation") if t in PUNCTUATION]) >= 8
    p = prepared("padded")
    enc = explorer.encoding(p)
    assert len(p.batch) == 2 and enc.tokens[-1] == "[PAD]" and not enc.real.all()
    assert len(enc.tokens) == len(bert.encode(p.batch[1])[0].tokens)
    with pytest.raises(KeyError, match="no prepared sentence 'nope'; there are toy-words, pronoun"):
        prepared("nope")


def test_there_is_one_file_per_prepared_sentence_and_one_per_layer_of_its_vectors_made_once_per_process(
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = published()
    assert sorted(first) == sorted([f"{FOLDER}/{p.key}.js" for p in PREPARED] + [
        f"{FOLDER}/{p.key}-layer-{layer}.js" for p in PREPARED for layer in range(6)])

    for name in ("encode", "layer_inputs", "value_lengths", "contributions"):
        monkeypatch.setattr(bert, name, refuse)
    assert published() == first


def test_a_layers_vectors_are_the_heads_queries_keys_scores_and_value_lengths() -> None:
    p = PREPARED[1]
    enc = explorer.encoding(p)
    found = explorer.vectors(p.key, 4)
    scale = found["scale"]
    q, k, v = bert.head_inputs(enc, 4, 7)
    n, d = q.shape
    rows = lambda flat: np.array(flat).reshape(n, -1)[:, 7 * d:8 * d] / scale  # noqa: E731
    for name, expected in (("queries", q), ("keys", k)):
        assert np.abs(rows(found[name]) - expected).max() <= 0.5 / scale
    scores = np.array(found["scores"][7]).reshape(n, n) / scale
    assert np.abs(scores - enc.layers[4].heads[7].scores).max() <= 0.5 / scale
    w_o = bert.load_model().blocks[4].attention.w_o[7 * d:8 * d]  # the rows head 7's output meets
    lengths = np.array(found["lengths"][7]) / scale
    assert np.abs(lengths - np.linalg.norm(v @ w_o, axis=1)).max() <= 0.5 / scale


def test_the_files_run_as_scripts_add_their_sentences_to_what_is_there() -> None:
    runner = ("globalThis.ATTNLAB_EXPLORER = {other: 1};\n" + "".join(data_script(p.key) for p in PREPARED)
              + "\nprocess.stdout.write(JSON.stringify(globalThis.ATTNLAB_EXPLORER));")
    found = json.loads(node_output("-", stdin=runner, timeout=60))  # run as the browser does (classic scripts)
    assert set(found) == {"other", *(p.key for p in PREPARED)}
    assert {p.key: found[p.key]["tokens"] for p in PREPARED} == {p.key: list(tokens(p.key)) for p in PREPARED}


@pytest.mark.parametrize("key", [p.key for p in PREPARED])
def test_each_file_is_within_150_kb_stores_attnlabs_numbers_within_half_a_step_and_says_which_tokens_are_real(
        key: str) -> None:
    script = data_script(key)
    assert len(script.encode("utf-8")) <= 150 * 1024
    data = json.loads(re.search(r"\] = (\{.*\});\n$", script).group(1))
    p = prepared(key)
    layers, heads, n = data["layers"], data["heads"], len(data["tokens"])
    stored = {m: np.array(data[m], dtype=float).reshape(layers, heads, n, n) / data["scales"][m]
              for m in ("weights", "sizes")}
    assert data["scales"] == SCALES
    assert np.abs(stored["weights"] - explorer.weights(p)).max() <= 0.5 / SCALES["weights"]
    assert np.abs(stored["sizes"] - explorer.sizes(p)).max() <= 0.5 / SCALES["sizes"]
    assert np.array_equal(explorer.sizes(p)[4], bert.contributions(explorer.encoding(p), 4)), "attnlab's sizes"
    assert data["real"] == [int(r) for r in explorer.encoding(p).real] and (0 in data["real"]) == (key == "padded")


def test_the_markup_lists_sentences_layers_and_heads_from_1_finds_its_files_and_states_the_models_size(
        monkeypatch: pytest.MonkeyPatch) -> None:
    html = widget("explorer.md")
    for select, count in (("layer", 6), ("head", 12)):
        options = re.search(rf'<select id="explorer-{select}".*?</select>', html).group(0)
        assert re.findall(r'value="(\d+)"[^>]*>(\d+)<', options) == [(str(i), str(i + 1)) for i in range(count)]
    found = re.findall(r'<option value="([\w-]+)"', re.search(r'<select id="explorer-sentence".*?</select>',
                                                               html).group(0))
    assert found == [p.key for p in PREPARED]
    assert "<noscript><p>The explorer needs JavaScript." in html
    assert 'data-data="assets/explorer/"' in html
    assert '<link rel="stylesheet" href="assets/explorer.css">' in html
    assert html.rstrip().endswith('<script src="assets/explorer.js"></script>')
    html = widget("guide/explore.md")
    assert 'data-data="../assets/explorer/"' in html and 'src="../assets/explorer.js"' in html
    monkeypatch.setattr(model_files, "files", refuse)  # the load button states the size without making them
    assert f"Load the model ({readable_bytes(model_files.DOWNLOAD_BYTES)})</button>" in widget("explorer.md")


def test_every_prepared_sentence_has_a_hint_and_an_answer_computed_from_its_numbers() -> None:
    for p in PREPARED:
        assert p.hint and explorer.answer(p) and explorer.sentence_data(p.key)["answer"] == explorer.answer(p)
    p = prepared("pronoun")
    tokens = explorer.encoding(p).tokens
    w = explorer.weights(p)[:, :, tokens.index("it"), tokens.index("pump")]
    layer, head = divmod(int(np.argmax(w)), w.shape[1])
    assert f"layer {layer + 1}, head {head + 1} gives {w[layer, head]:.3f} of the weight of “it” to “pump”" in \
        explorer.answer(p)
    assert explorer.answer(prepared("padded")).startswith("Every [PAD] key gets weight 0 from every query")
