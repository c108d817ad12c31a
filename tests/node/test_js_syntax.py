"""Every script the site ships parses: ``node --check`` on each file under ``docs/assets`` and on ``model.mjs``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from sites import DOCS

SCRIPTS = sorted([*(DOCS / "assets").rglob("*.js"), DOCS / "model.mjs"])


def test_every_script_parses() -> None:
    node = shutil.which("node")
    assert node, "Node.js is missing: run `make node`"
    assert len(SCRIPTS) > 5
    for script in SCRIPTS:
        done = subprocess.run([node, "--check", str(script)], capture_output=True, text=True)
        assert done.returncode == 0, (script.relative_to(DOCS).as_posix(), done.stderr)


def test_a_script_with_a_syntax_error_is_caught(tmp_path: Path) -> None:
    broken = tmp_path / "broken.js"
    broken.write_text("function (", encoding="utf-8")
    assert subprocess.run(["node", "--check", str(broken)], capture_output=True).returncode != 0
