"""Shared fixtures: the site is built once per test session, strictly (see ``sites.py``)."""

from __future__ import annotations

import subprocess
import zipfile
from pathlib import Path

import pytest
from sites import CONFIG, DOCS, ROOT, build

from attnlab.site.offline import archive_name

__all__ = ["DOCS", "ROOT", "build_site"]


def build_site(destination: Path) -> subprocess.CompletedProcess[str]:
    """The guide built with ``mkdocs build --strict`` into ``destination``."""
    return build(CONFIG, destination)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The strictly built site; the whole session fails loudly if the build does."""
    destination = tmp_path_factory.mktemp("site") / "site"
    result = build_site(destination)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return destination


@pytest.fixture(scope="session")
def offline_copy(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site's zip, unzipped as a reader would into a folder of its own; returns the guide's folder."""
    destination = tmp_path_factory.mktemp("unzipped")
    with zipfile.ZipFile(built_site / archive_name()) as zipped:
        zipped.extractall(destination)
    return destination / archive_name().removesuffix(".zip")
