"""The guide built by Zensical, Material's successor, says what the MkDocs build says.

Zensical reads ``mkdocs.yml`` but runs no MkDocs hooks; the guide's checks
and content live in a Python-Markdown extension, which both builders run.
Every page's article must agree with the MkDocs build apart from theme
markup, and a wrong prose number must stop Zensical too. Skipped, saying
so, where Zensical is not installed (``make test`` installs it: the
``zensical`` extra).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sites import docs_copy

pytest.importorskip("zensical", reason="Zensical is not installed: pip install -e '.[zensical]' to compare builders")

pytestmark = pytest.mark.slow

ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.S)
THEME_ONLY = re.compile(r'<a id="__skip" tabindex="-1"></a>')
"""Markup Zensical's theme puts inside the article that Material's does not."""


def zensical_build(root: Path) -> subprocess.CompletedProcess[str]:
    """``zensical build --strict`` of the copy at ``root``, into ``root/site``."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run([sys.executable, "-m", "zensical", "build", "--strict", "-f", str(root / "mkdocs.yml")],
                          cwd=root, env=env, capture_output=True, text=True, timeout=900)


def article(page: Path) -> list[str]:
    """A page's article as its non-blank lines, stripped, without theme-only markup."""
    found = ARTICLE.search(page.read_text(encoding="utf-8"))
    assert found, f"{page} has no article"
    return [line.strip() for line in THEME_ONLY.sub("", found.group(1)).splitlines() if line.strip()]


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The guide built by Zensical, strictly."""
    root = docs_copy(tmp_path_factory.mktemp("zensical"))
    result = zensical_build(root)
    assert result.returncode == 0, result.stdout + result.stderr
    return root / "site"


def test_zensical_builds_every_page_mkdocs_builds(built_site: Path, zensical_site: Path) -> None:
    assert sorted(p.name for p in zensical_site.glob("*.html")) == sorted(p.name for p in built_site.glob("*.html"))


def test_every_article_agrees_with_the_mkdocs_build(built_site: Path, zensical_site: Path) -> None:
    differ = [p.name for p in sorted(built_site.glob("*.html")) if article(p) != article(zensical_site / p.name)]
    assert differ == []


@pytest.mark.parametrize("name", ["claims.json", "sources.bib", "assets/lab-data.js", "assets/guide-data.js",
                                  "assets/contrasts.js", "model.mjs", "exports/mixing-1.json",
                                  "assets/explorer/toy-words.js"])
def test_zensical_publishes_the_same_files(built_site: Path, zensical_site: Path, name: str) -> None:
    assert (zensical_site / name).read_bytes() == (built_site / name).read_bytes()


def test_a_wrong_prose_number_stops_zensical_naming_page_and_line(tmp_path: Path) -> None:
    root = docs_copy(tmp_path)
    page = root / "docs" / "mixing.md"
    lines = page.read_text(encoding="utf-8").split("\n")
    line = next(i for i, text in enumerate(lines, start=1) if "[[0.860 = compute().output[0]]]" in text)
    page.write_text(page.read_text(encoding="utf-8").replace("[[0.860 = compute().output[0]]]",
                                                             "[[0.861 = compute().output[0]]]"), encoding="utf-8")
    result = zensical_build(root)
    assert result.returncode != 0
    assert f"docs/mixing.md:{line}: quoted 0.861 but compute().output[0] gives 0.860" in result.stdout + result.stderr
