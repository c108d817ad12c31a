"""Numbers bound to their computation: ``[[0.576 = compute().x]]`` shows ``0.576`` and :func:`check` fails
unless the expression, rounded to the decimals written, gives exactly that (``[[[1, 2] = …]]`` a vector,
``[[57.6% = …]]`` 100 times the value). ``[[words ? condition]]`` shows its words; :func:`check_relations` fails
once the condition is false; :func:`unbound` reports a number neither bound nor in the front matter's ``literals:``."""

from __future__ import annotations

import ast
import importlib
import math
import pkgutil
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, is_dataclass
from typing import Any

import numpy as np

import attnlab
from attnlab.checks import as_array, finite_number
from attnlab.lab import compute, toy_data
from attnlab.site.pages import sliders, trained
from attnlab.site.pages.blocks import PageError, guarded, placed_blocks
from attnlab.site.pages.claims import CITATION
from attnlab.site.pages.output import NON_NUMBER
from attnlab.site.pages.source import blank, blank_match, chunks, front_matter, line_of, sub_prose
from attnlab.text import MAX_DECIMALS, fmt

_TEXT = r"(?:[^\[\]\n]|\n(?![ \t]*\n))"
"""One character of an expression or a relation's words: no bracket, no blank line."""
EXPRESSION = rf"(?:{_TEXT}|\[(?:{_TEXT}|\[{_TEXT}*\])*\])+?"
"""A Python expression in prose: brackets balanced (two levels deep)."""
_QUOTED_NUMBER = r"-?[0-9]+(?:\.[0-9]+)?"
_QUOTED = rf"{_QUOTED_NUMBER}%?|\[{_QUOTED_NUMBER}(?:, {_QUOTED_NUMBER})*\]"
BINDING = re.compile(rf"(?<!\\)\[\[[ \t]*(?P<quoted>{_QUOTED})[ \t]*=\s*(?P<expression>{EXPRESSION})\s*\]\]")
RELATION = re.compile(rf"(?<!\\)\[\[[ \t]*(?P<words>[^\s\[\]=?0-9-](?:(?![=?]){_TEXT})*?)"
                      rf"[ \t]+\?\s+(?P<condition>{EXPRESSION})\s*\]\]")
VECTOR = re.compile(r"\[[ \t]*[-\u2212]?[0-9][0-9.]*(?:[ \t]*,[ \t]*[-\u2212]?[0-9][0-9.]*)+[ \t]*\]")
"""A vector written in prose, ``[1, 0]``: bound or declared whole."""
NUMBER = re.compile(r"(?<![\w.])(?<![A-Z]-)(?<!_\{)[-\u2212]?(?:[0-9]+(?:\.[0-9]+)*|\.[0-9]+)%?")
"""A number as the scan sees it (``-0.5``, ``−3``, ``57.6%``, ``.577``); digits glued to a name (``S1``, ``GPT-2``,
``x_{12}``) are not numbers."""

MARKUP = re.compile("|".join((
    r"<!--.*?-->", r"<style\b.*?</style\s*>|<script\b.*?</script\s*>",  # HTML comments, stylesheets and scripts
    r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>", r"&#?\w+;",  # HTML tags with their attributes, character references
    r"\]\([^)\s]*(?:\s+\"[^\"]*\")?\)", r"^[ \t]*\[[^\]\n]+\]:[^\n]*",  # link targets, reference definitions
    r"[a-z]+://\S+", r"(?<![\w\\^_])\{:?[ \t]*(?:[#.]|[\w-]+=)[^}\n]*\}",  # bare URLs, attribute lists {#id .c k=v}
)), re.S | re.M | re.I)
"""Prose that a reader never sees as a number: markup, addresses, anchors."""
OPEN = re.compile(r"\[\[[^\n]{0,40}")
LIST_MARKER = re.compile(r"^[ \t>]*([0-9]+)[.)](?=[ \t])")


