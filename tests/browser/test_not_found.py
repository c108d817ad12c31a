"""The not-found page is styled wherever the site lives: at a server's root, under a sub-path, on disk."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import BrowserContext

from .conftest import served
from .labpage import watch

STYLED = """() => {
    const header = document.querySelector(".md-header");
    return Boolean(header) && getComputedStyle(header).position === "sticky"
        && [...document.styleSheets].some(sheet => sheet.href && sheet.href.includes("/assets/stylesheets/"));
}"""
"""Whether the theme's stylesheet reached the page (its header is sticky only when styled)."""


def test_not_found_page_is_styled_at_a_servers_root_under_a_sub_path_and_on_disk(
        context: BrowserContext, built_site: Path, site_url: str, file_url: str) -> None:
    with served(built_site.parent) as parent:  # the site lives under the sub-path /<folder>/
        for base in (site_url, parent + built_site.name + "/", file_url):
            page = context.new_page()
            problems = watch(page, base)
            page.goto(base + "404.html", wait_until="networkidle")
            assert (page.evaluate(STYLED), problems) == (True, []), base
