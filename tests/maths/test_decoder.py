"""attnlab.decoder on its committed weights: the KV cache, the maps, the sampler, ablation; CL-052 and CL-053's
files (the peer check against GPT2LMHeadModel: ``tests/peer/test_decoder_peer.py``)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from attnlab import decoder

MODEL = decoder.load()
CACHE_TOLERANCE = 1e-12
texts = st.text(alphabet=MODEL.vocabulary, min_size=1, max_size=MODEL.context)


@settings(max_examples=15, deadline=None)
@given(texts)
def test_stepping_with_the_cache_equals_recomputing_the_prefix(text: str) -> None:
    whole = MODEL.forward(text)
    cache = decoder.empty_cache(MODEL)
    for position, token in enumerate(whole.ids):
        step = MODEL.step(cache, int(token))
        cache = step.cache
        assert cache.length == position + 1
        np.testing.assert_allclose(step.logits[0], whole.logits[position], rtol=0, atol=CACHE_TOLERANCE)
        np.testing.assert_allclose(step.attentions[:, :, 0], whole.attentions[:, :, position, :position + 1],
                                   rtol=0, atol=CACHE_TOLERANCE)
    for kept, recomputed in zip(cache.keys + cache.values, whole.cache.keys + whole.cache.values):
        np.testing.assert_allclose(kept, recomputed, rtol=0, atol=CACHE_TOLERANCE)


@settings(max_examples=15, deadline=None)
@given(st.text(alphabet=MODEL.vocabulary, min_size=2, max_size=MODEL.context), st.data())
def test_a_text_split_anywhere_gives_the_same_numbers(text: str, data: st.DataObject) -> None:
    cut = data.draw(st.integers(1, len(text) - 1))
    whole = MODEL.forward(text)
    rest = MODEL.extend(MODEL.forward(text[:cut]).cache, MODEL.encode(text[cut:]))
    np.testing.assert_allclose(rest.logits, whole.logits[cut:], rtol=0, atol=CACHE_TOLERANCE)
    np.testing.assert_allclose(rest.attentions, whole.attentions[:, :, cut:], rtol=0, atol=CACHE_TOLERANCE)


@settings(max_examples=10, deadline=None)
@given(texts)
def test_every_map_is_causal_and_sums_to_one(text: str) -> None:
    maps = MODEL.forward(text).attentions                  # layers × heads × T × T
    assert maps.shape == (MODEL.layers, MODEL.heads, len(text), len(text))
    assert np.all(np.triu(maps, k=1) == 0)
    np.testing.assert_allclose(maps.sum(axis=-1), 1.0, atol=1e-12)


@settings(max_examples=10, deadline=None)
@given(texts, st.integers(0, 1), st.integers(0, 3))
def test_ablating_a_head_zeroes_its_write_and_leaves_earlier_maps_alone(text: str, layer: int, head: int) -> None:
    plain, ablated = MODEL.forward(text), MODEL.forward(text, ablate={(layer, head)})
    assert np.all(ablated.writes[layer, head] == 0)
    np.testing.assert_array_equal(ablated.attentions[:layer + 1], plain.attentions[:layer + 1])
    others = [i for i in range(MODEL.heads) if i != head]
    np.testing.assert_array_equal(ablated.writes[layer, others], plain.writes[layer, others])


@settings(max_examples=5, deadline=None)
@given(st.lists(st.text(alphabet=MODEL.vocabulary, min_size=1, max_size=3), min_size=1,
                max_size=decoder.BATCH + 3), st.sampled_from([(), ((1, 2),)]))
def test_forward_all_gives_each_text_what_forward_gives_it(texts: list[str],
                                                           ablate: tuple[tuple[int, int], ...]) -> None:
    for run, text in zip(decoder.forward_all(MODEL, texts, set(ablate)), texts, strict=True):
        alone = MODEL.forward(text, set(ablate))
        assert run.tokens == alone.tokens
        for together, single in ((run.logits, alone.logits), (run.attentions, alone.attentions),
                                 (run.writes, alone.writes), *zip(run.cache.keys, alone.cache.keys)):
            np.testing.assert_allclose(together, single, rtol=0, atol=CACHE_TOLERANCE)


ABLATIONS = [set(), *({(layer, head)} for layer in range(2) for head in range(4)),
             *({(layer, head) for head in range(4)} for layer in range(2)), {(0, 1), (1, 2)}]
"""No head removed, each head, each layer, a head of each layer: sets that share some layers and not others."""


@settings(max_examples=5, deadline=None)
@given(st.integers(1, decoder.BATCH + 3), st.integers(0, 2**16))
def test_accuracies_under_several_ablations_are_each_ones_accuracy_over_forward_all(count: int, seed: int) -> None:
    sequences = decoder.repeats(count, seed)
    expected = []
    for ablate in ABLATIONS:
        runs = decoder.forward_all(MODEL, [s.text for s in sequences], ablate)
        hits = [MODEL.vocabulary[int(np.argmax(run.logits[position]))] == s.text[position + 1]
                for s, run in zip(sequences, runs, strict=True) for position in s.predictable]
        expected.append(sum(hits) / len(hits))
    assert decoder.accuracies(MODEL, sequences, ABLATIONS) == expected


def test_a_character_outside_the_vocabulary_or_more_tokens_than_the_context_are_refused() -> None:
    for call, message in [(lambda: MODEL.forward("abQ"), r"character 'Q' at position 2"),
                          (lambda: MODEL.forward("a" * (MODEL.context + 1)), "1 to 64"),
                          (lambda: MODEL.generate("a" * MODEL.context, 2), "do not fit")]:
        with pytest.raises(ValueError, match=message):
            call()


def test_pick_draws_from_the_cumulative_distribution() -> None:
    logits = np.log(np.array([1.0, 3.0]))                 # probabilities 1/4, 3/4 at T = 1
    assert decoder.pick(logits, 1.0, 0.24)[0] == 0
    assert decoder.pick(logits, 1.0, 0.26)[0] == 1
    np.testing.assert_allclose(decoder.pick(logits, 1.0, 0.5)[1], [0.25, 0.75])
    np.testing.assert_allclose(decoder.pick(logits, 2.0, 0.5)[1], [1 / (1 + 3 ** 0.5), 3 ** 0.5 / (1 + 3 ** 0.5)])
    assert decoder.pick(np.array([2.0, 5.0, 5.0]), 0.0, 0.99)[0] == 1      # greedy: the first of the largest


@settings(max_examples=30)
@given(st.lists(st.floats(-5, 5), min_size=2, max_size=8).filter(lambda v: max(v) - min(v) > 1e-3),
       st.floats(0.1, 5), st.floats(1.01, 4))
def test_a_higher_temperature_gives_a_flatter_distribution(logits: list[float], low: float, factor: float) -> None:
    cold = decoder.pick(np.array(logits), low, 0.5)[1]
    warm = decoder.pick(np.array(logits), low * factor, 0.5)[1]
    assert warm.max() <= cold.max() and warm.min() >= cold.min()
    assert np.argmax(warm) == np.argmax(cold)


def test_mulberry32_draws_in_the_unit_interval_and_depends_on_the_seed() -> None:
    first = [next(iter(decoder.mulberry32(seed))) for seed in range(200)]
    assert all(0 <= x < 1 for x in first) and len(set(first)) == 200
    numbers = np.fromiter(decoder.mulberry32(7), float, count=20000)
    assert abs(numbers.mean() - 0.5) < 0.01


def test_a_seed_repeats_its_sample_and_greedy_ignores_it() -> None:
    a = MODEL.generate("abcdefgh", 8, temperature=1.0, seed=5)
    again = MODEL.generate("abcdefgh", 8, temperature=1.0, seed=5)
    assert a.text == again.text and np.array_equal(a.probabilities, again.probabilities)
    assert MODEL.generate("xyz", 5, seed=1).text == MODEL.generate("xyz", 5, seed=2).text
    np.testing.assert_allclose(a.probabilities.sum(axis=1), 1.0)


def test_generation_runs_each_step_on_the_cache() -> None:
    prompt = "qwertyuiopqwer"
    made = MODEL.generate(prompt, 5)
    whole = MODEL.forward(prompt + made.text[:-1])
    assert list(made.ids) == [int(np.argmax(row)) for row in whole.logits[len(prompt) - 1:]]


def test_the_files_give_the_architecture_cl052_and_the_log_read_once_records_their_run() -> None:
    log = decoder.training_log()
    assert log is decoder.training_log() and log == json.loads((decoder.DIRECTORY / "training-log.json").read_text())
    assert log["vocabulary"] == MODEL.vocabulary
    assert log["accuracy"][-1][0] == len(log["loss"]) <= log["settings"]["steps"]
    config = json.loads((decoder.DIRECTORY / "config.json").read_text())
    assert (config["n_layer"], config["n_head"], config["n_embd"], config["n_inner"], config["n_positions"]) == \
        (2, 4, 64, 256, 64)
    assert config["activation_function"] == "gelu_new" and config["tie_word_embeddings"]
    assert "lm_head.weight" not in MODEL.weights                     # tied: the output layer is wte
    assert MODEL.vocabulary == " abcdefghijklmnopqrstuvwxyz.,|"
    assert (decoder.DIRECTORY / "model.safetensors").stat().st_size < 1_000_000