@dataclass(frozen=True)
class Binding:
    """One ``[[quoted = expression]]`` in a page's prose."""

    quoted: str
    expression: str
    line: int
    start: int

    @property
    def entries(self) -> list[str]:
        """The quoted numbers: one, or a vector's entries in order."""
        return self.quoted.strip("[]").rstrip("%").split(", ")

    def shown(self, value: float | list[float]) -> str:
        """``value`` written the way this binding quotes it."""
        places = [decimals(entry) for entry in self.entries]
        if not self.quoted.startswith("["):
            if not isinstance(value, list):
                if self.quoted.endswith("%"):
                    return fmt(100 * value, places[0]) + "%"
                return fmt(value, places[0])
            places *= len(value)  # a number quoted, a vector computed: every entry to the quote's decimals
        values = value if isinstance(value, list) else [value]
        if len(places) != len(values):  # a vector of another length: shown to 3 decimals, to say what came
            places = [3] * len(values)
        return "[" + ", ".join(map(fmt, values, places)) + "]"


def decimals(number: str) -> int:
    """How many decimals a quoted number shows."""
    return len(number.partition(".")[2])


class _Unavailable:
    """Stands in for an attnlab module that failed to import; using it raises that error."""

    def __init__(self, name: str, error: Exception) -> None:
        self._message = f"attnlab.{name} failed to import: {type(error).__name__}: {error}"

    def __getattr__(self, attribute: str) -> Any:
        raise ImportError(self._message)


def namespace() -> dict[str, Any]:
    """The names a binding's expression can use: attnlab's public names and modules, and those below."""
    names: dict[str, Any] = {"np": np, "math": math, "compute": compute, "toy_data": toy_data, "sliders": sliders,
                             "trained": trained}
    names.update({name: getattr(attnlab, name) for name in attnlab.__all__})
    for module in pkgutil.iter_modules(attnlab.__path__):
        if module.ispkg or module.name == "__main__" or module.name in names:
            continue
        try:
            names[module.name] = importlib.import_module(f"attnlab.{module.name}")
        except Exception as error:  # noqa: BLE001 (a chapter's module under construction must not break every page)
            names[module.name] = _Unavailable(module.name, error)  # breaks only the bindings using it
    return names


def bindings(markdown: str) -> list[Binding]:
    """Every binding in the prose of ``markdown``, in order."""
    return [Binding(m["quoted"], " ".join(m["expression"].split()), line_of(markdown, offset + m.start()),
                    offset + m.start())
            for prose, offset, text in chunks(markdown) if prose for m in BINDING.finditer(text)]


def relations(markdown: str) -> list[tuple[str, str, int]]:
    """``(words, condition, line)`` of every relation in the prose of ``markdown``, in order."""
    return [(" ".join(m["words"].split()), " ".join(m["condition"].split()), line_of(markdown, offset + m.start()))
            for prose, offset, text in chunks(markdown) if prose for m in RELATION.finditer(text)]


def render(markdown: str) -> str:
    """``markdown`` with every binding replaced by its quote, every relation by its words."""
    return sub_prose(RELATION, lambda m: m["words"], sub_prose(BINDING, lambda m: m["quoted"], markdown))


def written_in(markdown: str, page: str, prefix: str = "") -> str:
    """``markdown`` rendered, its code blocks placed (HTML ids prefixed by ``prefix``)."""
    return render(placed_blocks(markdown, page, prefix))


def number(expression: str, value: Any) -> float | list[float]:
    """``value`` as a binding shows it: one real number, or a vector of them."""
    if isinstance(value, (list, tuple, np.ndarray)):
        return as_array(expression, value, 1).tolist()
    return finite_number(expression, value)


def truth(expression: str, value: Any) -> bool:
    """``value`` as a relation holds it: true or false, nothing else."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"a relation's condition must be true or false, got {value!r}")
    return bool(value)


def evaluated(expression: str, names: dict[str, Any], place: str, what: str, kind: Callable[[str, Any], Any]) -> Any:
    """``kind`` (:func:`number`, :func:`truth`) of ``expression``'s value, run :func:`guarded`; or its ``Exception``."""
    try:
        with guarded(place, what):
            return kind(expression, eval(expression, dict(names)))  # noqa: S307 - the guide's own, from docs/
    except PageError:
        raise
    except Exception as error:  # noqa: BLE001 (every failure becomes a message naming the place)
        return error


