"""Each executed block as a page's source holds it and as the built page shows it (``<div class="attnlab-block"
id="block-LINE">``, its listings kept apart), and the numbers in a text: for comparing notebooks with pages.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

from attnlab.site.pages.blocks import BLOCK_CLASS
from attnlab.site.pages.practice import FENCED

NUMBER = re.compile(r"[-\u2212]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
"""A number as written in a table, a vector or a sentence: sign (- or −), digits, decimals, an exponent."""


def numbers(text: str) -> list[str]:
    """The numbers in ``text`` as written, with the minus sign written ``-``."""
    return [n.replace("\u2212", "-") for n in NUMBER.findall(text)]


@dataclass
class Shown:
    """One block as its page shows it: its text, and the text of each code listing in it."""

    pieces: list[tuple[bool, str]] = field(default_factory=list)
    """``(is a listing, text)`` in page order."""

    def text(self, leaving_out: str = "") -> str:
        """The block's text, without the listing whose text is ``leaving_out`` (the code the notebook ran)."""
        listing = leaving_out.strip()
        return "".join(text for is_listing, text in self.pieces if not (is_listing and text.strip() == listing))


class Blocks(HTMLParser):
    """Collects each block of a page by its id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: dict[str, Shown] = {}
        self.stack: list[tuple[str, str]] = []  # (tag, role: "block" | "listing" | "")
        self.current: Shown | None = None
        self.listing: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        role = ""
        if tag == "div" and BLOCK_CLASS in classes and found.get("id"):
            self.current = self.blocks.setdefault(str(found["id"]), Shown())
            role = "block"
        elif tag == "div" and "highlight" in classes and self.current is not None and self.listing is None:
            self.listing, role = [], "listing"
        if tag not in ("br", "img", "input", "hr", "meta", "link", "col", "source", "wbr"):
            self.stack.append((tag, role))

    def handle_endtag(self, tag: str) -> None:
        if all(opened != tag for opened, _ in self.stack):
            return  # a closing tag with nothing to close (a stray </p>)
        while self.stack:
            opened, role = self.stack.pop()
            if role == "listing" and self.current is not None and self.listing is not None:
                self.current.pieces.append((True, "".join(self.listing)))
                self.listing = None
            elif role == "block":
                self.current = None
            if opened == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.listing is not None:
            self.listing.append(data)
        elif self.current is not None:
            self.current.pieces.append((False, data))


@cache
def blocks(page: Path) -> dict[str, Shown]:
    """Every block of the built ``page``, by its id (``block-24``)."""
    parser = Blocks()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.blocks


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
def source_blocks(page: Path) -> dict[int, Source]:
    """Every fenced block of the Markdown file ``page``, by the line of its opening fence."""
    text = page.read_text(encoding="utf-8")
    return {text.count("\n", 0, m.start()) + 1: Source(m["head"], textwrap.dedent(m["code"]))
            for m in FENCED.finditer(text)}
