"""axe-core's serious and critical findings on a page at rest: transitions and animations off first, since a text
caught mid-fade (the theme's header fades to the page title) has its contrast measured against a half-transparent
colour."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

SERIOUS = ("serious", "critical")
AT_REST = "*, *::before, *::after { transition: none !important; animation: none !important; }"


def serious_violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the open page, with up to three places each."""
    page.add_style_tag(content=AT_REST)
    violations = Axe().run(page).response["violations"]
    return [f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
            for v in violations if v["impact"] in SERIOUS]
