"""Relations in prose, ``[[words ? condition]]``: the words shown, the build refusing them once false."""

from __future__ import annotations

from pathlib import Path

import pytest
from sites import DOCS, build, one_page_site

from attnlab import lab
from attnlab.site.pages import relations
from attnlab.site.pages.bindings import unbound
from attnlab.site.pages.forms import malformed
from attnlab.site.pages.rebind import main

TRUE = "The weight of `load` is [[the smallest ? min(compute().weights) == compute().weights[1]]].\n"
FALSE = ("Intro.\n\nThe weight of `load` is [[the largest\nof the three ? "
         "max(compute().weights) == compute().weights[1]]].\n")


def test_a_relation_shows_its_words_only() -> None:
    assert relations.render(TRUE) == "The weight of `load` is the smallest.\n"


def test_a_true_relation_passes() -> None:
    assert relations.check(TRUE, "docs/p.md") == []


def test_a_false_relation_is_named_with_its_page_line_and_words() -> None:
    [problem] = relations.check(FALSE, "docs/p.md")
    assert problem.startswith("docs/p.md:3: 'the largest of the three' is false now: max(compute().weights)")


def test_a_condition_that_is_not_a_truth_value_is_refused() -> None:
    [problem] = relations.check("It is [[large ? compute().weights[2]]].", "p.md")
    assert "must be true or false, got 0.57" in problem


def test_a_condition_that_fails_is_named() -> None:
    [problem] = relations.check("It is [[large ? nowhere > 1]].", "p.md")
    assert problem == ("p.md:1: 'large': its condition nowhere > 1 cannot be evaluated: "
                       "NameError: name 'nowhere' is not defined")


def test_a_relation_in_code_is_left_alone() -> None:
    code = "Write `[[large ? 1 > 2]]`.\n\n```md\n[[large ? 1 > 2]]\n```\n"
    assert relations.relations(code) == [] and relations.render(code) == code


def test_a_relation_is_neither_malformed_nor_a_binding() -> None:
    assert malformed(TRUE, "p.md") == [] and relations.relations("[[0.5 = 1 / 2]]") == []


def test_the_scan_reads_the_words_but_not_the_condition() -> None:
    assert unbound("A [[tie of 3 ? abs(0.25 - 0.25) < 1e-9]] here.\n", "p.md") == [
        "p.md:1: 3 is neither bound ([[3 = expression]]) nor declared in the front matter's literals"]


def test_the_maintainers_change_to_w_v_stops_keeping_the_claim_small_at_both_sentences(
        monkeypatch: pytest.MonkeyPatch) -> None:
    page = (DOCS / "limits.md").read_text(encoding="utf-8")
    assert relations.check(page, "docs/limits.md") == []
    monkeypatch.setattr(lab, "W_V", ((1.5, 0.0), (0.0, 2.0)))
    named = {(problem.split(":")[1], problem.split("'")[1]) for problem in relations.check(page, "docs/limits.md")}
    lines = {words: line for line, words in named}
    assert set(lines) == {"about as long", "twice as long", "about as large"}
    assert lines["about as long"] < lines["twice as long"] < lines["about as large"]


def test_rebind_names_a_relation_it_cannot_rewrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "p.md"
    page.write_text(FALSE, encoding="utf-8")
    assert main([str(page)]) == 1
    assert "p.md:3: 'the largest of the three' is false now" in capsys.readouterr().err


def test_the_build_refuses_a_false_relation(tmp_path: Path) -> None:
    result = build(one_page_site(tmp_path, FALSE + "\nSee [[CL-005]].\n"), tmp_path / "site")
    assert result.returncode != 0
    assert "docs/index.md:3: 'the largest of the three' is false now" in result.stderr
