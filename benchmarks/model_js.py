"""Benchmark the page's own model: loading its weights, and every head of a 32-piece sentence.

Run ``.venv/bin/python benchmarks/model_js.py``. It writes the model's files
(``attnlab.site.build.model_files``) into a temporary folder and prints:

- the download: every model file's bytes (target ≤ 50 MB);
- Chromium, from ``file://``: loading and checking the weights (each file by a
  ``<script>`` element, its SHA-256 checked, the float16 numbers decoded;
  target ≤ 3 s), then tokens and every head of a sentence of 32 word pieces,
  the first time after loading and the median of five more (target ≤ 1 s);
- the same two figures under Node, for comparison.

- the explorer's own page (``--site DIR`` to use a built site, otherwise one is
  built now), from ``file://``: the load button to the model ready, a 32-piece
  sentence through ``attnlab.model.encode`` (in the page's worker), and the
  longest task the page's main thread ran meanwhile (target ≤ 200 ms).

The first Chromium figures come from a minimal page of the benchmark's own
that loads the weights on its main thread. This prints figures and asserts
nothing, so it is not a test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from playwright.sync_api import sync_playwright  # noqa: E402 (after the path set-up)

from attnlab.site.build.model_files import FOLDER  # noqa: E402
from tests.browser.chromium import CHROMIUM_ARGS, chromium_executable  # noqa: E402
from tests.model_js import generated_sentences, node_runner, write_bare_page, write_model_files  # noqa: E402
from tests.sites import CONFIG, build  # noqa: E402

LOAD_TARGET_S, ENCODE_TARGET_S, DOWNLOAD_TARGET_MB, TASK_TARGET_MS = 3.0, 1.0, 50.0, 200.0
PIECES = 32
REPEATS = 5

TIME_IN_PAGE = """async ([folder, text, repeats]) => {
    const start = performance.now();
    const model = await loadModel(folder);
    const loaded = performance.now();
    const first = attnlab.minilm.encode(model, text);
    const encoded = performance.now();
    const again = [];
    for (let r = 0; r < repeats; r += 1) {
        const t = performance.now();
        attnlab.minilm.encode(model, text);
        again.push(performance.now() - t);
    }
    return { load: loaded - start, first: encoded - loaded, again, pieces: first.tokens.length };
}"""

TIME_IN_NODE = """
const [text, repeats] = stdin();
const start = performance.now();
loadModel().then(model => {
  const loaded = performance.now();
  const first = minilm.encode(model, text);
  const encoded = performance.now();
  const again = [];
  for (let r = 0; r < repeats; r += 1) {
    const t = performance.now(); minilm.encode(model, text); again.push(performance.now() - t);
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


TIME_EXPLORER = """async ([text, repeats]) => {
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
    return { load: loaded - start, first: encoded - loaded, again, pieces: first.tokens.length,
             longest: Math.max(0, ...tasks) };
}"""


def in_explorer(site: Path, text: str) -> dict:
    """The explorer's own page from file://: load through its button, encode in its worker; timings in ms."""
    write_model_files(site)
    with sync_playwright() as playwright:
        executable = chromium_executable(playwright.chromium.executable_path)
        browser = playwright.chromium.launch(headless=True, args=CHROMIUM_ARGS, executable_path=executable)
        page = browser.new_page()
        page.goto((site / "explorer.html").as_uri())
        page.locator(".attnlab-explorer[data-sentence]").wait_for()
        timings = page.evaluate(TIME_EXPLORER, [text, REPEATS])
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
        report("Chromium, file://", in_chromium(folder, text))
        report("Node", json.loads(node_runner(TIME_IN_NODE, model, stdin=json.dumps([text, REPEATS]))))
        site = Path(scratch) / "site"
        if options.site:
            shutil.copytree(options.site, site)
        else:
            built = build(CONFIG, site)
            if built.returncode:
                sys.exit(f"mkdocs build --strict failed:\n{built.stdout}{built.stderr}")
        report("Chromium, the explorer page from file:// (the work in its worker)", in_explorer(site, text))


if __name__ == "__main__":
    main()
