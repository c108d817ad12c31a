"""Which Chromium the browser tests and the benchmarks launch, and with which flags: the first of
``$ATTNLAB_CHROMIUM``, ``SYSTEM_CHROMIUMS`` and Playwright's own download; none fails saying how to get one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SYSTEM_CHROMIUMS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
"""Where ``scripts/ensure-chromium`` looks after ``$ATTNLAB_CHROMIUM``, in the same order."""

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
"""Flags for a closed network: no background traffic, no updates, no sandbox (tests may run as root)."""

HOW_TO_GET_CHROMIUM = ("run `make browser` (scripts/ensure-chromium), install Debian's `chromium`, "
                       "or set ATTNLAB_CHROMIUM to a Chromium or Chrome binary")


def chromium_executable(playwright_default: str) -> str | None:
    """The first Chromium of the ensure-chromium order that exists, None for Playwright's own download; fails the
    session, saying what to do, when there is none or ``$ATTNLAB_CHROMIUM`` names a missing file."""
    chosen = os.environ.get("ATTNLAB_CHROMIUM")
    if chosen:
        if not os.access(chosen, os.X_OK):
            pytest.fail(f"ATTNLAB_CHROMIUM={chosen!r} is not an executable file; {HOW_TO_GET_CHROMIUM}")
        return chosen
    for candidate in SYSTEM_CHROMIUMS:
        if os.access(candidate, os.X_OK):
            return candidate
    if Path(playwright_default).exists():
        return None
    pytest.fail(f"no Chromium found for the browser tests; {HOW_TO_GET_CHROMIUM}")
