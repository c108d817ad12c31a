"""The lab inside Three experiments, several on one page; the √d_k switch; the numbers in view on a phone.

Three experiments holds one lab per experiment, each starting where its
experiment starts. Each is driven through its own controls and read back
against ``attnlab.lab.compute``; moving one leaves the others alone. On a
390-pixel phone the selected row's weights and output stay in the window
while a slider moves, on the lab page and in the chapter.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from attnlab.lab import TOKENS, compute
from attnlab.site.pages.sliders import SLIDER_RANGES
from attnlab.text import fmt

from .labpage import as_shown, open_lab, rendered, set_controls

CHAPTER = "experiments.html"
STARTS: tuple[dict[str, Any], ...] = ({"token": "rises"}, {"token": "grid"}, {"token": "rises"})
"""Where each of the chapter's three labs starts (docs/experiments.md), the toy's defaults for the rest."""
MOVES: tuple[dict[str, Any], ...] = (
    {"query_scale": 3.0, "scale_scores": False},
    {"causal": False, "token": "load"},
    {"value_y": 5.0},
)
"""What each experiment asks the reader to move."""


@pytest.mark.parametrize("which", range(len(STARTS)))
def test_each_lab_in_the_chapter_starts_where_its_experiment_starts(page: Page, site_url: str, which: int) -> None:
    lab = open_lab(page, site_url, CHAPTER, which)
    assert rendered(lab) == as_shown(compute(STARTS[which]).to_dict())


@pytest.mark.parametrize("which", range(len(STARTS)))
def test_each_labs_controls_work_inside_the_chapter(page: Page, site_url: str, which: int) -> None:
    lab = open_lab(page, site_url, CHAPTER, which)
    set_controls(lab, **MOVES[which])
    assert rendered(lab) == as_shown(compute({**STARTS[which], **MOVES[which]}).to_dict())
    lab.get_by_test_id("reset").click()
    assert rendered(lab) == as_shown(compute(STARTS[which]).to_dict()), "reset returns to the lab's own start"


def test_the_labs_on_one_page_are_independent(page: Page, site_url: str) -> None:
    first = open_lab(page, site_url, CHAPTER, 0)
    others = [page.locator(".attnlab-lab").nth(i) for i in (1, 2)]
    before = [rendered(lab) for lab in others]
    set_controls(first, query_scale=0.0, causal=False)
    assert rendered(first) == as_shown(compute({**STARTS[0], "query_scale": 0.0, "causal": False}).to_dict())
    assert [rendered(lab) for lab in others] == before
    ids = page.evaluate("Array.from(document.querySelectorAll('[id]'), e => e.id)")
    assert len(ids) == len(set(ids)), "several labs on one page share no id"
    names = page.locator(".attnlab-lab").evaluate_all("labs => labs.map(l => l.getAttribute('aria-label'))")
    assert len(set(names)) == len(STARTS), "each lab has a name of its own"


def test_the_chapters_compact_labs_draw_no_plane_and_the_lab_page_does(page: Page, site_url: str) -> None:
    open_lab(page, site_url, CHAPTER, 2)
    planes = page.locator(".attnlab-lab").evaluate_all(
        "labs => labs.map(l => !!l.querySelector('[data-testid=plane]'))"
    )
    assert planes == [False, False, False]
    expect(open_lab(page, site_url).get_by_test_id("plane")).to_have_count(1)


@pytest.mark.parametrize("token", TOKENS)
def test_switching_off_the_division_by_the_root_of_d_k_gives_pythons_raw_softmax(page: Page, site_url: str,
                                                                                 token: str) -> None:
    lab = open_lab(page, site_url)
    set_controls(lab, token=token, causal=False, scale_scores=False)
    assert rendered(lab) == as_shown(compute(token, causal=False, scale_scores=False).to_dict())
    expect(lab.get_by_test_id("scaled-how")).to_have_text("raw, not divided")
    set_controls(lab, scale_scores=True)
    expect(lab.get_by_test_id("scaled-how")).to_have_text("raw ÷ √dₖ")


def test_the_line_in_view_shows_the_selected_rows_weights_and_output(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    set_controls(lab, token="load")
    python = compute("load")
    expect(lab.get_by_test_id("now")).to_have_text(
        "Weights of load: " + ", ".join(f"{t} {fmt(w) if seen else 'blocked'}"
                                        for t, w, seen in zip(TOKENS, python.weights, python.visible))
        + f". Output (sum of weight × value): [{', '.join(fmt(x) for x in python.output)}]")


IN_VIEW = """line => { const r = line.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"""
"""Whether an element lies wholly inside the window."""


def move_each_slider(page: Page, lab: Locator) -> list[str]:
    """Move each of ``lab``'s sliders as a reader would; the sliders after whose move the output line was
    not wholly in the window."""
    out = []
    line = lab.get_by_test_id("now")
    for testid, control in (("query-scale", "query_scale"), ("value-y", "value_y")):
        slider = lab.get_by_test_id(testid)
        slider.evaluate("s => s.scrollIntoView({block: 'center'})")
        value = SLIDER_RANGES[control][1]
        slider.fill(str(value))
        expect(lab.get_by_test_id(f"{testid}-value")).to_contain_text(f"{value:.1f}")
        if not line.evaluate(IN_VIEW):
            out.append(testid)
    return out


def test_on_a_phone_the_output_stays_in_view_while_each_slider_of_the_lab_page_moves(page: Page,
                                                                                      site_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    lab = open_lab(page, site_url)
    assert move_each_slider(page, lab) == []
    python = compute(query_scale=SLIDER_RANGES["query_scale"][1], value_y=SLIDER_RANGES["value_y"][1])
    assert rendered(lab)["output"] == [fmt(x) for x in python.output]


@pytest.mark.parametrize("which", range(len(STARTS)))
def test_on_a_phone_the_output_stays_in_view_while_each_slider_of_a_chapters_lab_moves(
        page: Page, site_url: str, which: int) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    lab = open_lab(page, site_url, CHAPTER, which)
    assert move_each_slider(page, lab) == []


def test_the_output_line_leaves_with_its_lab(page: Page, site_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    lab = open_lab(page, site_url)
    lab.evaluate("lab => window.scrollBy(0, lab.getBoundingClientRect().bottom + 10)")
    page.wait_for_function("lab => lab.getBoundingClientRect().bottom < 0", arg=lab.element_handle())
    assert lab.get_by_test_id("now").evaluate("l => l.getBoundingClientRect().bottom") < 0, \
        "the line sticks inside its lab, not to the window"


def test_the_lab_page_is_next_to_the_chapter_in_the_navigation(page: Page, site_url: str) -> None:
    page.goto(site_url + "index.html")
    links = page.locator(".md-nav--primary a.md-nav__link[href$='.html']").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")
    assert links[links.index(CHAPTER) + 1] == "lab.html"
