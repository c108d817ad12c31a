"""Node for the tests and the benchmark: ``node_runner`` runs a script after ``PRELUDE``; ``reference`` is
``attnlab.bert`` on the float16 weights minilm.js runs on."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from attnlab import bert
from attnlab.site.build.model_files import FOLDER, files
from attnlab.site.build.publish import write_files

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "docs" / "assets"

PRELUDE = """
const fs = require("fs"), path = require("path"), vm = require("vm");
const minilm = require(process.argv[1]);
const wordpiece = require(process.argv[2]);
const modelDir = process.argv[3];
function runClassicScript(file) {  // as a <script> element: decoded by its byte-order mark; errors stay in the console
  let bytes;
  try { bytes = fs.readFileSync(file); } catch (error) { return; }
  const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe;
  const text = utf16 ? bytes.subarray(2).toString("utf16le") : bytes.toString("utf8").replace(/^\\ufeff/, "");
  try { vm.runInThisContext(text, { filename: file }); } catch (error) { /* a browser logs it and goes on */ }
}
function loadModel() {
  runClassicScript(path.join(modelDir, "manifest.js"));
  const manifest = globalThis.ATTNLAB_MODEL_MANIFEST;
  if (manifest && Array.isArray(manifest.files)) {
    manifest.files.forEach(entry => runClassicScript(path.join(modelDir, entry.name)));
  }
  const options = { plain: process.env.ATTNLAB_KERNEL === "plain" };
  return minilm.assemble(manifest, globalThis.ATTNLAB_MODEL_FILES, null, options);
}
const stdin = () => JSON.parse(fs.readFileSync(0, "utf8"));
const fail = error => { process.stdout.write(JSON.stringify({ error: error.name + ": " + error.message })); };
"""
"""Loads the model's files as ``<script>`` elements would; defines runClassicScript, loadModel, stdin and fail."""


def write_model_files(destination: Path) -> Path:
    """The model's files written under ``destination`` as the site holds them; returns their folder."""
    write_files(destination, files())
    return destination / FOLDER


def changed_weight(data: bytes) -> bytes:
    """A weights file with one code unit in the middle of its string changed to another plain one."""
    middle = len(data) // 2 & ~1
    unit = int.from_bytes(data[middle:middle + 2], "little")
    return data[:middle] + (0x3C00 if unit != 0x3C00 else 0x3C01).to_bytes(2, "little") + data[middle + 2:]


