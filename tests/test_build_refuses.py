"""What a strict build of the guide refuses: each hole is injected into a copy of the docs.

Every test changes one thing in a fresh copy of ``docs/`` and ``mkdocs.yml``,
builds it as the suite and CI do (``mkdocs build --strict``, never ``-q``),
and expects the build to fail naming the file and, where there is one, the
line. The unchanged guide builds cleanly (``conftest.built_site``).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from sites import build, docs_copy, read_config, write_config

pytestmark = pytest.mark.slow

PAGE = "mixing.md"
"""The chapter the holes go into (any chapter would do)."""


def append(root: Path, text: str, page: str = PAGE) -> int:
    """Append ``text`` to a page of the copy after a blank line; return the line ``text`` starts on."""
    path = root / "docs" / page
    before = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    path.write_text(before + text, encoding="utf-8")
    return before.count("\n") + 1


def built(root: Path) -> subprocess.CompletedProcess[str]:
    """The copy built strictly into a folder beside it."""
    return build(root / "mkdocs.yml", root / "site")


def refused(result: subprocess.CompletedProcess[str], *named: str) -> bool:
    """Whether the build failed and its output names each of ``named``."""
    output = result.stdout + result.stderr
    return result.returncode != 0 and all(text in output for text in named)


def test_a_code_block_that_raises_fails_naming_page_line_and_error(tmp_path: Path) -> None:
    root = docs_copy(tmp_path)
    line = append(root, '```python exec="on"\nraise ValueError("an injected failure")\n```\n')
    assert refused(built(root), f"docs/{PAGE}:{line}", "ValueError: an injected failure")


def test_a_warning_alone_fails_the_build(tmp_path: Path) -> None:
    root = docs_copy(tmp_path)
    append(root, "See [a page that is not there](missing.md).\n")
    assert refused(built(root), f"'{PAGE}'", "missing.md")


@pytest.mark.parametrize("form", ["[[CL-05]]", "[[ CL-005 ]]", "[[CL-0005]]", "[[+3 = 1 + 2]]", "[[.9 = 0.9]]"])
def test_a_malformed_citation_or_binding_fails_naming_page_and_line(tmp_path: Path, form: str) -> None:
    root = docs_copy(tmp_path)
    line = append(root, f"An injected {form} in prose.\n")
    assert refused(built(root), f"docs/{PAGE}:{line}: '{form}' is neither a claim citation nor a number binding")


@pytest.mark.parametrize("printed", ["nan", "inf", "-inf"])
def test_a_block_printing_a_non_number_fails_naming_the_page(tmp_path: Path, printed: str) -> None:
    root = docs_copy(tmp_path)
    append(root, f'```python exec="on"\nprint("| weight |\\n|---|\\n| " + str(float("{printed}")) + " |")\n```\n')
    assert refused(built(root), f"docs/{PAGE}: '{printed}' is not a finite number")


def test_an_unbalanced_formula_fails_naming_page_and_formula(tmp_path: Path) -> None:
    root = docs_copy(tmp_path)
    append(root, "An injected square, $x^{2$, in prose.\n")
    assert refused(built(root), f"docs/{PAGE}: formula 'x^{{2': 1 brace group(s) opened with {{ are never closed")


def test_a_page_left_out_of_the_navigation_fails_naming_it(tmp_path: Path) -> None:
    root = docs_copy(tmp_path)
    config = read_config(root / "mkdocs.yml")
    config["nav"] = [entry for entry in config["nav"] if PAGE not in entry.values()]
    write_config(root, config)
    assert refused(built(root), PAGE, "not included in the \"nav\" configuration")


def test_a_page_declared_as_not_in_the_navigation_builds(tmp_path: Path) -> None:
    root = docs_copy(tmp_path)
    (root / "docs" / "draft.md").write_text("# A draft\n\nNot in the navigation, on purpose.\n", encoding="utf-8")
    config = read_config(root / "mkdocs.yml")
    config["not_in_nav"] = "/draft.md\n"
    write_config(root, config)
    result = built(root)
    assert result.returncode == 0, result.stderr


def test_an_exercise_heading_with_an_id_of_its_own_fails_naming_page_and_line(tmp_path: Path) -> None:
    root = docs_copy(tmp_path)
    line = append(root, "### An injected exercise {#mine}\n\nA question.\n")
    assert refused(built(root), f"docs/{PAGE}:{line}: an exercise heading takes only {{ .python }}")


def test_an_exercises_page_without_its_marker_fails_naming_it(tmp_path: Path) -> None:
    root = docs_copy(tmp_path)
    (root / "docs" / "exercises.md").write_text("# Exercises\n\nTyped by hand.\n", encoding="utf-8")
    assert refused(built(root), "docs/exercises.md: the marker line <!-- attnlab:exercises --> is missing")
