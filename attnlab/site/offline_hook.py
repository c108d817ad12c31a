"""MkDocs hook: the offline copy, made once every page is written (:mod:`attnlab.site.offline`).

``on_config`` tells the theme the archive's name (``config.extra.offline_copy``),
so every page's footer links to it (``overrides/main.html``); ``on_post_build``
writes the archive and the script stating its size. Zensical drops hooks: a
Zensical build has neither, and its pages no footer link (CONTRIBUTING.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

from attnlab.site import offline

LAST = -110
"""After every other post-build step, the theme's offline plugin (-100, it writes search/search_index.js) included."""


def on_config(config: Any, **kwargs: Any) -> Any:
    """Name the archive for the templates."""
    config.extra["offline_copy"] = offline.archive_name()
    return config


@event_priority(LAST)
def on_post_build(config: Any, **kwargs: Any) -> None:
    """Zip the finished site into itself."""
    offline.write(Path(config.site_dir))
