"""Tell prose from code in a page's Markdown (citations and bindings live in prose only); read its front matter."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

import yaml

FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<head>[^\n]*)\n(?P<code>.*?)"
                   r"^(?P=indent)?[ \t]*(?P=fence)[ \t]*$", re.M | re.S)
"""A fenced code block: its opening line's ``head`` (language and options) and its ``code``."""
INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1", re.S)
FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n---[ \t]*\n", re.S)
NOT_PROSE = re.compile(rf"{FENCE.pattern}|^:::[^\n]*\n(?:(?:[ \t]+[^\n]*)?\n)*", re.M | re.S)
"""A fenced code block, or a mkdocstrings ``::: module`` line and the indented options below it."""


def front_matter(markdown: str, page: str) -> dict[str, Any]:
    """The page's front matter with every value as written (strings, lists of strings); ``{}`` without one."""
    front = FRONT_MATTER.match(markdown)
    try:
        return _parsed("\n".join(front.group(0).splitlines()[1:-1])) if front else {}
    except ValueError as error:
        raise ValueError(f"{page}{error}") from None


@lru_cache(maxsize=256)  # every page's conversion reads every page's kind (twice), and PyYAML is slow
def _parsed(text: str) -> dict[str, Any]:
    """``front_matter`` of the YAML ``text`` (the lines between the dashes); an error's message goes after the page."""
    try:
        yaml.safe_load(text)  # what MkDocs reads: it would silently drop a front matter it cannot (a !!python tag)
        meta = yaml.load(text, Loader=yaml.BaseLoader) or {}  # noqa: S506 (strings only)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f":{mark.line + 2}" if mark else ""  # the YAML's first line is the file's second
        problem = getattr(error, "problem", None) or str(error).split("\n")[0]
        raise ValueError(f"{where}: front matter is not YAML that MkDocs reads: {problem}") from None
    if not isinstance(meta, dict):
        raise ValueError(f": front matter must be a mapping of names to values, got {meta!r}")
    return meta


@lru_cache(maxsize=64)  # a page's checks and conversions split the same Markdown many times
def chunks(markdown: str) -> tuple[tuple[bool, int, str], ...]:
    """The ``(is_prose, offset, text)`` pieces that concatenate back to ``markdown``."""
    position, pieces = 0, []
    if front := FRONT_MATTER.match(markdown):
        pieces.append((False, 0, front.group(0)))
        position = front.end()
    for block in NOT_PROSE.finditer(markdown, position):
        pieces += _inline(markdown[position:block.start()], position)
        pieces.append((False, block.start(), block.group(0)))
        position = block.end()
    return (*pieces, *_inline(markdown[position:], position))


def _inline(text: str, offset: int) -> Iterator[tuple[bool, int, str]]:
    """Split a fence-free stretch into prose and inline code spans."""
    position = 0
    for span in INLINE_CODE.finditer(text):
        yield True, offset + position, text[position:span.start()]
        yield False, offset + span.start(), span.group(0)
        position = span.end()
    yield True, offset + position, text[position:]


def sub_prose(pattern: re.Pattern[str], replace: str | Callable[[re.Match[str]], str], markdown: str) -> str:
    """``pattern.sub(replace, …)`` applied to the prose pieces only."""
    return "".join(pattern.sub(replace, text) if prose else text for prose, _, text in chunks(markdown))


def blank(text: str) -> str:
    """``text`` with everything but line breaks turned to spaces, so offsets and lines stay put."""
    return "\n".join(" " * len(line) for line in text.split("\n"))


def code_blanked(markdown: str) -> str:
    """``markdown`` with code, inline code and front matter blanked (same offsets)."""
    return "".join(text if prose else blank(text) for prose, _, text in chunks(markdown))


def blank_match(match: re.Match[str]) -> str:
    """:func:`blank` for ``re.sub``: the match blanked."""
    return blank(match.group(0))


def line_of(markdown: str, offset: int) -> int:
    """1-based line number of a character offset, for error messages."""
    return markdown.count("\n", 0, offset) + 1


def at_marker(markdown: str, page: str, marker: str, listing: Callable[[], str]) -> str:
    """``markdown`` with ``listing()`` at the ``marker`` line; ``ValueError`` naming ``page`` without it."""
    if marker not in markdown:
        raise ValueError(f"{page}: the marker line {marker} is missing")
    return markdown.replace(marker, listing())


def relative(target: str, page: str) -> str:
    """The link from ``page`` to ``target`` (both paths inside the docs or the site)."""
    return posixpath.relpath(target, posixpath.dirname(page) or ".")
