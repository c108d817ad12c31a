"""The guide's additions to the theme's pages (``overrides/``, ``docs/assets/``): the storage guard, accessible
names, the 404 page; ``tests/browser/test_progress.py`` tries them in a browser."""

from __future__ import annotations

import re
from pathlib import Path

from test_site import pages

THEME_HELPERS = "__md_get=(e,_=localStorage"
"""The start of the theme's definition of its storage helpers (an inline script in the page head)."""
GUARD = 'assets/storage-guard.js"></script>'
"""The guard's script tag, as pages address it (``assets/…``, or ``./assets/…`` on the 404 page)."""


def test_every_page_loads_the_theme_names_and_the_guard_after_the_theme_defines_its_helpers_and_before_the_palette(
        built_site: Path) -> None:
    wrong = [p.name for p in pages(built_site) if not 0 <= (html := p.read_text(encoding="utf-8")).find(THEME_HELPERS)
             < html.find(GUARD) < html.find('__md_get("__palette")')]
    assert wrong == []
    missing = [p.name for p in pages(built_site)
               if not re.search(r'src="(\./)?assets/theme-names\.js"', p.read_text(encoding="utf-8"))]
    assert missing == [], "the theme-names script"


def test_the_not_found_page_addresses_every_asset_relative_to_itself(built_site: Path) -> None:
    html = (built_site / "404.html").read_text(encoding="utf-8")
    for attribute in ("href", "src"):
        assert re.findall(rf'{attribute}="\./assets/', html) and re.findall(rf'{attribute}="(/[^"]*)"', html) == []
