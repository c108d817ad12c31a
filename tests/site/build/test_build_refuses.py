"""What a strict build refuses, each hole shown on a one-page site built with the guide's own settings.

Every test builds a site of one page (``sites.one_page_site(..., guide=True)``:
the guide's ``mkdocs.yml``, its formatter, extension, plugin and theme
overrides, with that page as the whole navigation) as the suite and CI
build, ``mkdocs build --strict`` and never ``-q``, and expects the build to
fail naming the file and, where there is one, the line, with no traceback.
One test adds a chapter to a copy of the whole guide: the page and its line
in the navigation are all it takes, and one build lists everything missing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from sites import build, one_page_site, read_config, write_config

PAGE = "docs/index.md"
REFERENCE = "---\nkind: reference\n---\n\n# A page\n\n"
"""A page the guide asks nothing of (no prompt, no exercises, no claim), so only the injected hole counts."""


def built(tmp_path: Path, body: str, front: str = REFERENCE, env: dict[str, str] | None = None,
          ) -> subprocess.CompletedProcess[str]:
    """A one-page site holding ``front`` then ``body``, built strictly."""
    return build(one_page_site(tmp_path, front + body, guide=True), tmp_path / "site", env)


def line_of(body: str, front: str = REFERENCE) -> int:
    """The line of the page where ``body`` starts."""
    return front.count("\n") + 1


CLEAN_STOP = "Aborted with"
"""How MkDocs ends a build it refused cleanly ("Aborted with a BuildError!", "Aborted with 1 warnings in strict
mode!"); an exception escaping it ends in a traceback instead, without this line."""


def refused(result: subprocess.CompletedProcess[str], *named: str) -> bool:
    """Whether the build failed, named each of ``named``, and MkDocs stopped it with a message (no crash)."""
    output = result.stdout + result.stderr
    return (result.returncode != 0 and all(text in output for text in named)
            and any(line.startswith(CLEAN_STOP) for line in output.splitlines()))


def test_the_page_these_tests_change_builds_as_it_stands(tmp_path: Path) -> None:
    result = built(tmp_path, "Nothing wrong here.\n")
    assert result.returncode == 0, result.stderr


def test_a_code_block_that_raises_fails_naming_page_line_and_error(tmp_path: Path) -> None:
    body = '```python exec="on"\nraise ValueError("an injected failure")\n```\n'
    assert refused(built(tmp_path, body), f"{PAGE}:{line_of(body)}", "ValueError: an injected failure")


@pytest.mark.parametrize(
    "code", ["exit()", "import sys\nsys.exit(0)", "raise SystemExit(3)", "raise KeyboardInterrupt"]
)
def test_a_code_block_that_would_end_the_build_fails_naming_page_and_line(tmp_path: Path, code: str) -> None:
    body = f'```python exec="on"\n{code}\n```\n'
    assert refused(built(tmp_path, body), f"{PAGE}:{line_of(body)}: a code block raised", "would end the build")


def test_a_warning_alone_fails_the_build(tmp_path: Path) -> None:
    assert refused(built(tmp_path, "See [a page that is not there](missing.md).\n"), "'index.md'", "missing.md")


FORMS = ("[[CL-05]]", "[[ CL-005 ]]", "[[CL-0005]]", "[[+3 = 1 + 2]]", "[[.9 = 0.9]]", "\\[[CL-005]]")
"""Brackets that are neither a citation nor a binding; the last escapes a citation, which would leave link
Markdown on the page."""


@pytest.fixture(scope="module")
def prose_holes(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    """One page with every malformed form on a line of its own, then a number typed by hand: one build.

    The build lists every problem of a page's prose at once, so one build shows them all.
    """
    body = "".join(f"An injected {form} in prose.\n\n" for form in FORMS) + "A weight of 0.576 typed by hand.\n"
    return built(tmp_path_factory.mktemp("holes"), body)


@pytest.mark.parametrize("number, form", list(enumerate(FORMS)))
def test_a_malformed_citation_or_binding_fails_naming_page_and_line(prose_holes: subprocess.CompletedProcess[str],
                                                                    number: int, form: str) -> None:
    shown = form.removeprefix("\\")
    assert refused(prose_holes,
                   f"{PAGE}:{line_of('') + 2 * number}: '{shown}' is neither a claim citation nor a number binding")


@pytest.mark.parametrize("printed", [
    'print("| weight |\\n|---|\\n| " + str(float("nan")) + " |")',  # a table cell
    'print("`" + str(float("inf")) + "`")',  # inline code
    'print("$w = " + str(float("nan")) + "$")',  # a formula
    'print("| w |\\n|---|\\n| $" + str(float("-inf")) + "$ |")',  # a table cell written as math
])
def test_a_block_printing_a_non_number_fails_naming_page_and_line(tmp_path: Path, printed: str) -> None:
    body = f'```python exec="on"\n{printed}\n```\n'
    assert refused(built(tmp_path, body), f"{PAGE}:{line_of(body)}: '", "is not a finite number")


@pytest.mark.parametrize("attribute", ["title", "alt", "aria-label", "data-values"])
def test_a_non_number_in_an_attribute_a_reader_meets_fails_naming_the_page(tmp_path: Path, attribute: str) -> None:
    body = f'```python exec="on" html="1"\nprint(\'<span {attribute}="w = NaN">x</span>\')\n```\n'
    assert refused(built(tmp_path, body), f"{PAGE}:{line_of(body)}: 'NaN' is not a finite number",
                   f"in its {attribute}")


def test_a_non_number_in_a_formula_of_the_prose_fails_naming_the_page(tmp_path: Path) -> None:
    assert refused(built(tmp_path, "The weight $w = nan$ is shown.\n"), f"{PAGE}: 'nan' is not a finite number")


def test_an_unbalanced_formula_fails_naming_page_and_formula(tmp_path: Path) -> None:
    front = "---\nkind: reference\nliterals: [2]\n---\n\n"
    assert refused(built(tmp_path, "A square, $x^{2$, in prose.\n", front),
                   f"{PAGE}: formula 'x^{{2': 1 brace group(s) opened with {{ are never closed")


def test_a_prose_number_neither_bound_nor_declared_fails_naming_page_and_line(
        prose_holes: subprocess.CompletedProcess[str]) -> None:
    assert refused(prose_holes, f"{PAGE}:{line_of('') + 2 * len(FORMS)}: 0.576 is neither bound")


def test_a_chapter_without_its_practice_or_a_claim_fails_naming_each_lack(tmp_path: Path) -> None:
    result = built(tmp_path, "# A chapter\n\nIt teaches without asking.\n", front="")
    assert refused(result, f"{PAGE}: has 0 predict-first prompts", f"{PAGE}: has no '## Exercises' section",
                   f"{PAGE}: a chapter cites at least one claim")


def test_an_exercise_heading_with_an_id_of_its_own_fails_naming_page_and_line(tmp_path: Path) -> None:
    body = "## Exercises\n\n### An injected exercise {#mine}\n\nA question.\n"
    assert refused(built(tmp_path, body), f"{PAGE}:{line_of(body) + 2}: an exercise heading takes only {{ .python }}")


def test_a_kind_the_guide_does_not_know_fails_naming_the_page(tmp_path: Path) -> None:
    assert refused(built(tmp_path, "Text.\n", front="---\nkind: appendix\n---\n\n"),
                   f"{PAGE}: front matter 'kind' must be one of chapter, page, reference")


@pytest.mark.parametrize("epoch", ["yesterday", "-5", "1.5"])
def test_a_source_date_epoch_that_is_not_a_whole_number_of_seconds_fails_saying_so(tmp_path: Path,
                                                                                  epoch: str) -> None:
    assert refused(built(tmp_path, "Text.\n", env={"SOURCE_DATE_EPOCH": epoch}),
                   "SOURCE_DATE_EPOCH must be a whole number of seconds")


@pytest.mark.parametrize("epoch, shown", [("0", "1970-01-01"), ("315532799", "1979-12-31")])
def test_a_source_date_epoch_before_1980_dates_the_pages_and_the_zip_from_1980(tmp_path: Path, epoch: str,
                                                                            shown: str) -> None:
    import zipfile

    result = built(tmp_path, "Text.\n", env={"SOURCE_DATE_EPOCH": epoch})
    assert result.returncode == 0, result.stderr
    assert f"built {shown} (UTC)" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    (archive,) = (tmp_path / "site").glob("attention-lab-*.zip")
    assert {e.date_time for e in zipfile.ZipFile(archive).infolist()} == {(1980, 1, 1, 0, 0, 0)}


@pytest.mark.parametrize("name", ["back\\slash.txt", "tab\there.txt"])
def test_a_docs_file_whose_name_a_zip_would_carry_unsafely_fails_naming_it(tmp_path: Path, name: str) -> None:
    config = one_page_site(tmp_path, REFERENCE + "Text.\n", guide=True)
    (tmp_path / "docs" / name).write_text("x", encoding="utf-8")
    assert refused(build(config, tmp_path / "site"), repr(name), "cannot go into the offline copy")


def test_a_page_left_out_of_the_navigation_fails_naming_it(tmp_path: Path) -> None:
    config = one_page_site(tmp_path, REFERENCE + "Text.\n", guide=True)
    (tmp_path / "docs" / "draft.md").write_text(REFERENCE + "A draft.\n", encoding="utf-8")
    assert refused(build(config, tmp_path / "site"), "draft.md", 'not included in the "nav" configuration')


def test_a_page_declared_as_not_in_the_navigation_builds_and_is_asked_nothing(tmp_path: Path) -> None:
    config_path = one_page_site(tmp_path, REFERENCE + "Text.\n", guide=True)
    (tmp_path / "docs" / "draft.md").write_text("# A draft\n\nNot in the navigation, on purpose.\n",
                                                encoding="utf-8")
    config = read_config(config_path)
    config["not_in_nav"] = "/draft.md\n"
    write_config(tmp_path, config)
    result = build(config_path, tmp_path / "site")
    assert result.returncode == 0, result.stderr


def test_an_exercises_page_without_its_marker_fails_naming_it(tmp_path: Path) -> None:
    config_path = one_page_site(tmp_path, REFERENCE + "Text.\n", guide=True)
    (tmp_path / "docs" / "exercises.md").write_text(REFERENCE + "Typed by hand.\n", encoding="utf-8")
    config = read_config(config_path)
    config["nav"].append({"Exercises": "exercises.md"})
    write_config(tmp_path, config)
    assert refused(build(config_path, tmp_path / "site"),
                   "docs/exercises.md: the marker line <!-- attnlab:exercises --> is missing")


def test_a_new_chapter_needs_its_page_and_its_line_in_the_navigation_and_one_build_lists_what_it_lacks(
        guide_copy: Path) -> None:
    (guide_copy / "docs" / "new.md").write_text("# A new chapter\n\nIt quotes 0.576 by hand.\n", encoding="utf-8")
    config = read_config(guide_copy / "mkdocs.yml")
    config["nav"].insert(3, {"A new chapter": "new.md"})
    write_config(guide_copy, config)
    result = build(guide_copy / "mkdocs.yml", guide_copy / "site")
    assert refused(result, "docs/new.md:3: 0.576 is neither bound", "docs/new.md: has 0 predict-first prompts",
                   "docs/new.md: has no '## Exercises' section", "docs/new.md: a chapter cites at least one claim")
