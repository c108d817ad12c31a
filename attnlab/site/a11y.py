"""MkDocs hook: accessible names for the theme's search dialog and its hidden toggles.

Material for MkDocs renders the search dialog without a name and the
checkbox toggles behind the search and navigation buttons without labels
(their ``<label>`` elements hold only an icon), which an accessibility
scan (axe) reports on every page. This hook adds ``aria-label`` attributes
to exactly those elements in every rendered page, the 404 page included.
"""

from __future__ import annotations

from typing import Any

NAMES: dict[str, str] = {
    '<div class="md-search" data-md-component="search" role="dialog">':
        '<div class="md-search" data-md-component="search" role="dialog" aria-label="Search">',
    '<input class="md-toggle" data-md-toggle="search" type="checkbox" id="__search" autocomplete="off">':
        '<input class="md-toggle" data-md-toggle="search" type="checkbox" id="__search" autocomplete="off"'
        ' aria-label="Open search">',
    '<input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer" autocomplete="off">':
        '<input class="md-toggle" data-md-toggle="drawer" type="checkbox" id="__drawer" autocomplete="off"'
        ' aria-label="Open navigation">',
}
"""The theme's markup for each element, and the same markup with its name added."""


def named(html: str) -> str:
    """``html`` with an accessible name on the search dialog and the two toggles."""
    for markup, with_name in NAMES.items():
        html = html.replace(markup, with_name)
    return html


def on_post_page(output: str, **kwargs: Any) -> str:
    """Name the elements on every Markdown page."""
    return named(output)


def on_post_template(output_content: str, **kwargs: Any) -> str:
    """Name the elements on the theme's own pages (the 404 page)."""
    return named(output_content)
