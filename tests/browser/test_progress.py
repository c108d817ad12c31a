"""The reader's progress: the checklist and its count, the read marks in the navigation and on the home page.

Everything persists in localStorage under keys scoped to the guide and its
version, survives reloads, resets, and works for the visit without storage.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

import attnlab
from attnlab.lab import compute
from attnlab.site.figures.widgets import CHECKLIST

from .labpage import as_shown, open_lab, rendered, set_controls
from .pages import SITE_PAGES

NO_STORAGE = """
for (const name of ["localStorage", "sessionStorage"]) {
    Object.defineProperty(window, name, {
        configurable: true,
        get() { throw new DOMException("storage is disabled", "SecurityError"); },
    });
}
"""
"""Init script that makes every use of web storage throw, as blocked site data does."""

REFERENCE_PAGES = ("claims.html", "sources.html", "reference.html", "licenses.html")
KEY_PREFIX = f"attention-lab@{attnlab.__version__}:"


@pytest.fixture(scope="module")
def chapters(built_site: Path) -> list[str]:
    """The chapters the build lists for the progress script (assets/guide-data.js)."""
    script = (built_site / "assets" / "guide-data.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"ATTNLAB_GUIDE = (\{.*\});", script, re.S).group(1))["chapters"]


def ticked(page: Page) -> list[bool]:
    return [page.locator(f"#step-{i}").is_checked() for i in range(1, len(CHECKLIST) + 1)]


def nav_marked(page: Page) -> list[str]:
    """The pages the navigation marks as read, by their links' addresses."""
    return page.locator(".md-nav--primary a.md-nav__link", has=page.get_by_test_id("nav-read")).evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")


def mark_read(page: Page, base: str, *names: str) -> None:
    """Open each chapter and tick its "I have read this chapter" box."""
    for name in names:
        page.goto(base + name)
        page.get_by_test_id("read-mark").check()


# --- the checklist ---------------------------------------------------------------------------------------


