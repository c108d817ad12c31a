"""Benchmark the build: clean, again, and after a prose edit, each against bare Material; each page's first-load bytes.

Run ``.venv/bin/python benchmarks/build.py`` (``--runs 3`` for a quicker
run). In one run it measures, as medians of ``--runs``:

- the clean build: ``mkdocs build --strict`` of the guide into a new folder,
  as ``make build`` and the test suite build (every code block runs; the
  guide keeps no cache between builds, so a second build is a clean build
  too, and its time is the same figure);
- the rebuild after a one-line prose edit: from saving a chapter to its
  page reloaded under ``make serve`` (``benchmarks/serve.py``), and, for
  comparison, under plain ``mkdocs serve``, which builds every page again;
- the yardstick: bare Material building the same Markdown, with the
  theme and the same Markdown extensions but no plugins, execution or
  checks of the guide (``--no-strict``: links to anchors that code would
  have printed are only warnings there), built ``BARE_PER_CLEAN`` times per
  clean build, so its median is of that many times ``--runs``.

Each is printed in seconds and as a ratio to the yardstick, by wall time
and by CPU time. Builds run in one process each, on one core, so their CPU
time is close to what they would take on an idle machine whatever else the
machine is doing; wall time is what a writer waits. Targets: clean build
at most 8 times bare Material and a build after a clean one at most 5 times
(by CPU time, which a loaded machine stretches less), save to reloaded page
at most 1.5 s (by wall time: the wait itself). Then comes a page's first
load: its HTML plus every same-site file it references (scripts,
stylesheets, icons, images) and every file those stylesheets reference
through ``url()``, counted once each, uncompressed. A browser fetches a
web font only when text uses it, and the site's one web font is the math
font, so fonts count only on pages with formulas. The search index is
counted apart: Material fetches it as each page loads (it asks for it as
soon as the page has the search form, from a server and from disk alike),
not when the reader searches; a line after the table gives its size, plain
and gzipped, and the heaviest page with it. Target: no page over 500 KB,
the index left out. This prints figures and asserts nothing, so it is not
a test.
"""

from __future__ import annotations

import argparse
import compileall
import gzip
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import serve  # noqa: E402 (after the path set-up)
from tests.sites import CONFIG, read_config, write_config  # noqa: E402

CLEAN_TARGET_RATIO = 8.0
AGAIN_TARGET_RATIO = 5.0
PAGE_TARGET_KB = 500.0
BARE_PER_CLEAN = 3
"""Bare builds taken per clean build: every ratio divides by bare Material's time, and one of its short builds
varies by about a tenth from run to run, enough to move a ratio near its target across it."""
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)")
FONTS = {".woff2", ".woff", ".ttf", ".otf"}


@dataclass(frozen=True)
class Timing:
    """Seconds one measurement took: wall-clock, and CPU (user plus system)."""

    wall: float
    cpu: float


class References(HTMLParser):
    """The URLs a page makes the browser fetch on load."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag in ("script", "img", "iframe", "source") and found.get("src"):
            self.urls.append(found["src"])
        if tag == "link" and found.get("rel") in ("stylesheet", "icon", "preload") and found.get("href"):
            self.urls.append(found["href"])


def cpu_seconds() -> float:
    """User plus system CPU time used so far by finished child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(destination: Path, config: Path = CONFIG, strict: bool = True) -> Timing:
    """One ``mkdocs build`` of ``config`` into ``destination``; exits if it fails."""
    command = [sys.executable, "-m", "mkdocs", "build", "--strict" if strict else "--no-strict",
               "-f", str(config), "-d", str(destination)]
    start, cpu_start = time.perf_counter(), cpu_seconds()
    result = subprocess.run(command, cwd=config.parent, env=serve.MAKE_ENV, capture_output=True, text=True)
    timing = Timing(time.perf_counter() - start, cpu_seconds() - cpu_start)
    if result.returncode:
        sys.exit(f"mkdocs build of {config} failed:\n{result.stdout}{result.stderr}")
    return timing


