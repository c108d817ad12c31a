"""Running the guide's code yourself: Home and Notes print :func:`install`; :func:`with_run_lines` opens each
chapter's exercises with its notebooks and ends each exercise "(in Python)" with the wheel's install line."""

from __future__ import annotations

from html import escape

from attnlab.site.pages import practice
from attnlab.site.pages.published import wheel_name
from attnlab.site.pages.source import line_of, relative

NOTEBOOKS = "notebooks"
DEPENDENCY = "numpy 2 or newer is its only dependency"  # pyproject.toml: numpy>=2


def notebook_path(page: str) -> str:
    """The chapter ``page``'s notebook, inside the site: ``mixing.md`` → ``notebooks/mixing.ipynb``."""
    return f"{NOTEBOOKS}/{practice.slug(page)}.ipynb"


def answers_path(page: str) -> str:
    """The notebook of the chapter ``page``'s answers: ``notebooks/mixing-answers.ipynb``."""
    return f"{NOTEBOOKS}/{practice.slug(page)}-answers.ipynb"


def link(page: str, target: str, text: str) -> str:
    """A download link from ``page`` to ``target``, in HTML: MkDocs would not find the file, written after the pages."""
    return f'<a href="{escape(relative(target, page))}" download>{text}</a>'


def install_command() -> str:
    """``pip install attnlab-0.1.0-py3-none-any.whl``, run in the guide's folder."""
    return f"pip install {wheel_name()}"


def install(page: str = "index.md") -> str:
    """Markdown for Home and Notes: where the wheel is, the line that installs it, and the chapters' notebooks."""
    wheel = wheel_name()
    return (f"The guide's folder holds the package itself, {link(page, wheel, wheel)} (the offline copy has it too). "
            f"In that folder, with Python 3.11 or newer:\n\n```bash\n{install_command()}\n```\n\nThen `import attnlab` "
            f"works in that Python; {DEPENDENCY}, so where that Python already has numpy 2 the line needs no network. "
            f"Every chapter is also a Jupyter notebook, in the folder `{NOTEBOOKS}/` and linked from the chapter's "
            "exercises, with the answers in a notebook of their own.")


def section_line(page: str) -> str:
    """The line opening a chapter's exercises: its notebook and the notebook of its answers."""
    return (f"Run this chapter yourself: {link(page, notebook_path(page), 'its notebook')} holds its text and "
            "every piece of code it shows, with these exercises as cells to fill in, and "
            f"{link(page, answers_path(page), 'the answers')} are a notebook of their own.")


def python_line(page: str) -> str:
    """The line ending an exercise in Python's question: how to install ``attnlab``."""
    return (f"In Python, with `attnlab` installed: `{install_command()}` in the guide's folder "
            f"({link(page, wheel_name(), 'the wheel')} is in the offline copy too; {DEPENDENCY}).")


def with_run_lines(markdown: str, page: str) -> str:
    """``markdown`` of ``page``: :func:`section_line` opens its exercises, :func:`python_line` ends each Python one."""
    lines = markdown.split("\n")
    listed = practice.exercises(markdown, page)
    after = {}
    for exercise, later in zip(listed, [*listed[1:], None]):
        if exercise.python:
            end = later.line - 1 if later else len(lines)
            answer = next((i for i in range(exercise.line, end) if lines[i].rstrip() == practice.ANSWER), None)
            after[answer - 1 if answer is not None else exercise.line] = python_line(page)
    if section := practice.section(markdown):
        after[line_of(markdown, section[0])] = section_line(page)
    for line in sorted(after, reverse=True):
        lines[line:line] = ["", after[line]]
    return "\n".join(lines)