def verdict(binding: Binding, page: str, names: dict[str, Any], cache: dict[str, Any]) -> tuple[str, str]:
    """``(shown, problem)``: the value as ``binding`` quotes it, what is wrong ("" if none); ``cache`` by expression."""
    where, what = f"{page}:{binding.line}", f"[[{binding.quoted} = {binding.expression}]]"
    if binding.expression not in cache:
        cache[binding.expression] = evaluated(binding.expression, names, where, what, number)
    value = cache[binding.expression]
    if isinstance(value, Exception):
        return "", (f"{where}: {what} cannot be evaluated: {type(value).__name__}: {value} "
                    "(names in scope: attnlab.site.pages.bindings.namespace)")
    if max(map(decimals, binding.entries)) > MAX_DECIMALS:
        return "", (f"{where}: [[{binding.quoted} = ...]] quotes more than {MAX_DECIMALS} decimals, more "
                    "than a float64 holds")
    shown = binding.shown(value)
    wrong = f"{where}: quoted {binding.quoted} but {binding.expression} gives {shown}"
    return shown, "" if shown == binding.quoted else wrong


def check(markdown: str, page: str, cache: dict[str, Any] | None = None) -> list[str]:
    """One message per binding in ``page`` that fails or disagrees with its quote, and per lookalike literal."""
    names, cache = namespace(), {} if cache is None else cache
    found = [problem for binding in bindings(markdown) if (problem := verdict(binding, page, names, cache)[1])]
    return found + lookalike_literals(markdown, page, names)


def check_relations(markdown: str, page: str) -> list[str]:
    """One message per relation in ``page`` whose condition is false, not a truth value or cannot be evaluated."""
    names = namespace() if (found := relations(markdown)) else {}
    problems = []
    for words, condition, line in found:
        value = evaluated(condition, names, f"{page}:{line}", f"[[{words} ? {condition}]]", truth)
        if isinstance(value, Exception):
            problems.append(f"{page}:{line}: {words!r}: its condition {condition} cannot be evaluated: "
                            f"{type(value).__name__}: {value}")
        elif not value:
            problems.append(f"{page}:{line}: {words!r} is false now: {condition} does not hold "
                            "(rewrite the sentence, then its condition)")
    return problems


def vector_text(entries: list[str]) -> str:
    """A vector as the scan compares it: ``[1, -0.5]``, entries as written."""
    return "[" + ", ".join(entry.strip().replace("\u2212", "-") for entry in entries) + "]"


def literals(markdown: str, page: str) -> set[str]:
    """The numbers and vectors ``page`` declares as not computed, as written in its front matter."""
    declared = front_matter(markdown, page).get("literals", [])
    if not isinstance(declared, list) or not all(
            isinstance(item, str) or (isinstance(item, list) and all(isinstance(e, str) for e in item))
            for item in declared):
        raise ValueError(f"{page}: front matter 'literals' must list numbers and vectors of numbers, "
                         f"got {declared!r}")
    return {_literal(item) for item in declared}


def _literal(item: str | list[str]) -> str:
    """One declared literal as the prose quotes it: a vector (a list, or a string "[a, b]") as vector_text writes
    it, a number as it stands."""
    if isinstance(item, list):
        return vector_text(item)
    if item.startswith("["):
        return vector_text(item.strip("[]").split(","))
    return item


def _blank_list_markers(text: str) -> str:
    """``text`` with ordered-list markers blanked: a numbered line after a blank line, inside a list, or numbered 1
    (a wrapped sentence that starts with "4." keeps its number)."""
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


TOOLTIP = re.compile(r"""\btitle=(["'])(?P<text>(?:(?!\1).)*)\1""", re.S)
NUMBER_SPAN = re.compile(r"`+ ?[-\u2212]?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)%? ?`+")
"""An inline code span holding only a number (`` `0.577` ``): prose set in code."""


def _markup_blanked(match: re.Match[str]) -> str:
    """A piece of :data:`MARKUP` blanked but for the text of its tooltips."""
    kept = list(blank(match.group(0)))
    for tip in TOOLTIP.finditer(match.group(0)):
        kept[tip.start("text"):tip.end("text")] = tip["text"]
    return "".join(kept)


SCANNED = re.compile(rf"(?P<vector>{VECTOR.pattern})|{NUMBER.pattern}")


def written(markdown: str) -> list[tuple[int, str]]:
    """``(offset, text)`` of each number and vector a reader sees in the prose of ``markdown`` (tooltips too)."""
    visible = _blank_list_markers("".join(
        MARKUP.sub(_markup_blanked, RELATION.sub(  # a relation blanked but for its words
            lambda m: " " * (m.start("words") - m.start()) + m["words"] + blank(m.string[m.end("words"):m.end()]),
            BINDING.sub(blank_match, text))) if prose
        else text.replace("`", " ") if NUMBER_SPAN.fullmatch(text) else blank(text)
        for prose, _, text in chunks(markdown)))
    return [(m.start(), vector_text(m["vector"].strip("[] \t").split(",")) if m["vector"] else m.group(0))
            for m in SCANNED.finditer(visible)]


