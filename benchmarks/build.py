"""Benchmark the site: median time of a clean strict build, and each page's first-load bytes.

Run ``.venv/bin/python benchmarks/build.py`` (``--runs 3`` for a quicker
run). Every run builds into a new empty directory with
``mkdocs build --strict``. A page's first load is its HTML plus every
same-site file it references (scripts, stylesheets, icons, images) and
every file those stylesheets reference through ``url()``, counted once
each, uncompressed. A browser fetches a web font only when text uses it,
and the site's one web font is the math font, so fonts count only on pages
with formulas. The search index, which loads only when the reader
searches, is left out. Targets on the project's 2-core machine:
a build under 10 s, no page over 500 KB. This prints figures and asserts
nothing, so it is not a test.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
BUILD_TARGET_S = 10.0
PAGE_TARGET_KB = 500.0
CSS_URL = re.compile(r"url\(\s*['\"]?([^'\")]+)")
FONTS = {".woff2", ".woff", ".ttf", ".otf"}


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


def build(destination: Path) -> tuple[float, float]:
    """``(wall, CPU)`` seconds of one clean ``mkdocs build --strict`` into ``destination``; exits if it fails.

    The build runs on one core, so its CPU time is close to the wall time it
    would take on an idle machine, whatever else the machine is doing.
    """
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    start, cpu_start = time.perf_counter(), cpu_seconds()
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(destination)],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu_start
    if result.returncode:
        sys.exit(f"mkdocs build --strict failed:\n{result.stdout}{result.stderr}")
    return seconds, cpu


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


def main(argv: list[str] | None = None) -> None:
    """Build ``--runs`` times, then print build times and a per-page first-load table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="clean builds to time (default 5)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, got {args.runs}")
    with tempfile.TemporaryDirectory(prefix="attnlab-bench-") as tmp:
        runs = [build(Path(tmp) / f"site-{i}") for i in range(args.runs)]
        site = Path(tmp) / f"site-{args.runs - 1}"
        rows = [(p.relative_to(site).as_posix(), *first_load(site, p)) for p in sorted(site.rglob("*.html"))]
    times, cpus = [wall for wall, _ in runs], [cpu for _, cpu in runs]
    median = statistics.median(times)
    print(f"clean strict build, {args.runs} runs: median {median:.2f} s "
          f"(min {min(times):.2f}, max {max(times):.2f}); target < {BUILD_TARGET_S:.0f} s: "
          f"{'met' if median < BUILD_TARGET_S else 'MISSED'}")
    print(f"CPU time per build (user + system): median {statistics.median(cpus):.2f} s; "
          f"load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print()
    print(f"{'page':<22} {'HTML KB':>9} {'assets KB':>10} {'total KB':>9}  target < {PAGE_TARGET_KB:.0f} KB")
    for name, html, assets in rows:
        total = (html + assets) / 1000
        print(f"{name:<22} {html / 1000:>9.1f} {assets / 1000:>10.1f} {total:>9.1f}  "
              f"{'met' if total < PAGE_TARGET_KB else 'MISSED'}")
    heaviest = max(rows, key=lambda row: row[1] + row[2])
    print()
    print(f"heaviest page: {heaviest[0]} at {(heaviest[1] + heaviest[2]) / 1000:.1f} KB (search index excluded)")


if __name__ == "__main__":
    main()
