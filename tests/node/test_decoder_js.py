"""docs/assets/decoder.js under Node computes as ``attnlab.decoder`` on the committed files, within 1e-6."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from model_js import node_output

from attnlab import decoder

SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "assets" / "decoder.js"
MODEL = decoder.load()
TOLERANCE = 1e-6
RUN = """
const fs = require("fs"), path = require("path");
const api = require(process.argv[1]);
const folder = process.argv[2];
const model = api.fromFiles(new Uint8Array(fs.readFileSync(path.join(folder, "model.safetensors"))),
  Object.entries(JSON.parse(fs.readFileSync(path.join(folder, "vocab.json"), "utf8"))).sort((a, b) => a[1] - b[1])
    .map(e => e[0]).join(""),
  JSON.parse(fs.readFileSync(path.join(folder, "config.json"), "utf8")));
const jobs = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(jobs.map(job => {
  if (job.generate) {
    const g = model.generate(job.prompt, job.generate);
    return {text: g.text, probabilities: g.probabilities};
  }
  const r = model.forward(job.prompt, job.ablate);
  return {logits: r.logits, attentions: r.attentions, tokens: r.tokens};
})));
"""

pytestmark = pytest.mark.slow


def in_node(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each job's answer from decoder.js, in one Node process."""
    return json.loads(node_output("-e", RUN, str(SCRIPT), str(decoder.DIRECTORY), stdin=json.dumps(jobs)))


prompts = st.text(alphabet=MODEL.vocabulary, min_size=1, max_size=MODEL.context)


@settings(max_examples=5, deadline=None)
@given(st.lists(prompts, min_size=1, max_size=4), st.integers(0, 1), st.integers(0, 3))
def test_logits_and_attentions_match_python(texts: list[str], layer: int, head: int) -> None:
    jobs = [{"prompt": t, "ablate": a} for t in texts for a in ([], [[layer, head]])]
    for job, answer in zip(jobs, in_node(jobs)):
        ours = MODEL.forward(job["prompt"], ablate={tuple(p) for p in job["ablate"]})
        assert answer["tokens"] == list(ours.tokens)
        np.testing.assert_allclose(answer["logits"], ours.logits, rtol=0, atol=TOLERANCE)
        rows = [row for layer_maps in answer["attentions"] for head_rows in layer_maps for row in head_rows]
        causal = np.tril_indices(len(ours.tokens))  # query i's row holds keys 0 to i, layer by layer, head by head
        np.testing.assert_allclose(np.concatenate(rows), ours.attentions[:, :, *causal].ravel(), rtol=0, atol=TOLERANCE)


@settings(max_examples=5, deadline=None)
@given(prompts.filter(lambda t: len(t) <= MODEL.context - 12), st.sampled_from([0.0, 0.7, 1.0, 2.0]),
       st.integers(0, 2 ** 32 - 1))
def test_a_seeded_sample_gives_the_same_tokens_in_both(prompt: str, temperature: float, seed: int) -> None:
    options = {"steps": 12, "temperature": temperature, "seed": seed}
    [answer] = in_node([{"prompt": prompt, "generate": options}])
    ours = MODEL.generate(prompt, 12, temperature=temperature, seed=seed)
    assert answer["text"] == ours.text
    np.testing.assert_allclose(answer["probabilities"], ours.probabilities, rtol=0, atol=TOLERANCE)


def test_mulberry32_gives_python_s_numbers() -> None:
    script = ("const m = require(process.argv[1]).mulberry32;"
              "process.stdout.write(JSON.stringify([0, 1, 2 ** 32 - 1, 123456789].map(s => { const r = m(s);"
              " return Array.from({length: 50}, r); })))")
    for seed, numbers in zip([0, 1, 2 ** 32 - 1, 123456789], json.loads(node_output("-e", script, str(SCRIPT)))):
        draws = iter(decoder.mulberry32(seed))
        assert numbers == [next(draws) for _ in range(50)]
