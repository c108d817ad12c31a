"""minilm.js in Chromium on both of kernel.js's paths (WebAssembly SIMD and plain JavaScript), against Python.

``tests/model_js.py``'s bare page, from ``file://``, builds the model once per path and runs each sentence on both:
the paths agree exactly, and the SIMD path's weights and sizes are within 1e-5 and 1e-4 relative of ``attnlab.bert``.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import numpy as np
from model_js import generated_sentences, reference, write_bare_page, write_model_files
from playwright.sync_api import Page

from attnlab.site.build.explorer import PREPARED
from attnlab.site.build.model_files import FOLDER

LONGEST = max(generated_sentences(), key=len)
SENTENCES = [p.batch[0] for p in PREPARED] + generated_sentences()[::5] + [LONGEST]

BOTH_PATHS = """async ([folder, sentences]) => {
  const { manifest, checked } = await loadChecked(folder);
  const simd = attnlab.minilm.build(manifest, checked);
  const plain = attnlab.minilm.build(manifest, checked, { plain: true });
  const bytes = array => {
    const view = new Uint8Array(array.buffer);
    let text = "";
    for (let i = 0; i < view.length; i += 8192) { text += String.fromCharCode.apply(null, view.subarray(i, i + 8192)); }
    return btoa(text);
  };
  return sentences.map(text => {
    const a = attnlab.minilm.run(simd, text), b = attnlab.minilm.run(plain, text);
    const grids = ["attentions", "sizes", "outputs", "scores", "scaled", "queries", "keys", "values", "lengths",
                   "hidden"];
    return { tokens: a.tokens, kernels: [simd.kernel.simd, plain.kernel.simd],
             differ: grids.filter(name => !a[name].every((v, i) => Object.is(v, b[name][i]))),
             weights: bytes(a.attentions), sizes: bytes(a.sizes) };
  });
}"""
"""Builds the model on each path and runs every sentence on both: tokens, which path ran SIMD, the grids in which
the two differ, and the SIMD path's weights and sizes as base64 float64 bytes."""


def decoded(text: str, shape: tuple[int, ...]) -> np.ndarray:
    """Base64 float64 bytes as an array of ``shape``."""
    return np.frombuffer(base64.b64decode(text), dtype="<f8").reshape(shape)


def test_chromium_gives_pythons_weights_and_sizes_identically_on_simd_and_plain_javascript(page: Page,
                                                                                         tmp_path: Path) -> None:
    write_model_files(tmp_path)
    page.goto(write_bare_page(tmp_path).as_uri())
    chromium_results: list[dict[str, Any]] = page.evaluate(BOTH_PATHS, [FOLDER + "/", SENTENCES])
    assert len(reference(LONGEST).tokens) > 40, "the longest sentence is a long one"
    assert [result["kernels"] for result in chromium_results] == [[True, False]] * len(SENTENCES)
    assert [result["differ"] for result in chromium_results] == [[]] * len(SENTENCES)
    for sentence, ours in zip(SENTENCES, chromium_results, strict=True):
        theirs = reference(sentence)
        assert tuple(ours["tokens"]) == theirs.tokens, sentence
        assert np.abs(decoded(ours["weights"], theirs.weights.shape) - theirs.weights).max() <= 1e-5, sentence
        np.testing.assert_allclose(decoded(ours["sizes"], theirs.sizes.shape), theirs.sizes, rtol=1e-4, atol=0,
                                   err_msg=sentence)
