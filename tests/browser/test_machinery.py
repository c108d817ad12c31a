"""Machinery out of the reading: citation markers and the folded build line."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def test_a_citation_is_a_marker_showing_its_id_on_focus_and_the_build_line_is_folded(page: Page, site_url: str) -> None:
    page.goto(site_url + "explorer.html")
    cite = page.locator("a.attn-cite").first
    expect(cite).to_have_text("CL-017")  # the ID is still the link's text and name
    expect(cite).to_have_attribute("href", "claims.html#cl-017")
    style = """(a, part) => { const s = getComputedStyle(a, part);
                             return [s.content, s.fontSize, s.verticalAlign]; }"""
    assert cite.evaluate(style, None)[1:] == ["0px", "super"]  # the ID's own text takes no room
    assert cite.evaluate(style, "::before")[0] == '"†"'
    assert cite.evaluate(style, "::after")[0] == "none"
    cite.focus()
    assert cite.evaluate(style, "::after")[0] == '"CL-017"'
    page.goto(site_url + "rows.html")
    fold = page.locator("article details.attn-provenance")
    expect(fold.locator("summary")).to_have_text("About these numbers")
    expect(fold.locator("p")).to_be_hidden()
    fold.locator("summary").click()
    expect(fold.locator("p")).to_contain_text("Numbers computed by attnlab")
