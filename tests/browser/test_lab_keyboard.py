"""Every control of the lab works from the keyboard alone (the checklist and read marks: test_progress)."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from attnlab.lab import DEFAULTS, MULTIPLIERS, TOKENS, LabResult, compute
from attnlab.site.pages.sliders import SLIDER_RANGES
from attnlab.text import fmt

from .labpage import as_shown, open_lab, rendered


def test_every_lab_control_works_from_the_keyboard_in_tab_order(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    lab.locator('input[type="radio"]:checked').focus()
    for testid in ["query-scale", "causal", "scale-scores", "value-y", "reset"]:
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.dataset.testid") == testid
    low, high, step = SLIDER_RANGES["query_scale"]
    assert (low, high) == (min(MULTIPLIERS), max(MULTIPLIERS)), "the slider reaches every multiplier of experiment 1"
    controls = dict(DEFAULTS)
    for focus, key, change in [
        ('input[type="radio"][value="rises"]', "ArrowLeft", {"token": "load"}),
        ('[data-testid="query-scale"]', "ArrowRight", {"query_scale": DEFAULTS["query_scale"] + step}),
        ('[data-testid="query-scale"]', "End", {"query_scale": high}),
        ('[data-testid="query-scale"]', "Home", {"query_scale": low}),
        ('[data-testid="value-y"]', "ArrowLeft", {"value_y": DEFAULTS["value_y"] - SLIDER_RANGES["value_y"][2]}),
        ('[data-testid="causal"]', "Space", {"causal": not DEFAULTS["causal"]}),
        ('[data-testid="scale-scores"]', "Space", {"scale_scores": not DEFAULTS["scale_scores"]}),
        ('[data-testid="reset"]', "Enter", DEFAULTS),
    ]:
        lab.locator(focus).focus()
        page.keyboard.press(key)
        controls.update(change)
        assert rendered(lab) == as_shown(compute(controls).to_dict()), f"{key} on {focus}"
        expect(lab.get_by_test_id("scaled-how")).to_have_text("raw ÷ √dₖ" if controls["scale_scores"]
                                                                 else "raw, not divided")


def announcement(python: LabResult) -> str:
    """What the live region should say for a Python result."""
    weights = ", ".join(f"{t} {fmt(w)}" for t, w in zip(TOKENS, python.weights))
    return f"Query {python.token}: weights {weights}; output {', '.join(fmt(x) for x in python.output)}."


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


def test_screen_readers_hear_the_new_weights_and_output_once_per_drag(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    live = lab.get_by_test_id("announce")
    expect(live).to_have_attribute("aria-live", "polite")
    expect(live).to_have_attribute("role", "status")
    # the slider readouts (<output>, a status role) are silenced: the slider speaks its own value
    assert lab.locator("output").count() == lab.locator('output[aria-live="off"]').count() == 2
    lab.evaluate(SLIDE)
    expect(live).to_have_text(announcement(compute(query_scale=1.5)), timeout=10_000)
    assert page.evaluate("window.announced") == [announcement(compute(query_scale=1.5))]
    lab.get_by_test_id("query-scale").focus()
    page.keyboard.press("End")
    expect(live).to_have_text(announcement(compute(query_scale=SLIDER_RANGES["query_scale"][1])), timeout=10_000)
