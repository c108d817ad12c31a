"""Benchmark the browser lab: median time from an input event to the updated numbers.

Run ``.venv/bin/python benchmarks/lab_latency.py`` (``--site DIR`` to use a
site already built; otherwise it builds one into a temporary directory).
Chromium opens the lab page from disk; in the page, the query-multiplier
slider steps through its stops and an ``input`` event is dispatched for each,
exactly as a drag does. The time runs from just before the event until the
lab's text shows the new raw score of the selected key (a weight may round to
the same three decimals at the slider's top, where softmax saturates; the
score moves with every stop), and, as a second figure, until the browser
has also laid the page out again. Chromium's clock is coarse (about 0.1 ms)
without cross-origin isolation, so events are timed in batches and each
batch's time is divided by its size; the median is over batches.
Target: under 2 ms. This prints figures and asserts nothing, so it is not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402 (after the path set-up)

from tests.browser.chromium import CHROMIUM_ARGS, chromium_executable  # noqa: E402
from tests.sites import CONFIG, build  # noqa: E402

TARGET_MS = 2.0

TIME_BATCHES = """([batches, perBatch, layout]) => {
    const lab = document.querySelector(".attnlab-lab");
    const slider = lab.querySelector('[data-testid="query-scale"]');
    const score = lab.querySelector('[data-testid="score-2"]');
    const [low, high, step] = ATTNLAB_TOY.ranges.query_scale;
    const stops = Math.round((high - low) / step);
    lab.querySelector('input[type="radio"][value="rises"]').click();
    let k = 0;
    const perEvent = [];
    for (let b = 0; b < batches; b += 1) {
        const start = performance.now();
        for (let e = 0; e < perBatch; e += 1) {
            const before = score.textContent;
            k = k % stops + 1;
            slider.value = String(low + k * step);
            slider.dispatchEvent(new Event("input", {bubbles: true}));
            if (score.textContent === before) { throw new Error("the scores did not change"); }
            if (layout) { void lab.offsetHeight; }
        }
        perEvent.push((performance.now() - start) / perBatch);
    }
    return perEvent;
}"""
"""Per-event milliseconds for each batch; fails if an event left the scores unchanged."""


def measure(site: Path, batches: int, per_batch: int) -> dict[str, list[float]]:
    """Open the lab from ``site`` in Chromium and time input events, without and with layout."""
    with sync_playwright() as playwright:
        executable = chromium_executable(playwright.chromium.executable_path)
        browser = playwright.chromium.launch(headless=True, args=CHROMIUM_ARGS, executable_path=executable)
        page = browser.new_page()
        page.goto((site / "lab.html").as_uri())
        page.locator('.attnlab-lab [data-testid="weight-0"]').wait_for()
        page.evaluate(TIME_BATCHES, [10, per_batch, True])  # warm up the JIT and the layout caches
        times = {label: page.evaluate(TIME_BATCHES, [batches, per_batch, layout])
                 for label, layout in (("numbers updated", False), ("numbers updated and laid out", True))}
        browser.close()
    return times


def main() -> None:
    """Build the site unless ``--site`` names one, time the lab's input events and print the medians."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one now)")
    parser.add_argument("--batches", type=int, default=200)
    parser.add_argument("--per-batch", type=int, default=25)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        site = options.site
        if site is None:
            site = Path(scratch) / "site"
            built = build(CONFIG, site)
            if built.returncode:
                sys.exit(f"mkdocs build --strict failed:\n{built.stdout}{built.stderr}")
        times = measure(site.resolve(), options.batches, options.per_batch)
    print(f"lab latency, {options.batches} batches of {options.per_batch} input events (target < {TARGET_MS} ms)")
    for label, per_event in times.items():
        median = statistics.median(per_event)
        verdict = "meets" if median < TARGET_MS else "MISSES"
        print(f"  {label:30s} median {median:.3f} ms  (p90 {statistics.quantiles(per_event, n=10)[-1]:.3f} ms)"
              f"  {verdict} the target")


if __name__ == "__main__":
    main()
