"""MkDocs hook: a provenance line in the footer of every page.

It names the ``attnlab`` and numpy versions that computed the page's numbers
and the build date (UTC; ``SOURCE_DATE_EPOCH`` is honoured for reproducible
builds), so a citation of the guide can say exactly what it cites.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from html import escape
from typing import Any

import numpy

import attnlab

FOOTER = '<div class="md-copyright">'


def build_date() -> str:
    """Today's UTC date as ``YYYY-MM-DD``, or the date of ``SOURCE_DATE_EPOCH`` when set."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    moment = datetime.fromtimestamp(int(epoch), UTC) if epoch else datetime.now(UTC)
    return moment.date().isoformat()


def provenance() -> str:
    """The provenance line as HTML."""
    text = (f"Numbers computed by attnlab {attnlab.__version__} with numpy {numpy.__version__}"
            f" · built {build_date()} (UTC)")
    return f'<div class="attn-provenance">{escape(text)}</div>'


def with_provenance(html: str) -> str:
    """``html`` with the provenance line at the start of the footer, if it has Material's footer."""
    return html.replace(FOOTER, FOOTER + provenance(), 1)


def on_post_page(output: str, **kwargs: Any) -> str:
    """Add the line to every Markdown page."""
    return with_provenance(output)


def on_post_template(output_content: str, **kwargs: Any) -> str:
    """Add the line to the theme's own pages (the 404 page)."""
    return with_provenance(output_content)
