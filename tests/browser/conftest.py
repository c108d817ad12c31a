"""Chromium for the browser tests (see ``chromium.py``), and the built site over file:// and a local server."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserType
from sites import site_pages as navigation_pages

from .chromium import CHROMIUM_ARGS, chromium_executable


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type: BrowserType) -> dict[str, Any]:
    """pytest-playwright's launch options: our Chromium, headless, with a quiet network."""
    args: dict[str, Any] = {"headless": True, "args": CHROMIUM_ARGS}
    executable = chromium_executable(browser_type.executable_path)
    if executable:
        args["executable_path"] = executable
    return args


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing of each request."""


@contextmanager
def served(directory: Path) -> Iterator[str]:
    """``directory`` served on 127.0.0.1 (a free port) while in the block; yields its base URL."""
    handler = functools.partial(QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="session")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site served for the session; yields its base URL."""
    with served(built_site) as url:
        yield url


@pytest.fixture(scope="session")
def file_url(built_site: Path) -> str:
    """The built site's base URL on disk (file://)."""
    return built_site.as_uri() + "/"


@pytest.fixture(scope="session")
def site_pages(built_site: Path) -> list[str]:
    """Every HTML page of the built site, as paths relative to its root: the pages the tests walk through."""
    pages = sorted(p.relative_to(built_site).as_posix() for p in built_site.rglob("*.html"))
    assert pages == navigation_pages(), "the built site's pages are not those of mkdocs.yml's navigation and 404.html"
    return pages
