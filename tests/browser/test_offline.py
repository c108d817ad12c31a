"""The offline copy in Chromium: downloaded from the site, unzipped (``offline_copy``), opened from disk, and
everything works with no request leaving its folder."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

from attnlab.cost import readable_bytes
from attnlab.lab import compute
from attnlab.site.figures.widgets import CHECKLIST
from attnlab.site.pages.published import archive_name

from .labpage import as_shown, open_lab, rendered, set_controls, watch
from .test_exports import download, expected_rows, read_csv
from .test_search import type_at_once


def test_the_home_page_and_the_footer_offer_the_built_zip_with_its_size(page: Page, site_url: str,
                                                                         built_site: Path) -> None:
    page.goto(site_url + "index.html")
    size = readable_bytes((built_site / archive_name()).stat().st_size)
    offer = f"Download the whole guide to read offline (ZIP, {size})"
    expect(page.locator(".md-content .attnlab-download a")).to_have_text(offer)
    expect(page.get_by_test_id("download")).to_have_text(offer)
    with page.expect_download() as started:
        page.get_by_test_id("download").click()
    assert started.value.suggested_filename == archive_name()
    assert Path(started.value.path()).read_bytes() == (built_site / archive_name()).read_bytes()


def test_every_page_loads_from_disk_without_asking_another_host(context: BrowserContext, file_url: str,
                                                                offline_copy: Path, site_pages: list[str]) -> None:
    found = {}
    for base in (file_url, offline_copy.as_uri() + "/"):  # the built site, and the unzipped copy
        page = context.new_page()
        problems = watch(page, base)
        for name in site_pages:
            page.goto(base + name, wait_until="networkidle")
            if problems:
                found[base + name] = list(problems)
                problems.clear()
    assert found == {}


def test_search_the_lab_the_font_progress_and_downloads_work_in_the_unzipped_copy_which_shares_progress(
        page: Page, offline_copy: Path, file_url: str) -> None:
    copy_url = offline_copy.as_uri() + "/"
    problems = watch(page, copy_url)
    assert "Softmax over visible keys" in type_at_once(page, copy_url + "index.html", "softmax")
    expect(page.get_by_test_id("offline-copy")).to_have_count(2)  # the page's and the footer's, instead of the zip
    assert page.locator("[data-attnlab-download]").count() == 0
    lab = open_lab(page, copy_url)
    set_controls(lab, token="grid", query_scale=2.5, causal=False, value_y=-1.5)
    assert rendered(lab) == as_shown(compute("grid", 2.5, False, -1.5).to_dict())
    page.locator("#step-2").check()
    page.goto(copy_url + "scores.html", wait_until="networkidle")
    loaded = "[...document.fonts].some(f => f.family.includes('Attention Lab Math') && f.status === 'loaded')"
    assert page.evaluate(loaded), "the math font loads"
    page.get_by_test_id("read-mark").check()
    page.goto(copy_url + "lab.html")
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"1 of {len(CHECKLIST)} checks complete")
    assert page.get_by_test_id("nav-read").count() == 1
    assert read_csv(Path(download(page, copy_url, "CSV").path())) == expected_rows(), "a table at full precision"
    assert problems == []
    page.goto(file_url + "scores.html")  # another copy of this version, in another folder, shares the mark
    expect(page.get_by_test_id("read-mark")).to_be_checked()
