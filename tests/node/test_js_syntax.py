"""Every script the site ships parses: ``node --check`` on each file under ``docs/assets`` and on ``model.mjs``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from sites import DOCS

SCRIPTS = sorted([*(DOCS / "assets").rglob("*.js"), DOCS / "model.mjs"])


def test_there_are_scripts_to_check() -> None:
    assert len(SCRIPTS) > 5


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.relative_to(DOCS).as_posix() for s in SCRIPTS])
def test_the_script_parses(script: Path) -> None:
    node = shutil.which("node")
    assert node, "Node.js is missing: run `make node`"
    done = subprocess.run([node, "--check", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_script_with_a_syntax_error_is_caught(tmp_path: Path) -> None:
    broken = tmp_path / "broken.js"
    broken.write_text("function (", encoding="utf-8")
    assert subprocess.run(["node", "--check", str(broken)], capture_output=True).returncode != 0
