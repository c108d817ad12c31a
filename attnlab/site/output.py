"""What a page finally shows holds numbers only: no NaN, no infinity, no traceback.

A code block that raises leaves its traceback on the page, and one that
prints ``nan`` or ``inf`` puts that where a number belongs; either way the
page would ship with a green build. :func:`problems` reads a page's final
HTML and names each such thing, so the build can stop.

Checked: the text a reader sees, and code blocks that show output (text
and result blocks). Not checked: source listings (``np.inf`` in code is
code), inline code, formulas, scripts and styles.
"""

from __future__ import annotations

import re
from html import unescape

TRACEBACK = "Traceback (most recent call last)"
BLOCK_ID = re.compile(r"<code block: id ([^>]+)>")
"""How markdown-exec names a block in a traceback once the extension gave it an ``id`` (its place)."""
SOURCE_LANGUAGES = ("python", "py", "pycon", "bash", "sh", "console", "yaml", "toml", "javascript", "js",
                    "json", "markdown", "md", "latex", "tex", "html", "css")
"""Code blocks in these languages are listings of source, not output."""
UNCHECKED = re.compile(
    r"<(script|style|math)\b.*?</\1\s*>"
    rf"|<div class=\"language-(?:{'|'.join(SOURCE_LANGUAGES)}) highlight\">.*?</div>"
    r"|<code\b[^>]*>.*?</code>(?!\s*</pre>)",
    re.S,
)
"""Elements whose text is not a shown result: scripts, styles, formulas, source listings, inline code."""
NON_NUMBER = re.compile(r"(?<![\w.+\-\u2212])[+\-\u2212]?(?:nan|NaN|NAN|inf|Inf|INF|Infinity)(?![\w])")
"""How Python, numpy and JavaScript print a value that is not a finite number."""


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


def problems(html: str, page: str) -> list[str]:
    """One message per traceback or non-finite number that ``page``'s HTML would show."""
    found = []
    everything = visible_text(html)
    if TRACEBACK in everything:
        found.append(f"{failed_block(everything, page)} (its traceback would be on the page)")
    shown = visible_text(UNCHECKED.sub(" ", html), " ")
    found += [f"{page}: {match.group(0)!r} is not a finite number, yet the page would show it "
              f"(in {' '.join(shown[max(match.start() - 40, 0):match.end() + 20].split())!r})"
              for match in NON_NUMBER.finditer(shown)]
    return found
