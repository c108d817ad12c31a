"""The guide built by Zensical, Material's successor, says and publishes what the MkDocs build does.

Zensical reads ``mkdocs.yml`` but runs no MkDocs plugin; the guide's checks
and content live in a Python-Markdown extension, which both builders run,
and the post-build pass is a command after ``zensical build``
(``python -m attnlab.site.build``). Every page's article must agree with the
MkDocs build apart from theme markup, every file the pass publishes must be
the same, byte for byte, the offline zip must hold them too, and a wrong
prose number must stop Zensical as it stops MkDocs. ``make test`` installs
Zensical (the ``zensical`` extra).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from sites import docs_copy

from attnlab.site.build.offline import ARCHIVES, MODEL_FOLDER, archive_name
from attnlab.site.build.wheel import wheel_name

ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.S)
THEME_ONLY = re.compile(r'<a id="__skip" tabindex="-1"></a>')
"""Markup Zensical's theme puts inside the article that Material's does not."""


PUBLISHED = ("claims.json", "sources.bib", "assets/lab-data.js", "assets/guide-data.js", "assets/contrasts.js",
             "assets/download-data.js", "model.mjs", wheel_name())
"""Files the post-build pass writes (with every export, the explorer's data and the notebooks) or the docs hold
as they are."""


def zensical_build(root: Path) -> subprocess.CompletedProcess[str]:
    """``zensical build --strict`` of the copy at ``root``, into ``root/site``, then the post-build command."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    built = subprocess.run([sys.executable, "-m", "zensical", "build", "--strict", "-f", str(root / "mkdocs.yml")],
                           cwd=root, env=env, capture_output=True, text=True, timeout=900)
    if built.returncode != 0:
        return built
    return subprocess.run([sys.executable, "-m", "attnlab.site.build", "-f", str(root / "mkdocs.yml")],
                          cwd=root, env=env, capture_output=True, text=True, timeout=900)


def published(site: Path) -> set[str]:
    """The paths of what the post-build pass publishes in ``site`` (the zip aside)."""
    return {*PUBLISHED, *(p.relative_to(site).as_posix() for folder in ("exports", "assets/explorer", "notebooks")
                          for p in (site / folder).rglob("*") if p.is_file())}


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


def test_zensical_and_the_command_publish_the_same_files_byte_for_byte(built_site: Path, zensical_site: Path) -> None:
    names = published(built_site)
    assert published(zensical_site) == names and len(names) > len(PUBLISHED)
    assert [n for n in sorted(names) if (zensical_site / n).read_bytes() != (built_site / n).read_bytes()] == [
        "assets/download-data.js"]  # it states the size of each builder's own zip, whose pages differ


def test_zensicals_offline_zip_holds_its_site_and_the_same_published_files(built_site: Path,
                                                                           zensical_site: Path) -> None:
    folder = archive_name().removesuffix(".zip")
    ours, theirs = (zipfile.ZipFile(site / archive_name()) for site in (built_site, zensical_site))
    entries = {name.removeprefix(f"{folder}/") for name in theirs.namelist()}
    on_disk = {p.relative_to(zensical_site).as_posix() for p in zensical_site.rglob("*") if p.is_file()}
    packs = {name for name in on_disk  # the model's files are a download of their own; no zip holds a zip
             if not ARCHIVES.fullmatch(name) and not name.startswith(f"{MODEL_FOLDER}/")}
    assert entries == packs | {"README.txt"} and len(packs) < len(on_disk)
    same = sorted(published(built_site) - {"assets/download-data.js"})
    assert [n for n in same if ours.read(f"{folder}/{n}") != theirs.read(f"{folder}/{n}")] == []


def test_a_wrong_prose_number_stops_zensical_naming_page_and_line(guide_copy: Path) -> None:
    root = guide_copy
    page = root / "docs" / "mixing.md"
    lines = page.read_text(encoding="utf-8").split("\n")
    line = next(i for i, text in enumerate(lines, start=1) if "[[0.860 = compute().output[0]]]" in text)
    page.write_text(page.read_text(encoding="utf-8").replace("[[0.860 = compute().output[0]]]",
                                                             "[[0.861 = compute().output[0]]]"), encoding="utf-8")
    result = zensical_build(root)
    assert result.returncode != 0
    assert f"docs/mixing.md:{line}: quoted 0.861 but compute().output[0] gives 0.860" in result.stdout + result.stderr
