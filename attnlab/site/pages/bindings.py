"""Numbers in a chapter's prose: bound to the computation that made them, or declared.

``[[0.576 = compute().weights[2]]]`` shows ``0.576``; :func:`check` fails unless the expression, rounded to the
decimals written (``attnlab.text.fmt``), gives exactly that text. A vector is quoted whole
(``[[[1, 2] = compute().keys[2]]]``); ``[[57.6% = ...]]`` shows 100 times the value. Numbers nobody computes are
declared in the front matter's ``literals:`` (a vector as one item, ``"[1, 0]"``); :func:`unbound` reports every
other number and vector left in the prose.
"""

from __future__ import annotations

import ast
import importlib
import math
import pkgutil
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

import numpy as np

import attnlab
from attnlab.checks import as_array, finite_number
from attnlab.lab import compute, toy_data
from attnlab.site.pages import sliders, trained
from attnlab.site.pages.errors import PageError
from attnlab.site.pages.guard import guarded
from attnlab.site.pages.output import NON_NUMBER
from attnlab.site.pages.source import blank, blank_match, chunks, front_matter, line_of, sub_prose
from attnlab.text import MAX_DECIMALS, fmt

_TEXT = r"(?:[^\[\]\n]|\n(?![ \t]*\n))"
"""One character of an expression: no bracket, and no blank line (a paragraph break ends the search)."""
_NESTED = rf"\[(?:{_TEXT}|\[{_TEXT}*\])*\]"
EXPRESSION = rf"(?:{_TEXT}|{_NESTED})+?"
"""A Python expression in prose: its brackets (two levels deep) balance, and it crosses no blank line."""
_QUOTED_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_QUOTED = rf"{_QUOTED_NUMBER}%?|\[{_QUOTED_NUMBER}(?:, {_QUOTED_NUMBER})*\]"
BINDING = re.compile(
    rf"(?<!\\)\[\[[ \t]*(?P<quoted>{_QUOTED})[ \t]*=\s*(?P<expression>{EXPRESSION})\s*\]\]"
)
"""``[[quoted = expression]]``, the quote a number (``0.576``, ``-3``, ``57.6%``) or a vector
(``[1, 0.5]``); the expression's own brackets (two levels deep) must balance, so ``weights[2]]]``
closes after ``weights[2]``."""
RELATION = re.compile(
    r"(?<!\\)\[\[[ \t]*(?P<words>[^\s\[\]=?0-9-](?:[^\[\]=?\n]|\n(?![ \t]*\n))*?)"
    rf"[ \t]+\?\s+(?P<condition>{EXPRESSION})\s*\]\]"
)
"""``[[words ? condition]]``, a relation (:mod:`attnlab.site.pages.relations`): the words (no brackets, ``=``
or ``?``, not starting with a digit or sign, so no binding reads as one) and the condition, a Python
expression whose brackets balance. The scan reads the words and skips the condition."""
VECTOR = re.compile(r"\[[ \t]*[-\u2212]?[0-9][0-9.]*(?:[ \t]*,[ \t]*[-\u2212]?[0-9][0-9.]*)+[ \t]*\]")
"""A vector written in prose, ``[1, 0]``: the scan takes it as one item, bound or declared whole."""

NUMBER = re.compile(r"(?<![\w.])(?<![A-Z]-)(?<!_\{)[-\u2212]?(?:[0-9]+(?:\.[0-9]+)*|\.[0-9]+)%?")
"""A number as the scanner sees it: digits with an optional sign (- or −), decimals and percent sign.

Digits glued to a name are part of the name, not a number: after a letter,
digit, ``_`` or ``.`` (``S1``, ``W_1``, ``h1``, ``float64``, ``v1.2``),
after an upper-case word and a hyphen (``CL-001``, ``WE-002``, ``GPT-2``)
and in a braced subscript (``x_{12}``). Dotted runs are one number
(``3.2.1``); ``2D`` and ``3rd`` count as ``2`` and ``3``; ``.577`` counts, leading point and all.
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


@dataclass(frozen=True)
class Binding:
    """One ``[[quoted = expression]]`` in a page's prose."""

    quoted: str
    expression: str
    line: int
    start: int
    end: int

    @property
    def entries(self) -> list[str]:
        """The quoted numbers: one, or a vector's entries in order."""
        return self.quoted.strip("[]").rstrip("%").split(", ")

    def shown(self, value: float | list[float]) -> str:
        """``value`` written the way this binding quotes: each entry to its decimals, a percentage as one."""
        if self.quoted.startswith("["):
            values = value if isinstance(value, list) else [value]
            if len(values) != len(self.entries):
                return "[" + ", ".join(fmt(v, 3) for v in values) + "]"
            return "[" + ", ".join(fmt(v, decimals(e)) for v, e in zip(values, self.entries)) + "]"
        if isinstance(value, list):
            return "[" + ", ".join(fmt(v, decimals(self.entries[0])) for v in value) + "]"
        if self.quoted.endswith("%"):
            return fmt(100 * value, decimals(self.entries[0])) + "%"
        return fmt(value, decimals(self.entries[0]))


