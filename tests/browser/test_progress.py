"""The reader's progress (the checklist, the read marks) in localStorage, under keys scoped to the guide and its
version."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

import attnlab
from attnlab.lab import compute
from attnlab.site.figures.widgets import CHECKLIST

from .labpage import NO_STORAGE, as_shown, open_lab, rendered, set_controls, watch
from .test_search import paste_once_ready

KEY_PREFIX = f"attention-lab@{attnlab.__version__}:"
OLD = "attention-lab@0.0.1:"
"""Another version's prefix: its keys are not this version's."""
FORGOTTEN = re.compile("ticks from now on will be forgotten")


@pytest.fixture(scope="module")
def chapters(built_site: Path) -> list[str]:
    """The chapters the build lists for the progress script (assets/guide-data.js)."""
    script = (built_site / "assets" / "guide-data.js").read_text(encoding="utf-8")
    return json.loads(re.search(r"ATTNLAB_GUIDE = (\{.*\});", script, re.S).group(1))["chapters"]


def expect_ticked(page: Page, steps: list[int]) -> None:
    """The checklist counts ``len(steps)`` checks complete, and ``steps`` are the ticked ones."""
    expect(page.get_by_test_id("checklist-count")).to_have_text(f"{len(steps)} of {len(CHECKLIST)} checks complete")
    assert [i for i in range(1, len(CHECKLIST) + 1) if page.locator(f"#step-{i}").is_checked()] == steps


def expect_read(page: Page, done: int, chapters: list[str]) -> None:
    expect(page.get_by_test_id("chapters-read")).to_have_text(f"{done} of {len(chapters)} chapters read")


def nav_marked(page: Page) -> list[str]:
    """The pages the navigation marks as read, by their links' addresses."""
    return page.locator(".md-nav--primary a.md-nav__link", has=page.get_by_test_id("nav-read")).evaluate_all(
        "links => links.map(a => a.getAttribute('href'))")


def mark_read(page: Page, base: str, *names: str) -> None:
    """Open each chapter and tick its "I have read this chapter" box."""
    for name in names:
        page.goto(base + name)
        page.get_by_test_id("read-mark").check()


def ours(page: Page) -> list[str]:
    """The keys in localStorage, the theme's aside (they start with "/")."""
    return sorted(key for key in page.evaluate("Object.keys(localStorage)") if not key.startswith("/"))


def test_the_checklist_counts_ticks_by_mouse_and_keyboard_keeps_them_per_version_merges_with_storage_and_clears(
        page: Page, site_url: str) -> None:
    key = KEY_PREFIX + "checklist"
    stored = f"() => JSON.parse(localStorage.getItem({json.dumps(key)})).sort()"
    store = f"steps => localStorage.setItem({json.dumps(key)}, JSON.stringify(steps))"
    page.goto(site_url + "lab.html")
    page.evaluate("key => localStorage.setItem(key, '[\"1\", \"2\"]')", OLD + "checklist")
    page.reload()
    assert page.get_by_test_id("checklist-count").get_attribute("role") == "status"
    expect_ticked(page, [])  # another version's ticks are not this version's
    for step in (2, 5, 8):
        page.locator(f"#step-{step}").check()
    page.locator("#step-4").focus()
    page.keyboard.press("Space")
    expect_ticked(page, [2, 4, 5, 8])
    for step in (8, 4):
        page.locator(f"#step-{step}").uncheck()
    expect_ticked(page, [2, 5])
    page.reload()
    expect_ticked(page, [2, 5])
    assert ours(page) == sorted([OLD + "checklist", key])
    page.evaluate(store, ["2", "5", "7"])  # another tab's write whose storage event has not come: none fires here
    expect_ticked(page, [2, 5])
    page.locator("#step-1").check()
    assert page.evaluate(stored) == ["1", "2", "5", "7"]
    expect(page.locator("#step-7")).to_be_checked()  # and the page now shows what it merged with
    page.evaluate(store, ["1", "2", "5", "7", "8"])
    page.locator("#step-1").uncheck()  # an untick takes out one step from what storage holds now
    assert page.evaluate(stored) == ["2", "5", "7", "8"]
    page.get_by_test_id("checklist-reset").focus()
    page.keyboard.press("Enter")
    expect_ticked(page, [])
    page.reload()
    expect_ticked(page, [])


AFTER_THE_TEXT = """box => {
    const article = box.closest("article");
    const last = Array.from(article.querySelectorAll("h2, h3")).pop();
    const following = el => el.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING;
    const after = Array.from(article.children).slice(Array.from(article.children).indexOf(box.parentElement) + 1);
    return {afterLastHeading: Boolean(following(last)), after: after.map(el => el.className)};
}"""
"""Whether a chapter's read box comes after its last heading (its last exercise), and what follows it."""


def test_each_chapter_and_only_a_chapter_closes_with_a_read_box(page: Page, site_url: str, site_pages: list[str],
                                                                chapters: list[str]) -> None:
    assert not {"index.html", "404.html", "claims.html", "sources.html", "reference.html", "licenses.html"} & {
        *chapters}
    wrong = {}
    for name in site_pages:
        page.goto(site_url + name)
        box = page.get_by_test_id("read-mark")
        if box.count() != int(name in chapters):
            wrong[name] = box.count()
        elif name in chapters and (where := box.evaluate(AFTER_THE_TEXT)) != {
                "afterLastHeading": True, "after": ["attn-provenance"]}:
            wrong[name] = where  # the box follows the last exercise; only the provenance line follows it
    assert wrong == {}


