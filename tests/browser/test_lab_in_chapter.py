"""The lab inside Three experiments, several on one page; the numbers in view on a phone."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page, expect

from attnlab.lab import TOKENS, compute
from attnlab.site.pages.sliders import SLIDER_RANGES
from attnlab.text import fmt

from .labpage import as_shown, open_lab, rendered, set_controls

CHAPTER = "experiments.html"
STARTS: tuple[dict[str, Any], ...] = ({"token": "rises"}, {"token": "grid"}, {"token": "rises"})
"""Where each of the chapter's three labs starts (docs/experiments.md), the toy's defaults for the rest."""
MOVES: tuple[dict[str, Any], ...] = ({"query_scale": 3.0, "scale_scores": False}, {"causal": False, "token": "load"},
                                     {"value_y": 5.0})
"""What each experiment asks the reader to move."""
PHONE = {"width": 390, "height": 800}
IN_VIEW = """line => { const r = line.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"""


def move_each_slider(lab: Locator) -> list[str]:
    """Move each of ``lab``'s sliders to its top; the sliders after whose move the output line left the window."""
    out = []
    for testid, control in (("query-scale", "query_scale"), ("value-y", "value_y")):
        slider = lab.get_by_test_id(testid)
        slider.evaluate("s => s.scrollIntoView({block: 'center'})")
        value = SLIDER_RANGES[control][1]
        slider.fill(str(value))
        expect(lab.get_by_test_id(f"{testid}-value")).to_contain_text(f"{value:.1f}")
        if not lab.get_by_test_id("now").evaluate(IN_VIEW):
            out.append(testid)
    return out


def test_each_lab_in_the_chapter_starts_moves_and_resets_on_its_own_with_its_output_in_view(
        page: Page, site_url: str) -> None:
    page.set_viewport_size(PHONE)
    open_lab(page, site_url, CHAPTER)
    labs = [page.locator(".attnlab-lab").nth(i) for i in range(len(STARTS))]
    for which, lab in enumerate(labs):
        others = [rendered(other) for other in labs[:which] + labs[which + 1:]]
        assert rendered(lab) == as_shown(compute(STARTS[which]).to_dict())
        set_controls(lab, **MOVES[which])
        assert rendered(lab) == as_shown(compute({**STARTS[which], **MOVES[which]}).to_dict())
        assert [rendered(other) for other in labs[:which] + labs[which + 1:]] == others, "the others stay"
        lab.get_by_test_id("reset").click()
        assert rendered(lab) == as_shown(compute(STARTS[which]).to_dict()), "reset returns to the lab's own start"
        assert move_each_slider(lab) == []
        assert lab.get_by_test_id("plane").count() == 0, "the chapter's compact labs draw no plane"
    ids = page.evaluate("Array.from(document.querySelectorAll('[id]'), e => e.id)")
    assert len(ids) == len(set(ids)), "several labs on one page share no id"
    names = page.locator(".attnlab-lab").evaluate_all("labs => labs.map(l => l.getAttribute('aria-label'))")
    assert len(set(names)) == len(STARTS), "each lab has a name of its own"
    links = page.locator(".md-nav--primary a.md-nav__link[href$='.html']").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")
    assert links[links.index(CHAPTER) + 1] == "lab.html", "the lab page is next to the chapter"


def test_on_a_phone_the_line_in_view_follows_the_sliders_and_leaves_with_its_lab(page: Page, site_url: str) -> None:
    page.set_viewport_size(PHONE)
    lab = open_lab(page, site_url)
    set_controls(lab, token="load")
    assert move_each_slider(lab) == []
    python = compute("load", query_scale=SLIDER_RANGES["query_scale"][1], value_y=SLIDER_RANGES["value_y"][1])
    expect(lab.get_by_test_id("now")).to_have_text(
        "Weights of load: " + ", ".join(f"{t} {fmt(w) if seen else 'blocked'}"
                                        for t, w, seen in zip(TOKENS, python.weights, python.visible))
        + f". Output (sum of weight × value): [{', '.join(fmt(x) for x in python.output)}]")
    lab.evaluate("lab => window.scrollBy(0, lab.getBoundingClientRect().bottom + 10)")
    page.wait_for_function("lab => lab.getBoundingClientRect().bottom < 0", arg=lab.element_handle())
    assert lab.get_by_test_id("now").evaluate("l => l.getBoundingClientRect().bottom") < 0, \
        "the line sticks inside its lab, not to the window"