def _numbers_in(value: Any, depth: int = 0) -> Iterator[np.ndarray]:
    """The real numbers inside ``value`` (a number, array, sequence, mapping or dataclass, a few levels deep)."""
    if isinstance(value, Mapping):
        value = list(value.values())
    elif is_dataclass(value) and not isinstance(value, type):
        value = [getattr(value, f.name) for f in fields(value)]
    if depth > 4 or isinstance(value, (bool, np.bool_, str)):
        return
    if isinstance(value, (int, float, np.integer, np.floating)) or (
            isinstance(value, np.ndarray) and value.dtype.kind in "iuf"):
        yield np.ravel(value).astype(float)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _numbers_in(item, depth + 1)


def computed_numbers(expression: str, names: dict[str, Any]) -> Iterator[np.ndarray]:
    """Every number ``expression`` and each call inside it computes (``compute().scores[0]``: all of ``compute()``)."""
    tree = ast.parse(expression, mode="eval")
    for node in [tree.body, *(n for n in ast.walk(tree) if isinstance(n, ast.Call))]:
        try:
            value = eval(compile(ast.Expression(node), "<binding>", "eval"), dict(names))  # noqa: S307 - docs/
        except Exception:  # noqa: BLE001, S112 (the binding itself reports its failure)
            continue
        yield from _numbers_in(value)


def lookalike_literals(markdown: str, page: str, names: dict[str, Any]) -> list[str]:
    """One message per literal of 3 decimals or more (as the guide shows computed numbers) that agrees to all but
    its last decimal with a number its bindings compute: it should be bound (a typed "0.577" ships a wrong 0.576)."""
    precise = {text for text in literals(markdown, page) if re.fullmatch(r"[-\u2212]?[0-9]+\.[0-9]{3,}", text)}
    first = {text: at for at, text in reversed(written(markdown)) if text in precise} if precise else {}
    computed = [(b, v) for b in bindings(markdown) for v in computed_numbers(b.expression, names)] if first else []
    found = []
    for text, at in sorted(first.items(), key=lambda item: item[1]):
        places = decimals(text) - 1
        for binding, values in computed:
            near = values[np.round(values, places) == np.round(float(text.replace("\u2212", "-")), places)]
            if near.size:
                found.append(f"{page}:{line_of(markdown, at)}: {text} is declared a literal, but {binding.expression} "
                             f"(line {binding.line}) computes {float(near[0])!r}: bind it "
                             f"([[{fmt(float(near[0]), decimals(text))} = ...]])")
                break
    return found


def _unbound_in_front_matter(markdown: str, page: str, declared: set[str]) -> list[tuple[int, str]]:
    """``(offset, message)`` per non-number or undeclared number in the front matter a reader sees (title and
    description: the browser's tab, a search result), where no binding can go."""
    meta = front_matter(markdown, page)
    found = []
    for key in ("title", "description"):
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
    found = _unbound_in_front_matter(markdown, page, declared) + [
        (at, f"{page}:{line_of(markdown, at)}: {'the vector ' if text.startswith('[') else ''}{text} is "
             f"neither bound ([[{text} = expression]]) nor declared in the front matter's literals")
        for at, text in written(markdown) if text not in declared]
    return [message for _, message in sorted(found)]


def malformed(markdown: str, page: str) -> list[str]:
    """One message per ``[[`` in the prose of ``page`` that is neither a citation, a binding nor a relation."""
    found = []
    for prose, offset, text in chunks(markdown):
        if not prose:
            continue
        for form in (BINDING, RELATION, CITATION):  # what is well formed, blanked: what remains is not
            text = form.sub(blank_match, text)
        for m in OPEN.finditer(text):
            found.append(f"{page}:{line_of(markdown, offset + m.start())}: {''.join(m.group(0).partition(']]')[:2])!r} "
                         "is neither a claim citation nor a number binding: cite as [[CL-005]] (IDs CL-, LAB- or WE- "
                         "with three digits, no spaces) or bind as [[0.576 = expression]] (digits with optional -, "
                         "decimals and %, brackets balanced) or [[words ? condition]] (a relation)")
    return found
