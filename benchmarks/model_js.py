"""Benchmark the page's own model: loading its weights, and every head of a sentence, beside ONNX Runtime Web.

Run ``.venv/bin/python benchmarks/model_js.py``. It writes the model's files
(``attnlab.site.build.model_files``) into a temporary folder and prints:

- the download: every model file's bytes (target ≤ 50 MB);
- the forward pass beside the peer, in one Chromium page served from
  127.0.0.1, one thread each, at 32 and 128 word pieces: minilm.js (every
  head's weights, sizes and vectors; each run writes into the memory of the
  run before, minilm.run's ``spare``, as the explorer's worker does with the
  sentence the page gave back) against ONNX Runtime Web's wasm backend
  (npm ``onnxruntime-web``, pinned in ``package-lock.json``) on the same
  float16-rounded weights, exported to ONNX from transformers' BertModel
  with the ``peer`` extra (hidden states and every attention map out): the
  median of interleaved runs, the ratio (target ≤ 2×), and the largest
  difference between the two's attention weights;
- Chromium, from ``file://``: loading and checking the weights (each file by a
  ``<script>`` element, its SHA-256 checked, the float16 numbers decoded;
  target ≤ 3 s), then tokens and every head of a sentence of 32 word pieces,
  the first time after loading and the median of five more (target ≤ 1 s);
- the same two figures under Node, for comparison.

- the explorer's own page (``--site DIR`` to use a built site, otherwise one is
  built now), from ``file://``: the load button to the model ready, a 32-piece
  sentence through ``attnlab.model.encode`` (in the page's worker), and the
  longest task the page's main thread ran meanwhile (target ≤ 200 ms); then
  end to end, a 128-piece sentence typed and submitted until every head is
  shown (target ≤ 500 ms).

The first Chromium figures come from a minimal page of the benchmark's own
that loads the weights on its main thread. This prints figures and asserts
nothing, so it is not a test.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import shutil
import statistics
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402 (after the path set-up)

from attnlab.site.build.model_files import FOLDER  # noqa: E402
from tests.browser.chromium import CHROMIUM_ARGS, chromium_executable  # noqa: E402
from tests.model_js import ASSETS, generated_sentences, node_runner, write_model_files  # noqa: E402
from tests.sites import CONFIG, build  # noqa: E402

LOAD_TARGET_S, ENCODE_TARGET_S, DOWNLOAD_TARGET_MB, TASK_TARGET_MS = 3.0, 1.0, 50.0, 200.0
PEER_RATIO_TARGET, END_TO_END_TARGET_MS = 2.0, 500.0
PIECES = 32
PEER_PIECES = (32, 128)


BARE_PAGE = """<!doctype html><html lang="en"><meta charset="utf-8"><title>minilm.js on its own</title>
<script src="wordpiece.js"></script><script src="kernel.js"></script><script src="minilm.js"></script>
<script>
function insert(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => { script.remove(); resolve(); };
    script.onerror = () => reject(new Error(src + " is missing"));
    document.head.appendChild(script);
  });
}
async function loadModel(folder, options) {
  await insert(folder + "manifest.js");
  const manifest = globalThis.ATTNLAB_MODEL_MANIFEST, checked = {};
  for (const entry of manifest.files) {
    await insert(folder + entry.name);
    checked[entry.name] = await attnlab.minilm.checkFile(entry, globalThis.ATTNLAB_MODEL_FILES[entry.name]);
    delete globalThis.ATTNLAB_MODEL_FILES[entry.name];
  }
  return attnlab.minilm.build(manifest, checked, options);
}
</script></html>
"""
"""The benchmark's page: loadModel(folder, options) loads, checks and builds the model on the main thread."""


def write_bare_page(folder: Path) -> Path:
    """BARE_PAGE and the scripts it needs, written into ``folder`` (beside the model's files); returns the page."""
    page = folder / "index.html"
    page.write_text(BARE_PAGE, encoding="utf-8")
    for script in ("wordpiece.js", "kernel.js", "minilm.js"):
        shutil.copy(ASSETS / script, folder / script)
    return page


