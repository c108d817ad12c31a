"""The half-hour path: each chapter's main line counted on the built page, apart from ``attnlab.site.pages.reading``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from page_blocks import Element, page

from attnlab.site.pages.reading import MAX_WORDS, PATH, main_line, minutes, path_minutes, words

SKIPPED = {"details", "pre", "table", "svg", "figure", "script", "style"}
"""Elements whose text is not the main line (a formula counts as one word)."""
SKIPPED_CLASSES = {"attnlab-block", "headerlink", "attn-provenance"}


def main_line_parts(element: Element, parts: list[str]) -> bool:
    """Add the main-line text inside ``element`` to ``parts``; False once the Exercises heading is reached."""
    for child in element.children:
        if isinstance(child, str):
            parts.append(child)
        elif child.tag == "h2" and child.attrs.get("id") == "exercises":
            return False
        elif child.tag == "math":
            parts.append(" formula ")
        elif child.tag not in SKIPPED and not SKIPPED_CLASSES & child.classes and not main_line_parts(child, parts):
            return False
    return True


def built_words(path: Path) -> int:
    """Main-line words of a built chapter."""
    parts: list[str] = []
    main_line_parts(next(e for e in page(path).iter() if e.tag == "article"), parts)
    return words(" ".join(parts))


@pytest.fixture(scope="module")
def counts(built_site: Path) -> dict[str, int]:
    return {chapter: built_words(built_site / chapter.replace(".md", ".html")) for chapter in PATH}


def test_each_path_chapters_main_line_holds_at_most_a_thousand_words(counts: dict[str, int]) -> None:
    assert {page: n for page, n in counts.items() if not 300 < n <= MAX_WORDS} == {}, "words on its main line"


def test_homes_reading_time_is_the_one_the_built_chapters_give(built_site: Path, counts: dict[str, int]) -> None:
    home = (built_site / "index.html").read_text(encoding="utf-8")
    stated = re.findall(r"Start the (\d+)-minute path", home)
    assert stated == [str(minutes(list(counts.values())))] == [str(path_minutes(Path("docs")))]


def test_folded_boxes_and_code_are_not_the_main_line() -> None:
    markdown = ("---\nliterals: []\n---\n# T\n\nOne two [[CL-001]] [three](x.md).\n\n```python\nfour five\n```\n\n"
                '??? abstract "Going deeper: six"\n\n    seven eight\n\n    nine\n\nTen [[0.5 = f()]].\n\n'
                "## Exercises\n\neleven\n")
    assert words(main_line(markdown)) == words("T One two three Ten 0.5")


@given(st.lists(st.integers(0, 5000), min_size=1, max_size=8))
def test_the_reading_time_is_the_words_over_the_speed_rounded_up_to_five_minutes(counts: list[int]) -> None:
    stated = minutes(counts)
    assert stated % 5 == 0 and stated - 5 < sum(counts) / 150 <= stated
    with pytest.raises(ValueError, match="word counts"):
        minutes([])