def test_checklist_ticks_survive_a_reload(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    page.locator("#step-2").check()
    page.locator("#step-5").check()
    page.reload()
    assert ticked(page) == [i in (2, 5) for i in range(1, len(CHECKLIST) + 1)]


def test_the_checklist_counts_its_ticks_as_they_change(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    count = page.get_by_test_id("checklist-count")
    expect(count).to_have_text(f"0 of {len(CHECKLIST)} checks complete")
    page.locator("#step-1").check()
    page.locator("#step-8").check()
    expect(count).to_have_text(f"2 of {len(CHECKLIST)} checks complete")
    page.locator("#step-1").uncheck()
    expect(count).to_have_text(f"1 of {len(CHECKLIST)} checks complete")


def test_the_checklist_count_is_announced_politely(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    assert page.get_by_test_id("checklist-count").get_attribute("role") == "status"


def test_the_checklist_count_survives_a_visit_elsewhere_and_a_reload(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    for step in (3, 4, 6):
        page.locator(f"#step-{step}").check()
    page.goto(site_url + "experiments.html")
    page.goto(site_url + "lab.html")  # the checklist's one home
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"3 of {len(CHECKLIST)} checks complete")
    page.reload()
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"3 of {len(CHECKLIST)} checks complete")


def test_clearing_the_checklist_unticks_it_for_good(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    page.locator("#step-3").check()
    page.get_by_test_id("checklist-reset").click()
    assert not any(ticked(page))
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"0 of {len(CHECKLIST)} checks complete")
    page.reload()
    assert not any(ticked(page))


# --- read marks ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SITE_PAGES)
def test_a_page_has_a_read_box_if_and_only_if_it_is_a_chapter(page: Page, site_url: str, site_pages: list[str],
                                                             chapters: list[str], name: str) -> None:
    page.goto(site_url + name)
    assert page.get_by_test_id("read-mark").count() == int(name in chapters)


AFTER_THE_TEXT = """box => {
    const article = box.closest("article");
    const last = Array.from(article.querySelectorAll("h2, h3")).pop();
    const following = el => el.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING;
    const after = Array.from(article.children).slice(Array.from(article.children).indexOf(box.parentElement) + 1);
    return {afterLastHeading: Boolean(following(last)), after: after.map(el => el.className)};
}"""
"""Whether a chapter's read box comes after its last heading (its last exercise), and what follows it."""


@pytest.mark.parametrize("name", ["rows.html", "softmax.html", "real-model.html"])
def test_the_read_box_closes_the_chapter_after_its_exercises(page: Page, site_url: str, name: str) -> None:
    page.goto(site_url + name)
    box = page.get_by_test_id("read-mark")
    where = box.evaluate(AFTER_THE_TEXT)
    assert where == {"afterLastHeading": True, "after": ["attn-provenance"]}, \
        "the box follows the last exercise, and only the line naming what computed the page follows it"


@pytest.mark.parametrize("name", ["index.html", "404.html", *REFERENCE_PAGES])
def test_home_and_reference_pages_are_not_chapters(chapters: list[str], name: str) -> None:
    assert name not in chapters


def test_read_marks_are_kept_per_chapter(page: Page, site_url: str) -> None:
    mark_read(page, site_url, "softmax.html")
    page.goto(site_url + "masking.html")
    assert not page.get_by_test_id("read-mark").is_checked()
    page.goto(site_url + "softmax.html")
    assert page.get_by_test_id("read-mark").is_checked()


def test_read_marks_persist_from_disk_too(page: Page, file_url: str) -> None:
    mark_read(page, file_url, "softmax.html")
    page.reload()
    assert page.get_by_test_id("read-mark").is_checked()


def test_the_navigation_marks_a_chapter_as_soon_as_it_is_read(page: Page, site_url: str) -> None:
    page.goto(site_url + "mixing.html")
    assert nav_marked(page) == []
    page.get_by_test_id("read-mark").check()
    assert nav_marked(page) == ["mixing.html"]
    page.get_by_test_id("read-mark").uncheck()
    assert nav_marked(page) == []


def test_the_navigation_marks_chapters_read_across_reloads(page: Page, site_url: str) -> None:
    mark_read(page, site_url, "softmax.html", "heads.html")
    page.goto(site_url + "rows.html")
    assert nav_marked(page) == ["softmax.html", "heads.html"]
    page.reload()
    assert nav_marked(page) == ["softmax.html", "heads.html"]


def test_a_read_mark_in_the_navigation_is_spoken_as_read(page: Page, site_url: str) -> None:
    mark_read(page, site_url, "scores.html")
    link = page.locator(".md-nav--primary a.md-nav__link", has=page.get_by_test_id("nav-read"))
    expect(link).to_have_accessible_name(re.compile(r"Scores and scaling\s*\(read\)"))


def test_the_home_page_counts_the_chapters_read(page: Page, site_url: str, chapters: list[str]) -> None:
    page.goto(site_url + "index.html")
    count = page.get_by_test_id("chapters-read")
    expect(count).to_have_text(f"0 of {len(chapters)} chapters read")
    mark_read(page, site_url, "rows.html", "scores.html", "softmax.html")
    page.goto(site_url + "index.html")
    expect(count).to_have_text(f"3 of {len(chapters)} chapters read")
    page.reload()
    expect(count).to_have_text(f"3 of {len(chapters)} chapters read")


def test_the_home_page_reset_forgets_every_chapter(page: Page, site_url: str, chapters: list[str]) -> None:
    mark_read(page, site_url, "softmax.html", "masking.html")
    page.goto(site_url + "index.html")
    page.get_by_test_id("read-reset").click()
    expect(page.get_by_test_id("chapters-read")).to_have_text(f"0 of {len(chapters)} chapters read")
    assert nav_marked(page) == []
    page.goto(site_url + "softmax.html")
    assert not page.get_by_test_id("read-mark").is_checked()
    assert nav_marked(page) == []


# --- storage ----------------------------------------------------------------------------------------------


def test_every_key_is_scoped_to_the_guide_and_its_version(page: Page, site_url: str) -> None:
    mark_read(page, site_url, "softmax.html")
    page.goto(site_url + "lab.html")
    page.locator("#step-1").check()
    keys = page.evaluate("Object.keys(localStorage)")
    ours = [key for key in keys if not key.startswith("/")]  # the theme's keys start with the site's path
    assert sorted(ours) == [f"{KEY_PREFIX}checklist", f"{KEY_PREFIX}read:softmax.html"]


def test_another_versions_ticks_are_not_this_versions(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    page.evaluate("""() => {
        localStorage.setItem("attention-lab@0.0.1:read:softmax.html", "1");
        localStorage.setItem("attention-lab@0.0.1:checklist", '["1", "2"]');
    }""")
    page.reload()
    assert not any(ticked(page))
    page.goto(site_url + "softmax.html")
    assert not page.get_by_test_id("read-mark").is_checked()


def test_two_copies_of_one_version_on_disk_share_progress(page: Page, built_site: Path, tmp_path: Path) -> None:
    import shutil
    copy = tmp_path / "copy"
    shutil.copytree(built_site, copy)
    mark_read(page, built_site.as_uri() + "/", "positions.html")
    page.goto(copy.as_uri() + "/positions.html")
    assert page.get_by_test_id("read-mark").is_checked()


def test_pages_work_when_storage_throws(context: BrowserContext, site_url: str, chapters: list[str]) -> None:
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
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"1 of {len(CHECKLIST)} checks complete")
    page.get_by_test_id("checklist-reset").click()
    assert not any(ticked(page))
    assert page.get_by_test_id("storage-note").is_visible()
    page.goto(site_url + "softmax.html")
    page.get_by_test_id("read-mark").check()
    assert nav_marked(page) == ["softmax.html"]
    page.goto(site_url + "index.html")
    expect(page.get_by_test_id("chapters-read")).to_have_text(f"0 of {len(chapters)} chapters read")
    page.get_by_test_id("read-reset").click()
    assert page.get_by_test_id("storage-note").is_visible()
    assert errors == []


# --- several tabs, and storage that fails after load ------------------------------------------------------


def test_two_tabs_ticking_different_steps_keep_both_after_a_reload(context: BrowserContext, site_url: str) -> None:
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):  # both load before either ticks: each holds the same, soon stale, copy
        tab.goto(site_url + "lab.html")
        expect(tab.get_by_test_id("checklist-count")).to_have_text(f"0 of {len(CHECKLIST)} checks complete")
    first.locator("#step-1").check()
    second.locator("#step-2").check()
    for tab in (first, second):
        tab.reload()
        expect(tab.locator("#step-1")).to_be_checked()
        expect(tab.locator("#step-2")).to_be_checked()
        assert ticked(tab) == [i in (1, 2) for i in range(1, len(CHECKLIST) + 1)]


def test_unticking_in_one_tab_leaves_the_other_tabs_ticks(context: BrowserContext, site_url: str) -> None:
    first, second = context.new_page(), context.new_page()
    first.goto(site_url + "lab.html")
    for step in (3, 4):
        first.locator(f"#step-{step}").check()
    second.goto(site_url + "lab.html")
    first.locator("#step-5").check()
    second.locator("#step-3").uncheck()  # second never saw step 5 ticked when it loaded
    first.reload()
    expect(first.get_by_test_id("checklist-count")).to_have_text(f"2 of {len(CHECKLIST)} checks complete")
    assert ticked(first) == [i in (4, 5) for i in range(1, len(CHECKLIST) + 1)]


def test_a_tick_in_one_tab_shows_in_the_other_without_a_reload(context: BrowserContext, site_url: str) -> None:
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        tab.goto(site_url + "lab.html")
    first.locator("#step-6").check()
    expect(second.locator("#step-6")).to_be_checked()  # the storage event told it
    expect(second.get_by_test_id("checklist-count")).to_have_text(f"1 of {len(CHECKLIST)} checks complete")
    for tab in (first, second):
        tab.goto(site_url + "softmax.html")
    first.get_by_test_id("read-mark").check()
    expect(second.get_by_test_id("read-mark")).to_be_checked()


def test_two_tabs_marking_different_chapters_read_keep_both(context: BrowserContext, site_url: str,
                                                            chapters: list[str]) -> None:
    first, second = context.new_page(), context.new_page()
    first.goto(site_url + "softmax.html")
    second.goto(site_url + "masking.html")
    first.get_by_test_id("read-mark").check()
    second.get_by_test_id("read-mark").check()
    second.goto(site_url + "index.html")
    expect(second.get_by_test_id("chapters-read")).to_have_text(f"2 of {len(chapters)} chapters read")


FAILING_WRITES = """() => {
    Storage.prototype.setItem = function () { throw new DOMException("the quota is exceeded", "QuotaExceededError"); };
    Storage.prototype.removeItem = Storage.prototype.setItem;
}"""
"""Make every later write to web storage fail, as a full quota does (reads still work)."""


def test_a_write_that_fails_after_load_tells_the_reader_and_keeps_the_tick_for_the_visit(page: Page,
                                                                                      site_url: str) -> None:
    page.goto(site_url + "lab.html")
    page.locator("#step-1").check()  # stored
    note = page.get_by_test_id("storage-lost").first
    expect(note).to_have_text("")
    page.evaluate(FAILING_WRITES)
    page.locator("#step-2").check()
    expect(note).to_have_text(re.compile("ticks from now on will be forgotten"))
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"2 of {len(CHECKLIST)} checks complete")
    assert ticked(page)[:2] == [True, True]
    page.reload()  # the failed tick is gone, the stored one stays
    assert ticked(page)[:2] == [True, False]


