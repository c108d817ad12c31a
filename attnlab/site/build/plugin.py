"""The guide's MkDocs plugin, ``plugins: - attnlab``: the page pass on each page, the post-build pass after the
theme's offline plugin; under ``mkdocs serve`` no offline zip and templates compiled once per process."""

from __future__ import annotations

import gc
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from jinja2 import BytecodeCache, Environment
from jinja2.bccache import Bucket
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import AnchorLink

from attnlab.site.build.convert import page_html, page_markdown
from attnlab.site.build.publish import publish
from attnlab.site.pages import guide
from attnlab.site.pages.published import build_date

YOUNG = 10_000
"""How many objects the garbage collector's youngest generation takes before a pass (Python's default: 700)."""
FIRST = 100
LAST = -110
"""After the theme's offline plugin (-100), which writes the search index the zip packs."""


def trim(entries: Iterable[AnchorLink], depth: int) -> None:
    """Drop, in place, every entry below heading level ``depth`` (1 = h1)."""
    for entry in entries:
        if entry.level >= depth:
            entry.children.clear()
        else:
            trim(entry.children, depth)


def toc_depth(page: Page) -> int | None:
    """The page's ``toc_depth`` from its front matter; a value that is not a level 1-6 stops the build."""
    depth = page.meta.get("toc_depth")
    if depth is not None and (not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= 6):
        raise PluginError(f"{page.file.src_uri}: toc_depth must be a heading level 1-6, got {depth!r}")
    return depth


class CompiledTemplates(BytecodeCache):
    """Jinja's compiled templates kept in memory for the life of the process, by name and source checksum."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        """Give ``bucket`` the code compiled before (Jinja drops it if the source changed)."""
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


SERVING_TEMPLATES = CompiledTemplates()
"""One per process: ``mkdocs serve`` makes a new plugin and environment for every rebuild."""


class AttnlabPlugin(BasePlugin):  # no options of its own
    """Checks and finishes each page, trims the Reference page's contents, runs the post-build pass."""

    serving = False

    def on_startup(self, *, command: str, dirty: bool) -> None:
        self.serving = command == "serve"
        # the collector's passes took 0.45 s of a build's CPU: what is loaded so far (modules, the config) lives as
        # long as the process, so they skip it; no full pass is left in a build, and its peak memory does not grow
        gc.freeze()
        gc.set_threshold(YOUNG, *gc.get_threshold()[1:])

    def on_env(self, env: Environment, **kwargs: Any) -> Environment:
        if self.serving:
            env.bytecode_cache = SERVING_TEMPLATES
        return env

    def on_config(self, config: MkDocsConfig, **kwargs: Any) -> MkDocsConfig:
        """Refuse a ``SOURCE_DATE_EPOCH`` the pages could not be dated by, in one line (MkDocs would crash)."""
        try:
            build_date()
        except ValueError as error:
            raise PluginError(str(error)) from error
        return config

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
        return page_markdown(markdown, self.page(page, config))

    @event_priority(FIRST)
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
        depth = toc_depth(page)
        if depth is not None:
            trim(page.toc, depth)
        return page_html(html, self.page(page, config))

    def on_serve(self, server: Any, **kwargs: Any) -> Any:
        print(f"\nAttention Lab is ready: open {server.url}\n"
              "Save a page under docs/ and the page open in the browser is rebuilt and reloads by itself "
              "(Ctrl-C stops the server).\n", flush=True)
        return server

    @staticmethod
    def page(page: Page, config: MkDocsConfig) -> guide.Page:
        return guide.Page(page.file.src_uri, Path(config.docs_dir), tuple(guide.nav_pages(config.nav)))

    @event_priority(LAST)
    def on_post_build(self, *, config: MkDocsConfig, **kwargs: Any) -> None:
        try:
            publish(Path(config.site_dir), Path(config.docs_dir), tuple(guide.nav_pages(config.nav)),
                    offline_copy=not self.serving)
        except ValueError as error:
            raise PluginError(str(error)) from error
