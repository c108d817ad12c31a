"""Chromium for the browser tests, and the built site over file:// and over a local server.

Chromium is looked for in the order ``scripts/ensure-chromium`` installs it:
``$ATTNLAB_CHROMIUM``, Debian's or Ubuntu's binary, Google Chrome, then
Playwright's own download. A missing browser fails the tests with a message
saying how to get one; it never skips them.
"""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserType

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
    """The Chromium to launch: the first of the ensure-chromium order that exists.

    Returns ``None`` for Playwright's own download (Playwright picks its
    headless build itself). Fails the test session, with what to do, when
    there is no browser at all or ``$ATTNLAB_CHROMIUM`` names a missing file.
    """
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


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type: BrowserType) -> dict[str, Any]:
    """pytest-playwright's launch options: our Chromium, headless, with a quiet network."""
    args: dict[str, Any] = {"headless": True, "args": CHROMIUM_ARGS}
    executable = chromium_executable(browser_type.executable_path)
    if executable:
        args["executable_path"] = executable
    return args


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serve files without logging every request to stderr."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        """Say nothing."""


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served on 127.0.0.1 (a free port) for the session; yields its base URL."""
    handler = functools.partial(QuietHandler, directory=str(built_site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def file_url(built_site: Path) -> str:
    """The built site's base URL on disk (file://)."""
    return built_site.as_uri() + "/"


@pytest.fixture(scope="session")
def site_pages(built_site: Path) -> list[str]:
    """Every HTML page of the built site, as paths relative to its root."""
    pages = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html"))
    assert pages, f"the built site at {built_site} has no HTML pages"
    return pages
