"""Benchmark the small decoder: its weights' size, its training time, the chapter's first load and one generation
step in Chromium at a context of 64.

Run ``.venv/bin/python benchmarks/decoder.py --site DIR`` on a built site (``mkdocs build -d DIR``). The step is
timed in the page opened from disk: the model loaded, a 63-character prompt run once, then the 64th token's
``step`` against the cache, repeated and the median taken. First load: the chapter's HTML and every script,
stylesheet and font it loads before a click (the weights come on a click), until the network is idle; the search
index, which Material fetches as every page loads, is printed apart. Targets: weights ≤ 1 MB, step ≤ 5 ms, first
load ≤ 500 KB (the index apart, as in build.py), training ≤ 10 minutes. Prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402 (after the path set-up)

from attnlab import decoder  # noqa: E402
from tests.browser.chromium import CHROMIUM_ARGS, chromium_executable  # noqa: E402

TIME_STEP = """async (repeats) => {
    const model = await attnlab.decoder.load();
    const prompt = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijk";   // 63 characters
    const run = model.forward(prompt);
    const times = [];
    for (let i = 0; i < repeats; i += 1) {
        const start = performance.now();
        model.step(run.cache, 1);
        times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, required=True)
    site = parser.parse_args().site
    log = json.loads((decoder.DIRECTORY / "training-log.json").read_text())
    print(f"weights: {(decoder.DIRECTORY / 'model.safetensors').stat().st_size / 1e3:.0f} KB (target ≤ 1000 KB)")
    print(f"weights as the page loads them: {(site / 'assets' / 'decoder-model.js').stat().st_size / 1e3:.0f} KB")
    print(f"training: {len(log['loss'])} steps, {log['cpu_seconds']:.0f} s of CPU on one thread, "
          f"{log['seconds']:.0f} s wall on the shared machine (target ≤ 600 s)")
    with sync_playwright() as playwright:
        executable = chromium_executable(playwright.chromium.executable_path)
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        page = browser.new_page()
        loaded: dict[str, int] = {}
        page.on("requestfinished", lambda r: loaded.update({r.url: r.sizes()["responseBodySize"]}))
        page.goto((site / "small-decoder.html").resolve().as_uri(), wait_until="networkidle")
        index = sum(size for url, size in loaded.items() if "/search/search_index." in url)
        print(f"first load of the chapter: {(sum(loaded.values()) - index) / 1e3:.0f} KB (target ≤ 500 KB), and the "
              f"search index every page fetches as it loads: {index / 1e3:.0f} KB")
        print(f"one generation step at context 64 in Chromium: {page.evaluate(TIME_STEP, 200):.2f} ms (target ≤ 5 ms)")
        browser.close()


if __name__ == "__main__":
    main()
