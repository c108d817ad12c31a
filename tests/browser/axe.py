"""axe-core's serious and critical findings on a page at rest.

The theme animates some of its chrome (the header swaps to the page title
with a fade once the page scrolls); caught mid-fade, a text's contrast is
measured against a half-transparent colour. So transitions and animations
are switched off first: axe then judges what the reader sees once the page
has settled, whatever the machine's speed.
"""

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