def decimals(number: str) -> int:
    """How many decimals a quoted number shows: the computed value is rounded to as many."""
    return len(number.partition(".")[2])


class _Unavailable:
    """Stands in for an attnlab module that failed to import; using it raises that error."""

    def __init__(self, name: str, error: Exception) -> None:
        self._message = f"attnlab.{name} failed to import: {type(error).__name__}: {error}"

    def __getattr__(self, attribute: str) -> Any:
        raise ImportError(self._message)


def namespace() -> dict[str, Any]:
    """The names a binding's expression can use: attnlab's public names and every module by its short name,
    ``compute``, ``toy_data``, ``np``, ``math``, ``sliders`` and ``trained``. A module that fails to import only
    breaks the bindings that use it."""
    names: dict[str, Any] = {"np": np, "math": math, "compute": compute, "toy_data": toy_data, "sliders": sliders,
                             "trained": trained}
    names.update({name: getattr(attnlab, name) for name in attnlab.__all__})
    for module in pkgutil.iter_modules(attnlab.__path__):
        if module.ispkg or module.name in SKIPPED_MODULES or module.name in names:
            continue
        try:
            names[module.name] = importlib.import_module(f"attnlab.{module.name}")
        except Exception as error:  # noqa: BLE001 (a chapter's module under construction must not break every page)
            names[module.name] = _Unavailable(module.name, error)
    return names


def bindings(markdown: str) -> list[Binding]:
    """Every binding in the prose of ``markdown`` (code and front matter skipped), in order."""
    return [Binding(m["quoted"], " ".join(m["expression"].split()), line_of(markdown, start),
                    start, start + len(m.group(0)))
            for prose, offset, text in chunks(markdown) if prose
            for m in BINDING.finditer(text) for start in [offset + m.start()]]


def render(markdown: str) -> str:
    """``markdown`` with every binding in prose replaced by its quoted number."""
    return sub_prose(BINDING, lambda m: m["quoted"], markdown)


def evaluate(expression: str, names: dict[str, Any]) -> float | list[float]:
    """The real number, or the vector of real numbers (one axis), ``expression`` gives with ``names`` in scope."""
    value = eval(expression, dict(names))  # noqa: S307 - the guide's own expressions, from docs/
    if isinstance(value, (list, tuple, np.ndarray)):
        return as_array(expression, value, 1).tolist()
    return finite_number(expression, value)


def check(markdown: str, page: str, cache: dict[str, Any] | None = None) -> list[str]:
    """One message per binding in ``page`` that fails or disagrees with its quote, and per literal that looks
    like one of its numbers (:func:`lookalike_literals`); an expression that would end or hang the build raises
    ``PageError``. ``cache`` maps an expression to its value or error, so one quoted twice is evaluated once."""
    cache = {} if cache is None else cache
    names: dict[str, Any] | None = None
    problems = []
    for binding in bindings(markdown):
        if binding.expression not in cache:
            names = namespace() if names is None else names
            try:
                with guarded(f"{page}:{binding.line}", f"[[{binding.quoted} = {binding.expression}]]"):
                    cache[binding.expression] = evaluate(binding.expression, names)
            except PageError:
                raise
            except Exception as error:  # noqa: BLE001 (every failure becomes a message naming the place)
                cache[binding.expression] = error
        value = cache[binding.expression]
        where = f"{page}:{binding.line}"
        if isinstance(value, Exception):
            problems.append(f"{where}: [[{binding.quoted} = {binding.expression}]] cannot be evaluated: "
                            f"{type(value).__name__}: {value} (names in scope: attnlab.site.pages.bindings.namespace)")
        elif max(map(decimals, binding.entries)) > MAX_DECIMALS:
            problems.append(f"{where}: [[{binding.quoted} = ...]] quotes more than {MAX_DECIMALS} decimals, "
                            "more than a float64 holds")
        elif binding.shown(value) != binding.quoted:
            problems.append(f"{where}: quoted {binding.quoted} but {binding.expression} "
                            f"gives {binding.shown(value)}")
    return problems + lookalike_literals(markdown, page, namespace() if names is None else names)


