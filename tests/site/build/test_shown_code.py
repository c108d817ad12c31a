"""The code a reader sees is the maths: no highlighted listing on a built page (Source tabs included) imports
``attnlab.site``, whose helpers a block keeps after its ``#| hide`` line."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from test_site import pages

SITE_IMPORT = re.compile(r"^\s*(?:from\s+attnlab\.site\b|import\s+attnlab\.site\b)", re.M)
"""A line that imports the machinery that builds the guide."""


class Listings(HTMLParser):
    """The text of every highlighted code listing of a page (``<div class="highlight">`` … ``<code>``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.listings: list[str] = []
        self._depth = 0  # <div> nesting inside the current highlight block, 0 outside one
        self._code = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "div" and (self._depth or "highlight" in classes):
            self._depth += 1
        elif tag == "code" and self._depth:
            self._code = True
            self.listings.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "div" and self._depth:
            self._depth -= 1
        elif tag == "code":
            self._code = False

    def handle_data(self, data: str) -> None:
        if self._code:
            self.listings[-1] += data


def listings(html: str) -> list[str]:
    """The text of every highlighted listing in ``html``."""
    parser = Listings()
    parser.feed(html)
    return parser.listings


def site_imports(html: str) -> list[str]:
    """The lines of ``html``'s listings that import ``attnlab.site``."""
    return [line.group(0).strip() for text in listings(html) for line in
            re.finditer(r"^.*$", text, re.M) if SITE_IMPORT.match(line.group(0))]


def test_a_listing_importing_the_machinery_is_found_and_the_maths_imports_and_prose_are_not() -> None:
    shown = ('<p>from attnlab.site import nothing: prose</p><div class="highlight"><pre><span></span><code>'
             '<span class="kn">from</span> <span class="nn">attnlab.site.figures.tables</span> '
             '<span class="kn">import</span> table\n<span class="kn">from</span> <span class="nn">attnlab.lab</span> '
             "import compute\nimport attnlab.bert\n# attnlab.site builds the page</code></pre></div>")
    assert site_imports(shown) == ["from attnlab.site.figures.tables import table"]


def test_no_listing_on_any_built_page_imports_attnlab_site_or_holds_a_hidden_marker(built_site: Path) -> None:
    found = {page.name: lines for page in pages(built_site)
             if (lines := site_imports(page.read_text(encoding="utf-8")))}
    assert found == {}
    shown = [text for page in pages(built_site) for text in listings(page.read_text(encoding="utf-8"))]
    # not a vacuous pass: the chapters show dozens of listings that import attnlab's maths
    assert sum(bool(re.search(r"^from attnlab(\.\w+)* import", text, re.M)) for text in shown) > 40
    assert [text for text in shown if "#| hide" in text or "#| show" in text] == []
