"""A content box too wide for a phone scrolls as the reader expects; the pass over every page is in test_site_pages."""

from __future__ import annotations

from playwright.sync_api import Page

PHONE = {"width": 390, "height": 800}
CUT = ".md-typeset__scrollwrap.attnlab-more-right"
"""A table the theme wraps in a box, which the guide marks as cut on its right."""


def test_a_box_that_comes_to_fit_loses_its_tab_stop_and_cue_which_follows_the_reader_to_the_end(
        page: Page, site_url: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(site_url + "rows.html", wait_until="networkidle")
    box = page.locator(CUT).first.element_handle()  # a handle, since the locator's class goes away
    assert box.evaluate("b => b.scrollWidth > b.clientWidth") and box.get_attribute("tabindex") == "0"
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_function("b => !b.hasAttribute('tabindex')", arg=box)
    assert "attnlab-more-right" not in (box.get_attribute("class") or "")
    assert box.evaluate("b => b.previousElementSibling.hidden")
    page.set_viewport_size(PHONE)
    page.goto(site_url + "real-model.html", wait_until="networkidle")  # its maps fit a phone; its wider tables scroll
    box = page.locator(CUT).first.element_handle()
    box.evaluate("b => { b.scrollLeft = b.scrollWidth - b.clientWidth; }")
    page.wait_for_function("b => b.classList.contains('attnlab-more-left')", arg=box)
    assert "attnlab-more-right" not in box.get_attribute("class")
    box.focus()
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("b => b.scrollLeft < b.scrollWidth - b.clientWidth - 1", arg=box)
