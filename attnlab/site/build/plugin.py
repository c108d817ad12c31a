"""The guide's MkDocs plugin, ``plugins: - attnlab`` in ``mkdocs.yml`` (entry point ``attnlab``).

- ``on_config`` checks ``SOURCE_DATE_EPOCH`` before MkDocs reads it (MkDocs
  itself ends in a traceback on one that is not a whole number);
- ``on_page_markdown`` checks and resolves each page's Markdown, and
  ``on_page_content`` finishes its HTML (:mod:`attnlab.site.build.convert`);
  ``on_page_content`` also applies a page's ``toc_depth`` (front matter): the
  Reference page lists only its modules in its contents, which keeps it under
  the first-load budget;
- ``on_post_build`` runs the post-build pass (:func:`attnlab.site.build.publish.publish`),
  after the theme's offline plugin has written the search index it packs.

Under ``mkdocs serve`` two things keep a save's rebuild short: the pass
leaves out the offline zip, which a preview has no use for (the foot of
each page then offers no download), and the theme's templates, which MkDocs
compiles afresh for every rebuild, are compiled once per process (Jinja's
own bytecode cache, in memory; Jinja checks each entry against the
template's source).
"""

from __future__ import annotations

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
from attnlab.site.pages import page as pages
from attnlab.site.pages.page import nav_pages
from attnlab.site.pages.provenance import build_date

FIRST = 100
"""Before any other plugin sees a page's HTML."""
LAST = -110
"""After every other post-build step, the theme's offline plugin (-100, it writes search/search_index.js) included."""


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
        """Give ``bucket`` the code compiled before, if any (Jinja drops it if the source changed since)."""
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        """Keep what Jinja just compiled."""
        self.kept[bucket.key] = bucket.bytecode_to_string()


SERVING_TEMPLATES = CompiledTemplates()
"""One per process: ``mkdocs serve`` makes a new plugin and a new template environment for every rebuild."""


class AttnlabPlugin(BasePlugin):  # no options of its own
    """Checks and finishes each page, trims the Reference page's contents, runs the post-build pass."""

    serving = False
    """Whether MkDocs runs as ``mkdocs serve`` (from ``on_startup``): a preview's rebuilds are kept short."""

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Note whether this is a preview server, from the command MkDocs runs."""
        self.serving = command == "serve"

    def on_env(self, env: Environment, **kwargs: Any) -> Environment:
        """Under ``mkdocs serve``, compile each template once per process."""
        if self.serving:
            env.bytecode_cache = SERVING_TEMPLATES
        return env

    def on_config(self, config: MkDocsConfig, **kwargs: Any) -> MkDocsConfig:
        """Refuse a ``SOURCE_DATE_EPOCH`` the pages could not be dated by, in one line, before anything is built."""
        try:
            build_date()
        except ValueError as error:
            raise PluginError(str(error)) from error
        return config

    def on_page_markdown(self, markdown: str, *, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
        """The page's Markdown checked, with its numbers, citations and listings written in."""
        return page_markdown(markdown, self.page(page, config))

    @event_priority(FIRST)
    def on_page_content(self, html: str, *, page: Page, config: MkDocsConfig, **kwargs: Any) -> str:
        """The page's HTML finished (MathML, download control, provenance); its ``toc_depth`` applied."""
        depth = toc_depth(page)
        if depth is not None:
            trim(page.toc, depth)
        return page_html(html, self.page(page, config))

    def on_serve(self, server: Any, **kwargs: Any) -> Any:
        """After the first build of ``mkdocs serve``: say where to look and how a saved page comes back."""
        print(f"\nAttention Lab is ready: open {server.url}\n"
              "Save a page under docs/ and the page open in the browser is rebuilt and reloads by itself "
              "(Ctrl-C stops the server).\n", flush=True)
        return server

    @staticmethod
    def page(page: Page, config: MkDocsConfig) -> pages.Page:
        """The guide's view of MkDocs' ``page``: its path, the docs folder and the navigation."""
        return pages.Page(page.file.src_uri, Path(config.docs_dir), tuple(nav_pages(config.nav)))

    @event_priority(LAST)
    def on_post_build(self, *, config: MkDocsConfig, **kwargs: Any) -> None:
        """Write what the site publishes beside its pages, the offline zip last."""
        try:
            publish(Path(config.site_dir), Path(config.docs_dir), tuple(nav_pages(config.nav)),
                    offline_copy=not self.serving)
        except ValueError as error:
            raise PluginError(str(error)) from error
