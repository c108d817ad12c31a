"""The pages browser tests are parametrized by, one test per page: the guide's pages as ``mkdocs.yml`` lists them."""

from __future__ import annotations

from sites import site_pages

SITE_PAGES = site_pages()
"""Every HTML page the build writes (the navigation's pages and 404.html), known before anything is built."""
