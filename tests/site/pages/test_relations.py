"""Relations in prose, ``[[words ? condition]]``: the words shown, refused once false (the page pass refusing one:
``test_convert.py``, rebind naming one: ``test_rebind.py``)."""

from __future__ import annotations

from attnlab.site.pages.bindings import check_relations, malformed, relations, render, unbound

TRUE = "The weight of `load` is [[the smallest ? min(compute().weights) == compute().weights[1]]].\n"
FALSE = ("Intro.\n\nThe weight of `load` is [[the largest\nof the three ? "
         "max(compute().weights) == compute().weights[1]]].\n")


def test_a_relation_shows_and_is_scanned_as_its_words_only_and_is_left_alone_in_code() -> None:
    assert render(TRUE) == "The weight of `load` is the smallest.\n"
    assert unbound("A [[tie of 3 ? abs(0.25 - 0.25) < 1e-9]] here.\n", "p.md") == [
        "p.md:1: 3 is neither bound ([[3 = expression]]) nor declared in the front matter's literals"]
    code = "Write `[[large ? 1 > 2]]`.\n\n```md\n[[large ? 1 > 2]]\n```\n"
    assert relations(code) == [] and render(code) == code
    assert malformed(TRUE, "p.md") == [] and relations("[[0.5 = 1 / 2]]") == []  # not a binding


def test_a_relation_passes_while_true_and_is_named_once_false_or_failing() -> None:
    assert check_relations(TRUE, "docs/p.md") == []
    [problem] = check_relations(FALSE, "docs/p.md")
    assert problem.startswith("docs/p.md:3: 'the largest of the three' is false now: max(compute().weights)")
    [problem] = check_relations("It is [[large ? compute().weights[2]]].", "p.md")
    assert "must be true or false, got 0.57" in problem
    assert check_relations("It is [[large ? nowhere > 1]].", "p.md") == [
        "p.md:1: 'large': its condition nowhere > 1 cannot be evaluated: NameError: name 'nowhere' is not defined"]