def vector_text(entries: list[str]) -> str:
    """A vector as the scan compares it: ``[1, -0.5]``, entries as written, one space after each comma."""
    return "[" + ", ".join(entry.strip().replace("\u2212", "-") for entry in entries) + "]"


def literals(markdown: str, page: str) -> set[str]:
    """The numbers and vectors ``page`` declares as not computed, as written in its front matter."""
    declared = front_matter(markdown, page).get("literals", [])
    if not isinstance(declared, list) or not all(
            isinstance(item, str) or (isinstance(item, list) and all(isinstance(e, str) for e in item))
            for item in declared):
        raise ValueError(f"{page}: front matter 'literals' must list numbers and vectors of numbers, "
                         f"got {declared!r}")
    return {vector_text(item) if isinstance(item, list)
            else vector_text(item.strip("[]").split(",")) if item.startswith("[") else item for item in declared}


def _words_only(match: re.Match[str]) -> str:
    """A relation as the scan reads it: its words in place, its brackets and condition blanked."""
    whole, start, end = match.group(0), match.start("words") - match.start(), match.end("words") - match.start()
    return blank(whole[:start]) + match["words"] + blank(whole[end:])


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
            lines[i] = blank(marker.group(0)) + line[marker.end():]
            in_list = True
        elif line.strip() and after_blank and not line[:1].isspace():
            in_list = False
        after_blank = not line.strip()
    return "\n".join(lines)


TOOLTIP = re.compile(r"""\btitle=(?:"(?P<double>[^"]*)"|'(?P<single>[^']*)')""")
"""A tooltip in an HTML tag or an attribute list (``<abbr title="…">``, ``{: title="…" }``): a reader sees it."""
NUMBER_SPAN = re.compile(r"`+ ?[-\u2212]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)%? ?`+")
"""An inline code span holding only a number (`` `0.577` ``): prose set in code, not code."""


def _markup_blanked(match: re.Match[str]) -> str:
    """A piece of :data:`MARKUP` blanked but for the text of its tooltips."""
    kept = list(blank(match.group(0)))
    for tip in TOOLTIP.finditer(match.group(0)):
        group = "double" if tip.group("double") is not None else "single"
        kept[tip.start(group):tip.end(group)] = tip.group(group)
    return "".join(kept)


def _visible(markdown: str) -> str:
    """``markdown`` with all but the numbers a reader sees in its prose blanked (offsets and lines kept):
    tooltips and code spans holding only a number stay."""
    return _blank_list_markers("".join(
        MARKUP.sub(_markup_blanked, RELATION.sub(_words_only, BINDING.sub(blank_match, text))) if prose
        else text.replace("`", " ") if NUMBER_SPAN.fullmatch(text) else blank(text)
        for prose, _, text in chunks(markdown)))


def _numbers_in(value: Any, depth: int = 0) -> Iterator[np.ndarray]:
    """The real numbers inside ``value`` (a number, array, sequence, mapping or dataclass, a few levels deep)."""
    if depth > 4 or isinstance(value, (bool, np.bool_, str)):
        return
    if isinstance(value, (int, float, np.integer, np.floating)):
        yield np.array([float(value)])
    elif isinstance(value, np.ndarray):
        if value.dtype.kind in "iuf":
            yield value.ravel().astype(float)
    else:
        if isinstance(value, Mapping):
            value = list(value.values())
        elif is_dataclass(value) and not isinstance(value, type):
            value = [getattr(value, f.name) for f in fields(value)]
        if isinstance(value, (list, tuple)):
            for item in value:
                yield from _numbers_in(item, depth + 1)


