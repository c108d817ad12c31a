"""MkDocs hook: a page may cap its table of contents with ``toc_depth`` in its front matter.

The Reference page documents well over a hundred functions, each under its
own heading; listed in full, its table of contents (which Material writes
twice, for wide and narrow screens) would push the page past the 500 KB
first-load budget. With ``toc_depth: 2`` the contents list only headings of
levels 1 and 2 (the modules); every deeper heading keeps its anchor and
permalink.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink


def trim(entries: Iterable[AnchorLink], depth: int) -> None:
    """Drop, in place, every entry below heading level ``depth`` (1 = h1)."""
    for entry in entries:
        if entry.level >= depth:
            entry.children = []
        else:
            trim(entry.children, depth)


def on_page_content(html: str, page: Page, **kwargs: Any) -> str:
    """Apply the page's ``toc_depth``, if it sets one; a value that is not a level 1-6 stops the build."""
    depth = page.meta.get("toc_depth")
    if depth is not None:
        if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= 6:
            raise PluginError(f"{page.file.src_uri}: toc_depth must be a heading level 1-6, got {depth!r}")
        trim(page.toc, depth)
    return html
