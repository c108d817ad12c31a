"""The claims and sources registry, its completeness against the brief, and citations in the chapters.

The brief (``shared/BRIEF.md`` beside the repository, with its second and
third editions ``shared/BRIEF-2.md`` and ``shared/BRIEF-3.md``) is the
contract: every claim and source they list must be registered with the same
kind, locator and arXiv number (a source without one: the same URL), a row
of a later edition replacing an earlier row of the same ID (its "Corrected"
table). A clone without the brief skips that cross-check and says
why; CI sets ``ATTNLAB_REQUIRE_BRIEF=1`` (in ``.ci/run``), so there a missing
file of either edition fails. ``ATTNLAB_SHARED`` names another folder holding
them (a git worktree sits elsewhere than the clone). The docs tests scan every
page's Markdown directly.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sites import DOCS, ROOT, build, one_page_site

from attnlab.site.pages import citations
from attnlab.site.pages import claims as registry
from attnlab.site.pages.guide import docs_pages
from attnlab.site.pages.mathml import INLINE_MATH

SHARED = Path(os.environ.get("ATTNLAB_SHARED", ROOT.parent / "shared"))
BRIEFS = (SHARED / "BRIEF.md", SHARED / "BRIEF-2.md", SHARED / "BRIEF-3.md")
"""The brief and its later editions, in the order their rows apply: a later row replaces an earlier one."""
REQUIRE_BRIEF = "ATTNLAB_REQUIRE_BRIEF"
"""Set to 1 (CI does, in ``.ci/run``) to make a missing brief an error instead of a skip."""
IDS = [c.id for c in registry.claims()]
GUIDE_CLAIMS = {"LAB-001", "WE-002", "CL-030", "CL-052", "CL-053"}
"""Claims the guide registers beyond the brief's tables: its two worked examples, the
norm-based view of attention (S9) that the explorer of the real model uses, and the small
decoder's own facts (measured, as BRIEF-3 asks)."""
CLAIM_ROW = re.compile(r"^\| (CL-\d{3}) \| (\w+) \| .* \| (.*?) \|$", re.MULTILINE)
VERIFY = re.compile(r"\s*\((?:verify)\b[^)]*\)")
"""A brief's note "(verify …)" beside a locator: the registry holds the locator once verified, without it."""
SOURCE_ITEM = re.compile(r"^- (S\d+) — (.*?)(?=^- |^#|\Z)", re.MULTILINE | re.DOTALL)


def brief(path: Path) -> str:
    """The brief's text; if it is missing, a skip saying so, or a failure where the brief is required."""
    if path.is_file():
        return path.read_text(encoding="utf-8")
    where = f"the content brief is not at {path} (shared/ beside the repository)"
    if os.environ.get(REQUIRE_BRIEF) == "1":
        pytest.fail(f"{where}, and {REQUIRE_BRIEF}=1 requires it")
    pytest.skip(f"{where}: the registry's cross-check against it runs where it is (CI sets {REQUIRE_BRIEF}=1)")


def brief_claims(briefs: tuple[Path, ...] = BRIEFS) -> dict[str, tuple[str, str]]:
    """Claim ID → (kind, locator) from the briefs' claims tables, a later file's row replacing an earlier one."""
    found: dict[str, tuple[str, str]] = {}
    for path in briefs:
        rows = CLAIM_ROW.findall(brief(path))
        assert rows, f"no claims table found in {path}"
        found.update((claim_id, (kind, VERIFY.sub("", locator))) for claim_id, kind, locator in rows)
    return found


def brief_sources(briefs: tuple[Path, ...] = BRIEFS) -> dict[str, str]:
    """Source ID → arXiv number, or the URL of a source without one, from the briefs' sources lists."""
    found: dict[str, str] = {}
    for path in briefs:
        items = SOURCE_ITEM.findall(brief(path))
        assert items, f"no sources list found in {path}"
        found.update((source_id, (re.search(r"arXiv:(\d{4}\.\d{4,5})", text)
                                  or re.search(r"(https?://\S+[^\s.])", text)).group(1)) for source_id, text in items)
    return found


# --- completeness against the brief --------------------------------------------------------


