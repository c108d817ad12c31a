"""Site search works offline: from file:// (through the shipped iframe-worker shim) and from a local server."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .labpage import watch

pytestmark = pytest.mark.browser


def search(page: Page, base: str, query: str) -> list[str]:
    """Type ``query`` into the search box of the home page under ``base``; return the result titles."""
    page.goto(base + "index.html", wait_until="networkidle")
    page.locator("input.md-search__input").fill(query)
    # The theme builds its index in a worker first; on a loaded 2-core machine that took over 30 s.
    page.locator(".md-search-result__item").first.wait_for(timeout=120_000)
    return page.locator(".md-search-result__item h1").all_inner_texts()


def test_search_finds_the_softmax_chapter_from_disk(page: Page, file_url: str) -> None:
    problems = watch(page, file_url)
    assert "Softmax over visible keys" in search(page, file_url, "softmax")
    assert problems == []


def test_search_finds_a_claim_from_the_local_server(page: Page, site_url: str) -> None:
    problems = watch(page, site_url)
    assert "Claims" in search(page, site_url, "permutation")
    assert problems == []
