"""What only a real strict build of one page shows (``sites.one_page_site(..., guide=True)``): a refusal from each
place a build can stop reaching MkDocs as one clean message, a warning failing it, the navigation's rules, dates;
what each check refuses is tested in-process beside its code."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

from sites import build, one_page_site, read_config, write_config

PAGE = "docs/index.md"
REFERENCE = "---\nkind: reference\n---\n\n# A page\n\n"
"""A page the guide asks nothing of (no prompt, no exercises, no claim), so only the injected hole counts."""


def built(tmp_path: Path, body: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A one-page site holding ``REFERENCE`` then ``body`` (its line 7), built strictly."""
    return build(one_page_site(tmp_path, REFERENCE + body, guide=True), tmp_path / "site", env)


CLEAN_STOP = "Aborted with"
"""How MkDocs ends a build it refused cleanly ("Aborted with a BuildError!", "Aborted with 1 warnings in strict
mode!"); an exception escaping it ends in a traceback instead, without this line."""


def refused(result: subprocess.CompletedProcess[str], *named: str) -> bool:
    """Whether the build failed, named each of ``named``, and MkDocs stopped it with a message (no crash)."""
    output = result.stdout + result.stderr
    return (result.returncode != 0 and all(text in output for text in named)
            and any(line.startswith(CLEAN_STOP) for line in output.splitlines()))


def test_a_code_block_that_raises_fails_naming_page_line_and_error(tmp_path: Path) -> None:
    body = '```python exec="on"\nraise ValueError("an injected failure")\n```\n'
    assert refused(built(tmp_path, body), f"{PAGE}:7", "ValueError: an injected failure")


def test_a_config_without_the_guides_plugin_fails_saying_to_list_it(tmp_path: Path) -> None:
    config_path = one_page_site(tmp_path, REFERENCE + '```python exec="on"\nprint(1)\n```\n', guide=True)
    config = read_config(config_path)
    config["plugins"].remove("attnlab")
    write_config(tmp_path, config)
    assert refused(build(config_path, tmp_path / "site"), "mkdocs.yml: a code block reached the guide's formatter "
                   "without its place (docs/page.md:LINE): list the guide's plugin under plugins: (- attnlab)")


def test_a_non_number_on_the_finished_page_fails_naming_the_page(tmp_path: Path) -> None:
    assert refused(built(tmp_path, "The weight $w = nan$ is shown.\n"), f"{PAGE}: 'nan' is not a finite number")


def test_a_warning_alone_fails_the_build(tmp_path: Path) -> None:
    assert refused(built(tmp_path, "See [a page that is not there](missing.md).\n"), "'index.md'", "missing.md")


def test_a_source_date_epoch_that_is_not_a_whole_number_of_seconds_fails_saying_so(tmp_path: Path) -> None:
    assert refused(built(tmp_path, "Text.\n", env={"SOURCE_DATE_EPOCH": "1.5"}),
                   "SOURCE_DATE_EPOCH must be a whole number of seconds")


def test_a_docs_file_whose_name_a_zip_would_carry_unsafely_fails_naming_it(tmp_path: Path) -> None:
    config = one_page_site(tmp_path, REFERENCE + "Text.\n", guide=True)
    (tmp_path / "docs" / "back\\slash.txt").write_text("x", encoding="utf-8")
    assert refused(build(config, tmp_path / "site"), repr("back\\slash.txt"), "cannot go into the offline copy")


def test_a_page_left_out_of_the_navigation_fails_naming_it(tmp_path: Path) -> None:
    config = one_page_site(tmp_path, REFERENCE + "Text.\n", guide=True)
    (tmp_path / "docs" / "draft.md").write_text(REFERENCE + "A draft.\n", encoding="utf-8")
    assert refused(build(config, tmp_path / "site"), "draft.md", 'not included in the "nav" configuration')


def test_a_page_declared_as_not_in_the_navigation_is_asked_nothing_and_a_date_before_1980_dates_the_zip_1980(
        tmp_path: Path) -> None:
    config_path = one_page_site(tmp_path, REFERENCE + "Text.\n", guide=True)
    (tmp_path / "docs" / "draft.md").write_text("# A draft\n\nNot in the navigation, on purpose.\n",
                                                encoding="utf-8")
    config = read_config(config_path)
    config["not_in_nav"] = "/draft.md\n"
    write_config(tmp_path, config)
    result = build(config_path, tmp_path / "site", env={"SOURCE_DATE_EPOCH": "315532799"})
    assert result.returncode == 0, result.stderr
    assert "built 1979-12-31 (UTC)" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    (archive,) = (tmp_path / "site").glob("attention-lab-*.zip")
    assert {e.date_time for e in zipfile.ZipFile(archive).infolist()} == {(1980, 1, 1, 0, 0, 0)}
