"""``python -m attnlab.site.pages.rebind``: stale quotes rewritten from their expressions, each change said."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sites import DOCS

from attnlab import lab
from attnlab.site.pages.bindings import check
from attnlab.site.pages.rebind import main, rebound

STALE = "The weight is [[0.577 = compute().weights[2]]], the key [[[1, 3] = compute().keys[2]]] and [[50% = 0.25]].\n"


def test_each_stale_quote_is_rewritten_at_its_own_decimals_and_each_change_said() -> None:
    result = rebound(STALE, "p.md")
    assert result.markdown == ("The weight is [[0.576 = compute().weights[2]]], the key "
                               "[[[1, 2] = compute().keys[2]]] and [[25% = 0.25]].\n")
    assert result.changes == ("p.md:1: 0.577 -> 0.576 (compute().weights[2])",
                              "p.md:1: [1, 3] -> [1, 2] (compute().keys[2])", "p.md:1: 50% -> 25% (0.25)")
    page = "Right: [[0.576 = compute().weights[2]]].\n"
    assert rebound(page, "p.md").markdown == page and rebound(page, "p.md").changes == ()


def test_a_quote_that_cannot_be_rewritten_is_reported_and_the_stale_quote_beside_it_still_rewritten() -> None:
    result = rebound("[[1 = nowhere.x]] and [[0.5 = 1 / 3]]\n", "p.md")
    assert result.markdown == "[[1 = nowhere.x]] and [[0.3 = 1 / 3]]\n"
    assert result.failures == ("p.md:1: [[1 = nowhere.x]] cannot be evaluated: NameError: name 'nowhere' is not "
                               "defined (names in scope: attnlab.site.pages.bindings.namespace)",)


def test_the_command_rewrites_files_keeping_line_endings_or_with_check_writes_nothing_and_fails(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "p.md"
    page.write_bytes(STALE.replace("\n", "\r\n").encode())
    assert main(["--check", str(page)]) == 1 and page.read_bytes() == STALE.replace("\n", "\r\n").encode()
    assert main([str(tmp_path)]) == 0
    assert "0.577 -> 0.576" in capsys.readouterr().out
    assert page.read_bytes().count(b"\r\n") == STALE.count("\n")
    assert check(page.read_text(encoding="utf-8"), "p.md") == []


def test_a_missing_or_unreadable_file_or_one_whose_binding_would_end_the_command_is_named_and_the_next_still_checked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.md").write_text("[[0 = exit(0)]]\n", encoding="utf-8")
    (tmp_path / "b.md").write_bytes(b"caf\xe9 [[0.5 = 1 / 3]]\n")
    (tmp_path / "c.md").write_text(STALE, encoding="utf-8")
    assert main(["--check", str(tmp_path / "gone.md"), str(tmp_path)]) == 1
    printed = capsys.readouterr()
    assert "a.md:1: [[0 = exit(0)]] raised SystemExit (0)" in printed.err and "0.577 -> 0.576" in printed.out
    assert f"rebind: error: {tmp_path / 'b.md'} is not UTF-8 text (byte 3)\n" in printed.err
    assert printed.err.startswith(f"rebind: error: no Markdown file at {tmp_path / 'gone.md'}\n")


def test_a_changed_toy_constant_is_carried_into_every_page_by_one_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs)
    monkeypatch.setattr(lab, "W_K", ((1.0, 1.5), (0.0, 1.0)))
    stale = {p.name: check(p.read_text(encoding="utf-8"), p.name) for p in docs.glob("*.md")}
    assert sum(map(bool, stale.values())) >= 3 and all(": quoted " in m for found in stale.values() for m in found)
    assert main([str(docs)]) == 1  # load's weight is no longer about half grid's: words only an author rewrites
    assert {line.split(":")[0] for line in capsys.readouterr().err.splitlines()} == {f"{docs}/limits.md"}
    assert [p.name for p in sorted(docs.glob("*.md")) if check(p.read_text(encoding="utf-8"), p.name)] == []