def test_a_read_mark_that_cannot_be_stored_says_so_under_the_box(page: Page, site_url: str) -> None:
    page.goto(site_url + "scores.html")
    page.evaluate(FAILING_WRITES)
    page.get_by_test_id("read-mark").check()
    expect(page.locator(".attnlab-read").get_by_test_id("storage-lost")).to_have_text(
        re.compile("ticks from now on will be forgotten"))
    assert nav_marked(page) == ["scores.html"]


def test_a_tick_merges_with_what_storage_holds_even_before_the_page_hears_of_it(page: Page, site_url: str) -> None:
    # another tab's write whose storage event has not arrived yet: written here, where no event fires at all
    page.goto(site_url + "lab.html")
    page.evaluate(f"() => localStorage.setItem({json.dumps(KEY_PREFIX + 'checklist')}, JSON.stringify(['7']))")
    assert not page.locator("#step-7").is_checked()  # the page has not seen it
    page.locator("#step-1").check()
    stored = page.evaluate(f"() => JSON.parse(localStorage.getItem({json.dumps(KEY_PREFIX + 'checklist')}))")
    assert sorted(stored) == ["1", "7"]
    expect(page.locator("#step-7")).to_be_checked()  # and the page now shows what it merged with


FILL_THE_QUOTA = """() => {
    let size = 1 << 22, count = 0;
    while (size > 0) {
        try { localStorage.setItem(`filler-${count++}`, "x".repeat(size)); } catch (error) { size >>= 1; }
    }
    try { localStorage.setItem("one-more", "x"); return false; } catch (error) { return error.name; }
}"""
"""Fill this origin's storage quota with keys of no meaning to the guide; returns the error a write now raises."""
FREE_THE_QUOTA = """() => Object.keys(localStorage).filter(key => key.startsWith("filler-"))
    .forEach(key => localStorage.removeItem(key))"""


