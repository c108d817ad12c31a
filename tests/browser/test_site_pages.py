"""Every page of the built site at a desktop and a phone width."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from .axe import serious_violations
from .labpage import watch

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
}).filter(([, px]) => px < 11).slice(0, 3); }"""
"""Text in the open page's pictures drawn smaller than 11 CSS pixels, with its size (folds opened first: an
answer may hold a figure)."""


def test_every_page_loads_cleanly_passes_axe_and_fits_a_desktop_and_a_phone(page: Page, site_url: str,
                                                                             site_pages: list[str]) -> None:
    problems = watch(page, site_url)
    found: dict[tuple[str, int], Any] = {}
    boxes = 0
    for width, name in [(width, name) for width in (1280, 390) for name in site_pages] + [(360, "lab.html")]:
        page.set_viewport_size({"width": width, "height": 740 if width == 360 else 800})
        page.goto(site_url + name, wait_until="networkidle")
        seen: dict[str, Any] = {"errors or requests": list(problems)}
        problems.clear()
        if (scroll_width := page.evaluate("document.documentElement.scrollWidth")) > width:
            seen["wider than the screen"] = scroll_width
        if width < 1280:
            scrollers = page.evaluate(SCROLLERS)
            boxes += sum(not s["code"] for s in scrollers)
            seen["scroll boxes unfocusable, unnamed or uncued"] = [
                s for s in scrollers if not s["focusable"] or (not s["code"] and not (
                    s["named"] and s["cued"] and s["hinted"]))]
        seen["serious axe violations"] = serious_violations(page)
        if width < 1280:
            seen["picture text under 11 px"] = page.evaluate(SMALL_TEXT)
        if any(seen.values()):
            found[name, width] = {what: it for what, it in seen.items() if it}
    assert found == {}
    assert boxes > 20, "a phone needs sideways scrolling for the guide's wider tables (so the check above bites)"
