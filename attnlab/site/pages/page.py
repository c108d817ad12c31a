"""Which page a Markdown conversion is for, as the builder running it says.

The extension needs the page's path inside ``docs/`` (for messages and
links), the docs folder (the Claims and Exercises pages read the others) and
the navigation (reading order and titles). Each builder says so through a
public door of its own:

- MkDocs: the guide's plugin (:mod:`attnlab.site.build.plugin`) announces
  each page from its ``on_page_markdown`` event, just before MkDocs converts it
  (:func:`announce`);
- Zensical: its ``zensical.extensions.context`` extension keeps the page and
  the configuration in a ``ContextPreprocessor``, which it documents for
  looking up from a ``Markdown`` instance;
- anything else (tests, a script): the extension's options ``page=`` and
  ``docs_dir=``.

Conversions nest: markdown-exec converts a code block's printed Markdown and
mkdocstrings a docstring with Markdown instances of their own while the page
is being converted, and both carry the guide's extension. The first
``Markdown`` to ask about a page is the page's own (its preprocessors run
before any code block); any other asking about the same page converts a part
of it, and :func:`page_of` answers None for it.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown import Markdown

from attnlab.site.pages.source import FRONT_MATTER


@dataclass(frozen=True)
class Page:
    """The page being converted and what surrounds it."""

    path: str
    """POSIX path inside the docs folder, e.g. ``mixing.md``."""
    docs_dir: Path
    nav: tuple[tuple[str, str], ...] = ()
    """``(path, title)`` of every page in the navigation, in reading order."""

    @property
    def name(self) -> str:
        """How messages name the page: ``docs/mixing.md``, as an author finds it."""
        return f"{self.docs_dir.name}/{self.path}"

    def source(self) -> str:
        """The page's Markdown file as the author wrote it, front matter included."""
        return (self.docs_dir / self.path).read_text(encoding="utf-8")

    def in_file(self, converted: str) -> tuple[str, str]:
        """``converted``, the text a builder hands to Markdown, placed as it stands in the page file.

        Returns what precedes it in the file (the front matter and the blank
        lines after it, which builders strip in different ways) and the text
        from its first non-blank line, so that their concatenation counts
        lines as the author's editor does.
        """
        source = self.source()
        found = FRONT_MATTER.match(source)
        front = found.group(0) if found else ""
        blank = len(_leading_blank_lines(source[len(front):]))
        return front + "\n" * blank, "\n".join(converted.split("\n")[len(_leading_blank_lines(converted)):])


def _leading_blank_lines(text: str) -> list[str]:
    """The blank lines at the start of ``text``."""
    lines = text.split("\n")
    return lines[:next((i for i, line in enumerate(lines) if line.strip()), len(lines))]


def nav_pages(nav: Any) -> Iterator[tuple[str, str]]:
    """Yield ``(path, title)`` for every page named in ``mkdocs.yml``'s ``nav``, in order."""
    for item in nav or []:
        if isinstance(item, Mapping):
            for title, value in item.items():
                if isinstance(value, str):
                    yield value, title
                else:
                    yield from nav_pages(value)


def zensical_nav_pages(nav: Any) -> Iterator[tuple[str, str]]:
    """Yield ``(path, title)`` for every page in Zensical's parsed navigation (``title``, ``url``, ``children``)."""
    for item in nav or []:
        if item.get("url"):
            yield item["url"], item["title"]
        yield from zensical_nav_pages(item.get("children"))


_announced: Page | None = None
"""The page MkDocs is about to convert, as the guide's plugin announced it."""
_owner: tuple[object, weakref.ref[Markdown]] | None = None
"""Who the current page is (whatever object its builder keeps for it) and the ``Markdown`` that converts it."""


def announce(page: Page | None) -> None:
    """Say which page MkDocs converts next (None once it is converted); called by the guide's MkDocs plugin."""
    global _announced
    _announced = page


def _zensical(md: Markdown) -> tuple[object, Page] | None:
    """The page Zensical is converting, from its context preprocessor, with the object Zensical keeps for it."""
    try:
        from zensical.extensions.context import ContextPreprocessor
    except ImportError:
        return None
    context = ContextPreprocessor.from_markdown(md)
    if context is None:
        return None
    config = context.config
    root = Path(config.get("root_dir") or ".")
    page = Page(Path(context.page.path).as_posix(), root / config["docs_dir"],
                tuple(zensical_nav_pages(config.get("nav"))))
    return context.page, page


def _told(md: Markdown, options: Mapping[str, Any], extension: object) -> tuple[object, Page]:
    """The page ``md`` works on and who it is, from the options, the plugin or Zensical, in that order."""
    if options.get("page"):
        return extension, Page(options["page"], Path(options.get("docs_dir") or "docs"))
    if _announced is not None:
        return _announced, _announced
    found = _zensical(md)
    if found is None:
        raise LookupError("attnlab.site.pages cannot tell which page it converts: under MkDocs list the "
                          "plugin `attnlab` under plugins in mkdocs.yml; elsewhere run it under Zensical or "
                          "pass page= and docs_dir= in the extension's options")
    return found


def page_of(md: Markdown, options: Mapping[str, Any], extension: object) -> Page | None:
    """The page ``md`` converts as a whole; None when ``md`` converts a part of it (a block's output, a docstring).

    ``extension`` is the extension instance asking (it names the page when
    the page comes from its options). Raises ``LookupError`` when nobody says
    which page it is, since every check names its page.
    """
    global _owner
    who, page = _told(md, options, extension)
    if _owner is None or _owner[0] is not who or _owner[1]() is None:
        _owner = (who, weakref.ref(md))
    return page if _owner[1]() is md else None