def test_ticks_and_read_marks_stored_before_the_quota_filled_still_show(page: Page, site_url: str,
                                                                       chapters: list[str]) -> None:
    mark_read(page, site_url, "softmax.html")
    page.goto(site_url + "lab.html")
    for step in (2, 5):
        page.locator(f"#step-{step}").check()
    assert page.evaluate(FILL_THE_QUOTA) == "QuotaExceededError"
    page.reload()
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"2 of {len(CHECKLIST)} checks complete")
    assert ticked(page) == [i in (2, 5) for i in range(1, len(CHECKLIST) + 1)]
    expect(page.get_by_test_id("storage-lost").first).to_have_text(re.compile("ticks from now on will be forgotten"))
    page.goto(site_url + "index.html")
    expect(page.get_by_test_id("chapters-read")).to_have_text(f"1 of {len(chapters)} chapters read")
    assert nav_marked(page) == ["softmax.html"]


def test_clearing_the_checklist_with_the_quota_full_clears_it_for_good(page: Page, site_url: str) -> None:
    page.goto(site_url + "lab.html")
    page.locator("#step-3").check()
    assert page.evaluate(FILL_THE_QUOTA) == "QuotaExceededError"
    page.reload()
    page.get_by_test_id("checklist-reset").click()
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"0 of {len(CHECKLIST)} checks complete")
    page.evaluate(FREE_THE_QUOTA)
    page.reload()  # the ticks do not come back once there is space again
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"0 of {len(CHECKLIST)} checks complete")
    assert not any(ticked(page))
