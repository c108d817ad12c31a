"""The not-found page is styled wherever the site lives: at a server's root, under a sub-path, on disk."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

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


def styled_without_problems(page: Page, base: str) -> tuple[bool, list[str]]:
    """Open ``base`` + 404.html; whether it is styled, and any error or request off ``base``."""
    problems = watch(page, base)
    page.goto(base + "404.html", wait_until="networkidle")
    return page.evaluate(STYLED), problems


def test_not_found_page_is_styled_at_the_servers_root(page: Page, site_url: str) -> None:
    assert styled_without_problems(page, site_url) == (True, [])


def test_not_found_page_is_styled_under_a_sub_path(page: Page, parent_url: str) -> None:
    assert styled_without_problems(page, parent_url) == (True, [])


def test_not_found_page_is_styled_from_disk(page: Page, file_url: str) -> None:
    assert styled_without_problems(page, file_url) == (True, [])
