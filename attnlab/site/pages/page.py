"""Which page is being converted: its path inside ``docs/``, the docs folder and the navigation."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnlab.site.pages.source import FRONT_MATTER


@dataclass(frozen=True)
class Page:
    """The page being converted and what surrounds it."""

    path: str
    docs_dir: Path
    nav: tuple[tuple[str, str], ...] = ()
    """``(path, title)`` of every page in the navigation, in reading order."""

    @property
    def name(self) -> str:
        """How messages name the page: ``docs/mixing.md``, as an author finds it."""
        return f"{self.docs_dir.name}/{self.path}"

    def in_file(self, converted: str) -> tuple[str, str]:
        """``(before, text)``: ``converted`` (what a builder hands to Markdown) from its first non-blank line, and
        what precedes that in the page's file (front matter, blank lines), so that ``before + text`` counts lines as
        the author's editor does."""
        source = (self.docs_dir / self.path).read_text(encoding="utf-8")
        found = FRONT_MATTER.match(source)
        front = found.group(0) if found else ""
        return (front + "\n" * _blank_lines(source[len(front):]),
                "\n".join(converted.split("\n")[_blank_lines(converted):]))


def _blank_lines(text: str) -> int:
    """How many blank lines ``text`` starts with."""
    lines = text.split("\n")
    return next((i for i, line in enumerate(lines) if line.strip()), len(lines))


def nav_pages(nav: Any) -> Iterator[tuple[str, str]]:
    """Yield ``(path, title)`` for every page named in ``mkdocs.yml``'s ``nav``, in order."""
    for item in nav or []:
        if isinstance(item, Mapping):
            for title, value in item.items():
                if isinstance(value, str):
                    yield value, title
                else:
                    yield from nav_pages(value)
