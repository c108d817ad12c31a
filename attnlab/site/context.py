"""Which page a Markdown conversion is for, asked of whichever builder runs it.

The extension needs the page's path inside ``docs/`` (for messages and
links), the docs folder (to scan every page for citations), the site folder
(to publish files) and the navigation (for page titles). MkDocs registers a
treeprocessor named ``relpath`` that holds the page's file and the config;
Zensical registers a preprocessor holding its page and config. Extension
options (``page``, ``docs_dir``, ``site_dir``) name the page directly, for
tests and any other caller of Python-Markdown.

Conversions nest: markdown-exec renders a code block's printed Markdown and
mkdocstrings a docstring with a fresh ``Markdown`` inside the page's own
``convert``, and the ``toc`` extension runs every postprocessor on each
heading's text. Only the outermost conversion, running its processors on the
whole page, is the page; :func:`whole_page` tells.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markdown import Markdown

from attnlab.site import tracking
from attnlab.site.markdown import FRONT_MATTER

_CONVERT = Markdown.convert.__code__


@dataclass(frozen=True)
class Page:
    """The page being converted and the folders around it."""

    path: str
    """POSIX path inside the docs folder, e.g. ``mixing.md``."""
    docs_dir: Path
    site_dir: Path | None
    nav: tuple[tuple[str, str], ...] = ()
    """``(path, title)`` of every page in the navigation, in reading order."""

    @property
    def name(self) -> str:
        """How messages name the page: ``docs/mixing.md``, as an author finds it."""
        return f"{self.docs_dir.name}/{self.path}"

    def source(self) -> str:
        """The page's Markdown file as the author wrote it, front matter included."""
        return tracking.read_doc(self.docs_dir, self.path)

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

    @property
    def titles(self) -> dict[str, str]:
        """Navigation title of each page path."""
        return dict(self.nav)


def _leading_blank_lines(text: str) -> list[str]:
    """The blank lines at the start of ``text``."""
    lines = text.split("\n")
    return lines[:next((i for i, line in enumerate(lines) if line.strip()), len(lines))]


def whole_page() -> bool:
    """Whether the calling processor runs on a whole page.

    True when ``Markdown.convert`` called it directly (not the ``toc``
    extension, on a heading) and that conversion is not inside another one
    (a code block's output, a docstring).
    """
    caller = sys._getframe(2)
    if caller.f_code is not _CONVERT:
        return False
    frame = caller.f_back
    while frame is not None:
        if frame.f_code is _CONVERT:
            return False
        frame = frame.f_back
    return True


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


def _mkdocs(md: Markdown) -> Page | None:
    """The page MkDocs is converting, from its ``relpath`` treeprocessor."""
    if "relpath" not in md.treeprocessors:
        return None
    processor = md.treeprocessors["relpath"]
    config = processor.config
    return Page(processor.file.src_uri, Path(config.docs_dir), Path(config.site_dir),
                tuple(nav_pages(config.nav)))


def _zensical(md: Markdown) -> Page | None:
    """The page Zensical is converting, from its rendering-context preprocessor."""
    if "rendering_context" not in md.preprocessors:
        return None
    processor = md.preprocessors["rendering_context"]
    config = processor.config
    root = Path(config.get("root_dir") or ".")
    return Page(Path(processor.page.path).as_posix(), root / config["docs_dir"], root / config["site_dir"],
                tuple(zensical_nav_pages(config.get("nav"))))


def page_of(md: Markdown, options: Mapping[str, Any]) -> Page:
    """The page ``md`` is converting: from the extension's options, else from MkDocs or Zensical.

    Raises ``LookupError`` when nobody says, since every check names its page.
    """
    if options.get("page"):
        site = options.get("site_dir")
        return Page(options["page"], Path(options.get("docs_dir") or "docs"), Path(site) if site else None)
    found = _mkdocs(md) or _zensical(md)
    if found is None:
        raise LookupError("attnlab.site.extension cannot tell which page it converts: run it under MkDocs "
                          "or Zensical, or pass page= and docs_dir= in its options")
    return found
