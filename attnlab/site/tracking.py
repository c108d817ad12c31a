"""What converting a page reads of the docs and writes into the site, noted while a record is open.

A page's HTML can depend on more than its own Markdown: the Claims page
lists where each claim is cited, so it reads every page; the Exercises page
reads the chapters it gathers questions from. And a conversion can publish
files beside the page (the home page's data files, a table's exports, the
explorer's data). The page cache (:mod:`attnlab.site.kept_pages`) opens a
:func:`recording` around a conversion, keeps what it noted, and takes a
kept page only while every file it read is unchanged, writing its files
again. Reading docs and writing site files go through :func:`read_doc` and
:func:`wrote` so that nothing escapes the record.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Record:
    """What one conversion read (docs path → SHA-256 of its text) and wrote (site path → text)."""

    reads: dict[str, str] = field(default_factory=dict)
    writes: dict[str, str] = field(default_factory=dict)


_open: list[Record] = []
"""The records open now, innermost last (a conversion inside a conversion notes into both)."""


def text_digest(text: str) -> str:
    """SHA-256 of ``text`` as UTF-8."""
    return hashlib.sha256(text.encode()).hexdigest()


def read_doc(docs: Path, path: str) -> str:
    """The text of ``path`` inside ``docs``, noted in every open record."""
    text = (docs / path).read_text(encoding="utf-8")
    for record in _open:
        record.reads[path] = text_digest(text)
    return text


def wrote(files: Mapping[str, str]) -> None:
    """Note in every open record that ``files`` (site path → text) were written into the site."""
    for record in _open:
        record.writes.update(files)


@contextmanager
def recording() -> Iterator[Record]:
    """Open a record for the conversion run inside the ``with`` block."""
    record = Record()
    _open.append(record)
    try:
        yield record
    finally:
        _open.remove(record)
