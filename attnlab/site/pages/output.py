"""What a page finally shows holds numbers only: :func:`problems` names each NaN, infinity or traceback in the
text a reader sees, the attributes a reader meets or a figure carries, not in source listings, scripts, styles or
the prose's inline code (a block's own output, ``block=True``, has its inline code checked too)."""

from __future__ import annotations

import re
from html import unescape

TRACEBACK = "Traceback (most recent call last)"
BLOCK_ID = re.compile(r"<code block: id ([^>]+)>")
"""How markdown-exec names a block in a traceback once the guide gave it an ``id`` (its place)."""
SOURCE_LANGUAGES = ("python", "py", "pycon", "bash", "sh", "console", "yaml", "toml", "javascript", "js",
                    "json", "markdown", "md", "latex", "tex", "html", "css")
SOURCE_LISTINGS = (r"<(script|style)\b.*?</\1\s*>"
                   rf"|<div class=\"language-(?:{'|'.join(SOURCE_LANGUAGES)}) highlight\">.*?</div>")
UNCHECKED_IN_BLOCK = re.compile(SOURCE_LISTINGS, re.S)
UNCHECKED = re.compile(SOURCE_LISTINGS + r"|<code\b[^>]*>(?:(?!</code>).)*</code>(?!\s*</pre>)", re.S)
"""The listings, and the prose's inline code (one ``<code>`` element, never a run from a printed block's
``<pre><code>`` to the next inline code)."""
NON_NUMBER = re.compile(r"(?<![\w.+\-\u2212\\])[+\-\u2212]?(?:nan|NaN|NAN|inf|Inf|INF|Infinity)(?![\w])")
"""How Python, numpy and JavaScript print a value that is not a finite number (``\\infty`` is a symbol)."""
ATTRIBUTES = re.compile(r"""\s(title|alt|aria-label|aria-description|aria-valuetext|aria-valuenow|value|placeholder"""
                        r"""|data-values?)=(?:"([^"]*)"|'([^']*)')""")
"""Attributes a reader meets (a tooltip, a field's value, what a screen reader says) or a figure's numbers."""


def visible_text(html: str, between: str = "") -> str:
    """``html``'s text, each tag replaced by ``between`` ("" keeps highlighted code whole, " " table cells apart)."""
    return unescape(re.sub(r"<[^>]+>", between, html))


def _non_numbers(text: str, page: str, where: str) -> list[str]:
    """One message per non-number in ``text``, quoting it in its context."""
    return [f"{page}: {match.group(0)!r} is not a finite number, yet the page would show it "
            f"({where}{' '.join(text[max(match.start() - 40, 0):match.end() + 20].split())!r})"
            for match in NON_NUMBER.finditer(text)]


def problems(html: str, page: str, block: bool = False) -> list[str]:
    """One message per traceback or non-finite number that ``page``'s HTML would show."""
    found = []
    everything = visible_text(html)
    if TRACEBACK in everything:  # the failing block's place (else the page) and its error line
        after = everything[everything.index(TRACEBACK):]
        place = BLOCK_ID.search(after)
        error = next((line.strip() for line in after.splitlines()[1:] if line and not line[0].isspace()),
                     "(no error line)")
        found.append(f"{place.group(1) if place else page}: a code block raised {error} (its traceback would be on "
                     "the page)")
    skipped = (UNCHECKED_IN_BLOCK if block else UNCHECKED).sub(" ", html)
    found += _non_numbers(visible_text(skipped, " "), page, "in ")
    for match in ATTRIBUTES.finditer(skipped):
        found += _non_numbers(unescape(match.group(2) or match.group(3) or ""), page, f"in its {match.group(1)} ")
    return found
