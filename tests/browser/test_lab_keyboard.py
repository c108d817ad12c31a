"""Every control of the lab, the checklist and the read mark works from the keyboard alone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from attnlab.lab import DEFAULTS, TOKENS, LabResult, compute
from attnlab.site.pages.sliders import SLIDER_RANGES
from attnlab.text import fmt

from .labpage import as_shown, open_lab, rendered


def test_arrow_keys_move_the_selected_query_row(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    lab.locator('input[type="radio"][value="rises"]').focus()
    page.keyboard.press("ArrowLeft")
    assert lab.locator('input[type="radio"][value="load"]').is_checked()
    assert rendered(lab) == as_shown(compute("load").to_dict())


def test_arrow_home_and_end_keys_move_the_query_multiplier(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    low, high, step = SLIDER_RANGES["query_scale"]
    lab.get_by_test_id("query-scale").focus()
    page.keyboard.press("ArrowRight")
    assert rendered(lab) == as_shown(compute(query_scale=DEFAULTS["query_scale"] + step).to_dict())
    page.keyboard.press("End")
    assert rendered(lab) == as_shown(compute(query_scale=high).to_dict())
    page.keyboard.press("Home")
    assert rendered(lab) == as_shown(compute(query_scale=low).to_dict())


def test_arrow_keys_move_the_third_value_override(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    step = SLIDER_RANGES["value_y"][2]
    lab.get_by_test_id("value-y").focus()
    page.keyboard.press("ArrowLeft")
    assert rendered(lab) == as_shown(compute(value_y=DEFAULTS["value_y"] - step).to_dict())


def test_space_toggles_causal_visibility(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    lab.locator('input[type="radio"][value="grid"]').check()
    lab.get_by_test_id("causal").focus()
    page.keyboard.press("Space")
    assert rendered(lab) == as_shown(compute("grid", causal=not DEFAULTS["causal"]).to_dict())


def test_space_switches_the_division_by_the_root_of_d_k(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    lab.get_by_test_id("scale-scores").focus()
    page.keyboard.press("Space")
    assert rendered(lab) == as_shown(compute(scale_scores=not DEFAULTS["scale_scores"]).to_dict())


def test_enter_on_reset_restores_the_defaults(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    lab.locator('input[type="radio"][value="grid"]').check()
    lab.get_by_test_id("query-scale").fill("3")
    lab.get_by_test_id("reset").focus()
    page.keyboard.press("Enter")
    assert rendered(lab) == as_shown(compute(DEFAULTS).to_dict())


def test_tab_reaches_every_lab_control_in_order(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    lab.locator('input[type="radio"]:checked').focus()
    order = ["query-scale", "causal", "scale-scores", "value-y", "reset"]
    for testid in order:
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.testid") == testid


@pytest.mark.parametrize("where, box", [("lab.html", "#step-1"), ("softmax.html", "read-mark")])
def test_space_ticks_a_checklist_step_and_a_chapters_read_mark(page: Page, site_url: str, where: str,
                                                                box: str) -> None:
    page.goto(site_url + where)
    found = page.locator(box) if box.startswith("#") else page.get_by_test_id(box)
    found.focus()
    page.keyboard.press("Space")
    assert found.is_checked()


def test_enter_on_the_progress_buttons_clears_ticks_and_read_marks(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    page.locator("#step-4").check()
    page.get_by_test_id("checklist-reset").focus()
    page.keyboard.press("Enter")
    page.goto(site_url + "softmax.html")
    page.get_by_test_id("read-mark").check()
    page.goto(site_url + "index.html")  # the read marks' reset is on the home page
    page.get_by_test_id("read-reset").focus()
    page.keyboard.press("Enter")
    page.goto(site_url + "lab.html")
    assert not page.locator("#step-4").is_checked()
    page.goto(site_url + "softmax.html")
    assert not page.get_by_test_id("read-mark").is_checked()


def announcement(python: LabResult) -> str:
    """What the live region should say for a Python result."""
    weights = ", ".join(f"{t} {fmt(w)}" for t, w in zip(TOKENS, python.weights))
    return f"Query {python.token}: weights {weights}; output {', '.join(fmt(x) for x in python.output)}."


def test_screen_readers_hear_the_new_weights_and_output(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    live = lab.locator('[aria-live="polite"]')
    assert live.get_attribute("role") == "status"
    # the slider readouts (<output>, a status role) are silenced: the slider speaks its own value
    assert lab.locator("output").count() == lab.locator('output[aria-live="off"]').count() == 2
    lab.get_by_test_id("query-scale").focus()
    page.keyboard.press("End")
    expect(live).to_have_text(announcement(compute(query_scale=SLIDER_RANGES["query_scale"][1])), timeout=10_000)


SLIDE = """lab => {
    const live = lab.querySelector('[data-testid="announce"]');
    window.announced = [];
    new MutationObserver(records => records.forEach(() => window.announced.push(live.textContent)))
        .observe(live, {childList: true, characterData: true, subtree: true});
    const slider = lab.querySelector('[data-testid="query-scale"]');
    for (const value of ["1.1", "1.2", "1.3", "1.4", "1.5"]) {
        slider.value = value;
        slider.dispatchEvent(new Event("input", {bubbles: true}));
    }
}"""
"""Drag the query multiplier through five stops in one go, recording the live region's text at each change to it."""


def test_a_drag_is_announced_once_with_its_final_numbers(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    live = lab.get_by_test_id("announce")
    lab.evaluate(SLIDE)
    expect(live).to_have_text(announcement(compute(query_scale=1.5)), timeout=10_000)
    assert page.evaluate("window.announced") == [announcement(compute(query_scale=1.5))]
