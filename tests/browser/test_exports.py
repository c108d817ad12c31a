"""A reader downloads a weight map's numbers and gets attnlab's, to the last bit, from a server and from disk."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Download, Page, expect

from attnlab import causal
from attnlab.lab import TOKENS, compute

MAP_CAPTION = "Causal attention weights of the toy"
"""The weight map on masking.html whose download the tests take."""


def download(page: Page, base: str, kind: str) -> Download:
    """Open masking.html under ``base`` and click the ``kind`` link (CSV or JSON) under the causal weight map."""
    page.goto(base + "masking.html")
    weights = page.locator("table.attn-map", has=page.locator("caption", has_text=MAP_CAPTION))
    link = weights.locator("xpath=following::p[contains(@class, 'attnlab-export')][1]").get_by_role("link", name=kind)
    with page.expect_download() as started:
        link.click()
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


def test_each_download_link_is_named_by_what_it_downloads(page: Page, site_url: str) -> None:
    page.goto(site_url + "masking.html")
    weights = page.locator("table.attn-map", has=page.locator("caption", has_text=MAP_CAPTION))
    control = weights.locator("xpath=following::p[contains(@class, 'attnlab-export')][1]")
    for kind in ("CSV", "JSON"):
        expect(control.get_by_role("link", name=kind)).to_have_accessible_name(f"{kind} of this table, every digit")
    expect(control).to_have_attribute("title", re.compile("page rounds"))
    assert "Full precision (the page rounds)" not in page.locator("article").inner_text()


@pytest.mark.parametrize("base", ["site_url", "file_url"])
def test_the_downloaded_csv_equals_attnlab_at_full_precision(page: Page, base: str,
                                                              request: pytest.FixtureRequest) -> None:
    saved = download(page, request.getfixturevalue(base), "CSV")
    assert saved.suggested_filename.endswith(".csv")
    assert read_csv(Path(saved.path())) == expected_rows()


def test_the_downloaded_json_holds_the_same_numbers_and_says_the_page_rounds(page: Page, site_url: str) -> None:
    data = json.loads(Path(download(page, site_url, "JSON").path()).read_text(encoding="utf-8"))
    assert data["rows"] == expected_rows()
    assert "rounded" in data["note"]
