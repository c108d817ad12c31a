"""The offline copy in Chromium: downloaded from the site, unzipped, opened from disk, and everything works.

``offline_copy`` is the built site's zip unzipped into a temporary folder;
its pages are opened over file://, and no request may leave that folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from attnlab.cost import readable_bytes
from attnlab.lab import compute
from attnlab.site.figures.widgets import CHECKLIST
from attnlab.site.pages.published import archive_name

from .labpage import as_shown, open_lab, rendered, set_controls, watch
from .pages import SITE_PAGES
from .test_exports import download, expected_rows, read_csv
from .test_search import type_at_once
from .test_site_pages import load_problems


@pytest.fixture
def copy_url(offline_copy: Path) -> str:
    """The unzipped copy's base URL on disk."""
    return offline_copy.as_uri() + "/"


def test_the_footer_offers_the_zip_with_its_size(page: Page, site_url: str, built_site: Path) -> None:
    page.goto(site_url + "softmax.html")
    size = readable_bytes((built_site / archive_name()).stat().st_size)
    expect(page.get_by_test_id("download")).to_have_text(f"Download the whole guide to read offline (ZIP, {size})")


def test_the_home_page_offers_the_zip_with_its_size(page: Page, site_url: str, built_site: Path) -> None:
    page.goto(site_url + "index.html")
    size = readable_bytes((built_site / archive_name()).stat().st_size)
    expect(page.locator(".md-content .attnlab-download a")).to_have_text(
        f"Download the whole guide to read offline (ZIP, {size})")


def test_the_download_is_the_built_zip(page: Page, site_url: str, built_site: Path) -> None:
    page.goto(site_url + "index.html")
    with page.expect_download() as started:
        page.get_by_test_id("download").click()
    saved = started.value
    assert saved.suggested_filename == archive_name()
    assert Path(saved.path()).read_bytes() == (built_site / archive_name()).read_bytes()


def test_search_works_in_the_unzipped_copy(page: Page, copy_url: str) -> None:
    problems = watch(page, copy_url)
    assert "Softmax over visible keys" in type_at_once(page, copy_url + "index.html", "softmax")
    assert problems == []


def test_the_lab_works_in_the_unzipped_copy(page: Page, copy_url: str) -> None:
    problems = watch(page, copy_url)
    lab = open_lab(page, copy_url)
    set_controls(lab, token="grid", query_scale=2.5, causal=False, value_y=-1.5)
    assert rendered(lab) == as_shown(compute("grid", 2.5, False, -1.5).to_dict())
    assert problems == []


@pytest.mark.parametrize("name", SITE_PAGES)
def test_the_page_of_the_copy_loads_from_disk_without_asking_another_host(
        page: Page, copy_url: str, site_pages: list[str], name: str) -> None:
    assert load_problems(page, copy_url, [name]) == {}


def test_the_copy_says_it_is_the_offline_copy_instead_of_offering_itself(page: Page, copy_url: str) -> None:
    page.goto(copy_url + "index.html")
    expect(page.get_by_test_id("offline-copy")).to_have_count(2)  # the page's and the footer's
    assert page.locator("[data-attnlab-download]").count() == 0


def test_the_math_font_loads_in_the_copy(page: Page, copy_url: str) -> None:
    page.goto(copy_url + "scores.html", wait_until="networkidle")
    loaded = "[...document.fonts].some(f => f.family.includes('Attention Lab Math') && f.status === 'loaded')"
    assert page.evaluate(loaded)


def test_progress_is_kept_in_the_copy_across_reloads(page: Page, copy_url: str) -> None:
    page.goto(copy_url + "lab.html")
    page.locator("#step-2").check()
    page.goto(copy_url + "scores.html")
    page.get_by_test_id("read-mark").check()
    page.goto(copy_url + "lab.html")
    page.reload()
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"1 of {len(CHECKLIST)} checks complete")
    assert page.get_by_test_id("nav-read").count() == 1


def test_a_table_downloads_from_the_copy_at_full_precision(page: Page, copy_url: str) -> None:
    assert read_csv(Path(download(page, copy_url, "CSV").path())) == expected_rows()
