"""The checklist and the per-chapter read marks persist in localStorage, reset, and survive without storage."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page

from attnlab.lab import compute
from attnlab.site.widgets import CHECKLIST

from .labpage import as_shown, open_lab, rendered, set_controls

pytestmark = pytest.mark.browser

NO_STORAGE = """
for (const name of ["localStorage", "sessionStorage"]) {
    Object.defineProperty(window, name, {
        configurable: true,
        get() { throw new DOMException("storage is disabled", "SecurityError"); },
    });
}
"""
"""Init script that makes every use of web storage throw, as blocked site data does."""


def ticked(page: Page) -> list[bool]:
    return [page.locator(f"#step-{i}").is_checked() for i in range(1, len(CHECKLIST) + 1)]


def test_checklist_ticks_survive_a_reload(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    page.locator("#step-2").check()
    page.locator("#step-5").check()
    page.reload()
    assert ticked(page) == [i in (2, 5) for i in range(1, len(CHECKLIST) + 1)]


def test_clearing_the_checklist_unticks_it_for_good(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    page.locator("#step-3").check()
    page.get_by_test_id("checklist-reset").click()
    assert not any(ticked(page))
    page.reload()
    assert not any(ticked(page))


def test_every_chapter_gets_a_read_mark(page: Page, site_url: str, site_pages: list[str]) -> None:
    missing = []
    for name in site_pages:
        if name == "404.html":
            continue
        page.goto(site_url + name)
        if page.get_by_test_id("read-mark").count() != 1:
            missing.append(name)
    assert missing == []


def test_read_marks_are_kept_per_chapter(page: Page, site_url: str) -> None:
    page.goto(site_url + "softmax.html")
    page.get_by_test_id("read-mark").check()
    page.goto(site_url + "masking.html")
    assert not page.get_by_test_id("read-mark").is_checked()
    page.goto(site_url + "softmax.html")
    assert page.get_by_test_id("read-mark").is_checked()


def test_read_marks_persist_from_disk_too(page: Page, file_url: str) -> None:
    page.goto(file_url + "softmax.html")
    page.get_by_test_id("read-mark").check()
    page.reload()
    assert page.get_by_test_id("read-mark").is_checked()


def test_clearing_read_marks_forgets_every_chapter(page: Page, site_url: str) -> None:
    page.goto(site_url + "softmax.html")
    page.get_by_test_id("read-mark").check()
    page.goto(site_url + "lab.html")
    page.get_by_test_id("read-mark").check()
    page.get_by_test_id("read-reset").click()
    assert not page.get_by_test_id("read-mark").is_checked()
    page.goto(site_url + "softmax.html")
    assert not page.get_by_test_id("read-mark").is_checked()


def test_pages_work_when_storage_throws(context: BrowserContext, site_url: str) -> None:
    # Neither the lab's scripts nor the theme's (guarded by docs/assets/storage-guard.js) may throw.
    context.add_init_script(NO_STORAGE)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{e}\n{e.stack}"))
    lab = open_lab(page, site_url)
    assert page.evaluate("() => { try { localStorage; return false; } catch (e) { return true; } }")
    set_controls(lab, token="load", query_scale=2, causal=False)
    assert rendered(lab) == as_shown(compute("load", 2.0, False).to_dict())
    page.locator("#step-1").check()
    page.get_by_test_id("read-mark").check()
    page.get_by_test_id("checklist-reset").click()
    page.get_by_test_id("read-reset").click()
    assert not any(ticked(page))
    assert page.get_by_test_id("storage-note").is_visible()
    assert errors == []
