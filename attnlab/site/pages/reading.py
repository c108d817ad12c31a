"""How long the main path takes to read (Home's start button says it): the words of its chapters' main line."""

from __future__ import annotations

import math
import re
from pathlib import Path

from attnlab.site.pages import bindings
from attnlab.site.pages.claims import CITATION
from attnlab.site.pages.source import FENCE, FRONT_MATTER

PATH: tuple[str, ...] = ("rows.md", "scores.md", "softmax.md", "mixing.md", "masking.md")
MAX_WORDS = 1000
WORDS_PER_MINUTE = 150  # careful reading, with formulas and figures to look at
ROUND_TO = 5

WORD = re.compile(r"[^\W_]+(?:['’.,-][^\W_]+)*")
"""Letters or digits, with inner apostrophes, hyphens, points or commas (``don't``, ``0.568``, ``1,000``)."""
LINK_TARGET = re.compile(r"\]\([^)]*\)|\{[^}\n]*\}")
COMMENT = re.compile(r"<!--.*?-->", re.S)
FOLDED = re.compile(r"^([ \t]*)\?\?\?\+?[^\n]*\n(?:(?:\1[ \t]+[^\n]*)?\n)*", re.M)
"""A folded box: its ``???`` line and every line indented deeper than it (blank lines included)."""


def main_line(markdown: str) -> str:
    """``markdown`` without front matter, code, folded boxes or exercises, its bindings rendered."""
    text = FRONT_MATTER.sub("", markdown, count=1).split("\n## Exercises\n", 1)[0] + "\n"
    text = COMMENT.sub("", CITATION.sub("", FOLDED.sub("", FENCE.sub("", text))))
    return LINK_TARGET.sub("]", bindings.render(text))


def words(text: str) -> int:
    """How many words ``text`` holds (:data:`WORD`)."""
    return len(WORD.findall(text))


def minutes(counts: list[int]) -> int:
    """The reading time of chapters with these main-line word counts, rounded up to :data:`ROUND_TO` minutes."""
    if not counts or min(counts) < 0:
        raise ValueError(f"word counts must be a non-empty list of counts, got {counts}")
    return ROUND_TO * math.ceil(sum(counts) / WORDS_PER_MINUTE / ROUND_TO)


def path_minutes(docs: Path) -> int:
    """The reading time of the :data:`PATH` chapters in the folder ``docs``."""
    return minutes([words(main_line((docs / page).read_text(encoding="utf-8"))) for page in PATH])


MARKER = "<!-- attnlab:start-path -->"


def start_buttons(docs: Path) -> str:
    """Home's two ways in at :data:`MARKER`, as Markdown (the build checks the links): the timed path, the explorer."""
    return (f"[Start the {path_minutes(docs)}-minute path]({PATH[0]}){{ .md-button .md-button--primary }}\n"
            "[Try your own sentence](explorer.md#explorer-own-title){ .md-button }\n{ .attnlab-start }")
