"""The not-found page is styled wherever the site lives: at a server's root, under a sub-path, on disk."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext

from .conftest import QuietHandler
from .labpage import watch

STYLED = """() => {
    const header = document.querySelector(".md-header");
    return Boolean(header) && getComputedStyle(header).position === "sticky"
        && [...document.styleSheets].some(sheet => sheet.href && sheet.href.includes("/assets/stylesheets/"));
}"""
"""Whether the theme's stylesheet reached the page (its header is sticky only when styled)."""


@pytest.fixture(scope="module")
def parent_url(built_site: Path) -> Iterator[str]:
    """The folder above the built site, served, so the site lives under the sub-path ``/<folder>/``."""
    handler = functools.partial(QuietHandler, directory=str(built_site.parent))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{built_site.name}/"
    server.shutdown()
    server.server_close()


def test_not_found_page_is_styled_at_a_servers_root_under_a_sub_path_and_on_disk(
        context: BrowserContext, site_url: str, parent_url: str, file_url: str) -> None:
    for base in (site_url, parent_url, file_url):
        page = context.new_page()
        problems = watch(page, base)
        page.goto(base + "404.html", wait_until="networkidle")
        assert (page.evaluate(STYLED), problems) == (True, []), base
