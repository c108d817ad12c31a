"""What only a real strict build of one page (``sites.one_page_site(...)``) shows; what each check refuses is tested
in-process beside its code."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from sites import build, one_page_site, read_config, write_config

pytestmark = pytest.mark.slow  # each test runs real builds, one subprocess each

PAGE = "docs/index.md"
REFERENCE = "---\nkind: reference\n---\n\n# A page\n\n"
"""A page the guide asks nothing of (no prompt, no exercises, no claim), so only the injected hole counts."""
CLEAN_STOP = "Aborted with"
"""How MkDocs ends a build it refused cleanly ("Aborted with a BuildError!", "Aborted with 1 warnings in strict
mode!"); an exception escaping it ends in a traceback instead, without this line."""


def refused(result: subprocess.CompletedProcess[str], *named: str) -> bool:
    """Whether the build failed, named each of ``named``, and MkDocs stopped it with a message (no crash)."""
    output = result.stdout + result.stderr
    return (result.returncode != 0 and all(text in output for text in named)
            and any(line.startswith(CLEAN_STOP) for line in output.splitlines()))


STOPS = [  # (the page after REFERENCE, its environment, a file beside it, what the refusal names)
    ('```python exec="on"\nraise ValueError("an injected failure")\n```\n', {}, None,
     (f"{PAGE}:7", "ValueError: an injected failure")),
    ("The weight $w = nan$ is shown.\n", {}, None, (f"{PAGE}: 'nan' is not a finite number",)),
    ("See [a page that is not there](missing.md).\n", {}, None, ("'index.md'", "missing.md")),  # a warning alone
    ("Text.\n", {"SOURCE_DATE_EPOCH": "1.5"}, None, ("SOURCE_DATE_EPOCH must be a whole number of seconds",)),
    ("Text.\n", {}, ("back\\slash.txt", "x"), (repr("back\\slash.txt"), "cannot go into the offline copy")),
    ("Text.\n", {}, ("draft.md", REFERENCE + "A draft.\n"), ("draft.md", 'not included in the "nav" configuration')),
]


def test_a_block_a_non_number_a_warning_a_bad_date_an_unsafe_name_or_a_page_left_out_stops_the_build_cleanly(
        tmp_path: Path) -> None:
    for n, (body, env, beside, named) in enumerate(STOPS):
        (root := tmp_path / str(n)).mkdir()
        config = one_page_site(root, REFERENCE + body)
        if beside:
            (root / "docs" / beside[0]).write_text(beside[1], encoding="utf-8")
        assert refused(build(config, root / "site", env), *named), named


def test_a_config_without_the_guides_plugin_fails_saying_to_list_it(tmp_path: Path) -> None:
    config_path = one_page_site(tmp_path, REFERENCE + '```python exec="on"\nprint(1)\n```\n')
    config = read_config(config_path)
    config["plugins"].remove("attnlab")
    write_config(tmp_path, config)
    assert refused(build(config_path, tmp_path / "site"), "mkdocs.yml: a code block reached the guide's formatter "
                   "without its place (docs/page.md:LINE): list the guide's plugin under plugins: (- attnlab)")


def test_a_page_declared_as_not_in_the_navigation_is_asked_nothing_and_a_date_before_1980_is_stated(
        tmp_path: Path) -> None:  # the zip's entries dated 1980: test_offline.py
    config_path = one_page_site(tmp_path, REFERENCE + "Text.\n", not_in_nav="/draft.md\n")
    (tmp_path / "docs" / "draft.md").write_text("# A draft\n\nNot in the navigation, on purpose.\n",
                                                encoding="utf-8")
    result = build(config_path, tmp_path / "site", env={"SOURCE_DATE_EPOCH": "315532799"})
    assert result.returncode == 0, result.stderr
    assert "built 1979-12-31 (UTC)" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
