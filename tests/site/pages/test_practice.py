"""Practice in the chapters: every teaching chapter predicts first and ends with exercises; the Exercises page
gathers them.

Unit tests read small Markdown strings; the docs tests read every teaching
chapter's source (no build); the built-site tests check the numbered
headings and the gathered Exercises page.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sites import DOCS, read_config

from attnlab.site.pages import practice
from attnlab.site.pages.guide import Guide
from attnlab.site.pages.page import nav_pages
from attnlab.site.pages.practice import exercises, gathered, numbered, problems, prompts

GUIDE = Guide.read(DOCS, tuple(nav_pages(read_config()["nav"])))
"""The guide's own pages, read as the build reads them."""
PATHS = ("rows.md", "softmax.md", "real-model.md")
"""Chapters for the unit tests of the Exercises page, in reading order."""

ANSWER = '''??? success "Answer"

    ```python exec="on" source="tabbed-right"
    from attnlab import softmax
    print(softmax([0.0, 0.0], [True, True]))
    ```
'''
PROMPT = f'''!!! question "Predict first: are equal scores shared equally?"

    Two keys score the same. Predict their weights.

{re.sub("(?m)^(?=.)", "    ", ANSWER)}'''
CHAPTER = f"""---
literals: [1]
---

# Softmax

{PROMPT}
Text that reveals it, with a [link](#softmax).

## Exercises

### Two equal scores {{ .python }}

Compute the weights with `attnlab`.

{ANSWER}
### Three equal scores

What now?

{ANSWER}"""


def without(text: str, part: str) -> str:
    """``text`` with the first occurrence of ``part`` removed (it must be there)."""
    assert part in text
    return text.replace(part, "", 1)


# --- reading a chapter ----------------------------------------------------------------------------


def test_the_prompt_is_found_with_its_title_and_line() -> None:
    assert [(title, line) for title, line, _ in prompts(CHAPTER)] == [
        ("Predict first: are equal scores shared equally?", 7)]


def test_a_prompt_inside_a_code_block_does_not_count() -> None:
    assert prompts(f"```markdown\n{PROMPT}```\n") == []


def test_exercises_are_numbered_in_order_with_their_titles() -> None:
    assert [(e.number, e.title, e.python) for e in exercises(CHAPTER)] == [
        (1, "Two equal scores", True), (2, "Three equal scores", False)]


def test_a_title_keeps_its_inline_code() -> None:
    assert exercises(CHAPTER.replace("Three equal scores", "Three `equal` scores"))[1].title == "Three `equal` scores"


def test_an_exercise_runs_to_the_next_exercise_heading() -> None:
    first = exercises(CHAPTER)[0]
    assert first.body.startswith("Compute the weights") and "What now?" not in first.body


def test_the_exercises_section_ends_at_the_next_section() -> None:
    later = CHAPTER + "\n## Afterwards\n\n### Not an exercise\n"
    assert [e.title for e in exercises(later)] == ["Two equal scores", "Three equal scores"]


def test_a_comment_in_a_code_block_is_not_an_exercise_heading() -> None:
    code = CHAPTER + '\n```python\n### not a heading\n```\n'
    assert len(exercises(code)) == 2


def test_an_exercise_heading_with_its_own_id_is_refused_naming_the_line() -> None:
    with pytest.raises(ValueError, match=r"rows\.md:22: an exercise heading takes only \{ \.python \}"):
        exercises(CHAPTER.replace("{ .python }", "{#mine}"), "rows.md")


def test_numbering_gives_each_exercise_heading_its_number_and_id() -> None:
    shown = numbered(CHAPTER)
    assert "### Exercise 1: Two equal scores (in Python) {#exercise-1 .attn-exercise}" in shown
    assert "### Exercise 2: Three equal scores {#exercise-2 .attn-exercise}" in shown


def test_a_page_without_exercises_is_left_as_it_is() -> None:
    assert numbered("# Notes\n\n### A heading\n") == "# Notes\n\n### A heading\n"


# --- the Exercises page ---------------------------------------------------------------------------


def chapters(text: str = CHAPTER) -> dict[str, str]:
    """The chapters of :data:`PATHS`, each with ``text`` as its Markdown."""
    return {path: text for path in PATHS}


def test_the_exercises_page_has_a_section_per_chapter_in_reading_order() -> None:
    listing = gathered(chapters())
    sections = re.findall(r"^## Softmax \{#([\w-]+)\}$", listing, re.M)
    assert sections == [practice.slug(path) for path in PATHS]


def test_each_gathered_exercise_links_back_to_its_answer_in_the_chapter() -> None:
    listing = gathered(chapters())
    assert "### Exercise 2: Three equal scores {#real-model-exercise-2 .attn-exercise}" in listing
    assert "What now?\n\n[The answer, in Softmax](real-model.md#exercise-2){.attn-back}" in listing


def test_a_gathered_exercise_keeps_its_question_and_leaves_its_answer_in_the_chapter() -> None:
    listing = gathered(chapters())
    assert listing.count("Compute the weights with `attnlab`.") == len(PATHS)
    assert '??? success "Answer"' not in listing


