"""Site search from a local server (from file://, through the iframe-worker shim: test_offline and test_progress),
typed or pasted as a reader does."""

from __future__ import annotations

from playwright.sync_api import Locator, Page

from .labpage import CEILING_MS, watch


def search_box(page: Page) -> Locator:
    """The theme's search box."""
    return page.locator("input.md-search__input")


def answer(page: Page, query: str) -> list[str]:
    """The result titles once the list answers the whole ``query`` (a link holding ``h=<query>``, which the
    theme's ``search.highlight`` adds), not a prefix typed on the way."""
    page.locator(f'.md-search-result__item a[href*="h={query}"]').first.wait_for(timeout=CEILING_MS)
    return page.locator(".md-search-result__item h1").all_inner_texts()


def type_at_once(page: Page, url: str, query: str) -> list[str]:
    """Open ``url`` and type ``query`` key by key as soon as the page has loaded; return the result titles."""
    page.goto(url)
    search_box(page).press_sequentially(query)
    return answer(page, query)


def paste_once_ready(page: Page, url: str, query: str) -> list[str]:
    """Open ``url`` and search, and once the index is ready (the theme shows its placeholder) paste ``query`` (an
    ``input`` event, no key events); return the result titles."""
    page.goto(url)
    search_box(page).click()
    placeholder = page.evaluate(
        "JSON.parse(document.getElementById('__config').textContent).translations['search.result.placeholder']")
    page.locator(".md-search-result__meta", has_text=placeholder).wait_for(timeout=CEILING_MS)
    page.keyboard.insert_text(query)
    return answer(page, query)


def test_search_answers_typed_and_then_pasted_text_from_the_local_server(page: Page, site_url: str) -> None:
    # Material 9.8 reads the box only on keyup (docs/assets/search-input.js says why and mends it).
    problems = watch(page, site_url)
    assert "Claims" in type_at_once(page, site_url + "index.html", "permutation")
    search_box(page).fill("")
    page.keyboard.insert_text("softmax")
    assert "Softmax over visible keys" in answer(page, "softmax")
    assert problems == []
