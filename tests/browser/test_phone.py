"""Every page fits a phone: nothing wider than the screen, wide content in focusable boxes that say they scroll.

Pages open at a desktop width (1280 px) and a phone width (390 px). Content
too wide for the column (tables, maps, formulas) must scroll inside its own
box, which a keyboard can reach, a screen reader can name, and a reader can
see is cut: the hidden side fades and a line above says to scroll.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .pages import SITE_PAGES

WIDTHS = (1280, 390)
PHONE = 390

SCROLLERS = """() => Array.from(document.querySelectorAll(".md-content *")).filter(el => {
    const overflow = getComputedStyle(el).overflowX;
    return (overflow === "auto" || overflow === "scroll") && el.scrollWidth > el.clientWidth + 1;
}).map(el => {
    const hint = el.previousElementSibling;
    return {
        what: el.tagName.toLowerCase() + "." + [...el.classList].join("."),
        code: el.tagName === "CODE",
        focusable: el.tabIndex >= 0,
        named: el.tagName.toLowerCase() === "math" || Boolean(el.getAttribute("aria-label")),
        cued: el.classList.contains("attnlab-more-right")
              && getComputedStyle(el).maskImage.startsWith("linear-gradient"),
        hinted: Boolean(hint && hint.classList.contains("attnlab-scroll-hint") && hint.offsetHeight > 0
                        && hint.getBoundingClientRect().right <= innerWidth),
    };
})"""
"""The content boxes that scroll sideways on the open page, with what they offer the reader."""

SMALL_TEXT = """() => { document.querySelectorAll(".md-content details").forEach(d => { d.open = true; });
  return Array.from(document.querySelectorAll(".md-content svg text")).map(t => {
    const m = t.getScreenCTM();
    return [t.textContent, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)];
}).filter(([, px]) => px < 11); }"""
"""Text in the open page's pictures drawn smaller than 11 CSS pixels, with its size (folds opened first: an
answer may hold a figure)."""


def open_at(page: Page, url: str, width: int) -> None:
    """Open ``url`` in a ``width``-pixel-wide window and let its scripts settle."""
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(url, wait_until="networkidle")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", SITE_PAGES)
def test_the_page_is_no_wider_than_the_screen(page: Page, site_url: str, site_pages: list[str], name: str,
                                              width: int) -> None:
    open_at(page, site_url + name, width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width


@pytest.mark.parametrize("name", SITE_PAGES)
def test_on_a_phone_every_box_that_scrolls_on_the_page_is_focusable_named_and_visibly_cut(
        page: Page, site_url: str, site_pages: list[str], name: str) -> None:
    open_at(page, site_url + name, PHONE)
    bad = [s for s in page.evaluate(SCROLLERS) if not s["focusable"]
           or (not s["code"] and not (s["named"] and s["cued"] and s["hinted"]))]
    assert bad == []


def test_a_phone_needs_sideways_scrolling_for_the_guides_wider_tables(page: Page, site_url: str,
                                                                       site_pages: list[str]) -> None:
    # so the test above is not passing for want of boxes that scroll
    boxes = 0
    for name in site_pages:
        open_at(page, site_url + name, PHONE)
        boxes += sum(not s["code"] for s in page.evaluate(SCROLLERS))
    assert boxes > 20


@pytest.mark.parametrize("name", SITE_PAGES)
def test_on_a_phone_no_picture_on_the_page_draws_text_smaller_than_eleven_pixels(
        page: Page, site_url: str, site_pages: list[str], name: str) -> None:
    open_at(page, site_url + name, PHONE)
    assert page.evaluate(SMALL_TEXT)[:3] == []


def test_a_box_that_fits_has_no_tab_stop_or_cue(page: Page, site_url: str) -> None:
    open_at(page, site_url + "rows.html", PHONE)
    # a Markdown table, wrapped by the theme; a handle, since the locator's class goes away
    box = page.locator(".md-typeset__scrollwrap.attnlab-more-right").first.element_handle()
    assert box.evaluate("b => b.scrollWidth > b.clientWidth") and box.get_attribute("tabindex") == "0"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function("b => !b.hasAttribute('tabindex')", arg=box)
    assert "attnlab-more-right" not in (box.get_attribute("class") or "")
    assert box.evaluate("b => b.previousElementSibling.hidden")


def test_the_cue_follows_the_reader_scrolling_to_the_end(page: Page, site_url: str) -> None:
    open_at(page, site_url + "real-model.html", PHONE)
    box = page.locator(".md-typeset__scrollwrap.attnlab-more-right").first.element_handle()
    box.evaluate("b => { b.scrollLeft = b.scrollWidth - b.clientWidth; }")
    page.wait_for_function("b => b.classList.contains('attnlab-more-left')", arg=box)
    assert "attnlab-more-right" not in box.get_attribute("class")


def test_a_keyboard_scrolls_a_wide_table(page: Page, site_url: str) -> None:
    open_at(page, site_url + "real-model.html", PHONE)  # its maps fit a phone; its wider tables scroll
    box = page.locator(".md-typeset__scrollwrap.attnlab-more-right").first.element_handle()
    box.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_function("b => b.scrollLeft > 0", arg=box)
