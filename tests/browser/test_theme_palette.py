"""``docs/assets/storage-guard.js`` hands the theme only a stored palette that fits the page's inputs."""

from __future__ import annotations

from playwright.sync_api import Page

THEMES_OWN = """() => {
    const input = document.getElementsByName("__palette")[0];
    const color = Object.fromEntries(["media", "scheme", "primary", "accent"]
        .map(key => [key, input.getAttribute("data-md-color-" + key)]));
    return {index: 0, color};
}"""
"""JS: the palette the theme itself stores when the reader picks the page's first palette."""

MALFORMED = {
    "an automatic palette the page has no inputs for": {"color": {"media": "(prefers-color-scheme)"}},
    "an index past the page's palettes": {"index": 7, "color": {"media": "", "scheme": "slate"}},
    "a colour key that is no attribute name": {"index": 0, "color": {"media": "", "a b": "x"}},
    "a number": 5, "a list": [0], "text that is not JSON": "{",
}
"""Stored palettes the theme's scripts cannot use; "{" is stored as raw text, the others as JSON."""


def store_palette(page: Page, site_url: str, palette: object) -> None:
    """Open a page and put ``palette`` where the theme keeps its palette (raw text if it is "{")."""
    page.goto(site_url + "index.html")
    page.evaluate("""palette => {
        const key = __md_scope.pathname + ".__palette";
        localStorage.setItem(key, palette === "{" ? palette : JSON.stringify(palette));
    }""", palette)


def test_a_malformed_stored_palette_is_read_as_none_and_breaks_no_page_and_the_themes_own_is_read(
        page: Page, site_url: str) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{e}\n{e.stack}"))
    for name, palette in MALFORMED.items():
        store_palette(page, site_url, palette)
        assert page.evaluate("__md_get('__palette')") is None, name
        page.goto(site_url + "softmax.html")
        page.get_by_test_id("read-mark").wait_for()  # the site's own script, loaded last, ran to the end
        assert errors == [], name
    page.goto(site_url + "index.html")
    own = page.evaluate(THEMES_OWN)
    store_palette(page, site_url, own)
    page.reload()
    assert page.evaluate("__md_get('__palette')") == own
