"""No built page shows a negative zero: a number rounded to 0 is written 0.000, never "-0.000"."""

from __future__ import annotations

import re
from pathlib import Path

from page_blocks import parsed
from test_site import shown_text

NEGATIVE_ZERO = re.compile(r"(?<![\w.])[-\u2212]0(?:\.0+)?(?![\d.])")
"""A minus sign before a zero with only zeros after its point, not inside a word or a longer number."""


def negative_zeros(html: str) -> list[str]:
    """The negative zeros in a page's shown text, each with a little of its context."""
    text = shown_text(parsed(html), frozenset({"script", "style"}), " ")  # a cell apart from the next
    return [text[max(0, m.start() - 30):m.end() + 10] for m in NEGATIVE_ZERO.finditer(text)]


def test_no_built_page_shows_a_negative_zero(built_site: Path) -> None:
    page = "<p>-0.000 and \u22120.00 and -0</p><p>-0.001, 10.000, x-0.0 and 2-0.05</p><script>-0.000</script>"
    assert len(negative_zeros(page)) == 3, "a negative zero is found, a small negative number is not"
    found = {page.relative_to(built_site).as_posix(): negative_zeros(page.read_text(encoding="utf-8"))
             for page in sorted(built_site.rglob("*.html"))}
    assert {page: zeros for page, zeros in found.items() if zeros} == {}
