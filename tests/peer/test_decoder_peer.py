"""Peer check of attnlab.decoder (CL-052): GPT2LMHeadModel on the committed files, float64 and eager, so only the
order of operations differs; and CL-053: the first steps of ``scripts/train_decoder.py`` give the logged losses."""

from __future__ import annotations

import functools
import importlib.util
import json
import os
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from attnlab import decoder

MODEL = decoder.load()
TOLERANCE = 1e-10
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_decoder.py"
RERUN = 30  # steps of the training re-run (about 5 s on one thread)


@functools.cache
def reference() -> tuple[Any, Any]:
    """``torch`` and the committed model as GPT2LMHeadModel (float64, eager), loaded once with the hub off."""
    os.environ["HF_HUB_OFFLINE"] = "1"
    import torch
    from transformers import GPT2LMHeadModel

    torch.set_num_threads(1)
    model = GPT2LMHeadModel.from_pretrained(str(decoder.DIRECTORY), local_files_only=True,
                                            attn_implementation="eager", dtype=torch.float64)
    return torch, model.eval()


def run_reference(text: str, ablate: tuple[tuple[int, int], ...] = ()) -> tuple[np.ndarray, np.ndarray]:
    """Logits and attentions from GPT2LMHeadModel; an ablated head's slice of ``attn.c_proj``'s input zeroed by a
    hook (transformers 5 ignores ``head_mask``)."""
    torch, model = reference()
    width = MODEL.head_width

    def zero(head: int) -> Any:
        def hook(_module: Any, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
            x = inputs[0].clone()
            x[..., head * width:(head + 1) * width] = 0
            return (x,)
        return hook

    handles = [model.transformer.h[layer].attn.c_proj.register_forward_pre_hook(zero(head)) for layer, head in ablate]
    try:
        with torch.no_grad():
            out = model(torch.from_numpy(MODEL.encode(text))[None], output_attentions=True)
    finally:
        for handle in handles:
            handle.remove()
    return out.logits[0].numpy(), np.stack([a[0].numpy() for a in out.attentions])


@settings(max_examples=28, deadline=None)
@given(st.text(alphabet=MODEL.vocabulary, min_size=1, max_size=MODEL.context),
       st.lists(st.tuples(st.integers(0, 1), st.integers(0, 3)), max_size=1))
def test_logits_and_attentions_match_gpt2lmheadmodel_whole_or_with_a_head_ablated_by_a_hook(
        text: str, ablate: list[tuple[int, int]]) -> None:
    ours = MODEL.forward(text, ablate=set(ablate))
    logits, attentions = run_reference(text, tuple(ablate))
    np.testing.assert_allclose(ours.logits, logits, rtol=0, atol=TOLERANCE)
    np.testing.assert_allclose(ours.attentions, attentions, rtol=0, atol=TOLERANCE)


def test_a_shortened_training_run_reproduces_the_logged_losses() -> None:
    spec = importlib.util.spec_from_file_location("train_decoder", SCRIPT)
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    log = json.loads((decoder.DIRECTORY / "training-log.json").read_text())
    _, rerun = script.train(RERUN)
    np.testing.assert_allclose(rerun["loss"], log["loss"][:RERUN], rtol=1e-6)
    assert rerun["settings"] | {"steps": log["settings"]["steps"]} == log["settings"]
