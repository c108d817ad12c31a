"""Home's map and "Start here" path (``docs/index.md``) against the navigation of ``mkdocs.yml``."""

from __future__ import annotations

import re

from sites import DOCS, guide, read_config

LINK = re.compile(r"\]\(([a-z-]+\.md)[)#]")
ORDER, CHAPTERS = list(guide().titles), guide().chapters
MAIN_PATH = ORDER[ORDER.index(CHAPTERS[0]):ORDER.index(CHAPTERS[-1]) + 1]
"""The pages from the first chapter to the last one, in the navigation's order (the lab and explorer included)."""


def section(title: str) -> str:
    """The Markdown of Home's section ``## title``, up to the next section."""
    return (DOCS / "index.md").read_text(encoding="utf-8").split(f"\n## {title}\n")[1].split("\n## ")[0]


def linked(markdown: str) -> list[str]:
    """The pages ``markdown`` links, each once, in the order of their first link."""
    return list(dict.fromkeys(LINK.findall(markdown)))


def test_the_map_names_every_page_of_the_main_path_in_order_marks_the_optional_chapter_and_counts_right() -> None:
    the_map = section("Map of the chapters")
    shown = [page for page in linked(the_map) if page in MAIN_PATH]
    assert shown == MAIN_PATH
    assert {"lab.md", "explorer.md"} <= set(shown)
    optional = next(item["Optional, advanced"] for item in read_config()["nav"]
                    if isinstance(item, dict) and "Optional, advanced" in item)
    part = the_map.split("**Optional, advanced**")[1]
    assert linked(part.split("\n**")[0]) == list(optional[0].values())
    line = next(item for item in the_map.split("\n- ") if "(experiments.md)" in item)
    listed = line.split(":", 1)[1].split(", each")[0]
    assert len(re.split(r",| and ", listed)) == 3, listed  # "three experiments"


def test_start_here_names_a_short_path_of_pages_in_reading_order() -> None:
    steps = "\n".join(line for line in section("Start here").splitlines() if re.match(r"\d+\. ", line))
    path = [page for page in linked(steps) if page in MAIN_PATH]
    assert 3 <= len(path) <= 6 and path == sorted(path, key=MAIN_PATH.index)
    assert "explorer.md" in path, "the path reaches a trained model's heads"
