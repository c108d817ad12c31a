"""Numbers in prose: bindings ``[[0.576 = expr]]``, relations ``[[words ? condition]]``, literals, malformed ``[[``,
the scan, and proof on the chapters that it bites (a changed toy constant: ``test_rebind.py``; a removed binding)."""

from __future__ import annotations

import importlib
import math
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sites import ROOT

import attnlab.site.pages.bindings
from attnlab.lab import compute
from attnlab.site.pages.bindings import (
    BINDING,
    bindings,
    check,
    check_relations,
    literals,
    malformed,
    relations,
    render,
    unbound,
)
from attnlab.site.pages.blocks import PageError
from attnlab.site.pages.claims import CITATION
from attnlab.text import fmt

PAGES = {f"docs/{p.name}": p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))}
"""Every page as messages name it (``docs/scores.md``) → its Markdown."""

CHECKED = [
    ("One third is [[0.333 = 1 / 3]], [[ 0.33 = 1 / 3 ]] or [[33.3% = 1 / 3]].\n", []),
    ("Intro.\n\nOne third is [[0.334 = 1 / 3]] or [[33.4% = 1 / 3]].\n",
     ["p.md:3: quoted 0.334 but 1 / 3 gives 0.333", "p.md:3: quoted 33.4% but 1 / 3 gives 33.3%"]),
    ("[[0.576% = compute().weights[2]]]",
     [f"p.md:1: quoted 0.576% but compute().weights[2] gives {fmt(100 * compute().weights[2], 3)}%"]),
    ("Key [[[1, 2] = compute().keys[2]]] and [[[0.28, 0.140] = compute().weights[:2]]].", []),
    ("[[[1, 3] = compute().keys[2]]]", ["p.md:1: quoted [1, 3] but compute().keys[2] gives [1, 2]"]),
    ("[[[1, 2] = compute().weights]]", ["p.md:1: quoted [1, 2] but compute().weights gives [0.284, 0.140, 0.576]"]),
    ("[[0.576 = compute().weights]]", ["p.md:1: quoted 0.576 but compute().weights gives [0.284, 0.140, 0.576]"]),
    ("[[3 = len(compute().weights)]] keys and [[2 = 7 / 4]]", []),
    ("a\nb [[0.334 =\n  1 / 3]] c\n", ["p.md:2: quoted 0.334 but 1 / 3 gives 0.333"]),
    ("---\nliterals: [2]\n---\n[[0.334 = 1 / 3]]\n", ["p.md:4: quoted 0.334 but 1 / 3 gives 0.333"]),
    # WE-002: scaled logits 1, 0, 1, so the middle key gets 1 / (2e + 1)
    (f"[[1.414 = math.sqrt(2)]] [[3 = np.size(lab.X[0]) + 1]] [[{fmt(1 / (2 * math.e + 1))} = we002().weights[1]]]",
     []),
]
"""Markdown and what :func:`check` says of it."""


def test_a_binding_passes_when_its_expression_rounds_to_its_quote_and_is_named_where_not() -> None:
    assert [(markdown, check(markdown, "p.md")) for markdown, _ in CHECKED] == CHECKED


def test_an_expression_closes_at_its_own_brackets_and_render_shows_the_quote_in_links_not_code() -> None:
    markdown = "the weight [[0.5 = [0.25, 0.5][1]]] and [[2 = [[1, 2]][0][1]]]."
    assert [b.expression for b in bindings(markdown)] == ["[0.25, 0.5][1]", "[[1, 2]][0][1]"]
    assert render(markdown) == "the weight 0.5 and 2."
    assert render("[half [[0.5 = 1 / 2]]](x.md) and [[[1, 2] = compute().keys[2]]]") == "[half 0.5](x.md) and [1, 2]"
    code = "Write `[[0.9 = 1 / 3]]` in prose.\n\n```text\n[[0.9 = 1 / 3]]\n```\n"
    assert bindings(code) == [] and render(code) == code


def test_an_expression_that_fails_is_reported_with_page_and_expression() -> None:
    [problem] = check("[[0.576 = comptue().weights[2]]]", "docs/p.md")
    assert problem.startswith("docs/p.md:1: [[0.576 = comptue().weights[2]]] cannot be evaluated: NameError")
    assert "comptue" in problem.partition("NameError")[2]
    [problem] = check("[[1 = compute().weight_map]]", "p.md")  # a table is reported, not rounded
    assert problem.startswith("p.md:1: [[1 = compute().weight_map]] cannot be evaluated: ValueError")