REPEATS = 5
ORT = ROOT / "node_modules" / "onnxruntime-web" / "dist"
ORT_FILES = ("ort.wasm.min.js", "ort-wasm-simd-threaded.mjs", "ort-wasm-simd-threaded.wasm")

TIME_IN_PAGE = """async ([folder, text, repeats]) => {
    const start = performance.now();
    const model = await loadModel(folder);
    const loaded = performance.now();
    const first = attnlab.minilm.run(model, text);
    const encoded = performance.now();
    const again = [];
    let spare = attnlab.minilm.buffers(first);
    for (let r = 0; r < repeats; r += 1) {
        const t = performance.now();
        spare = attnlab.minilm.buffers(attnlab.minilm.run(model, text, spare));
        again.push(performance.now() - t);
    }
    return { load: loaded - start, first: encoded - loaded, again, pieces: first.tokens.length };
}"""

TIME_IN_NODE = """
const [text, repeats] = stdin();
const start = performance.now();
loadModel().then(model => {
  const loaded = performance.now();
  const first = minilm.run(model, text);
  const encoded = performance.now();
  const again = [];
  let spare = minilm.buffers(first);
  for (let r = 0; r < repeats; r += 1) {
    const t = performance.now();
    spare = minilm.buffers(minilm.run(model, text, spare));
    again.push(performance.now() - t);
  }
  process.stdout.write(JSON.stringify({
    load: loaded - start, first: encoded - loaded, again, pieces: first.tokens.length }));
}, fail);
"""


def sentence_of(pieces: int) -> str:
    """A generated sentence cut to exactly ``pieces`` word pieces, [CLS] and [SEP] included."""
    from attnlab import bert

    tokenizer = bert.load_model().tokenizer
    words = " ".join(generated_sentences()).split()
    for end in range(1, len(words)):
        count = len(tokenizer.encode(" ".join(words[:end])).tokens)
        if count == pieces:
            return " ".join(words[:end])
        if count > pieces:
            break
    raise ValueError(f"no prefix of the generated words gives {pieces} pieces")


def in_chromium(folder: Path, text: str) -> dict:
    """Load the model and encode ``text`` in Chromium from file://; the page's own timings in ms."""
    index = write_bare_page(folder)
    with sync_playwright() as playwright:
        executable = chromium_executable(playwright.chromium.executable_path)
        browser = playwright.chromium.launch(headless=True, args=CHROMIUM_ARGS, executable_path=executable)
        page = browser.new_page()
        page.goto(index.as_uri())
        timings = page.evaluate(TIME_IN_PAGE, [FOLDER + "/", text, REPEATS])
        browser.close()
    return timings