def test_an_in_page_link_of_a_gathered_exercise_points_at_its_chapter() -> None:
    text = CHAPTER.replace("What now?", "See [above](#softmax).")
    assert "See [above](rows.md#softmax)." in gathered(chapters(text))


def test_the_exercises_page_without_its_marker_is_refused() -> None:
    with pytest.raises(ValueError, match=r"exercises.md: the marker line <!-- attnlab:exercises --> is missing"):
        practice.exercises_page("# Exercises\n", PATHS, lambda path: CHAPTER)


# --- what a teaching chapter must have ------------------------------------------------------------


def test_a_complete_chapter_has_no_problems() -> None:
    assert problems(CHAPTER, "docs/x.md") == []


def test_a_chapter_without_a_prompt_is_named() -> None:
    assert problems(without(CHAPTER, PROMPT), "docs/x.md") == [
        'docs/x.md: has 0 predict-first prompts (!!! question "Predict first: …"), needs exactly one']


def test_a_prompt_without_a_computed_answer_is_named() -> None:
    bare = CHAPTER.replace(PROMPT, PROMPT.split("\n\n    ??? success")[0] + "\n\n")
    assert problems(bare, "docs/x.md") == [
        'docs/x.md:7: the prompt "Predict first: are equal scores shared equally?" needs a collapsed answer '
        '(??? success "Answer", nested) that holds an executed code block']


def test_a_chapter_without_exercises_is_named() -> None:
    assert problems(CHAPTER.split("## Exercises")[0], "docs/x.md") == ["docs/x.md: has no '## Exercises' section"]


def test_one_exercise_is_too_few() -> None:
    one = CHAPTER.split("### Three equal scores")[0]
    assert problems(one, "docs/x.md") == ["docs/x.md: has 1 exercises, needs 2 to 4"]


def test_five_exercises_are_too_many() -> None:
    more = CHAPTER + "".join(f"\n### More {i}\n\nAgain.\n\n{ANSWER}" for i in range(3))
    assert problems(more, "docs/x.md") == ["docs/x.md: has 5 exercises, needs 2 to 4"]


def test_an_exercise_whose_answer_is_not_computed_is_named() -> None:
    typed = CHAPTER[::-1].replace('exec="on"'[::-1], "", 1)[::-1]  # the last answer's block no longer runs
    assert problems(typed, "docs/x.md") == [
        'docs/x.md:33: exercise "Three equal scores" needs a collapsed answer (??? success "Answer") '
        "that holds an executed code block"]


def test_a_chapter_with_no_python_exercise_is_named() -> None:
    assert problems(CHAPTER.replace(" { .python }", ""), "docs/x.md") == [
        "docs/x.md: no exercise marked { .python } whose answer shows executed code using attnlab"]


def test_a_python_exercise_must_show_its_code() -> None:
    hidden = CHAPTER.replace(' source="tabbed-right"', "")
    assert problems(hidden, "docs/x.md") == [
        "docs/x.md: no exercise marked { .python } whose answer shows executed code using attnlab"]


def test_a_python_exercise_must_use_attnlab() -> None:
    other = CHAPTER.replace("from attnlab import softmax", "from numpy import exp as softmax")
    assert problems(other, "docs/x.md") == [
        "docs/x.md: no exercise marked { .python } whose answer shows executed code using attnlab"]


# --- the guide's chapters -------------------------------------------------------------------------


def test_the_chapters_are_the_pages_of_kind_chapter_in_the_navigations_order() -> None:
    order = [path for path, _ in nav_pages(read_config()["nav"])]
    assert list(GUIDE.chapters) == [path for path in order if GUIDE.kind(path) == "chapter"]
    assert GUIDE.chapters[0] == "rows.md" and len(GUIDE.chapters) >= 13


@pytest.mark.parametrize("path", GUIDE.chapters)
def test_every_chapter_predicts_first_and_ends_with_exercises(path: str) -> None:
    assert problems((DOCS / path).read_text(encoding="utf-8"), f"docs/{path}") == []


def test_the_exercises_page_is_written_from_the_chapters_not_typed() -> None:
    source = (DOCS / practice.EXERCISES_PAGE).read_text(encoding="utf-8")
    assert practice.EXERCISES_MARKER in source and "###" not in source


# --- the built site -------------------------------------------------------------------------------


def test_a_chapter_shows_its_exercises_numbered(built_site: Path) -> None:
    html = (built_site / "softmax.html").read_text(encoding="utf-8")
    assert re.search(r'<h3 class="attn-exercise[^"]*" id="exercise-1">Exercise 1: ', html)


def test_the_built_exercises_page_holds_every_chapters_exercises_linking_back(built_site: Path) -> None:
    html = (built_site / "exercises.html").read_text(encoding="utf-8")
    expected = {f"{path.removesuffix('.md')}.html#exercise-{e.number}"
                for path in GUIDE.chapters
                for e in exercises((DOCS / path).read_text(encoding="utf-8"), path)}
    assert set(re.findall(r'<a class="attn-back" href="([^"]+)"', html)) == expected
