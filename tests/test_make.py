"""What the set-up commands say: a missing or old Python in one line, and where to look once the guide is served."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest
from sites import ROOT

from attnlab.site.build.plugin import AttnlabPlugin


def make_venv(tmp_path: Path, python: str) -> subprocess.CompletedProcess[str]:
    """``make`` of the venv's first stamp in a fresh folder, with ``PYTHON=python``."""
    make = shutil.which("make")
    assert make, "make is needed for this test (Debian: apt-get install make)"
    return subprocess.run([make, "-s", f"VENV={tmp_path / 'venv'}", f"PYTHON={python}", f"{tmp_path}/venv/.installed"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)


def test_an_old_or_missing_python_is_said_in_one_line_with_how_to_choose_another(tmp_path: Path) -> None:
    old = tmp_path / "python3.10"  # it prints its version and fails the check, as an old Python would
    old.write_text("#!/bin/sh\necho 3.10.14\nexit 1\n")
    old.chmod(0o755)
    done = make_venv(tmp_path, str(old))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert "is Python 3.10.14, and the guide needs 3.11 or newer: name another with PYTHON=" in done.stderr
    assert not (tmp_path / "venv").exists()
    done = make_venv(tmp_path, str(tmp_path / "no-such-python"))
    assert done.returncode != 0
    assert f"no Python found as '{tmp_path / 'no-such-python'}'" in done.stderr and "PYTHON=" in done.stderr


def test_serving_says_the_address_and_how_a_saved_page_reloads(capsys: pytest.CaptureFixture[str]) -> None:
    server = SimpleNamespace(url="http://127.0.0.1:8123/")
    assert AttnlabPlugin().on_serve(server) is server
    said = capsys.readouterr().out
    assert "open http://127.0.0.1:8123/" in said and "Save a page under docs/" in said
