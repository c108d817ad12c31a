"""Built pages read back, independently of the code that wrote them: a page as a tree of elements (:func:`page`),
its code listings, each executed block as the page shows it and as its source holds it, and the numbers in a text.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from attnlab.site.pages.blocks import BLOCK_CLASS
from attnlab.site.pages.source import FENCE

NUMBER = re.compile(r"[-\u2212]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
"""A number as written in a table, a vector or a sentence: sign (- or −), digits, decimals, an exponent."""
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def numbers(text: str) -> list[str]:
    """The numbers in ``text`` as written, with the minus sign written ``-``."""
    return [n.replace("\u2212", "-") for n in NUMBER.findall(text)]


@dataclass
class Element:
    """An element of a page: its tag, its attributes and what it holds (elements and text, in order)."""

    tag: str
    attrs: dict[str, str]
    children: list[Element | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        """The element's classes."""
        return set(self.attrs.get("class", "").split())

    def iter(self) -> Iterator[Element]:
        """This element and every element inside it, in page order."""
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def text(self, skip: Callable[[Element], bool] = lambda element: False, between: str = "") -> str:
        """The text inside, without the elements ``skip`` picks, ``between`` between its pieces."""
        return between.join(c if isinstance(c, str) else "" if skip(c) else c.text(skip, between)
                            for c in self.children)


class _Tree(HTMLParser):
    """Builds the tree; a closing tag with nothing open to close (a stray ``</p>``) is left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open = [Element("", {})]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open[-1].children.append(element := Element(tag, {name: value or "" for name, value in attrs}))
        if tag not in VOID:
            self.open.append(element)

    def handle_endtag(self, tag: str) -> None:
        if any(element.tag == tag for element in self.open[1:]):
            while self.open.pop().tag != tag:
                pass

    def handle_data(self, data: str) -> None:
        self.open[-1].children.append(data)


def parsed(html: str) -> Element:
    """``html`` as a tree under a root element of no tag."""
    (tree := _Tree()).feed(html)
    return tree.open[0]


@cache
def page(path: Path) -> Element:
    """The built page at ``path``, parsed."""
    return parsed(path.read_text(encoding="utf-8"))


def anchors(root: Element) -> set[str]:
    """Every ``id`` and ``name`` under ``root``: what a link's ``#fragment`` can point at."""
    return {e.attrs[a] for e in root.iter() for a in ("id", "name") if a in e.attrs}


def is_listing(element: Element) -> bool:
    """Whether ``element`` is a highlighted code listing (``<div class="highlight">``)."""
    return element.tag == "div" and "highlight" in element.classes


def listings(root: Element) -> list[str]:
    """The text of each highlighted code listing under ``root`` (Source tabs included)."""
    return [code.text() for listing in root.iter() if is_listing(listing)
            for code in listing.iter() if code.tag == "code"]


def pieces(element: Element) -> Iterator[tuple[bool, str]]:
    """The text inside ``element``, each listing as one piece."""
    for child in element.children:
        if isinstance(child, str):
            yield False, child
        elif is_listing(child):
            yield True, child.text()
        else:
            yield from pieces(child)


@cache
def blocks(path: Path) -> dict[str, list[tuple[bool, str]]]:
    """Every block of the built page at ``path`` as ``(is a listing, text)`` pieces in page order, by its id."""
    return {e.attrs["id"]: list(pieces(e)) for e in page(path).iter()
            if e.tag == "div" and BLOCK_CLASS in e.classes and e.attrs.get("id")}


@dataclass(frozen=True)
class Source:
    """A fenced block of a page's Markdown: its opening line's options and its code, dedented."""

    head: str
    code: str

    @property
    def shows_code(self) -> bool:
        """Whether the page shows the block's code (it runs and says where its source goes)."""
        words = self.head.split()
        return bool(words) and words[0] in ("python", "py") and 'exec="on"' in self.head and "source=" in self.head


@cache
def source_blocks(path: Path) -> dict[int, Source]:
    """Every fenced block of the Markdown file ``path``, by the line of its opening fence."""
    text = path.read_text(encoding="utf-8")
    return {text.count("\n", 0, m.start()) + 1: Source(m["head"], textwrap.dedent(m["code"]))
            for m in FENCE.finditer(text)}