def computed_numbers(expression: str, names: dict[str, Any]) -> Iterator[np.ndarray]:
    """Every number that ``expression`` and each call inside it computes (``compute().scores[0]`` gives all of
    ``compute()``'s fields too); a call that fails gives none."""
    tree = ast.parse(expression, mode="eval")
    for node in [tree.body, *(n for n in ast.walk(tree) if isinstance(n, ast.Call))]:
        try:
            value = eval(compile(ast.Expression(node), "<binding>", "eval"), dict(names))  # noqa: S307 - docs/
        except Exception:  # noqa: BLE001, S112 (the binding itself reports its failure)
            continue
        yield from _numbers_in(value)


LOOKS_COMPUTED = 3
"""Decimals from which a declared literal looks like a computed number: the guide shows those to 3."""


def lookalike_literals(markdown: str, page: str, names: dict[str, Any]) -> list[str]:
    """One message per literal of ``LOOKS_COMPUTED`` decimals or more, written in ``page``'s prose, that agrees
    to all but its last decimal with a number the page's bindings compute: a typed number that should be
    bound (the literal "0.577" beside ``compute()``, whose weight is 0.57598, ships a wrong number).
    """
    precise = {text: float(text.replace("\u2212", "-")) for text in literals(markdown, page)
               if re.fullmatch(rf"[-\u2212]?[0-9]+\.[0-9]{{{LOOKS_COMPUTED},}}", text)}
    if not precise:
        return []
    scanned = VECTOR.sub(blank_match, _visible(markdown))
    written = {m.group(0): m.start() for m in reversed(list(NUMBER.finditer(scanned)))}  # the first place of each
    found = []
    for binding in bindings(markdown):
        for values in computed_numbers(binding.expression, names):
            for text, literal in list(precise.items()):
                places = decimals(text) - 1
                near = values[np.round(values, places) == np.round(literal, places)]
                if near.size and text in written:
                    found.append((written[text], f"{page}:{line_of(markdown, written[text])}: {text} is declared a "
                                  f"literal, but {binding.expression} (line {binding.line}) computes "
                                  f"{float(near[0])!r}: bind it ([[{fmt(float(near[0]), decimals(text))} = ...]])"))
                    del precise[text]
    return [message for _, message in sorted(found)]


SHOWN_META = ("title", "description")
"""Front matter a reader sees (the browser's tab, a search result's line), where no binding can go."""


def _unbound_in_front_matter(markdown: str, page: str, declared: set[str]) -> list[tuple[int, str]]:
    """``(offset, message)`` for each non-number, or number not declared, in the front matter's :data:`SHOWN_META`."""
    meta = front_matter(markdown, page)
    found = []
    for key in SHOWN_META:
        text = meta.get(key)
        if not isinstance(text, str):
            continue
        at = max(markdown.find(f"\n{key}:") + 1, 0)
        where = f"{page}:{line_of(markdown, at)}: the front matter's {key}"
        found += [(at, f"{where} shows {m.group(0)!r}, which is not a finite number")
                  for m in NON_NUMBER.finditer(text)]
        found += [(at, f"{where} shows {m.group(0)}, which no binding can compute there: declare it in the "
                       "literals or leave it out") for m in NUMBER.finditer(text) if m.group(0) not in declared]
    return found


def unbound(markdown: str, page: str) -> list[str]:
    """One message per number or vector in ``page``'s prose that is neither bound nor declared."""
    declared = literals(markdown, page)
    visible = _visible(markdown)
    found = []
    for m in VECTOR.finditer(visible):
        shown = vector_text(m.group(0).strip("[] \t").split(","))
        if shown not in declared:
            found.append((m.start(), f"{page}:{line_of(visible, m.start())}: the vector {shown} is neither "
                                     f"bound ([[{shown} = expression]]) nor declared in the front matter's literals"))
    scalars = VECTOR.sub(blank_match, visible)
    found += _unbound_in_front_matter(markdown, page, declared)
    found += [(m.start(), f"{page}:{line_of(scalars, m.start())}: {m.group(0)} is neither bound "
                          f"([[{m.group(0)} = expression]]) nor declared in the front matter's literals")
              for m in NUMBER.finditer(scalars) if m.group(0) not in declared]
    return [message for _, message in sorted(found)]
