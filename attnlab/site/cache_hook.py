"""MkDocs hook: what a build with the cache on keeps besides code blocks, for the parts only MkDocs runs.

With ``ATTNLAB_EXEC_CACHE`` naming a folder (:func:`attnlab.site.execution.store`),
three costs of every build are paid once:

- converting a page whose Markdown and inputs are unchanged
  (:mod:`attnlab.site.kept_pages`, which this hook puts in place);
- Jinja compiling templates, the theme's and mkdocstrings', on every
  build: both environments get Jinja's own ``FileSystemBytecodeCache``,
  which keys each compiled template by its name and a checksum of its source;
- the search plugin parsing each page's HTML into index entries: a page's
  entries are kept under a digest of everything they are made from (its
  HTML, address, title, front matter and contents), so a page whose HTML
  is unchanged gives the same entries without being parsed.

Each gives what the work it replaces would give, byte for byte
(``tests/test_execution.py`` and ``tests/test_kept_pages.py`` compare whole
sites). With the cache off, this hook does nothing; Zensical drops hooks,
so a Zensical build has none of this.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jinja2 import BytecodeCache, Environment, FileSystemBytecodeCache

from attnlab.site import execution, kept_pages

TEMPLATES = "templates"
"""The cache's subfolder for compiled templates (entries themselves live in two-letter folders)."""
SEARCH = "material/search"
"""The name of Material's search plugin in ``config.plugins``."""
MATERIAL = "mkdocs-material"
"""The package whose search plugin makes the entries: its version is part of their key."""


def compiled_templates(cached: execution.Store) -> BytecodeCache:
    """Jinja's bytecode cache in the build cache's templates folder."""
    folder = cached.folder / TEMPLATES
    folder.mkdir(parents=True, exist_ok=True)
    return FileSystemBytecodeCache(str(folder))


def entries_key(page: Any) -> str:
    """The digest of everything the search plugin makes a page's entries from."""
    meta = {name: page.meta.get(name) for name in ("search", "tags", "title")}
    return execution.content_key("search entries", execution.package_version(MATERIAL), page.content, page.url,
                                 str(page.title), meta, kept_pages.toc_tokens(page.toc))


def kept_entries(index: Any, cached: execution.Store, index_page: Callable[[Any], None]) -> Callable[[Any], None]:
    """``index_page`` (the search index's ``add_entry_from_context``), adding a page's kept entries when it can."""

    def add_entry_from_context(page: Any) -> None:
        key = entries_key(page)
        found = cached.get(key)
        if found is not None and isinstance(found.get("entries"), list):
            index.entries.extend(found["entries"])
            return
        before = len(index.entries)
        index_page(page)
        cached.put(key, {"entries": index.entries[before:]})

    return add_entry_from_context


def on_config(config: Any, **kwargs: Any) -> Any:
    """Keep pages; give mkdocstrings' templates the bytecode cache, and the search index its kept entries."""
    cached = execution.store()
    if cached is None:
        return config
    kept_pages.install()
    if kept_pages.DOCSTRINGS in config.plugins:
        config.plugins[kept_pages.DOCSTRINGS].get_handler("python").env.bytecode_cache = compiled_templates(cached)
    if SEARCH in config.plugins:
        index = config.plugins[SEARCH].search_index
        index.add_entry_from_context = kept_entries(index, cached, index.add_entry_from_context)
    return config


def on_env(env: Environment, **kwargs: Any) -> Environment:
    """Give the theme's templates the bytecode cache."""
    cached = execution.store()
    if cached is not None:
        env.bytecode_cache = compiled_templates(cached)
    return env
