"""The guide's pages: the navigation gives their order, each page's front matter its kind (:data:`KINDS`), which
the build checks each page against (:meth:`Guide.requirements`); :class:`Page` is the one being converted."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnlab.site.pages import claims, practice
from attnlab.site.pages.source import FRONT_MATTER, front_matter

KINDS: Mapping[str, str] = {
    "chapter": "a chapter that teaches: a predict-first prompt, two to four exercises, a claim cited",
    "page": "a page a reader reads but does not tick off (home, lab, explorer, notes): a claim cited",
    "reference": "a page a reader consults (claims, sources, reference, licences, exercises): no requirement",
}
"""What each kind of page is; the key goes in a page's front matter as ``kind:`` (a chapter when it says none)."""


def kind_of(markdown: str, page: str) -> str:
    """The kind ``page`` declares in its front matter."""
    kind = front_matter(markdown, page).get("kind", "chapter")
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(f"{page}: front matter 'kind' must be one of {', '.join(KINDS)}, got {kind!r}")
    return kind


def docs_pages(docs: Path) -> dict[str, str]:
    """Every Markdown page under ``docs``, as relative POSIX path → text, in path order."""
    return {path.relative_to(docs).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(docs.rglob("*.md"))}


def nav_pages(nav: Any) -> Iterator[tuple[str, str]]:
    """Yield ``(path, title)`` for every page named in ``mkdocs.yml``'s ``nav``, in order."""
    for item in nav or []:
        if isinstance(item, Mapping):
            for title, value in item.items():
                if isinstance(value, str):
                    yield value, title
                else:
                    yield from nav_pages(value)


@dataclass(frozen=True)
class Guide:
    """Every page's Markdown, in reading order, with its navigation title and kind."""

    sources: Mapping[str, str]
    """Path inside ``docs/`` → Markdown; the pages of the navigation in its order, then any others by path."""
    titles: Mapping[str, str]

    @classmethod
    def read(cls, docs: Path, nav: tuple[tuple[str, str], ...]) -> Guide:
        """The guide in the folder ``docs`` with the navigation ``nav`` (``(path, title)`` pairs in order)."""
        pages = docs_pages(docs)
        order = [path for path, _ in nav if path in pages] + [path for path in pages if path not in dict(nav)]
        return cls({path: pages[path] for path in order}, dict(nav))

    def kind(self, path: str) -> str:
        """The kind of the page ``path``."""
        return kind_of(self.sources[path], path)

    @property
    def chapters(self) -> tuple[str, ...]:
        """The chapters of the navigation, in reading order."""
        return tuple(path for path in self.sources if path in self.titles and self.kind(path) == "chapter")

    def requirements(self, path: str, markdown: str, name: str) -> list[str]:
        """What the page ``path`` (named ``name`` in messages) lacks for its kind; a draft, outside the nav, nothing."""
        kind = kind_of(markdown, name)
        if path not in self.titles:
            return []
        found = practice.problems(markdown, name) if kind == "chapter" else []
        if kind != "reference" and not any(True for _ in claims.citations(markdown)):
            found.append(f"{name}: a {kind} cites at least one claim ([[CL-001]]); none is cited "
                         f"(or say kind: reference in its front matter: {KINDS['reference']})")
        return found


@dataclass(frozen=True)
class Page:
    """The page being converted: its path inside ``docs/``, the docs folder and the navigation."""

    path: str
    docs_dir: Path
    nav: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        """How messages name the page: ``docs/mixing.md``, as an author finds it."""
        return f"{self.docs_dir.name}/{self.path}"

    def in_file(self, converted: str) -> tuple[str, str]:
        """``(before, text)``: ``converted`` (front matter stripped by MkDocs) from its first non-blank line, and what
        precedes that in the file, so that ``before + text`` counts lines as the author's editor does."""
        source = (self.docs_dir / self.path).read_text(encoding="utf-8")
        found = FRONT_MATTER.match(source)
        front = found.group(0) if found else ""
        blank = [text[:len(text) - len(text.lstrip())].count("\n") for text in (source[len(front):], converted)]
        return front + "\n" * blank[0], "\n".join(converted.split("\n")[blank[1]:])
