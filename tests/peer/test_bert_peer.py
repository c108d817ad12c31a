"""Peer check: transformers' BertModel (PyTorch, CPU, the same local files) and attnlab agree at real tokens on each
batch the explorer offers, its padded one included (in float64 too, to 1e-12)."""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np
import pytest

from attnlab.bert import Encoding, encode, load_model, tokenize
from attnlab.site.build.explorer import PREPARED


@functools.cache
def peer() -> tuple[Any, Any]:
    """``torch`` and transformers' ``BertModel``, imported once (seconds: not at collection), the hub off."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    import torch
    from transformers import BertModel

    return torch, BertModel


@functools.cache
def reference_model(dtype: str) -> Any:
    """BertModel from attnlab's model files in ``dtype`` (``"float32"``, ``"float64"``), eager attention, once."""
    torch, bert_model = peer()
    return bert_model.from_pretrained(str(load_model().directory), local_files_only=True,
                                      attn_implementation="eager", dtype=getattr(torch, dtype)).eval()


def reference_outputs(dtype: str, sentences: list[str]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Hidden states (7 × batch × n × 384) and weights (6 × batch × heads × n × n) from BertModel."""
    torch, _ = peer()
    batch = tokenize(sentences)
    with torch.no_grad():
        out = reference_model(dtype)(input_ids=torch.from_numpy(batch.ids),
                                     attention_mask=torch.from_numpy(batch.real.astype(np.int64)),
                                     output_hidden_states=True, output_attentions=True)
    return ([h.double().numpy() for h in out.hidden_states], [a.double().numpy() for a in out.attentions])


def largest_gaps(ours: tuple[Encoding, ...], reference: tuple[list[np.ndarray], list[np.ndarray]]
                 ) -> tuple[float, float]:
    """The largest |difference| in hidden states and in weights, at real tokens only."""
    hidden, weights = reference
    hidden_gap = weight_gap = 0.0
    for i, enc in enumerate(ours):
        real = enc.real
        for layer, state in enumerate(enc.hidden):
            hidden_gap = max(hidden_gap, np.abs(hidden[layer][i][real] - state[real]).max())
        for layer, heads in enumerate(enc.layers):
            mine = np.stack([h.weights for h in heads.heads])
            pairs = np.ix_(np.arange(len(heads.heads)), real, real)
            weight_gap = max(weight_gap, np.abs(weights[layer][i][pairs] - mine[pairs]).max())
    return hidden_gap, weight_gap


@pytest.mark.parametrize("batch", [list(p.batch) for p in PREPARED], ids=[p.key for p in PREPARED])
def test_every_prepared_sentence_of_the_explorer_matches_bertmodel_float32_to_1e_5_and_float64_to_1e_12(
        batch: list[str]) -> None:
    for dtype, tolerance in (("float32", 1e-5), ("float64", 1e-12)):
        hidden_gap, weight_gap = largest_gaps(encode(batch), reference_outputs(dtype, batch))
        assert hidden_gap < tolerance and weight_gap < tolerance, dtype
