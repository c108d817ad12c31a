"""The code a reader sees is the maths: no highlighted listing on a built page (Source tabs included) imports
``attnlab.site``, whose helpers a block keeps after its ``#| hide`` line."""

from __future__ import annotations

import re
from pathlib import Path

from page_blocks import listings, page, parsed
from test_site import pages

SITE_IMPORT = re.compile(r"^\s*(?:from\s+attnlab\.site\b|import\s+attnlab\.site\b)", re.M)
"""A line that imports the machinery that builds the guide."""


def site_imports(listings: list[str]) -> list[str]:
    """The lines of ``listings`` that import ``attnlab.site``."""
    return [line.strip() for text in listings for line in text.split("\n") if SITE_IMPORT.match(line)]


def test_a_listing_importing_the_machinery_is_found_and_the_maths_imports_and_prose_are_not() -> None:
    shown = ('<p>from attnlab.site import nothing: prose</p><div class="highlight"><pre><span></span><code>'
             '<span class="kn">from</span> <span class="nn">attnlab.site.figures.tables</span> '
             '<span class="kn">import</span> table\n<span class="kn">from</span> <span class="nn">attnlab.lab</span> '
             "import compute\nimport attnlab.bert\n# attnlab.site builds the page</code></pre></div>")
    assert site_imports(listings(parsed(shown))) == ["from attnlab.site.figures.tables import table"]


def test_no_listing_on_any_built_page_imports_attnlab_site_or_holds_a_hidden_marker(built_site: Path) -> None:
    assert {p.name: lines for p in pages(built_site) if (lines := site_imports(listings(page(p))))} == {}
    shown = [text for p in pages(built_site) for text in listings(page(p))]
    # not a vacuous pass: the chapters show dozens of listings that import attnlab's maths
    assert sum(bool(re.search(r"^from attnlab(\.\w+)* import", text, re.M)) for text in shown) > 40
    assert [text for text in shown if "#| hide" in text or "#| show" in text] == []
