"""scripts/ensure-chromium and the launch fixture look for Chromium in the same order and fail clearly."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from .chromium import SYSTEM_CHROMIUMS, chromium_executable

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "ensure-chromium"


def test_fixture_looks_where_the_script_looks_in_the_same_order() -> None:
    loop = re.search(r"^for candidate in (.+); do$", SCRIPT.read_text(), re.M)
    assert loop and tuple(loop.group(1).split()) == SYSTEM_CHROMIUMS


def test_attnlab_chromium_comes_first_and_a_missing_one_fails_with_what_to_do(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    browser = tmp_path / "my-chrome"
    browser.write_text("#!/bin/sh\n")
    browser.chmod(0o755)
    monkeypatch.setenv("ATTNLAB_CHROMIUM", str(browser))
    assert chromium_executable("/no/playwright/download") == str(browser)
    monkeypatch.setenv("ATTNLAB_CHROMIUM", "/no/such/chromium")
    with pytest.raises(pytest.fail.Exception, match=r"ATTNLAB_CHROMIUM.*make browser"):
        chromium_executable("/no/playwright/download")


def test_the_script_refuses_a_missing_attnlab_chromium() -> None:
    finished = subprocess.run(["bash", str(SCRIPT)], env={**os.environ, "ATTNLAB_CHROMIUM": "/no/such/chromium"},
                              capture_output=True, text=True, timeout=60, check=False)
    assert finished.returncode == 1
    assert "ATTNLAB_CHROMIUM=/no/such/chromium is not an executable file" in finished.stderr
