"""Pages kept between builds: a page whose Markdown and every input it read are unchanged is not converted again.

MkDocs converts every page on every build, though with the execution
cache on (:mod:`attnlab.site.execution`) most of the time goes to the
conversion itself: Markdown, the API reference (mkdocstrings), MathML and
the guide's checks. With the cache on, :func:`render` takes the place of
MkDocs' ``Page.render`` (``attnlab/site/cache_hook.py`` puts it there): it
converts a page as before, and keeps all that the conversion produced:

- what MkDocs keeps of it: the HTML, the table of contents, the title, the
  anchors the page has and the links it makes to other pages' anchors;
- what the conversion did beyond the page, recorded as it happened: files
  it published into the site (:mod:`attnlab.site.tracking`), anchors and
  objects it registered for cross-references (mkdocs-autorefs, and
  mkdocstrings' ``objects.inv``), and how far it moved markdown-exec's
  counter of conversions.

A later build takes the kept page instead of converting it when the key is
the same and every docs file the conversion read (:mod:`attnlab.site.tracking`)
still has the same text; it then does again what the conversion did beyond
the page. The key covers the page's address and Markdown; the whole
``mkdocs.yml``, the site's address and the list of files under docs; what
code blocks compute with (:func:`attnlab.site.execution.code_fingerprint`:
every file of ``attnlab``, Python and numpy); every installed package and
its version; the build date the page prints; and markdown-exec's counter
when the page starts. A page whose conversion logged a warning or failed is
not kept, so its warning or error comes again next build.

This trades a page's conversion for reading one JSON file. The suite
proves the trade exact: a build from kept pages is byte for byte a build
without any cache (``tests/test_execution.py``).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import markdown_exec
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from attnlab.site import execution, publish, tracking
from attnlab.site.provenance import build_date

PACKAGE_FOLDERS = (".dist-info", ".egg-info")
"""How installed packages name their metadata folders: name and version, as ``mkdocs-1.6.1.dist-info``."""
MKDOCS_LOGGER = "mkdocs"
"""The logger MkDocs and its plugins log under; it does not propagate to the root logger."""
AUTOREFS = "autorefs"
"""The name of mkdocs-autorefs' plugin in ``config.plugins`` (mkdocstrings adds it)."""
DOCSTRINGS = "mkdocstrings"
"""The name of the mkdocstrings plugin in ``config.plugins``."""

FIELDS = {"page", "content", "toc", "title", "anchors", "links", "reads", "writes", "registered", "conversions"}
"""What a kept page's entry holds (:func:`converted` writes them, :func:`restore` reads them)."""

_convert = Page.render
"""MkDocs' own conversion of a page, which :func:`render` runs when it has no kept page."""


def installed() -> list[str]:
    """Every installed package with its version, as the names of their metadata folders on ``sys.path``."""
    return sorted(name for folder in sys.path if os.path.isdir(folder) for name in os.listdir(folder)
                  if name.endswith(PACKAGE_FOLDERS))


def docs_files(docs: Path) -> list[str]:
    """Every file under ``docs``, as paths inside it."""
    return sorted(path.relative_to(docs).as_posix() for path in docs.rglob("*") if path.is_file())


def page_key(page: Page, config: Any, counter: int) -> str:
    """The key of ``page``'s conversion: everything it depends on but the docs files it reads."""
    return execution.content_key(
        "page", page.file.src_uri, page.markdown, Path(config.config_file_path).read_text(encoding="utf-8"),
        config.site_url, docs_files(Path(config.docs_dir)), installed(), build_date(), counter,
    )


def toc_tokens(items: Any) -> list[dict[str, Any]]:
    """A table of contents as the tokens MkDocs builds it from (``get_toc`` makes it again)."""
    return [{"level": item.level, "id": item.id, "name": item.title, "children": toc_tokens(item.children)}
            for item in items]


@contextmanager
def registrations(config: Any) -> Iterator[list[list[Any]]]:
    """Note every cross-reference anchor and inventory object registered inside the ``with`` block."""
    noted: list[list[Any]] = []
    undo = []
    autorefs = config.plugins.get(AUTOREFS)
    if autorefs is not None:
        register_anchor = autorefs.register_anchor

        def noted_anchor(page: Page, identifier: str, anchor: str | None = None, *, title: str | None = None,
                         primary: bool = True) -> None:
            noted.append(["anchor", identifier, anchor, title, primary])
            register_anchor(page, identifier, anchor, title=title, primary=primary)

        autorefs.register_anchor = noted_anchor
        undo.append(lambda: delattr(autorefs, "register_anchor"))
    if DOCSTRINGS in config.plugins:
        inventory = config.plugins[DOCSTRINGS].handlers.inventory
        register = inventory.register

        def noted_object(name: str, domain: str, role: str, uri: str, priority: int = 1,
                         dispname: str | None = None) -> None:
            noted.append(["object", name, domain, role, uri, priority, dispname])
            register(name, domain, role, uri, priority, dispname)

        inventory.register = noted_object
        undo.append(lambda: delattr(inventory, "register"))
    try:
        yield noted
    finally:
        for step in undo:
            step()