def export_onnx(path: Path) -> None:
    """transformers' BertModel on the float16-rounded weights, exported to ONNX: ids in; hidden states and every
    layer's attention maps (batch × layer × head × n × n) out."""
    import torch
    from transformers import BertModel

    from attnlab import bert

    model = BertModel.from_pretrained(str(bert.model_dir()), attn_implementation="eager").eval()
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.copy_(parameter.half().float())

    class Maps(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = model

        def forward(self, input_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            out = self.bert(input_ids=input_ids, attention_mask=torch.ones_like(input_ids),
                            token_type_ids=torch.zeros_like(input_ids), output_attentions=True)
            return out.last_hidden_state, torch.stack(out.attentions, 1)

    torch.onnx.export(Maps(), (torch.tensor([[101, 7427, 7170, 102]]),), str(path), input_names=["input_ids"],
                      output_names=["hidden", "attentions"], opset_version=17, dynamo=False,
                      dynamic_axes={"input_ids": {1: "n"}, "hidden": {1: "n"}, "attentions": {3: "n", 4: "n"}})


TIME_PEER = """async ([folder, texts, repeats]) => {
    const model = await loadModel(folder);
    await insert("ort.wasm.min.js");
    ort.env.wasm.numThreads = 1;
    ort.env.wasm.wasmPaths = new URL(".", location.href).href;
    const session = await ort.InferenceSession.create("minilm.onnx", { executionProviders: ["wasm"] });
    const rows = [];
    for (const text of texts) {
        const ours = attnlab.minilm.run(model, text);
        const n = ours.tokens.length;
        const ids = new ort.Tensor("int64", BigInt64Array.from(ours.ids, BigInt), [1, n]);
        const theirs = await session.run({ input_ids: ids });
        const maps = theirs.attentions.data;
        let differ = 0;
        for (let i = 0; i < maps.length; i += 1) { differ = Math.max(differ, Math.abs(maps[i] - ours.attentions[i])); }
        const project = [], peer = [];
        let spare = attnlab.minilm.buffers(ours);
        for (let r = 0; r < repeats; r += 1) {
            let t = performance.now();
            spare = attnlab.minilm.buffers(attnlab.minilm.run(model, text, spare));
            project.push(performance.now() - t);
            t = performance.now();
            await session.run({ input_ids: ids });
            peer.push(performance.now() - t);
        }
        rows.push({ pieces: n, project, peer, differ, simd: model.kernel.simd });
    }
    return rows;
}"""
"""Loads both models in one page, then per text: the largest difference of their attention weights, and the
project's and the peer's forward times, interleaved."""


def against_peer(folder: Path, texts: list[str]) -> list[dict]:
    """minilm.js and ONNX Runtime Web side by side in Chromium, served from 127.0.0.1; each text's timings in ms."""
    write_model_files(folder)
    index = write_bare_page(folder)
    for name in ORT_FILES:
        shutil.copy(ORT / name, folder / name)
    export_onnx(folder / "minilm.onnx")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            """Say nothing per request."""

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as playwright:
            executable = chromium_executable(playwright.chromium.executable_path)
            browser = playwright.chromium.launch(headless=True, args=CHROMIUM_ARGS, executable_path=executable)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.server_address[1]}/{index.name}")
            rows: list[dict] = page.evaluate(TIME_PEER, [FOLDER + "/", texts, 2 * REPEATS + 1])
            browser.close()
    finally:
        server.shutdown()
    return rows


def report_peer(rows: list[dict]) -> None:
    """Print the project's and the peer's medians, their ratio against the target, and how far apart they are."""
    print("forward pass in Chromium, one thread, median of interleaved runs (project: minilm.js, "
          f"{'WebAssembly SIMD' if rows[0]['simd'] else 'plain JavaScript'}; peer: ONNX Runtime Web, wasm):")
    print("  pieces   project     peer    ratio   largest weight difference")
    for row in rows:
        project, peer = statistics.median(row["project"]), statistics.median(row["peer"])
        ratio = project / peer
        verdict = "meets" if ratio <= PEER_RATIO_TARGET else "MISSES"
        print(f"  {row['pieces']:6d} {project:7.1f} ms {peer:7.1f} ms {ratio:6.2f}×  {row['differ']:.1e}   "
              f"({verdict} ≤ {PEER_RATIO_TARGET}×)")


TIME_EXPLORER = """async ([text, long, repeats]) => {
    const tasks = [];
    new PerformanceObserver(list => list.getEntries().forEach(e => tasks.push(e.duration)))
      .observe({ type: "longtask" });
    const own = document.querySelector(".explorer-own");
    const start = performance.now();
    own.querySelector('[data-testid="model-load"]').click();
    await new Promise(resolve => new MutationObserver((_, watcher) => {
        if (own.getAttribute("data-model-state") === "ready") { watcher.disconnect(); resolve(); }
    }).observe(own, { attributes: true }));
    const loaded = performance.now();
    const first = await attnlab.model.encode(text);
    const encoded = performance.now();
    const again = [];
    for (let r = 0; r < repeats; r += 1) {
        const t = performance.now();
        await attnlab.model.encode(text);
        again.push(performance.now() - t);
    }
    await new Promise(resolve => setTimeout(resolve, 100));  // let the observer report the last tasks
    const longest = Math.max(0, ...tasks);
    const shown = [];
    own.querySelector('[data-testid="own-text"]').value = long;
    for (let r = 0; r < repeats; r += 1) {
        const t = performance.now();
        const done = new Promise(resolve => new MutationObserver((_, watcher) => {
            if (own.getAttribute("data-model-state") === "shown") { watcher.disconnect(); resolve(); }
        }).observe(own, { attributes: true }));
        own.querySelector('[data-testid="own-form"]').requestSubmit();
        await done;
        await new Promise(requestAnimationFrame);  // the page painted
        shown.push(performance.now() - t);
    }
    return { load: loaded - start, first: encoded - loaded, again, pieces: first.tokens.length, longest, shown };
}"""


def in_explorer(site: Path, text: str, long: str) -> dict:
    """The explorer's own page from file://: load through its button, encode in its worker; timings in ms."""
    write_model_files(site)
    with sync_playwright() as playwright:
        executable = chromium_executable(playwright.chromium.executable_path)
        browser = playwright.chromium.launch(headless=True, args=CHROMIUM_ARGS, executable_path=executable)
        page = browser.new_page()
        page.goto((site / "explorer.html").as_uri())
        page.locator(".attnlab-explorer[data-sentence]").wait_for()
        timings = page.evaluate(TIME_EXPLORER, [text, long, REPEATS])
        browser.close()
    return timings


def report(where: str, timings: dict) -> None:
    """Print one environment's load and encode times against the targets."""
    load, first, again = timings["load"] / 1000, timings["first"] / 1000, statistics.median(timings["again"]) / 1000
    verdict = lambda value, target: "meets" if value <= target else "MISSES"  # noqa: E731
    print(f"{where}:")
    print(f"  load and check the weights   {load:6.2f} s   ({verdict(load, LOAD_TARGET_S)} ≤ {LOAD_TARGET_S} s)")
    print(f"  {timings['pieces']} pieces, every head, first  {first:6.2f} s   ({verdict(first, ENCODE_TARGET_S)} "
          f"≤ {ENCODE_TARGET_S} s)")
    print(f"  the same, median of {REPEATS} more     {again:6.2f} s")
    if "longest" in timings:
        longest = timings["longest"]
        print(
            f"  longest main-thread task     {longest:6.0f} ms  "
            f"({verdict(longest, TASK_TARGET_MS)} ≤ {TASK_TARGET_MS:.0f} ms; "
            "0: none over 50 ms)"
        )
    if "shown" in timings:
        shown = statistics.median(timings["shown"])
        print(f"  {max(PEER_PIECES)} pieces typed, submitted, every head shown (median of {REPEATS})  {shown:6.0f} ms  "
              f"({'meets' if shown <= END_TO_END_TARGET_MS else 'MISSES'} ≤ {END_TO_END_TARGET_MS:.0f} ms)")


def main() -> None:
    """Write the model's files, then time loading and encoding in Chromium (a bare page, the explorer) and Node."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    options = parser.parse_args()
    text = sentence_of(PIECES)
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "bare"
        model = write_model_files(folder)
        size = sum(path.stat().st_size for path in model.iterdir())
        print(f"model download: {size / 1e6:.1f} MB in {len(list(model.iterdir()))} files "
              f"({'meets' if size / 1e6 <= DOWNLOAD_TARGET_MB else 'MISSES'} ≤ {DOWNLOAD_TARGET_MB} MB)")
        print(f"sentence ({PIECES} pieces): {text}")
        report_peer(against_peer(Path(scratch) / "peer", [sentence_of(p) for p in PEER_PIECES]))
        report("Chromium, file://", in_chromium(folder, text))
        report("Node", json.loads(node_runner(TIME_IN_NODE, model, stdin=json.dumps([text, REPEATS]))))
        site = Path(scratch) / "site"
        if options.site:
            shutil.copytree(options.site, site)
        else:
            built = build(CONFIG, site)
            if built.returncode:
                sys.exit(f"mkdocs build --strict failed:\n{built.stdout}{built.stderr}")
        report("Chromium, the explorer page from file:// (the work in its worker)",
               in_explorer(site, text, sentence_of(max(PEER_PIECES))))


if __name__ == "__main__":
    main()
