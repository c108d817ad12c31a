"""Benchmark the writer's loop: from saving a one-line prose edit to the reloaded page, under ``mkdocs serve``.

Run ``.venv/bin/python benchmarks/serve.py`` (``--runs 3`` for a quicker
run; ``benchmarks/build.py`` runs it too). The server runs as ``make serve``
runs it (``--dirty --no-strict``: only the saved page is built again), or
with ``--full`` as plain ``mkdocs serve`` (every page built again), on a
copy of the guide (the repository is never edited), in a temporary
folder. The server's own first build runs every code block; a rebuild
runs the saved page's blocks again, in the same process, where the model
and the encodings it computed are still loaded. Each run
changes one prose line of a chapter in place (a word is appended, so no
line moves) and then does what the browser's live-reload script does: ask
the server for a newer version of the site, which it answers once the
rebuild is done, and fetch the page again. The time runs from just before
the file is written until the page holding the new word has arrived; the
server's CPU time over the same span is printed beside it. Target: 1.5 s.
This prints figures and asserts nothing, so it is not a test.
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.sites import docs_copy  # noqa: E402 (after the path set-up)

TARGET_S = 1.5
PAGE = "mixing.md"
"""The chapter edited: one with tables, maps and prose bindings, like most."""
MAKE_SERVE = ("--dirty", "--no-strict")
"""The options ``make serve`` gives ``mkdocs serve`` (the Makefile says why)."""
MAKE_ENV = {**os.environ, **dict(re.findall(r"^export (\w+) := (\S+)$", (ROOT / "Makefile").read_text(), re.M))}
"""The environment ``make build`` and ``make serve`` give MkDocs: this one and the Makefile's exports."""
EPOCH = re.compile(r"livereload\((\d+), (\d+)\);")
"""The live-reload script MkDocs puts in every served page: the site's version and the page's request id."""
STARTUP_S = 600.0
"""How long the first build of ``mkdocs serve`` may take before the benchmark gives up (a loaded machine)."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def fetch(url: str, timeout: float = 120.0) -> str:
    """The body of ``url`` as text."""
    with urllib.request.urlopen(url, timeout=timeout) as response:  # noqa: S310 - our own local server
        return response.read().decode("utf-8")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time process ``pid`` has used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def prose_line(markdown: str) -> int:
    """Index of the page's first line of prose: after the front matter, starting with a letter."""
    lines = markdown.split("\n")
    body = lines.index("---", 1) + 1 if lines[0] == "---" else 0
    return next(i for i in range(body, len(lines)) if re.match(r"[A-Za-z]", lines[i]))


def edited(markdown: str, word: str) -> str:
    """``markdown`` with `` word.`` ending its first prose line in place of any earlier one; no line moves."""
    lines = markdown.split("\n")
    i = prose_line(markdown)
    lines[i] = re.sub(r" Editmark[a-z]+\.$", "", lines[i]) + f" {word}."
    return "\n".join(lines)


def marker(run: int) -> str:
    """The word for run ``run``, without digits (a number in prose would need a binding)."""
    return "Editmark" + "".join(chr(ord("a") + int(digit)) for digit in str(run))


@contextmanager
def serving(root: Path, options: tuple[str, ...]) -> Iterator[tuple[str, int]]:
    """``mkdocs serve`` of the guide copy at ``root``; yields its address and pid once it serves."""
    port = free_port()
    command = [sys.executable, "-m", "mkdocs", "serve", "-f", str(root / "mkdocs.yml"),
               "-a", f"127.0.0.1:{port}", *options]
    log = root / "serve.log"
    with log.open("w", encoding="utf-8") as output:
        server = subprocess.Popen(command, cwd=root, env=MAKE_ENV, stdout=output, stderr=subprocess.STDOUT)
    address = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + STARTUP_S
        while True:
            if server.poll() is not None:
                sys.exit(f"mkdocs serve stopped:\n{log.read_text(encoding='utf-8')}")
            try:
                fetch(address, timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline:
                    sys.exit(f"mkdocs serve did not answer within {STARTUP_S:.0f} s")
                time.sleep(0.2)  # waiting for a server to start, not timing anything
        yield address, server.pid
    finally:
        server.terminate()
        server.wait(timeout=60)


def reload_after_edit(address: str, pid: int, source: Path, word: str) -> tuple[float, float]:
    """``(wall, server CPU)`` seconds from writing ``word`` into ``source`` to the served page showing it."""
    url = address + source.with_suffix(".html").name
    found = EPOCH.search(fetch(url))
    if not found:
        sys.exit(f"{url} has no live-reload script: is this mkdocs serve?")
    epoch, request = found.groups()
    text = edited(source.read_text(encoding="utf-8"), word)
    start, cpu_start = time.perf_counter(), cpu_seconds(pid)
    source.write_text(text, encoding="utf-8")
    while True:
        newer = fetch(f"{address}livereload/{epoch}/{request}")
        if int(newer) > int(epoch) and word in fetch(url):
            return time.perf_counter() - start, cpu_seconds(pid) - cpu_start
        epoch = newer  # a rebuild that began before the save finished; wait for the next one


def measure(runs: int, options: tuple[str, ...] = MAKE_SERVE) -> list[tuple[float, float]]:
    """``(wall, server CPU)`` seconds from save to reloaded page for ``runs`` one-line prose edits of ``PAGE``."""
    with tempfile.TemporaryDirectory(prefix="attnlab-serve-") as tmp:
        root = docs_copy(Path(tmp))
        with serving(root, options) as (address, pid):
            return [reload_after_edit(address, pid, root / "docs" / PAGE, marker(run)) for run in range(runs)]


def main(argv: list[str] | None = None) -> None:
    """Time ``--runs`` prose edits under ``mkdocs serve`` and print the median against the target."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="edits to time (default 5)")
    parser.add_argument("--full", action="store_true", help="plain mkdocs serve, which builds every page again")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error(f"--runs must be at least 1, got {args.runs}")
    times = measure(args.runs, () if args.full else MAKE_SERVE)
    walls = [wall for wall, _ in times]
    median = statistics.median(walls)
    print(f"save to reloaded page, one-line prose edit of docs/{PAGE}, "
          f"{'mkdocs serve' if args.full else 'make serve'}, {args.runs} runs: median {median:.2f} s "
          f"(min {min(walls):.2f}, max {max(walls):.2f}), server CPU median "
          f"{statistics.median(cpu for _, cpu in times):.2f} s; target <= {TARGET_S} s: "
          f"{'met' if median <= TARGET_S else 'MISSED'}; load average now {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