def test_read_marks_are_kept_per_chapter_and_version_shown_in_the_navigation_counted_at_home_and_forgotten(
        page: Page, site_url: str, chapters: list[str]) -> None:
    page.goto(site_url + "index.html")
    page.evaluate("key => localStorage.setItem(key, '1')", OLD + "read:softmax.html")
    page.reload()
    expect_read(page, 0, chapters)  # another version's mark is not this version's
    page.goto(site_url + "scores.html")
    assert nav_marked(page) == []
    page.get_by_test_id("read-mark").check()
    assert nav_marked(page) == ["scores.html"]  # as soon as it is read
    link = page.locator(".md-nav--primary a.md-nav__link", has=page.get_by_test_id("nav-read"))
    expect(link).to_have_accessible_name(re.compile(r"Scores and scaling\s*\(read\)"))
    page.get_by_test_id("read-mark").uncheck()
    assert nav_marked(page) == []
    mark_read(page, site_url, "scores.html", "heads.html")
    page.goto(site_url + "softmax.html")
    assert not page.get_by_test_id("read-mark").is_checked()
    page.get_by_test_id("read-mark").focus()
    page.keyboard.press("Space")
    expect(page.get_by_test_id("read-mark")).to_be_checked()
    page.goto(site_url + "masking.html")
    assert not page.get_by_test_id("read-mark").is_checked()
    page.goto(site_url + "softmax.html")
    assert page.get_by_test_id("read-mark").is_checked()
    assert nav_marked(page) == ["scores.html", "softmax.html", "heads.html"]
    assert ours(page) == sorted([OLD + "read:softmax.html", *(f"{KEY_PREFIX}read:{name}.html"
                                                              for name in ("scores", "heads", "softmax"))])
    page.goto(site_url + "index.html")
    expect_read(page, 3, chapters)
    page.get_by_test_id("read-reset").focus()
    page.keyboard.press("Enter")
    expect_read(page, 0, chapters)
    assert nav_marked(page) == []
    page.goto(site_url + "softmax.html")
    assert not page.get_by_test_id("read-mark").is_checked()


def test_pages_and_search_from_disk_work_when_storage_throws(context: BrowserContext, site_url: str, file_url: str,
                                                             chapters: list[str]) -> None:
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
    expect_ticked(page, [1])
    page.get_by_test_id("checklist-reset").click()
    expect_ticked(page, [])
    assert page.get_by_test_id("storage-note").is_visible()
    mark_read(page, site_url, "softmax.html")
    assert nav_marked(page) == ["softmax.html"]
    page.goto(site_url + "index.html")
    expect_read(page, 0, chapters)
    page.get_by_test_id("read-reset").click()
    assert page.get_by_test_id("storage-note").is_visible()
    problems = watch(page, file_url)  # from disk the index comes through the iframe-worker shim
    assert "Claims" in paste_once_ready(page, file_url + "index.html", "permutation")
    assert (errors, problems) == ([], [])


def test_a_tick_reaches_the_other_tabs_and_tabs_keep_each_others_ticks(context: BrowserContext, site_url: str,
                                                                       chapters: list[str]) -> None:
    first, second = context.new_page(), context.new_page()
    for tab in (first, second):
        tab.goto(site_url + "lab.html")
    first.locator("#step-6").check()
    expect_ticked(second, [6])  # the storage event told it, without a reload
    second.locator("#step-2").check()
    expect(first.locator("#step-2")).to_be_checked()
    for tab in (first, second):
        tab.reload()
        expect_ticked(tab, [2, 6])
        tab.goto(site_url + "softmax.html")
    first.get_by_test_id("read-mark").check()
    expect(second.get_by_test_id("read-mark")).to_be_checked()
    mark_read(second, site_url, "masking.html")
    second.goto(site_url + "index.html")
    expect_read(second, 2, chapters)


FAILING_WRITES = """() => {
    Storage.prototype.setItem = function () { throw new DOMException("the quota is exceeded", "QuotaExceededError"); };
    Storage.prototype.removeItem = Storage.prototype.setItem;
}"""
"""Make every later write to web storage fail, as a full quota does (reads still work)."""


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


def test_a_failed_write_is_kept_for_the_visit_with_a_note_and_a_full_quota_still_shows_and_clears_progress(
        page: Page, site_url: str, chapters: list[str]) -> None:
    mark_read(page, site_url, "softmax.html")
    page.goto(site_url + "lab.html")
    for step in (2, 5):
        page.locator(f"#step-{step}").check()  # stored
    note = page.get_by_test_id("storage-lost").first
    expect(note).to_have_text("")
    page.evaluate(FAILING_WRITES)
    page.locator("#step-1").check()
    expect(note).to_have_text(FORGOTTEN)
    expect_ticked(page, [1, 2, 5])
    page.reload()  # the failed tick is gone, the stored ones stay
    expect_ticked(page, [2, 5])
    page.goto(site_url + "scores.html")
    page.evaluate(FAILING_WRITES)
    page.get_by_test_id("read-mark").check()
    expect(page.locator(".attnlab-read").get_by_test_id("storage-lost")).to_have_text(FORGOTTEN)
    assert nav_marked(page) == ["scores.html", "softmax.html"]
    page.goto(site_url + "lab.html")
    assert page.evaluate(FILL_THE_QUOTA) == "QuotaExceededError"
    page.reload()
    expect_ticked(page, [2, 5])
    expect(note).to_have_text(FORGOTTEN)
    page.get_by_test_id("checklist-reset").click()
    expect_ticked(page, [])
    page.goto(site_url + "index.html")
    expect_read(page, 1, chapters)
    assert nav_marked(page) == ["softmax.html"]
    page.evaluate(FREE_THE_QUOTA)
    page.goto(site_url + "lab.html")  # the ticks do not come back once there is space again
    expect_ticked(page, [])
