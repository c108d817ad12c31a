"""The lab shows Python's numbers over every slider setting, and sizes its vectors from the toy data."""

from __future__ import annotations

import itertools
import re

from playwright.sync_api import Page

from attnlab.lab import TOKENS, X, compute
from attnlab.site.pages.sliders import SLIDER_RANGES
from attnlab.text import fmt

from .labpage import READ_LAB, as_shown, open_lab, rendered


def slider_stops(name: str) -> list[float]:
    """Every value a slider can take, as the browser reports it (rounded to the step's decimals)."""
    low, high, step = SLIDER_RANGES[name]
    return [round(low + k * step, 6) for k in range(round((high - low) / step) + 1)]


SWEEP = f"""settings => {{
    const lab = document.querySelector(".attnlab-lab");
    const input = id => lab.querySelector(`[data-testid="${{id}}"]`);
    const read = {READ_LAB};
    return settings.map(([token, scale, causal, valueY]) => {{
        lab.querySelector(`input[type="radio"][value="${{token}}"]`).checked = true;
        input("query-scale").value = String(scale);
        input("causal").checked = causal;
        input("value-y").value = String(valueY);
        input("value-y").dispatchEvent(new Event("input", {{bubbles: true}}));
        return {{text: lab.textContent, shown: read(lab)}};
    }});
}}"""
"""Set each combination on the lab's own inputs and fire an input event, as a slider drag does; per combination,
the lab's whole text and its numbers as ``rendered`` reads them."""


def test_every_slider_setting_shows_python_numbers_and_never_nan_or_infinity(page: Page, site_url: str) -> None:
    open_lab(page, site_url)
    settings = list(itertools.product(TOKENS, slider_stops("query_scale"), (True, False), slider_stops("value_y")))
    swept = page.evaluate(SWEEP, [list(s) for s in settings])
    bad = [(s, r["text"]) for s, r in zip(settings, swept) if re.search(r"NaN|Infinity|undefined", r["text"])]
    assert not bad, f"{len(bad)} settings show a non-number, first: {bad[0]}"
    for setting, shown in zip(settings, swept, strict=True):
        assert shown["shown"] == as_shown(compute(*setting).to_dict()), setting


def test_the_lab_sizes_its_vectors_from_the_toy_data(page: Page, site_url: str) -> None:
    # a second lab, started after W_V gains a third column of ones: every value, and the output, get a third coordinate
    open_lab(page, site_url)
    page.evaluate("""() => {
        ATTNLAB_TOY.w_v = ATTNLAB_TOY.w_v.map(row => [...row, 1]);
        const second = document.createElement("div");
        second.className = "attnlab-lab";
        document.querySelector(".attnlab-lab").after(second);
    }""")
    page.add_script_tag(url=site_url + "assets/lab-ui.js")
    second = page.locator(".attnlab-lab").nth(1)
    second.get_by_test_id("weight-0").wait_for()
    shown = rendered(second)
    python = compute()
    expected = as_shown(python.to_dict())
    third = [sum(row) for row in X]  # x @ [1, 1]: the new coordinate of each value
    assert shown["values"] == [[*row, fmt(t)] for row, t in zip(expected["values"], third)]
    assert shown["output"] == [*expected["output"], fmt(sum(w * t for w, t in zip(python.weights, third)))]
    assert rendered(page.locator(".attnlab-lab").first) == expected, "the first lab keeps the toy it started with"
    ids = page.evaluate("Array.from(document.querySelectorAll('[id]'), e => e.id)")
    assert len(ids) == len(set(ids)), "a lab started later takes ids of its own"