def test_a_missing_brief_is_an_error_where_it_is_required(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(REQUIRE_BRIEF, "1")
    with pytest.raises(pytest.fail.Exception, match="ATTNLAB_REQUIRE_BRIEF=1 requires it"):
        brief(tmp_path / "BRIEF.md")


def test_a_briefs_note_to_verify_a_locator_is_not_part_of_it(tmp_path: Path) -> None:
    row = "| CL-049 | source | x | S15 §2 (verify the subsection: y) |\n"
    (tmp_path / "BRIEF.md").write_text(row, encoding="utf-8")
    assert brief_claims((tmp_path / "BRIEF.md",)) == {"CL-049": ("source", "S15 §2")}


def test_a_missing_second_edition_fails_too_where_the_brief_is_required(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "BRIEF.md").write_text("| CL-001 | source | x | S1 §3.2.1, eq. (1) |\n", encoding="utf-8")
    monkeypatch.setenv(REQUIRE_BRIEF, "1")
    with pytest.raises(pytest.fail.Exception, match=r"BRIEF-2.md .*ATTNLAB_REQUIRE_BRIEF=1 requires it"):
        brief_claims((tmp_path / "BRIEF.md", tmp_path / "BRIEF-2.md"))


def test_a_later_briefs_row_replaces_the_earlier_row_of_the_same_id(tmp_path: Path) -> None:
    first, second = tmp_path / "BRIEF.md", tmp_path / "BRIEF-2.md"
    first.write_text("| CL-001 | source | x | S1 §1 |\n| CL-002 | toy | y | this guide |\n", encoding="utf-8")
    second.write_text("| CL-001 | source | x, corrected | S1 §2 |\n| CL-003 | measured | z | tool 1.0 |\n",
                      encoding="utf-8")
    assert brief_claims((first, second)) == {"CL-001": ("source", "S1 §2"), "CL-002": ("toy", "this guide"),
                                             "CL-003": ("measured", "tool 1.0")}


def test_the_second_edition_corrects_ids_of_the_first_and_adds_new_ones() -> None:
    first, second = (CLAIM_ROW.findall(brief(path)) for path in BRIEFS[:2])
    corrected = brief(BRIEFS[1]).split("## Corrected", 1)[1].split("\n## ", 1)[0]
    assert {row[0] for row in CLAIM_ROW.findall(corrected)} == {"CL-015", "CL-017"}
    assert {"CL-015", "CL-017"} <= {row[0] for row in first}
    assert registry.claim("CL-015").locator == {i: loc for i, _, loc in second}["CL-015"]


def test_the_third_edition_corrects_four_claims_and_adds_sources_without_arxiv_numbers() -> None:
    corrected = brief(BRIEFS[2]).split("## Corrected", 1)[1].split("\n## ", 1)[0]
    assert {row[0] for row in CLAIM_ROW.findall(corrected)} == {"CL-037", "CL-038", "CL-040", "CL-042"}
    assert registry.claim("CL-042").locator == "S19 §4"
    assert brief_sources()["S21"] == registry.source("S21").url == "https://github.com/pytorch/pytorch/pull/133882"


def test_a_missing_brief_is_a_skip_that_says_why_in_a_plain_clone(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_BRIEF, raising=False)
    with pytest.raises(pytest.skip.Exception, match="the registry's cross-check against it runs where it is"):
        brief(tmp_path / "BRIEF.md")


def test_ci_requires_the_brief() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"export {REQUIRE_BRIEF}=1" in ci and ci.index(REQUIRE_BRIEF) < ci.index("make test")


def test_every_claim_of_the_brief_is_registered_with_its_kind_and_locator() -> None:
    expected = brief_claims()
    found = {c.id: (c.kind, c.locator) for c in registry.claims() if c.id in expected}
    assert found == expected


def test_registry_holds_exactly_the_brief_claims_plus_the_guides_own() -> None:
    assert set(IDS) == set(brief_claims()) | GUIDE_CLAIMS


def test_the_guides_own_claim_ids_are_not_in_the_brief() -> None:
    assert GUIDE_CLAIMS.isdisjoint(brief_claims())


def test_the_registry_holds_exactly_the_sources_of_the_briefs_with_their_arxiv_numbers_or_urls() -> None:
    assert {s.id: s.arxiv or s.url for s in registry.sources()} == brief_sources()


def test_check_refuses_a_source_with_neither_arxiv_number_nor_address() -> None:
    bare = registry.Source("S99", "x2020", "misc", ("A. B",), "T", "V", 2020)
    with pytest.raises(ValueError, match="source S99 needs an arXiv number or, lacking one, an address"):
        registry._check([], [bare])


def test_every_measured_claim_names_a_test_file_that_exists_and_names_the_claim() -> None:
    measured = [c for c in registry.claims() if c.kind == "measured"]
    assert {c.id for c in measured} == {"CL-031", "CL-040", "CL-051", "CL-052", "CL-053"}
    for c in measured:
        for path in c.checked_by:
            assert c.id in (ROOT / path).read_text(encoding="utf-8"), f"{path} does not say it checks {c.id}"


def test_check_refuses_a_measured_claim_that_no_test_rechecks() -> None:
    unchecked = registry.Claim("CL-900", "measured", "x", "tool 1.0")
    with pytest.raises(ValueError, match="CL-900 is measured"):
        registry._check([unchecked], registry.sources())


def test_the_norm_based_view_rests_on_kobayashi_et_al_with_its_sections() -> None:
    claim = registry.claim("CL-030")
    assert (claim.kind, claim.sources, claim.locator) == ("source", ("S9",), "S9 §2.2, §3; §4")
    assert registry.source("S9").reference() == (
        "G. Kobayashi, T. Kuribayashi, S. Yokoi, K. Inui. Attention is Not Only a Weight: Analyzing "
        "Transformers with Vector Norms. Proceedings of EMNLP, 2020, pp. 7057–7075. arXiv:2004.10102.")


def test_a_statement_writes_its_symbols_as_math_not_ascii() -> None:
    ascii_math = re.compile(r"\b[A-Za-z]_\w|\^|√|ᵀ|[₀-₉]")
    outside = {c.id: INLINE_MATH.sub("", c.statement) for c in registry.claims()}
    assert {claim_id: text for claim_id, text in outside.items() if ascii_math.search(text)} == {}


def test_the_scope_of_the_explanation_debate_is_largely_recurrent_classifiers() -> None:
    assert "largely recurrent" in registry.claim("CL-017").statement


def test_derived_claims_name_what_they_rest_on() -> None:
    derived = [c for c in registry.claims() if c.kind == "derived"]
    assert derived and all(c.rests_on for c in derived)


def test_the_toy_claims_quote_the_toy_as_the_code_has_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    from attnlab import lab

    raw = {entry["id"]: entry["statement"] for entry in tomllib.loads(
        (ROOT / "attnlab/site/pages/data/claims.toml").read_text(encoding="utf-8"))["claim"]}
    assert "{toy:W_V}" in raw["LAB-001"] and "{toy:we002_query}" in raw["WE-002"]
    assert "$W_V$ = [[1, 0], [0, 2]]" in registry.claim("LAB-001").statement
    assert "one query $[\\sqrt{2}, 0]$ against keys [1, 0], [0, 1] and [1, 1]" in registry.claim("WE-002").statement
    monkeypatch.setattr(lab, "W_V", ((1.5, 0.0), (0.0, 2.0)))
    assert "$W_V$ = [[1.5, 0], [0, 2]]" in registry.filled(raw["LAB-001"], registry.toy_values())


def test_an_unknown_toy_name_in_a_statement_is_named() -> None:
    with pytest.raises(KeyError, match=r"unknown \{toy:W_X\}"):
        registry.filled("$W$ = {toy:W_X}", registry.toy_values())


# --- lookups --------------------------------------------------------------------------------


def test_claim_looks_up_by_id() -> None:
    assert registry.claim("CL-006").locator == "S1 §3.2.1, footnote 4"


def test_unknown_claim_id_raises_key_error_naming_it() -> None:
    with pytest.raises(KeyError, match="CL-099"):
        registry.claim("CL-099")


def test_unknown_source_id_raises_key_error_naming_it() -> None:
    with pytest.raises(KeyError, match="S99"):
        registry.source("S99")


def test_sources_of_a_derived_claim_come_through_what_it_rests_on() -> None:
    # CL-022 rests on CL-008, which rests on CL-001, a statement of S1.
    assert registry.rests_on_sources("CL-022") == ("S1",)


def test_the_explanation_debate_names_the_four_tests_of_wiegreffe_and_pinter() -> None:
    statement = registry.claim("CL-017").statement
    assert all(test in statement for test in ("uniform and frozen weights", "training seeds",
                                              "guide simpler models", "adversarially"))


def test_epsilon_is_the_implementations_choice_not_ba_et_al() -> None:
    assert "do not contain it" in registry.claim("CL-015").statement


def test_claim_with_two_sources_keeps_both_in_order() -> None:
    assert registry.rests_on_sources("CL-017") == ("S2", "S3")


def test_toy_claim_rests_on_no_source() -> None:
    assert registry.rests_on_sources("CL-018") == ()


def test_resting_on_lists_the_claims_of_a_source() -> None:
    assert [c.id for c in registry.resting_on("S6")] == ["CL-027"]


def test_reference_is_the_full_citation() -> None:
    assert registry.source("S2").reference() == (
        "S. Jain, B. C. Wallace. Attention is not Explanation. Proceedings of NAACL-HLT, 2019, "
        "pp. 3543–3556. arXiv:1902.10186.")


def test_source_link_is_the_arxiv_abstract_page() -> None:
    assert registry.source("S8").url == "https://arxiv.org/abs/2112.05682"


# --- the registry check -----------------------------------------------------------------------


def test_check_refuses_a_derived_claim_without_basis() -> None:
    bare = registry.Claim("CL-900", "derived", "x", "from nowhere")
    with pytest.raises(ValueError, match="CL-900 must name what it rests on"):
        registry._check([bare], registry.sources())


def test_check_refuses_duplicate_ids() -> None:
    twice = [registry.claim("CL-001"), registry.claim("CL-001")]
    with pytest.raises(ValueError, match="duplicate IDs \\['CL-001'\\]"):
        registry._check(twice, registry.sources())


def test_check_refuses_a_dangling_source() -> None:
    orphan = registry.Claim("CL-900", "source", "x", "S99 §1", sources=("S99",))
    with pytest.raises(ValueError, match="CL-900 cites unknown source S99"):
        registry._check([orphan], registry.sources())


def test_check_refuses_an_unknown_kind() -> None:
    odd = registry.Claim("CL-900", "rumour", "x", "somewhere")
    with pytest.raises(ValueError, match="kind 'rumour'"):
        registry._check([odd], registry.sources())


# --- published forms --------------------------------------------------------------------------


def test_bibtex_has_one_entry_per_source_key() -> None:
    keys = re.findall(r"^@\w+\{(\w+),$", registry.bibtex(), re.M)
    assert keys == [s.key for s in registry.sources()]


def test_bibtex_names_authors_family_name_first() -> None:
    assert "author = {Dao, T. and Fu, D. Y. and Ermon, S. and Rudra, A. and Ré, C.}" in registry.bibtex()


def test_bibtex_keeps_a_projects_name_whole_and_gives_a_url_without_arxiv_number() -> None:
    entry = registry.bibtex().split("@misc{sbert2021allminilm,")[1].split("\n}")[0]
    assert "author = {{sentence-transformers}}" in entry and "eprint" not in entry
    assert "url = {https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2}" in entry


def test_bibtex_writes_page_ranges_with_a_double_hyphen() -> None:
    assert "pages = {3543--3556}" in registry.bibtex()


def test_json_lists_every_claim_with_the_pages_citing_it() -> None:
    data = json.loads(registry.as_json({"CL-001": ["scores.html"]}))
    assert [c["id"] for c in data["claims"]] == IDS
    assert data["claims"][0]["cited_on"] == ["scores.html"]
    assert [s["id"] for s in data["sources"]] == [s.id for s in registry.sources()]


# --- citation syntax --------------------------------------------------------------------------


def test_citation_in_prose_is_found_with_its_line() -> None:
    assert list(citations.citations("Intro.\n\nScaled [[CL-005]].\n")) == [("CL-005", 3)]


def test_citations_in_code_are_ignored() -> None:
    markdown = "Use `[[CL-005]]` like this:\n\n```md\n[[CL-006]]\n```\n"
    assert list(citations.citations(markdown)) == []


def test_number_binding_is_not_a_citation() -> None:
    assert list(citations.citations("Weight [[0.576 = compute().weights[2]]].")) == []


def test_one_citation_may_name_several_ids() -> None:
    assert [i for i, _ in citations.citations("[[CL-001, CL-007]]")] == ["CL-001", "CL-007"]


@given(st.lists(st.sampled_from(IDS), min_size=1, max_size=6))
def test_every_written_citation_is_found_in_order(ids: list[str]) -> None:
    markdown = " and ".join(f"[[{claim_id}]]" for claim_id in ids)
    assert [i for i, _ in citations.citations(markdown)] == ids


def test_cite_links_to_the_claim_anchor_with_its_statement_as_title() -> None:
    statement = ("How well a query matches a key is measured by their dot product, "
                 "which is divided by √dₖ before the softmax.")
    assert citations.cite("CL-005", "scores.md") == (
        f'[CL-005](claims.md#cl-005 "{statement}"){{.attn-cite data-claim="CL-005"}}')


def test_cite_from_a_page_in_a_folder_climbs_to_the_claims_page() -> None:
    assert citations.cite("WE-002", "guide/example.md").startswith("[WE-002](../claims.md#we-002 ")


def test_a_citation_becomes_a_link_and_code_is_left_alone() -> None:
    out = citations.linked("See [[CL-005]] and `[[CL-005]]`.", "scores.md")
    assert out.startswith("See[CL-005](claims.md#cl-005 ") and out.endswith(" and `[[CL-005]]`.")


def test_a_citation_becomes_markers_without_the_spaces_before_it() -> None:
    out = citations.linked("Both hold\t [[CL-001, CL-007]].", "scores.md")
    assert out == "Both hold" + citations.cite("CL-001", "scores.md") + citations.cite("CL-007", "scores.md") + "."


def test_an_unknown_id_is_named_with_page_and_line() -> None:
    assert citations.unknown("Intro.\n\nSee [[CL-099]].\n", "docs/scores.md") == [
        "docs/scores.md:3: unknown claim ID CL-099 in [[CL-099]]"]


def test_the_line_of_an_unknown_id_counts_the_front_matter() -> None:
    assert citations.unknown("---\nliterals: [2]\n---\n\nSee [[CL-099]].\n", "docs/scores.md") == [
        "docs/scores.md:5: unknown claim ID CL-099 in [[CL-099]]"]


def test_build_fails_on_an_unknown_claim_id(tmp_path: Path) -> None:
    result = build(one_page_site(tmp_path, "# Home\n\nSee [[CL-999]].\n"), tmp_path / "site")
    assert result.returncode != 0
    assert "docs/index.md:3: unknown claim ID CL-999" in result.stderr


# --- the chapters ---------------------------------------------------------------------------


def test_every_id_cited_in_the_docs_is_registered() -> None:
    unknown = [f"docs/{page}:{line}: {claim_id}"
               for page, markdown in docs_pages(DOCS).items()
               for claim_id, line in citations.citations(markdown) if claim_id not in IDS]
    assert unknown == [], "unregistered claim IDs cited:\n" + "\n".join(unknown)


def test_every_registered_claim_is_cited_somewhere() -> None:
    cited = citations.cited_on(docs_pages(DOCS))
    uncited = [claim_id for claim_id in IDS if claim_id not in cited]
    assert uncited == [], f"registered but cited on no page: {', '.join(uncited)}"


def test_the_claims_page_promises_ids_for_what_the_guide_takes_from_others() -> None:
    promise = (DOCS / "claims.md").read_text(encoding="utf-8")
    assert "Every statement the guide takes from a published work, from the model's\nfiles or from a library's" \
        in promise


def test_the_real_model_facts_cite_the_models_files_and_bert() -> None:
    cited = {claim_id for claim_id, _ in citations.citations((DOCS / "real-model.md").read_text(encoding="utf-8"))}
    assert {"CL-031", "CL-032"} <= cited
    page = (DOCS / "real-model.md").read_text(encoding="utf-8")
    assert all(f"(sources.md#{s})" in page for s in ("s10", "s11", "s12"))
