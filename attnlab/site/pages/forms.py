"""Double brackets in prose are a claim citation, a number binding or a relation; :func:`malformed` names
anything else that opens with ``[[``, which would reach the page as typed.
"""

from __future__ import annotations

import re

from attnlab.site.pages.bindings import BINDING, RELATION
from attnlab.site.pages.citations import CITATION
from attnlab.site.pages.source import blank_match, chunks, line_of

OPEN = re.compile(r"\[\[[^\n]{0,40}")


def malformed(markdown: str, page: str) -> list[str]:
    """One message per ``[[`` in the prose of ``page`` that is neither a citation nor a binding."""
    problems = []
    for prose, offset, text in chunks(markdown):
        if not prose:
            continue
        left = CITATION.sub(blank_match, RELATION.sub(blank_match, BINDING.sub(blank_match, text)))
        for match in OPEN.finditer(left):
            shown = match.group(0).split("]]")[0] + ("]]" if "]]" in match.group(0) else "")
            problems.append(
                f"{page}:{line_of(markdown, offset + match.start())}: {shown!r} is neither a claim citation "
                "nor a number binding: cite as [[CL-005]] (IDs CL-, LAB- or WE- with three digits, no spaces) "
                "or bind as [[0.576 = expression]] (digits with optional -, decimals and %, brackets balanced) "
                "or [[words ? condition]] (a relation)"
            )
    return problems
