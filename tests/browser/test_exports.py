"""A page's download control gives a weight map's numbers as attnlab computes them, to the last bit."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from playwright.sync_api import Download, Locator, Page, expect

from attnlab import causal
from attnlab.lab import TOKENS, compute

MAP_CAPTION = "Causal attention weights of the toy"
"""The weight map on masking.html whose download the tests take."""
PHONE = {"width": 390, "height": 844}


def entry(page: Page) -> Locator:
    """The line of masking.html's download control that lists the causal weight map."""
    return page.locator("details.attnlab-downloads li", has_text=MAP_CAPTION)


def download(page: Page, base: str, kind: str) -> Download:
    """Open masking.html under ``base`` and its download control, and click the weight map's ``kind`` link."""
    page.goto(base + "masking.html")
    page.locator("details.attnlab-downloads > summary").click()
    with page.expect_download() as started:
        entry(page).get_by_role("link", name=re.compile(f"^{kind} of table \\d+$")).click()
    return started.value


def expected_rows() -> list[list[float | str]]:
    """The toy's causal weight map as attnlab computes it: a row label, then each weight or "blocked"."""
    seen = causal(len(TOKENS))
    return [[token, *(w if ok else "blocked" for w, ok in zip(row, visible))]
            for token, row, visible in zip(TOKENS, compute().weight_map, seen)]


def read_csv(path: Path) -> list[list[float | str]]:
    """A downloaded CSV's rows after the header, numbers parsed back to floats."""
    def cell(text: str) -> float | str:
        try:
            return float(text)
        except ValueError:
            return text
    rows = list(csv.reader(path.open(encoding="utf-8", newline="")))
    return [[row[0], *map(cell, row[1:])] for row in rows[1:]]


def test_a_weight_map_downloads_at_full_precision_by_keyboard_on_a_phone_from_links_named_for_it(
        page: Page, site_url: str) -> None:
    page.set_viewport_size(PHONE)
    page.goto(site_url + "masking.html")
    control = page.locator("details.attnlab-downloads")
    expect(control).to_have_count(1)
    expect(control).to_have_attribute("title", re.compile("page rounds"))
    control.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(control).to_have_attribute("open", "")
    first = control.get_by_role("link").first
    page.keyboard.press("Tab")
    expect(first).to_be_focused()
    expect(first).to_be_in_viewport()
    box = control.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    with page.expect_download() as started:
        page.keyboard.press("Enter")
    assert started.value.suggested_filename == "masking-1.csv"
    with page.expect_download() as started:
        entry(page).get_by_role("link", name=re.compile(r"^JSON of table \d+$")).click()
    data = json.loads(Path(started.value.path()).read_text(encoding="utf-8"))
    assert data["rows"] == expected_rows()
    assert "rounded" in data["note"]
    saved = download(page, site_url, "CSV")
    assert saved.suggested_filename.endswith(".csv")
    assert read_csv(Path(saved.path())) == expected_rows()
