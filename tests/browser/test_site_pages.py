"""Every page of the built site: no console errors, no requests off the machine, no serious axe violations."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from .axe import serious_violations
from .labpage import watch
from .pages import SITE_PAGES


def load_problems(page: Page, base: str, pages: list[str]) -> dict[str, list[str]]:
    """Open each page under ``base``; return the pages that logged errors or asked another host."""
    problems = watch(page, base)
    found = {}
    for name in pages:
        page.goto(base + name, wait_until="networkidle")
        if problems:
            found[name] = list(problems)
            problems.clear()
    return found


@pytest.mark.parametrize("name", SITE_PAGES)
def test_the_page_loads_cleanly_from_the_local_server(page: Page, site_url: str, site_pages: list[str],
                                                      name: str) -> None:
    assert load_problems(page, site_url, [name]) == {}


@pytest.mark.parametrize("name", SITE_PAGES)
def test_the_page_loads_cleanly_from_disk(page: Page, file_url: str, site_pages: list[str], name: str) -> None:
    assert load_problems(page, file_url, [name]) == {}


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("name", SITE_PAGES)
def test_the_page_has_no_serious_accessibility_violation(page: Page, site_url: str, site_pages: list[str],
                                                         name: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(site_url + name, wait_until="networkidle")
    assert serious_violations(page) == []


def test_the_lab_is_accessible_on_a_phone_sized_screen(page: Page, site_url: str) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(site_url + "lab.html", wait_until="networkidle")
    assert serious_violations(page) == []
