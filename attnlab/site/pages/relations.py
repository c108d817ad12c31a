"""Sentences that state a relation between computed values, bound to a condition the build evaluates.

A number quoted in prose is bound (``[[0.576 = expression]]``) so it cannot go
stale; a relation between such numbers ("about as long", "twice", "the
largest", "unchanged") can go false just as silently when a constant moves.
So its words are bound too, to a condition written like a binding:

    the two are [[about as long ? 0.8 < length(1) / length(0) < 1.25]]

The page shows ``about as long``; :func:`check` evaluates the condition
(with :func:`attnlab.site.pages.bindings.namespace` in scope) and fails,
naming file, line and words, once it is false, or when it is not a truth
value at all. Rebinding cannot repair such a sentence: only its author can
rewrite the words (and then the condition).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attnlab.site.pages.bindings import RELATION, namespace
from attnlab.site.pages.source import chunks, line_of, sub_prose


@dataclass(frozen=True)
class Relation:
    """One ``[[words ? condition]]`` in a page's prose."""

    words: str
    condition: str
    line: int


def relations(markdown: str) -> list[Relation]:
    """Every relation in the prose of ``markdown`` (code and front matter skipped), in order."""
    return [Relation(" ".join(m["words"].split()), " ".join(m["condition"].split()),
                     line_of(markdown, offset + m.start()))
            for prose, offset, text in chunks(markdown) if prose for m in RELATION.finditer(text)]


def holds(condition: str, names: dict[str, Any]) -> bool:
    """Whether ``condition`` is true; ``TypeError`` when it gives anything but a truth value."""
    value = eval(condition, dict(names))  # noqa: S307 - the guide's own expressions, from docs/
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"a relation's condition must be true or false, got {value!r}")
    return bool(value)


def check(markdown: str, page: str) -> list[str]:
    """One message per relation in ``page`` whose condition is false or cannot be evaluated."""
    found = relations(markdown)
    names = namespace() if found else {}
    problems = []
    for relation in found:
        where = f"{page}:{relation.line}: {relation.words!r}"
        try:
            if not holds(relation.condition, names):
                problems.append(f"{where} is false now: {relation.condition} does not hold "
                                "(rewrite the sentence, then its condition)")
        except Exception as error:  # noqa: BLE001 (every failure becomes a message naming the place)
            problems.append(f"{where}: its condition {relation.condition} cannot be evaluated: "
                            f"{type(error).__name__}: {error}")
    return problems


def render(markdown: str) -> str:
    """``markdown`` with every relation in prose replaced by its words."""
    return sub_prose(RELATION, lambda m: m["words"], markdown)
