"""The page's attnlab.compute returns Python's numbers (to 1e-12) under JavaScript's names (its refusals, the same
file's: tests/node/test_lab_js_node.py)."""

from __future__ import annotations

from playwright.sync_api import Page

from attnlab.lab import compute

from .agreement import assert_agrees, control_settings, in_javascript_terms
from .labpage import open_lab


def test_page_compute_agrees_with_python_over_810_settings_and_fills_missing_controls(page: Page,
                                                                                      site_url: str) -> None:
    settings = control_settings()
    assert len(settings) >= 500
    open_lab(page, site_url)
    results = page.evaluate("settings => settings.map(c => attnlab.compute(c))", settings)
    for controls, js in zip(settings, results, strict=True):
        assert_agrees(js, in_javascript_terms(compute(controls).to_dict()), where=f"compute({controls})")
    assert_agrees(
        page.evaluate("attnlab.compute({token: 'grid'})"), in_javascript_terms(compute({"token": "grid"}).to_dict())
    )
