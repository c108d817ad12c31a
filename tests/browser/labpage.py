"""Driving the lab as a reader does (click, fill a slider, tick) and reading back what it shows, to compare with
``attnlab.lab.compute`` formatted as pages format numbers (``as_shown``)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Locator, Page

from attnlab.attention import causal as causal_mask
from attnlab.text import fmt

CEILING_MS = 120_000
"""Longest wait for a state (a model loaded, the search index built): a bound on a hung page, not a speed test."""
NO_STORAGE = """
for (const name of ["localStorage", "sessionStorage"]) {
    Object.defineProperty(window, name, {
        configurable: true,
        get() { throw new DOMException("storage is disabled", "SecurityError"); },
    });
}
"""
"""Init script that makes every use of web storage throw, as blocked site data does."""


def open_lab(page: Page, base: str, path: str = "lab.html", which: int = 0) -> Locator:
    """Open ``path`` (the lab page unless told) under ``base`` and return its lab number ``which`` (from 0)
    once it shows numbers."""
    page.goto(base + path)
    lab = page.locator(".attnlab-lab").nth(which)
    lab.get_by_test_id("weight-0").wait_for()
    assert lab.get_by_test_id("weight-0").inner_text() != "", "the lab did not render its numbers"
    return lab


def set_controls(lab: Locator, token: str | None = None, query_scale: float | None = None,
                 causal: bool | None = None, value_y: float | None = None, scale_scores: bool | None = None) -> None:
    """Move the lab's controls as a reader would (click, drag to a value, tick); None leaves one alone."""
    if token is not None:
        lab.locator(f'input[type="radio"][value="{token}"]').check()
    if query_scale is not None:
        lab.get_by_test_id("query-scale").fill(str(query_scale))
    if causal is not None:
        lab.get_by_test_id("causal").set_checked(causal)
    if value_y is not None:
        lab.get_by_test_id("value-y").fill(str(value_y))
    if scale_scores is not None:
        lab.get_by_test_id("scale-scores").set_checked(scale_scores)


READ_LAB = """lab => {
    const text = id => lab.querySelector(`[data-testid="${id}"]`).textContent;
    const count = name => { let k = 0; while (lab.querySelector(`[data-testid="${name}-${k}"]`)) k++; return k; };
    const range = k => Array.from({length: k}, (_, i) => i);
    const n = count("score");
    const width = count("output");
    return {
        token: text("token-name"),
        query: range(count("query")).map(d => text(`query-${d}`)),
        values: range(n).map(j => range(width).map(d => text(`value-${j}-${d}`))),
        parts: range(n).map(j => range(width).map(d => text(`part-${j}-${d}`))),
        scores: range(n).map(j => text(`score-${j}`)),
        scaled: range(n).map(j => text(`scaled-${j}`)),
        visible: range(n).map(j => text(`visible-${j}`)),
        exponentials: range(n).map(j => text(`exp-${j}`)),
        weights: range(n).map(j => text(`weight-${j}`)),
        output: range(width).map(d => text(`output-${d}`)),
        weight_map: range(n).map(i => range(n).map(j => text(`map-${i}-${j}`))),
    };
}"""


def rendered(lab: Locator) -> dict[str, Any]:
    """The numbers the lab shows, as text, keyed like LabResult's fields."""
    return lab.evaluate(READ_LAB)


def as_shown(result: dict[str, Any]) -> dict[str, Any]:
    """What the lab should show for a Python ``compute(...).to_dict()``: 3 decimals, "blocked" for hidden keys,
    ``parts`` each value scaled by its weight."""
    n = len(result["weights"])
    seen = causal_mask(n) if result["controls"]["causal"] else [[True] * n] * n
    return {
        "token": result["token"],
        "query": [fmt(x) for x in result["query"]],
        "values": [[fmt(x) for x in row] for row in result["values"]],
        "parts": [[fmt(w * x) for x in row] for w, row in zip(result["weights"], result["values"])],
        "scores": [fmt(x) for x in result["scores"]],
        "scaled": [fmt(x) for x in result["scaled"]],
        "visible": ["visible" if v else "blocked" for v in result["visible"]],
        "exponentials": [fmt(x) for x in result["exponentials"]],
        "weights": [fmt(x) for x in result["weights"]],
        "output": [fmt(x) for x in result["output"]],
        "weight_map": [[fmt(w) if ok else "blocked" for w, ok in zip(row, vis)]
                       for row, vis in zip(result["weight_map"], seen)],
    }


def watch(page: Page, base: str) -> list[str]:
    """Start recording console errors, page errors and requests outside ``base``; returns the live list."""
    problems: list[str] = []
    local = (base, "data:", "blob:", "about:")
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"uncaught error: {e}"))
    page.on("request", lambda r: None if r.url.startswith(local) else problems.append(f"request to {r.url}"))
    return problems
