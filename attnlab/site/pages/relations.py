"""Words stating a relation between computed values, bound to a condition the build evaluates:
``[[about as long ? 0.8 < length(1) / length(0) < 1.25]]`` shows "about as long", and :func:`check` fails,
naming file, line and words, once the condition is false or not a truth value. Only an author can rewrite them.
"""

from __future__ import annotations

import numpy as np

from attnlab.site.pages import bindings
from attnlab.site.pages.bindings import RELATION, namespace
from attnlab.site.pages.blocks import placed_blocks
from attnlab.site.pages.source import chunks, line_of, sub_prose


def relations(markdown: str) -> list[tuple[str, str, int]]:
    """``(words, condition, line)`` of every relation in the prose of ``markdown`` (code skipped), in order."""
    return [(" ".join(m["words"].split()), " ".join(m["condition"].split()), line_of(markdown, offset + m.start()))
            for prose, offset, text in chunks(markdown) if prose for m in RELATION.finditer(text)]


def check(markdown: str, page: str) -> list[str]:
    """One message per relation in ``page`` whose condition is false, not a truth value or cannot be evaluated."""
    found = relations(markdown)
    names = namespace() if found else {}
    problems = []
    for words, condition, line in found:
        try:
            value = eval(condition, dict(names))  # noqa: S307 - the guide's own expressions, from docs/
        except Exception as error:  # noqa: BLE001 (every failure becomes a message naming the place)
            value = error
        if not isinstance(value, (bool, np.bool_)):
            why = (f"{type(value).__name__}: {value}" if isinstance(value, Exception)
                   else f"TypeError: a relation's condition must be true or false, got {value!r}")
            problems.append(f"{page}:{line}: {words!r}: its condition {condition} cannot be evaluated: {why}")
        elif not value:
            problems.append(f"{page}:{line}: {words!r} is false now: {condition} does not hold "
                            "(rewrite the sentence, then its condition)")
    return problems


def render(markdown: str) -> str:
    """``markdown`` with every relation in prose replaced by its words."""
    return sub_prose(RELATION, lambda m: m["words"], markdown)


def written(markdown: str, page: str, prefix: str = "") -> str:
    """``markdown`` as the reader sees its prose: code blocks placed (HTML ids prefixed by ``prefix``), bound
    numbers and relations written in."""
    return render(bindings.render(placed_blocks(markdown, page, prefix)))
