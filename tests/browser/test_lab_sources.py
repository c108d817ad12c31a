"""The lab works the same from disk (file://) and from a local server, over every slider setting."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from attnlab.lab import TOKENS, X, compute
from attnlab.site.pages.sliders import SLIDER_RANGES
from attnlab.text import fmt

from .labpage import READ_LAB, as_shown, open_lab, rendered, set_controls


def slider_stops(name: str) -> list[float]:
    """Every value a slider can take, as the browser reports it (rounded to the step's decimals)."""
    low, high, step = SLIDER_RANGES[name]
    return [round(low + k * step, 6) for k in range(round((high - low) / step) + 1)]


@pytest.mark.parametrize("where", ["file", "server"])
def test_lab_shows_python_numbers_when_opened_from(page: Page, where: str, file_url: str, site_url: str) -> None:
    lab = open_lab(page, file_url if where == "file" else site_url)
    assert page.url.startswith("file://" if where == "file" else "http://127.0.0.1:")
    assert rendered(lab) == as_shown(compute().to_dict())
    set_controls(lab, token="load", query_scale=2.5, causal=False, value_y=-3.5)
    assert rendered(lab) == as_shown(compute("load", 2.5, False, -3.5).to_dict())


def sweep(page: Page, settings: list[tuple[str, float, bool, float]]) -> list[dict[str, Any]]:
    """Set each combination on the lab's own inputs and fire an input event, as a slider drag does.

    Returns, per combination, the lab's whole text and its numbers as ``rendered`` reads them.
    """
    return page.evaluate(
        f"""settings => {{
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
        }}""",
        [list(s) for s in settings],
    )


def every_setting() -> list[tuple[str, float, bool, float]]:
    """Every combination of the controls the lab's inputs allow."""
    return list(itertools.product(TOKENS, slider_stops("query_scale"), (True, False), slider_stops("value_y")))


def test_no_slider_setting_shows_nan_or_infinity(page: Page, site_url: str) -> None:
    open_lab(page, site_url)
    settings = every_setting()
    swept = sweep(page, settings)
    assert len(swept) == len(TOKENS) * 2 * len(slider_stops("query_scale")) * len(slider_stops("value_y"))
    bad = [(s, r["text"]) for s, r in zip(settings, swept) if re.search(r"NaN|Infinity|undefined", r["text"])]
    assert not bad, f"{len(bad)} settings show a non-number, first: {bad[0]}"


def test_every_slider_setting_shows_python_numbers(page: Page, site_url: str) -> None:
    open_lab(page, site_url)
    settings = every_setting()
    for setting, swept in zip(settings, sweep(page, settings), strict=True):
        assert swept["shown"] == as_shown(compute(*setting).to_dict()), setting


def add_second_lab(page: Page, site_url: str, prepare: str = "") -> Locator:
    """Run ``prepare`` (JS), put a second lab container after the first, start the UI again; return it."""
    page.evaluate(f"""() => {{
        {prepare}
        const second = document.createElement("div");
        second.className = "attnlab-lab";
        document.querySelector(".attnlab-lab").after(second);
    }}""")
    page.add_script_tag(url=site_url + "assets/lab-ui.js")
    second = page.locator(".attnlab-lab").nth(1)
    second.get_by_test_id("weight-0").wait_for()
    return second


def test_two_labs_on_one_page_keep_their_own_controls(page: Page, site_url: str) -> None:
    first = open_lab(page, site_url)
    second = add_second_lab(page, site_url)
    set_controls(second, token="grid", query_scale=3, causal=False, value_y=-4)
    assert rendered(second) == as_shown(compute("grid", 3.0, False, -4.0).to_dict())
    assert rendered(first) == as_shown(compute().to_dict())
    ids = page.evaluate("Array.from(document.querySelectorAll('[id]'), e => e.id)")
    assert len(ids) == len(set(ids)), "an id is used twice"
    assert page.locator(".attnlab-lab").count() == 2


def test_the_lab_sizes_its_vectors_from_the_toy_data(page: Page, site_url: str) -> None:
    # W_V gains a third column of ones, so every value, and the output, gets a third coordinate.
    open_lab(page, site_url)
    second = add_second_lab(page, site_url, prepare="ATTNLAB_TOY.w_v = ATTNLAB_TOY.w_v.map(row => [...row, 1]);")
    shown = rendered(second)
    python = compute()
    expected = as_shown(python.to_dict())
    third = [sum(row) for row in X]  # x @ [1, 1]: the new coordinate of each value
    assert shown["values"] == [[*row, fmt(t)] for row, t in zip(expected["values"], third)]
    assert shown["output"] == [*expected["output"], fmt(sum(w * t for w, t in zip(python.weights, third)))]
