"""Shared fixtures: the site is built once per test session, strictly (see ``sites.py``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from sites import CONFIG, DOCS, ROOT, build

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
