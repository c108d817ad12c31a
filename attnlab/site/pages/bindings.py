"""Numbers in a chapter's prose: bound to the computation that made them, or declared.

A sentence quotes a computed number as ``[[0.576 = compute().weights[2]]]``.
The page shows ``0.576``; :func:`check` fails unless the expression, rounded
the way the tables round (``attnlab.text.fmt``) to the decimals written,
gives exactly that text. Numbers nobody computes (a year, a section number,
the toy's own inputs) are listed in the page's front matter ``literals:``;
:func:`unbound` reports every other number left in the prose.

Pure functions on a page's Markdown source: the Markdown extension
(``attnlab.site.pages.extension``) and ``tests/test_prose_numbers.py`` both call
them. A docs-build module: it reads front matter with PyYAML, which comes
with the site's builders (the attnlab library itself needs only numpy).
"""

from __future__ import annotations

import importlib
import math
import pkgutil
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

import attnlab
from attnlab.checks import finite_number
from attnlab.lab import compute, toy_data
from attnlab.text import fmt
from attnlab.site.figures import sliders
from attnlab.site.pages.source import chunks, front_matter, line_of, sub_prose

_TEXT = r"(?:[^\[\]\n]|\n(?![ \t]*\n))"
"""One character of an expression: no bracket, and no blank line (a paragraph break ends the search)."""
_NESTED = rf"\[(?:{_TEXT}|\[{_TEXT}*\])*\]"
BINDING = re.compile(
    rf"(?<!\\)\[\[[ \t]*(?P<quoted>-?[0-9]+(?:\.[0-9]+)?%?)[ \t]*=\s*(?P<expression>(?:{_TEXT}|{_NESTED})+?)\s*\]\]"
)
"""``[[quoted = expression]]``; the expression's own brackets (two levels deep) must balance,
so ``weights[2]]]`` closes after ``weights[2]``."""

NUMBER = re.compile(r"(?<![\w.])(?<![A-Z]-)(?<!_\{)[-\u2212]?[0-9]+(?:\.[0-9]+)*%?")
"""A number as the scanner sees it: digits with an optional sign (- or −), decimals and percent sign.

Digits glued to a name are part of the name, not a number: after a letter,
digit, ``_`` or ``.`` (``S1``, ``W_1``, ``h1``, ``float64``, ``v1.2``),
after an upper-case word and a hyphen (``CL-001``, ``WE-002``, ``GPT-2``)
and in a braced subscript (``x_{12}``). Dotted runs are one number
(``3.2.1``); ``2D`` and ``3rd`` count as ``2`` and ``3``.
"""

MARKUP = re.compile(
    "|".join((
        r"<!--.*?-->",  # HTML comments
        r"<style\b.*?</style\s*>|<script\b.*?</script\s*>",  # stylesheets and scripts
        r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>",  # HTML tags with their attributes
        r"&#?\w+;",  # character references
        r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)",  # link and image targets
        r"^[ \t]*\[[^\]\n]+\]:[^\n]*",  # reference definitions
        r"[a-z]+://\S+",  # bare URLs
        r"(?<![\w\\^_])\{:?[ \t]*(?:[#.]|[\w-]+=)[^}\n]*\}",  # attribute lists {#id .class key=value}
    )),
    re.S | re.M | re.I,
)
"""Prose that a reader never sees as a number: markup, addresses, anchors."""

LIST_MARKER = re.compile(r"^[ \t>]*([0-9]+)[.)](?=[ \t])")
"""A line's leading "2." or "3)", which may be an ordered-list marker (see :func:`_blank_list_markers`)."""

SKIPPED_MODULES = frozenset({"__main__"})
"""attnlab modules a binding cannot use: the command line."""


@dataclass(frozen=True)
class Binding:
    """One ``[[quoted = expression]]`` in a page's prose."""

    quoted: str
    expression: str
    line: int
    start: int
    end: int

    @property
    def decimals(self) -> int:
        """How many decimals the quote shows; the computed value is rounded to as many."""
        number = self.quoted.rstrip("%")
        return len(number.partition(".")[2])

    def shown(self, value: float) -> str:
        """``value`` written the way this binding quotes: same decimals, same percent sign."""
        return fmt(value, self.decimals) + ("%" if self.quoted.endswith("%") else "")


class _Unavailable:
    """Stands in for an attnlab module that failed to import; using it raises that error."""

    def __init__(self, name: str, error: Exception) -> None:
        self._message = f"attnlab.{name} failed to import: {type(error).__name__}: {error}"

    def __getattr__(self, attribute: str) -> Any:
        raise ImportError(self._message)


def namespace() -> dict[str, Any]:
    """The names a binding's expression can use (the one place they are listed).

    attnlab's public names (``attention``, ``softmax``, ``we002`` …),
    ``compute`` and ``toy_data`` (the toy LAB-001), ``np`` and ``math``,
    ``sliders`` (the lab's slider ranges, :mod:`attnlab.site.figures.sliders`), and
    every attnlab module by its short name (``lab``, ``layers``, ``render``
    …) unless a public name already has it. A module that fails to import
    only breaks the bindings that use it.
    """
    names: dict[str, Any] = {"np": np, "math": math, "compute": compute, "toy_data": toy_data, "sliders": sliders}
    names.update({name: getattr(attnlab, name) for name in attnlab.__all__})
    for module in pkgutil.iter_modules(attnlab.__path__):
        if module.ispkg or module.name in SKIPPED_MODULES or module.name in names:
            continue
        try:
            names[module.name] = importlib.import_module(f"attnlab.{module.name}")
        except Exception as error:  # a chapter's module under construction must not break every page
            names[module.name] = _Unavailable(module.name, error)
    return names


