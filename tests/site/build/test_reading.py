"""The half-hour path: each chapter's main line (text outside folded boxes, code and its output, before the
exercises) counted on the built page, independently of ``attnlab.site.pages.reading``, and Home's reading time."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnlab.site.pages.reading import MAX_WORDS, PATH, main_line, minutes, path_minutes, words

SKIPPED = {"details", "pre", "table", "svg", "figure", "script", "style", "math"}
"""Elements whose text is not the main line (formulas are counted apart: :data:`MATH_WORDS`)."""
VOID = {"br", "hr", "img", "input", "link", "meta", "wbr", "source", "col", "area", "base", "embed", "track"}


class MainLine(HTMLParser):
    """The text of an article's main line, up to its Exercises heading; each formula counts as one word."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.skipping: list[str] = []
        self.inside = False
        self.done = False
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "article":
            self.inside = True
        if tag == "h2" and attributes.get("id") == "exercises":
            self.done = True
        if tag in VOID or not self.inside or self.done:
            return
        classes = (attributes.get("class") or "").split()
        if self.skipping or tag in SKIPPED or {"attnlab-block", "headerlink", "attn-provenance"} & set(classes):
            if tag == "math" and not self.skipping:
                self.parts.append(" formula ")
            self.skipping.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()
        if tag == "article":
            self.inside = False

    def handle_data(self, data: str) -> None:
        if self.inside and not self.done and not self.skipping:
            self.parts.append(data)


def built_words(page: Path) -> int:
    """Main-line words of a built chapter."""
    parser = MainLine()
    parser.feed(page.read_text(encoding="utf-8"))
    return words(" ".join(parser.parts))


@pytest.fixture(scope="module")
def counts(built_site: Path) -> dict[str, int]:
    return {page: built_words(built_site / page.replace(".md", ".html")) for page in PATH}


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
