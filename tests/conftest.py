"""Shared fixtures: the site is built once per test session, strictly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def build_site(destination: Path) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` into ``destination`` and return the finished process."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(destination)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The strictly built site; the whole session fails loudly if the build does."""
    destination = tmp_path_factory.mktemp("site") / "site"
    result = build_site(destination)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return destination