def test_module_that_fails_to_import_breaks_only_the_bindings_that_use_it(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = importlib.import_module

    def import_module(name: str) -> object:
        if name == "attnlab.cost":
            raise SyntaxError("half-written")
        return real_import(name)

    monkeypatch.setattr(attnlab.site.pages.bindings.importlib, "import_module", import_module)
    problems = check("[[0.333 = 1 / 3]] and [[1 = cost.anything]]", "p.md")
    assert len(problems) == 1 and problems[0].startswith("p.md:1: [[1 = cost.anything]] cannot be evaluated: ")
    assert "attnlab.cost failed to import: SyntaxError: half-written" in problems[0]


def test_shared_cache_keeps_each_expressions_value() -> None:
    cache: dict[str, object] = {}
    check("[[0.333 = 1 / 3]] and again [[0.33 = 1 / 3]]", "p.md", cache)
    assert cache == {"1 / 3": 1 / 3}


@given(st.floats(-1e4, 1e4), st.integers(0, 4))
def test_quoting_the_rounded_value_passes_and_one_unit_more_fails(value: float, decimals: int) -> None:
    quoted = fmt(value, decimals)
    assert check(f"[[{quoted} = {value!r}]]", "p.md") == []
    assert check(f"[[{fmt(float(quoted) + 10.0 ** -decimals, decimals)} = {value!r}]]", "p.md") != []


def test_literals_are_read_as_written_and_a_vector_as_a_list_or_its_text() -> None:
    markdown = "---\ntitle: x\nliterals: [0, 0.50, 3.2.1, \"2017\", -1, [1, 0], \"[2, -1]\"]\n---\ntext\n"
    assert literals(markdown, "p.md") == {"0", "0.50", "3.2.1", "2017", "-1", "[1, 0]", "[2, -1]"}
    with pytest.raises(ValueError, match=r"p.md: front matter 'literals' must list numbers and vectors"):
        literals("---\nliterals: 3\n---\n", "p.md")
    with pytest.raises(ValueError, match=r"p.md:\d+: front matter is not YAML that MkDocs reads"):
        literals("---\nliterals: [1, 2\n---\n", "p.md")


@given(st.floats(-1e4, 1e4), st.integers(0, 4), st.sampled_from(["", "%"]))
def test_scan_finds_any_written_number_whole_and_its_literal_silences_it(value: float, decimals: int,
                                                                         percent: str) -> None:
    number = fmt(value, decimals) + percent
    sentence = f"The value is {number}, as stated.\n"
    assert [m.split(": ")[1].split(" ")[0] for m in unbound(sentence, "p.md")] == [number]
    assert unbound(f"---\nliterals: [{number}]\n---\n{sentence}", "p.md") == []


SCANNED = [
    ("From -0.5 to 57.6%, see §3.2.1.", ["-0.5", "57.6%", "3.2.1"]),
    ("Divide by $\\sqrt{2}$.\n\n$$\nx^3\n$$\n", ["2", "3"]),  # math is prose
    ("---\nliterals: []\nyear: 2017\n---\nIt is [[0.333 = 1 / 3]], `x = 5`.\n\n```python\nprint(7)\n```\n", []),
    ("See [[CL-001]], LAB-001, WE-002, S1, GPT-2, $W_1$, $d_k$, $x_{12}$, x2, v1.2 and float64.\n", []),
    ('<h1 class="col-2" style="--w:0.5">Title</h1> <!-- note 9 -->\n'
     "[a link](https://example.org/v2/page3.html#sec-4) and https://example.org/7 and &#8730;\n"
     "## Heading {#part-5 .c6 data-n=7}\n\n1. first item\n2) second item\n\n[ref]: https://example.org/8\n"
     "<style>.x { width: 10px; }</style>\n", []),
    ("The row sums to\n4. That is a count.\n\nThe lists:\n\n2. item\n   more\n3) item\n", ["4"]),
    ("---\nliterals: [0.5]\n---\nhalf is 0.50 or 0.5\n", ["0.50"]),  # a literal matches as written
    ("---\nliterals: []\n---\n\nCall `softmax(x, 2)` and `float64`.\n", []),
    ("---\nliterals: [2]\ntitle: Attention in 2 steps\n---\n\nText.\n", []),
    ('Typed: .577, <abbr title="weight 0.578">weight</abbr>, `0.579`.\n{: title="0.580" }', [".577", "0.578", "0.579",
                                                                                          "0.580"]),
    ("---\nliterals: [1, 0]\n---\nThe key [1, 0] is one item.\n", ["the vector [1, 0]"]),  # 1 and 0 declared alone
    ("---\nliterals: [[1, 0]]\n---\nThe key [1, 0], bound [[[1, 2] = compute().keys[2]]].\n", []),
]
"""Markdown and the numbers :func:`unbound` finds in it (a vector as "the vector [1, 0]")."""


def test_the_scan_finds_the_numbers_a_reader_sees() -> None:
    found = [(markdown, [m.split(": ", 1)[1].split(" is neither")[0] for m in unbound(markdown, "p.md")])
             for markdown, _ in SCANNED]
    assert found == SCANNED


def test_every_pages_bindings_match_their_expressions_and_no_prose_number_is_unbound_and_undeclared() -> None:
    problems = [p for name, text in PAGES.items() for scan in (unbound, check) for p in scan(text, name)]
    assert len(PAGES) > 10 and not problems, "bind these numbers or declare them in literals:\n" + "\n".join(problems)


def test_removed_binding_is_reported_by_the_scan() -> None:
    tried, missed = 0, []
    for name, text in PAGES.items():
        declared = literals(text, name)
        first = next((b for b in bindings(text) if b.quoted not in declared), None)
        if first is None:
            continue
        tried += 1
        mutated = text[:first.start] + first.quoted + text[BINDING.match(text, first.start).end():]
        if not any(u.startswith(f"{name}:{first.line}: ") and f"{first.quoted} is neither" in u
                   for u in unbound(mutated, name)):
            missed.append(f"{name}:{first.line}: unbinding {first.quoted} went unnoticed")
    assert tried, "every bound number in docs/ is also a declared literal, so removing a binding cannot show"
    assert not missed, "\n".join(missed)


def test_a_binding_or_relation_that_would_end_the_build_stops_it_naming_its_place() -> None:
    """Every way out a block can take: test_blocks.py."""
    for check_page, code in [(check, "[[0 = exit()]]"), (check_relations, "[[large ? exit()]]")]:
        with pytest.raises(PageError, match="^" + re.escape(f"p.md:2: {code} raised SystemExit: it would end")):
            check_page(f"Intro.\nIt is {code}.\n", "p.md")


def test_a_literal_agreeing_with_a_computed_number_to_all_but_its_last_decimal_is_refused_naming_its_line() -> None:
    def page(typed: str) -> str:
        return f'---\nliterals: ["{typed}"]\n---\n\nScaled [[1.414 = compute().scaled[0]]].\nThe weight is {typed}.\n'

    for typed in ["0.577", "0.576", "0.5761"]:
        [message] = check(page(typed), "p.md")
        assert message.startswith(f"p.md:6: {typed} is declared a literal, but compute().scaled[0] (line 5) computes "
                                  f"{compute().weights[2]!r}")
    assert [check(page(typed), "p.md") for typed in ["0.590", "0.25", "0.6"]] == [[]] * 3  # before the last, or fewer


def test_a_number_or_non_number_in_the_shown_front_matter_is_named_with_its_line() -> None:
    for meta, message in [
        ("title: Weights of 0.577", "p.md:3: the front matter's title shows 0.577, which no binding can compute there"),
        ("description: The weight is NaN", "p.md:3: the front matter's description shows 'NaN', which is not a finite"),
    ]:
        assert [m for m in unbound(f"---\nliterals: [1]\n{meta}\n---\n\nText.\n", "p.md") if m.startswith(message)]


MALFORMED = ["[[CL-05]]", "[[ CL-005 ]]", "[[CL-0005]]", "[[+3 = 1 + 2]]", "[[.9 = 0.9]]", "[[cl-005]]",
             "[[S1]]", "[[1e-3 = 0.001]]", "[[0.5 = 1 / 2]"]
"""Forms an author might type that are neither a registered-looking citation nor a binding."""
WELL_FORMED = ["[[CL-005]]", "[[LAB-001]]", "[[CL-001, CL-007]]", "[[0.576 = 1 / 3]]", "[[-0.5 = -1 / 2]]",
               "[[57.6% = 57.6]]", "[[ 0.5 = 1 / 2 ]]", "[[[0.860 = 0.86]], [[1.432 = 1.432]]]",
               "`[[CL-05]]`.\n\n```python\nrows = [[1, 0], [0, 1]]\n```\n"]


def test_a_malformed_form_is_named_with_its_page_and_line_counting_the_front_matter_and_no_other_is() -> None:
    for form in MALFORMED + WELL_FORMED:
        problems = malformed(f"---\nliterals: [1]\n---\n\nThe value {form} here.\n", "docs/p.md")
        assert len(problems) == (form in MALFORMED), form
        assert all(p.startswith("docs/p.md:5: '[[") and form.split("]]")[0] in p
                   and "is neither a claim citation nor a number binding" in p for p in problems)


@given(st.text(alphabet="CLWEAB-0123456789 .+=%", max_size=12))
def test_anything_in_double_brackets_is_either_valid_or_named(inner: str) -> None:
    text = f"[[{inner}]]"
    valid = bool(CITATION.fullmatch(text) or BINDING.fullmatch(text))
    assert (malformed(text, "p.md") == []) == valid


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
