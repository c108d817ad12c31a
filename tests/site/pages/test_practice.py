"""Practice: every teaching chapter predicts first and ends with exercises, which the Exercises page gathers."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sites import DOCS, guide

from attnlab.site.pages import practice, running
from attnlab.site.pages.practice import exercises, gathered, numbered, problems, prompts

GUIDE = guide()
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


def test_the_prompt_is_found_with_its_title_and_line_but_not_in_code() -> None:
    assert [(title, line) for title, line, _ in prompts(CHAPTER)] == [
        ("Predict first: are equal scores shared equally?", 7)]
    assert prompts(f"```markdown\n{PROMPT}```\n") == []


def test_exercises_are_numbered_in_order_run_to_the_next_heading_and_take_only_the_number_and_id_given() -> None:
    later = CHAPTER.replace("Three equal scores", "Three `equal` scores") + (
        '\n```python\n### not a heading\n```\n\n## Afterwards\n\n### Not an exercise\n')
    found = exercises(later)
    assert [(e.number, e.title, e.python) for e in found] == [
        (1, "Two equal scores", True), (2, "Three `equal` scores", False)]
    assert found[0].body.startswith("Compute the weights") and "What now?" not in found[0].body
    with pytest.raises(ValueError, match=r"rows\.md:22: an exercise heading takes only \{ \.python \}"):
        exercises(CHAPTER.replace("{ .python }", "{#mine}"), "rows.md")
    shown = numbered(CHAPTER)
    assert "### Exercise 1: Two equal scores (in Python) {#exercise-1 .attn-exercise}" in shown
    assert "### Exercise 2: Three equal scores {#exercise-2 .attn-exercise}" in shown
    assert numbered("# Notes\n\n### A heading\n") == "# Notes\n\n### A heading\n"


def test_the_exercises_open_with_the_notebooks_and_each_in_python_ends_with_the_install_line() -> None:
    both = CHAPTER.replace("### Three equal scores", "### Three equal scores { .python }")
    for chapter, python in [(CHAPTER, [True, False]), (both, [True, True])]:
        text = running.with_run_lines(chapter, "softmax.md")
        lines = text.split("\n")
        assert lines[lines.index("## Exercises") + 2] == running.section_line("softmax.md")
        for question, in_python in zip(["Compute the weights with `attnlab`.", "What now?"], python):
            after = [running.python_line("softmax.md"), ""] if in_python else []
            assert lines[lines.index(question) + 2:][:len(after) + 1] == [*after, '??? success "Answer"']
        found = exercises(text, "softmax.md")  # the install line is part of the question gathered
        assert [running.python_line("softmax.md") in e.question for e in found] == [e.python for e in found] == python
        assert re.findall(r"^### Exercise (\d): ", numbered(text, "softmax.md"), re.MULTILINE) == ["1", "2"]
    assert running.with_run_lines("# Notes\n\nText.\n", "notes.md") == "# Notes\n\nText.\n"


def test_the_exercises_page_lists_each_chapters_questions_linking_back_to_their_answers() -> None:
    listing = gathered({path: CHAPTER.replace("What now?", "What now? See [above](#softmax).") for path in PATHS})
    assert re.findall(r"^## Softmax \{#([\w-]+)\}$", listing, re.M) == [practice.slug(path) for path in PATHS]
    assert "### Exercise 2: Three equal scores {#real-model-exercise-2 .attn-exercise}" in listing
    assert ("What now? See [above](real-model.md#softmax).\n\n"
            "[The answer, in Softmax](real-model.md#exercise-2){.attn-back}") in listing
    assert listing.count("Compute the weights with `attnlab`.") == len(PATHS)
    assert '??? success "Answer"' not in listing
    with pytest.raises(ValueError, match=r"exercises.md: the marker line <!-- attnlab:exercises --> is missing"):
        practice.exercises_page("# Exercises\n", PATHS, lambda path: CHAPTER)


NO_PYTHON = "docs/x.md: no exercise marked { .python } whose answer shows executed code using attnlab"


def test_a_chapter_is_told_what_it_lacks() -> None:
    cases = [
        (CHAPTER, []),
        (CHAPTER.replace(PROMPT, ""),
         ['docs/x.md: has 0 predict-first prompts (!!! question "Predict first: …"), needs exactly one']),
        (CHAPTER.replace(PROMPT, PROMPT.split("\n\n    ??? success")[0] + "\n\n"),
         ['docs/x.md:7: the prompt "Predict first: are equal scores shared equally?" needs a collapsed answer '
          '(??? success "Answer", nested) that holds an executed code block']),
        (CHAPTER.split("## Exercises")[0], ["docs/x.md: has no '## Exercises' section"]),
        (CHAPTER.split("### Three equal scores")[0], ["docs/x.md: has 1 exercises, needs 2 to 4"]),
        (CHAPTER + "".join(f"\n### More {i}\n\nAgain.\n\n{ANSWER}" for i in range(3)),
         ["docs/x.md: has 5 exercises, needs 2 to 4"]),
        (CHAPTER[::-1].replace('exec="on"'[::-1], "", 1)[::-1],  # the last answer's block no longer runs
         ['docs/x.md:33: exercise "Three equal scores" needs a collapsed answer (??? success "Answer") '
          "that holds an executed code block"]),
        (CHAPTER.replace(" { .python }", ""), [NO_PYTHON]),
        (CHAPTER.replace(' source="tabbed-right"', ""), [NO_PYTHON]),  # a Python answer shows its code
        (CHAPTER.replace("from attnlab import softmax", "from numpy import exp as softmax"), [NO_PYTHON]),
    ]
    assert [(markdown, problems(markdown, "docs/x.md")) for markdown, _ in cases] == cases


def test_the_chapters_are_the_pages_of_kind_chapter_in_the_navigations_order() -> None:
    assert list(GUIDE.chapters) == [path for path in GUIDE.titles if GUIDE.kind(path) == "chapter"]  # nav order
    assert GUIDE.chapters[0] == "rows.md" and len(GUIDE.chapters) >= 13


def test_every_chapter_predicts_first_and_ends_with_exercises_which_the_exercises_page_gathers_not_types() -> None:
    assert [p for path in GUIDE.chapters for p in problems((DOCS / path).read_text(encoding="utf-8"),
                                                           f"docs/{path}")] == []
    source = (DOCS / practice.EXERCISES_PAGE).read_text(encoding="utf-8")
    assert practice.EXERCISES_MARKER in source and "###" not in source


def test_the_built_exercises_page_holds_every_chapters_exercises_linking_back(built_site: Path) -> None:
    html = (built_site / "exercises.html").read_text(encoding="utf-8")
    expected = {f"{path.removesuffix('.md')}.html#exercise-{e.number}"
                for path in GUIDE.chapters
                for e in exercises((DOCS / path).read_text(encoding="utf-8"), path)}
    assert set(re.findall(r'<a class="attn-back" href="([^"]+)"', html)) == expected