def local(site: Path, base: Path, url: str) -> Path | None:
    """The site file a URL names, or None for data: URIs and other hosts."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    return ((site / parts.path.lstrip("/")) if parts.path.startswith("/") else base.parent / parts.path).resolve()


def first_load(site: Path, page: Path) -> tuple[int, int]:
    """``(HTML bytes, bytes of every other file the first load fetches)`` for one page."""
    html = page.read_text(encoding="utf-8")
    parser = References()
    parser.feed(html)
    pending = [f for f in (local(site, page, url) for url in parser.urls) if f]
    fetched: set[Path] = set()
    while pending:
        current = pending.pop()
        if current in fetched or not current.is_file() or (current.suffix in FONTS and "<math" not in html):
            continue
        fetched.add(current)
        if current.suffix == ".css":
            urls = CSS_URL.findall(current.read_text(encoding="utf-8"))
            pending += [f for f in (local(site, current, url) for url in urls) if f]
    return page.stat().st_size, sum(f.stat().st_size for f in fetched)


def extension_name(entry: str | dict) -> str:
    """The name of a ``markdown_extensions`` entry, written bare or with its options."""
    return entry if isinstance(entry, str) else next(iter(entry))


def bare_config(folder: Path) -> Path:
    """A config in ``folder`` building the guide's docs with Material alone: no plugins or execution.

    The guide's Markdown extensions are kept, but for SuperFences' executed fences.
    """
    guide = read_config()
    extensions = [extension_name(entry) if extension_name(entry) == "pymdownx.superfences" else entry
                  for entry in guide["markdown_extensions"]]
    folder.mkdir(parents=True)
    return write_config(folder, {
        "site_name": guide["site_name"], "docs_dir": str(ROOT / guide["docs_dir"]), "nav": guide["nav"],
        "use_directory_urls": guide["use_directory_urls"], "theme": {"name": guide["theme"]["name"]},
        "markdown_extensions": extensions, "plugins": [],
    })


def medians(timings: list[Timing]) -> Timing:
    """The median wall time and the median CPU time of ``timings``."""
    return Timing(statistics.median(t.wall for t in timings), statistics.median(t.cpu for t in timings))


def row(name: str, timing: Timing, bare: Timing, target: str = "") -> str:
    """One line of the table: seconds and ratios to ``bare``, by wall and by CPU time."""
    return (f"{name:<44} {timing.wall:>7.2f} {timing.wall / bare.wall:>7.1f}x "
            f"{timing.cpu:>7.2f} {timing.cpu / bare.cpu:>7.1f}x  {target}")


def verdict(met: bool) -> str:
    """How the table says whether a target is met."""
    return "met" if met else "MISSED"


def prose_edits(runs: int, options: tuple[str, ...]) -> Timing:
    """Median time from saving a one-line prose edit to its reloaded page, ``mkdocs serve`` given ``options``."""
    return medians([Timing(wall, cpu) for wall, cpu in serve.measure(runs, options)])


def measure(runs: int, folder: Path) -> tuple[dict[str, Timing], Path]:
    """Median timings of every measurement, and a site the guide's build wrote (for page weights).

    attnlab is first compiled to bytecode, as ``make`` does (and pip does for Material): with
    PYTHONDONTWRITEBYTECODE set, each build would otherwise compile it again.
    """
    compileall.compile_dir(ROOT / "attnlab", quiet=1)
    bare_file = bare_config(folder / "bare")
    clean, bare = [], []
    for i in range(runs):  # taken in turns, so that both see the same load
        clean.append(build(folder / f"clean-{i}"))
        bare += [build(folder / f"bare-{i}-{j}", config=bare_file, strict=False) for j in range(BARE_PER_CLEAN)]
    return {
        "clean": medians(clean), "bare": medians(bare),
        "serve": prose_edits(runs, serve.MAKE_SERVE), "serve-full": prose_edits(runs, ()),
    }, folder / "clean-0"


def main(argv: list[str] | None = None) -> None:
    """Measure ``--runs`` times each, then print the timings against bare Material and a per-page first-load table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each measurement (default 5)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, got {args.runs}")
    with tempfile.TemporaryDirectory(prefix="attnlab-bench-") as tmp:
        timings, site = measure(args.runs, Path(tmp))
        rows = [(p.relative_to(site).as_posix(), *first_load(site, p)) for p in sorted(site.rglob("*.html"))]
        index = (site / "search" / "search_index.json").read_bytes()
    bare = timings["bare"]
    print(f"medians of {args.runs} runs ({args.runs * BARE_PER_CLEAN} of bare Material); load average "
          f"{os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} cores at the end")
    print(f"{'':<44} {'wall s':>7} {'x bare':>8} {'CPU s':>7} {'x bare':>8}  target")
    clean = timings["clean"]
    print(row("clean strict build (make build, make test)", clean, bare,
              f"CPU <= {CLEAN_TARGET_RATIO:.0f}x bare: {verdict(clean.cpu <= CLEAN_TARGET_RATIO * bare.cpu)}"))
    print(row("  a build after it (nothing is kept: the same)", clean, bare,
              f"CPU <= {AGAIN_TARGET_RATIO:.0f}x bare: {verdict(clean.cpu <= AGAIN_TARGET_RATIO * bare.cpu)}"))
    print(row("prose edit: save to reloaded page, make serve", timings["serve"], bare,
              f"wall <= {serve.TARGET_S} s: {verdict(timings['serve'].wall <= serve.TARGET_S)}"))
    print(row("  the same under plain mkdocs serve", timings["serve-full"], bare, "(for comparison)"))
    print(row("bare Material, same Markdown (yardstick)", bare, bare))
    print("(a prose edit's CPU time is the server's, from the save to the reloaded page)")
    print()
    print(f"{'page':<22} {'HTML KB':>9} {'assets KB':>10} {'total KB':>9}  target < {PAGE_TARGET_KB:.0f} KB")
    for name, html, assets in rows:
        total = (html + assets) / 1000
        print(f"{name:<22} {html / 1000:>9.1f} {assets / 1000:>10.1f} {total:>9.1f}  "
              f"{'met' if total < PAGE_TARGET_KB else 'MISSED'}")
    heaviest = max(rows, key=lambda row: row[1] + row[2])
    print()
    print(f"heaviest page: {heaviest[0]} at {(heaviest[1] + heaviest[2]) / 1000:.1f} KB (search index excluded)")
    print(f"search index, which every page fetches as it loads: {len(index) / 1000:.1f} KB "
          f"({len(gzip.compress(index)) / 1000:.1f} KB gzipped); the heaviest page with it: "
          f"{(heaviest[1] + heaviest[2] + len(index)) / 1000:.1f} KB")


if __name__ == "__main__":
    main()