def _in_prose(pattern: re.Pattern[str], markdown: str) -> Iterator[tuple[int, re.Match[str]]]:
    """``(offset in markdown, match)`` for every match of ``pattern`` in the prose pieces."""
    for prose, offset, text in chunks(markdown):
        if prose:
            yield from ((offset + m.start(), m) for m in pattern.finditer(text))


def bindings(markdown: str) -> list[Binding]:
    """Every binding in the prose of ``markdown`` (code and front matter skipped), in order."""
    return [Binding(m["quoted"], " ".join(m["expression"].split()), line_of(markdown, start),
                    start, start + len(m.group(0)))
            for start, m in _in_prose(BINDING, markdown)]


def render(markdown: str) -> str:
    """``markdown`` with every binding in prose replaced by its quoted number."""
    return sub_prose(BINDING, lambda m: m["quoted"], markdown)


def evaluate(expression: str, names: dict[str, Any]) -> float:
    """The one real number ``expression`` gives with ``names`` in scope."""
    value = eval(expression, dict(names))  # noqa: S307 - the guide's own expressions, from docs/
    return finite_number(expression, value)


def check(markdown: str, page: str, cache: dict[str, Any] | None = None) -> list[str]:
    """One message per binding in ``page`` that fails or disagrees with its quote.

    A ``[[`` that is not a complete binding is :mod:`attnlab.site.pages.forms`' to report.

    ``cache`` maps an expression to its value (or its error), so an
    expression quoted twice is evaluated once; by default every call
    evaluates afresh, so a changed constant is always seen.
    """
    cache = {} if cache is None else cache
    names: dict[str, Any] | None = None
    problems = []
    for binding in bindings(markdown):
        if binding.expression not in cache:
            names = namespace() if names is None else names
            try:
                cache[binding.expression] = evaluate(binding.expression, names)
            except Exception as error:  # every failure becomes a message naming the place
                cache[binding.expression] = error
        value = cache[binding.expression]
        where = f"{page}:{binding.line}"
        if isinstance(value, Exception):
            problems.append(f"{where}: [[{binding.quoted} = {binding.expression}]] cannot be evaluated: "
                            f"{type(value).__name__}: {value} (names in scope: attnlab.site.pages.bindings.namespace)")
        elif binding.shown(value) != binding.quoted:
            problems.append(f"{where}: quoted {binding.quoted} but {binding.expression} "
                            f"gives {binding.shown(value)}")
    return problems


def literals(markdown: str, page: str) -> set[str]:
    """The numbers ``page`` declares as not computed, as written in its front matter."""
    declared = front_matter(markdown, page).get("literals", [])
    if not isinstance(declared, list) or not all(isinstance(item, str) for item in declared):
        raise ValueError(f"{page}: front matter 'literals' must be a flat list of numbers, got {declared!r}")
    return set(declared)


def _blank(text: str) -> str:
    """``text`` with everything but line breaks turned to spaces, so offsets and lines stay put."""
    return re.sub(r"[^\n]", " ", text)


def _blank_match(match: re.Match[str]) -> str:
    """:func:`_blank` for ``re.sub``."""
    return _blank(match.group(0))


def _blank_list_markers(text: str) -> str:
    """``text`` with the markers of ordered-list items blanked, and only those.

    As in Markdown, a numbered line starts an item after a blank line,
    inside a list, or when its number is 1. Elsewhere, a wrapped sentence
    that happens to start with "4." or "4)" keeps its number, which the
    scan then checks like any other.
    """
    lines = text.split("\n")
    in_list, after_blank = False, True
    for i, line in enumerate(lines):
        marker = LIST_MARKER.match(line)
        if marker and (in_list or after_blank or marker.group(1) == "1"):
            lines[i] = _blank(marker.group(0)) + line[marker.end():]
            in_list = True
        elif line.strip() and after_blank and not line[:1].isspace():
            in_list = False
        after_blank = not line.strip()
    return "\n".join(lines)


def unbound(markdown: str, page: str) -> list[str]:
    """One message per number in ``page``'s prose that is neither bound nor declared.

    Code, front matter, bindings and :data:`MARKUP` are blanked first;
    inline and display math stay in. A number matches a literal when its
    text, sign and percent sign included, equals the declared text.
    """
    declared = literals(markdown, page)
    visible = _blank_list_markers("".join(
        MARKUP.sub(_blank_match, BINDING.sub(_blank_match, text)) if prose else _blank(text)
        for prose, _, text in chunks(markdown)))
    return [f"{page}:{line_of(visible, m.start())}: {m.group(0)} is neither bound "
            f"([[{m.group(0)} = expression]]) nor declared in the front matter's literals"
            for m in NUMBER.finditer(visible) if m.group(0) not in declared]
