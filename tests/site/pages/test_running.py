"""Running the code yourself: the install line on Home, Notes and every exercise in Python, and each chapter's
notebooks.

Unit tests read small Markdown strings (``attnlab.site.pages.running``); the
built-site tests find the lines on the pages, with the wheel's real name.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sites import DOCS, ROOT, read_config

from attnlab.site.pages import practice, running
from attnlab.site.pages.guide import Guide
from attnlab.site.pages.page import nav_pages
from attnlab.site.pages.published import wheel_name

GUIDE = Guide.read(DOCS, tuple(nav_pages(read_config()["nav"])))
WHEEL = wheel_name()
CHAPTER = """# Softmax

Text.

## Exercises

### By hand

What now?

??? success "Answer"

    This.

### With attnlab { .python }

Compute it.

??? success "Answer"

    That.

### Again { .python }

And again.

??? success "Answer"

    Again.
"""


def test_the_install_line_is_pip_install_of_the_wheels_real_name() -> None:
    assert running.install_command() == f"pip install {WHEEL}"
    assert WHEEL.startswith("attnlab-") and WHEEL.endswith("-py3-none-any.whl")


def test_the_notebooks_sit_in_their_folder_named_for_the_chapter() -> None:
    assert (running.notebook_path("mixing.md"), running.answers_path("mixing.md")) == (
        "notebooks/mixing.ipynb", "notebooks/mixing-answers.ipynb")


def test_the_exercises_open_with_the_notebooks_and_each_in_python_ends_with_the_install_line() -> None:
    text = running.with_run_lines(CHAPTER, "softmax.md")
    lines = text.split("\n")
    assert lines[lines.index("## Exercises") + 2] == running.section_line("softmax.md")
    for question in ("Compute it.", "And again."):
        assert lines[lines.index(question) + 2:lines.index(question) + 5] == [
            running.python_line("softmax.md"), "", '??? success "Answer"']
    assert lines[lines.index("What now?") + 2] == '??? success "Answer"'
    assert text.count(f"`pip install {WHEEL}`") == 2


def test_the_install_line_is_part_of_the_question_the_exercises_page_shows() -> None:
    found = practice.exercises(running.with_run_lines(CHAPTER, "x.md"), "x.md")
    assert [running.python_line("x.md") in e.question for e in found] == [False, True, True]


def test_the_lines_link_the_files_to_download_from_the_page() -> None:
    assert running.section_line("mixing.md").count(" download>") == 2
    assert '<a href="notebooks/mixing.ipynb" download>its notebook</a>' in running.section_line("mixing.md")
    assert f'<a href="{WHEEL}" download>the wheel</a>' in running.python_line("mixing.md")
    assert f'<a href="../{WHEEL}" download>' in running.python_line("part/mixing.md")


def test_the_exercises_keep_their_numbers_and_the_chapter_its_requirements() -> None:
    text = practice.numbered(running.with_run_lines(CHAPTER, "softmax.md"), "softmax.md")
    assert re.findall(r"^### Exercise (\d): ", text, re.MULTILINE) == ["1", "2", "3"]
    assert [e.python for e in practice.exercises(running.with_run_lines(CHAPTER, "x.md"), "x.md")] == [
        False, True, True]


def test_a_page_without_exercises_is_left_alone() -> None:
    assert running.with_run_lines("# Notes\n\nText.\n", "notes.md") == "# Notes\n\nText.\n"


def test_home_and_notes_say_where_the_wheel_is_and_that_numpy_is_its_only_dependency() -> None:
    text = running.install("notes.md")
    assert f'<a href="{WHEEL}" download>{WHEEL}</a>' in text
    assert f"```bash\npip install {WHEEL}\n```" in text
    assert ("numpy 2 or newer is its only dependency, so where that Python already has numpy 2 the line needs no "
            "network") in text


# --- the built site ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["index.html", "notes.html"])
def test_home_and_notes_show_the_install_line(built_site: Path, page: str) -> None:
    html = (built_site / page).read_text(encoding="utf-8")
    assert re.search(rf"<code>pip install {re.escape(WHEEL)}\s*</code>", html.replace('<span class="w"> </span>', " ")
                     .replace('<span class="n">', "").replace("</span>", "")), page
    assert f'<a href="{WHEEL}" download>{WHEEL}</a>' in html


@pytest.mark.parametrize("path", GUIDE.chapters)
def test_every_exercise_in_python_shows_the_install_line(built_site: Path, path: str) -> None:
    html = (built_site / path.replace(".md", ".html")).read_text(encoding="utf-8")
    python = [e.anchor for e in practice.exercises(GUIDE.sources[path], path) if e.python]
    parts = re.split(r'(?=<h3 class="attn-exercise" id="exercise-\d+")', html)
    by_anchor = {re.match(r'<h3 class="attn-exercise" id="(exercise-\d+)"', part)[1]: part for part in parts[1:]}
    assert [anchor for anchor in python if f"<code>pip install {WHEEL}</code>" not in by_anchor[anchor]] == []
    assert html.count(f"<code>pip install {WHEEL}</code>") == len(python) > 0


def test_the_install_lines_state_the_numpy_the_wheel_requires() -> None:
    import tomllib

    [requirement] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert requirement == "numpy>=2"
    assert "numpy 2 or newer is its only dependency" in running.install() and "has numpy 2 " in running.install()
