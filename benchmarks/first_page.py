"""Benchmark a new writer's first minute: fresh clone → first served page, and the size of the environment.

Run ``python3 benchmarks/first_page.py`` (``--rev 4ef9940`` measures an
older commit; ``--full-env .venv`` prints the size of an environment that
``make test`` set up, for comparison). In a temporary folder it clones the
repository at the commit, runs what ``make serve`` runs (the Makefile's
venv stamp: a venv, pip, the package with the extras that commit installs,
the model; then ``mkdocs serve --dirty --no-strict``) on a free port, and
waits for the home page. pip's cache is off, so every download is counted,
as on a fresh machine. It prints the time of each phase and the size of the
environment, and asserts nothing. Target: 60 s from clone to first page on
an idle machine (a shared one is slower: say so beside the figures).
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_S = 60.0
STARTUP_S = 900.0
"""How long the install and first build may take before the benchmark gives up."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def size(folder: Path) -> int:
    """The bytes of every file under ``folder`` (links not followed)."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def first_page(url: str, server: subprocess.Popen[bytes]) -> None:
    """Wait until ``url`` answers with the guide's home page (or the server has stopped)."""
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"mkdocs serve stopped with status {server.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:  # noqa: S310 - our own local server
                if b"Attention Lab" in answer.read():
                    return
        except OSError:
            time.sleep(0.5)  # not listening yet: the first build is still running
    raise SystemExit(f"no page at {url} after {STARTUP_S:.0f} s")


def timed(step: str, command: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Run ``command``; print and return its wall time."""
    start = time.monotonic()
    subprocess.run(command, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL)
    took = time.monotonic() - start
    print(f"{step:<34} {took:6.1f} s", flush=True)
    return took


def main() -> None:
    """Clone, install, serve, wait for the first page; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", default="HEAD", help="the commit to clone (default: HEAD)")
    parser.add_argument("--python", default="python3", help="the Python the venv is made with")
    parser.add_argument("--full-env", type=Path, help="an environment `make test` set up, to print its size")
    args = parser.parse_args()
    env = {**os.environ, "PIP_NO_CACHE_DIR": "1", "NO_MKDOCS_2_WARNING": "1", "PYTHON": args.python}
    env.pop("PYTHONPATH", None)
    with tempfile.TemporaryDirectory(prefix="first-page-") as scratch:
        clone = Path(scratch) / "clone"
        total = timed("clone", ["git", "clone", "--quiet", "--no-checkout", str(ROOT), str(clone)], ROOT, env)
        total += timed(f"check out {args.rev}", ["git", "checkout", "--quiet", args.rev], clone, env)
        total += timed("install (make's venv stamp)", ["make", "-s", ".venv/.installed"], clone, env)
        port = free_port()
        start = time.monotonic()
        server = subprocess.Popen([".venv/bin/mkdocs", "serve", "--dirty", "--no-strict", "-a", f"127.0.0.1:{port}"],
                                  cwd=clone, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  start_new_session=True)
        try:
            first_page(f"http://127.0.0.1:{port}/", server)
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=60)
        served = time.monotonic() - start
        print(f"{'first build to first page':<34} {served:6.1f} s")
        total += served
        print(f"{'fresh clone to first page':<34} {total:6.1f} s (target {TARGET_S:.0f} s on an idle machine)")
        print(f"{'environment make serve sets up':<34} {size(clone / '.venv') / 1e6:6.0f} MB")
    if args.full_env:
        print(f"{'full environment ' + str(args.full_env):<34} {size(args.full_env) / 1e6:6.0f} MB")
    print(f"(machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end)")


if __name__ == "__main__":
    sys.exit(main())