def node(*args: str, stdin: str = "", **options: Any) -> subprocess.CompletedProcess[str]:
    """Node run with ``args``, its output captured unless ``options`` redirect it; fails clearly without Node."""
    executable = shutil.which("node")
    assert executable, "Node.js is needed for this test (Debian: apt-get install nodejs; `make node`)"
    return subprocess.run([executable, *args], input=stdin, text=True, check=False,
                          **{"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "timeout": 600, **options})


def node_output(*args: str, stdin: str = "", **options: Any) -> str:
    """What ``node args`` printed; the run must succeed."""
    done = node(*args, stdin=stdin, **options)
    assert done.returncode == 0, done.stderr
    return done.stdout


def node_runner(script: str, model_dir: Path, stdin: str = "", timeout: float = 600, kernel: str = "simd") -> str:
    """What PRELUDE + ``script`` printed under Node with the model folder ``model_dir`` and ``kernel`` ("simd" or
    "plain", kernel.js's WebAssembly or JavaScript path)."""
    return node_output("-e", PRELUDE + script, str(ASSETS / "minilm.js"), str(ASSETS / "wordpiece.js"),
                       str(model_dir), stdin=stdin, timeout=timeout, env={**os.environ, "ATTNLAB_KERNEL": kernel})


@dataclass(frozen=True)
class Reference:
    """Python's numbers for one sentence on the float16 weights: layers × heads × n × n (× d_v for outputs)."""

    tokens: tuple[str, ...]
    weights: np.ndarray
    sizes: np.ndarray
    outputs: np.ndarray
    scores: np.ndarray


def reference(sentence: str) -> Reference:
    """``attnlab.bert`` on ``sentence`` alone with every weight rounded to float16."""
    model = bert.load_model(precision="float16")
    (enc,) = bert.encode(sentence, model)
    heads = [layer.heads for layer in enc.layers]
    return Reference(
        tokens=enc.tokens,
        weights=np.array([[h.weights for h in layer] for layer in heads]),
        sizes=np.stack([bert.contributions(enc, layer, model) for layer in range(len(heads))]),
        outputs=np.array([[h.output for h in layer] for layer in heads]),
        scores=np.array([[h.scores for h in layer] for layer in heads]),
    )


WORDS = tuple("grid load rises every evening engineer checked pump because it was leaking the a an of to and in "
              "rose fell again tokenisation splits unfamiliar words model attention head layer query key value "
              "weights sum softmax London Paris déjà-vu naïve Zürich 1999 3.14 42 COVID-19 e-mail iPhone quickly "
              "brown fox jumps over lazy dog she he they we said asked river bank money".split())
MARKS = (".", ",", "!", "?", ";", ":", "(", ")", "—", "'", "\"", "...")


def generated_sentences(count: int = 50, seed: int = 22) -> list[str]:
    """``count`` sentences of 2 to 40 words drawn from ``WORDS``, with marks and capitals, the same on every call."""
    draw = random.Random(seed)
    sentences = []
    for _ in range(count):
        words = [draw.choice(WORDS) for _ in range(draw.randint(2, 40))]
        words[0] = words[0].capitalize()
        for i in range(len(words)):
            if draw.random() < 0.15:
                words[i] += draw.choice(MARKS)
            if draw.random() < 0.05:
                words[i] = words[i].upper()
        sentences.append(" ".join(words) + draw.choice(".?!"))
    return sentences


ENCODE = """
loadModel().then(model => {
  const out = [];
  const chunks = [];
  let spare = null;  // each sentence into the memory of the one before, where it fits (as the explorer's worker does)
  for (const text of stdin()) {
    const e = minilm.run(model, text, spare);
    out.push({ tokens: e.tokens, ids: e.ids, n: e.tokens.length, simd: model.kernel.simd,
               reused: spare !== null && e.attentions.buffer === spare[0] });
    chunks.push(Buffer.concat([e.attentions, e.sizes, e.outputs, e.scores].map(
      c => Buffer.from(c.buffer, c.byteOffset, c.byteLength))));  // a copy: the next sentence overwrites e
    spare = minilm.buffers(e);
  }
  fs.writeFileSync(process.env.ATTNLAB_OUT, Buffer.concat(chunks));
  process.stdout.write(JSON.stringify(out));
}, fail);
"""


def encode_in_node(sentences: list[str], model_dir: Path, out: Path, kernel: str = "simd") -> list[dict[str, Any]]:
    """Every sentence through minilm.js, each into the memory of the one before: its tokens, ids, whether the kernel ran
    SIMD, whether that memory was large enough to be reused, and ``Reference``'s arrays."""
    script = f"process.env.ATTNLAB_OUT = {json.dumps(str(out))};\n" + ENCODE
    listed = json.loads(node_runner(script, model_dir, stdin=json.dumps(sentences), kernel=kernel))
    assert not isinstance(listed, dict), listed
    numbers = np.fromfile(out, dtype="<f8")
    model = bert.load_model(precision="float16")
    layers, heads, width = len(model.blocks), model.n_heads, model.d_head
    results, at = [], 0
    for entry in listed:
        n = entry["n"]
        arrays = {}
        for name, last in (("weights", n), ("sizes", n), ("outputs", width), ("scores", n)):
            size = layers * heads * n * last
            arrays[name] = numbers[at:at + size].reshape(layers, heads, n, last)
            at += size
        results.append({**entry, "tokens": tuple(entry["tokens"]), **arrays})
    assert at == numbers.size, "minilm.js wrote more numbers than its tokens account for"
    return results
