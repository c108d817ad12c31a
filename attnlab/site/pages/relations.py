"""Words stating a relation between computed values, bound to a condition the build evaluates:
``[[about as long ? 0.8 < length(1) / length(0) < 1.25]]`` shows "about as long", and :func:`check` fails,
naming file, line and words, once the condition is false or not a truth value. Only an author can rewrite them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from attnlab.site.pages import bindings
from attnlab.site.pages.bindings import RELATION, namespace
from attnlab.site.pages.blocks import placed_blocks
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


def written(markdown: str, page: str, prefix: str = "") -> str:
    """``markdown`` as the reader sees its prose: code blocks placed (HTML ids prefixed by ``prefix``), bound
    numbers and relations written in."""
    return render(bindings.render(placed_blocks(markdown, page, prefix)))