def register_again(noted: list[list[Any]], page: Page, config: Any) -> None:
    """Register what a kept page's conversion registered, in the same order."""
    for kind, *rest in noted:
        if kind == "anchor":
            identifier, anchor, title, primary = rest
            config.plugins[AUTOREFS].register_anchor(page, identifier, anchor, title=title, primary=primary)
        else:
            config.plugins[DOCSTRINGS].handlers.inventory.register(*rest)


class _Counter(logging.Handler):
    """Counts the records of warning level or above logged while it is attached."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@contextmanager
def warnings_counted() -> Iterator[_Counter]:
    """Count every warning logged, by any logger, inside the ``with`` block.

    MkDocs' own loggers (``mkdocs.*``, its plugins' among them) do not pass
    their records up to the root logger, so the count listens to both.
    """
    counter = _Counter()
    loggers = [logging.getLogger(), logging.getLogger(MKDOCS_LOGGER)]
    for logger in loggers:
        logger.addHandler(counter)
    try:
        yield counter
    finally:
        for logger in loggers:
            logger.removeHandler(counter)


def converted(page: Page, config: Any, files: Any) -> dict[str, Any] | None:
    """Convert ``page`` as MkDocs does; what to keep of it, or None when it logged a warning."""
    before = markdown_exec.MarkdownConverter.counter
    with tracking.recording() as record, registrations(config) as noted, warnings_counted() as warned:
        _convert(page, config, files)
    if warned.count:
        return None
    return {
        "page": page.file.src_uri, "content": page.content, "toc": toc_tokens(page.toc),
        "title": page._title_from_render, "anchors": sorted(page.present_anchor_ids or ()),
        "links": {to.src_uri: links for to, links in (page.links_to_anchors or {}).items()},
        "reads": record.reads, "writes": record.writes, "registered": noted,
        "conversions": markdown_exec.MarkdownConverter.counter - before,
    }


def unchanged(kept: dict[str, Any], docs: Path) -> bool:
    """Whether ``kept`` is a whole entry and every docs file its conversion read still has the text it read.

    An entry missing a field (written by hand, or damaged) counts as changed: the page is converted again.
    """
    if not FIELDS <= kept.keys() or not isinstance(kept["reads"], dict):
        return False
    try:
        return all(tracking.text_digest((docs / path).read_text(encoding="utf-8")) == digest
                   for path, digest in kept["reads"].items())
    except OSError:
        return False


def restore(kept: dict[str, Any], page: Page, config: Any, files: Any) -> None:
    """Give ``page`` what its kept conversion produced, and do again what it did beyond the page."""
    page.content = kept["content"]
    page.toc = get_toc(kept["toc"])
    page._title_from_render = kept["title"]
    page.present_anchor_ids = set(kept["anchors"])
    if logging.getLogger("mkdocs.structure.pages").getEffectiveLevel() > logging.DEBUG:
        page.links_to_anchors = {files.get_file_from_path(uri): links for uri, links in kept["links"].items()}
    publish.write_files(Path(config.site_dir), kept["writes"])
    register_again(kept["registered"], page, config)
    markdown_exec.MarkdownConverter.counter += kept["conversions"]


def render(page: Page, config: Any, files: Any) -> None:
    """``Page.render`` with kept pages: take the page from the cache when it can, else convert and keep it."""
    cached = execution.store()
    if cached is None:
        _convert(page, config, files)
        return
    key = page_key(page, config, markdown_exec.MarkdownConverter.counter)
    kept = cached.get(key)
    if kept is not None and unchanged(kept, Path(config.docs_dir)):
        restore(kept, page, config, files)
        return
    fresh = converted(page, config, files)
    if fresh is not None:
        cached.put(key, fresh)


def install() -> None:
    """Put :func:`render` in the place of MkDocs' ``Page.render`` (which it runs when it has no kept page)."""
    Page.render = render  # type: ignore[method-assign]
