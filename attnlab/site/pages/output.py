"""What a page finally shows holds numbers only: no NaN, no infinity, no traceback.

A code block that raises leaves its traceback on the page, and one that
prints ``nan`` or ``inf`` puts that where a number belongs; either way the
page would ship with a green build. :func:`problems` reads HTML and names
each such thing, so the build can stop.

Checked on a whole page: the text a reader sees, code blocks that show
output (text and result blocks), formulas (their TeX, before MathML; the
symbol ``\\infty`` is mathematics, the word ``inf`` is not), and the
attributes a reader meets as text or a picture carries as numbers
(``title``, ``alt``, ``aria-label``, ``data-values``). Not checked: source
listings (``np.inf`` in code is code), the prose's inline code, scripts and
styles. A block's own output is checked with ``block=True``, which reads
its inline code too: what a block prints is a result, not code.
"""

from __future__ import annotations

import re
from html import unescape

TRACEBACK = "Traceback (most recent call last)"
BLOCK_ID = re.compile(r"<code block: id ([^>]+)>")
"""How markdown-exec names a block in a traceback once the guide gave it an ``id`` (its place)."""
SOURCE_LANGUAGES = ("python", "py", "pycon", "bash", "sh", "console", "yaml", "toml", "javascript", "js",
                    "json", "markdown", "md", "latex", "tex", "html", "css")
"""Code blocks in these languages are listings of source, not output."""
SOURCE_LISTINGS = (r"<(script|style)\b.*?</\1\s*>"
                   rf"|<div class=\"language-(?:{'|'.join(SOURCE_LANGUAGES)}) highlight\">.*?</div>")
"""Scripts, styles and source listings: code, never a shown result."""
UNCHECKED = re.compile(SOURCE_LISTINGS + r"|<code\b[^>]*>.*?</code>(?!\s*</pre>)", re.S)
"""What a page's check skips: the above, and the prose's inline code."""
UNCHECKED_IN_BLOCK = re.compile(SOURCE_LISTINGS, re.S)
"""What a block's check skips: a block's printed inline code is a result."""
NON_NUMBER = re.compile(r"(?<![\w.+\-\u2212\\])[+\-\u2212]?(?:nan|NaN|NAN|inf|Inf|INF|Infinity)(?![\w])")
"""How Python, numpy and JavaScript print a value that is not a finite number (``\\infty`` is a symbol)."""
ATTRIBUTES = re.compile(r"""\s(title|alt|aria-label|aria-description|aria-valuetext|aria-valuenow|value|placeholder"""
                        r"""|data-values?)=(?:"([^"]*)"|'([^']*)')""")
"""Attributes whose text a reader meets (a tooltip, a description, a field's value or hint, what a screen reader
says of a slider) or a figure carries as its numbers."""


def visible_text(html: str, between: str = "") -> str:
    """The page's text with references resolved and each tag replaced by ``between``.

    Highlighted code splits words into spans, so a traceback reads whole
    only with nothing between tags; table cells read apart only with a space.
    """
    return unescape(re.sub(r"<[^>]+>", between, html))


def failed_block(text: str, page: str) -> str:
    """The failing block's place and its error, from the first traceback in ``text``.

    The place is the block's ``id`` (``docs/x.md:12``) when it has one, else ``page``.
    """
    after = text[text.index(TRACEBACK):]
    place = BLOCK_ID.search(after)
    error = next((line.strip() for line in after.splitlines()[1:] if line and not line[0].isspace()),
                 "(no error line)")
    return f"{place.group(1) if place else page}: a code block raised {error}"


def _non_numbers(text: str, page: str, where: str) -> list[str]:
    """One message per non-number in ``text``, quoting it in its context."""
    return [f"{page}: {match.group(0)!r} is not a finite number, yet the page would show it "
            f"({where}{' '.join(text[max(match.start() - 40, 0):match.end() + 20].split())!r})"
            for match in NON_NUMBER.finditer(text)]


def problems(html: str, page: str, block: bool = False) -> list[str]:
    """One message per traceback or non-finite number that ``page``'s HTML would show.

    ``block`` says ``html`` is one code block's output (whose inline code is checked too).
    """
    found = []
    everything = visible_text(html)
    if TRACEBACK in everything:
        found.append(f"{failed_block(everything, page)} (its traceback would be on the page)")
    skipped = (UNCHECKED_IN_BLOCK if block else UNCHECKED).sub(" ", html)
    found += _non_numbers(visible_text(skipped, " "), page, "in ")
    for match in ATTRIBUTES.finditer(skipped):
        found += _non_numbers(unescape(match.group(2) or match.group(3) or ""), page, f"in its {match.group(1)} ")
    return found
