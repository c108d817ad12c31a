"""The claims and sources registry, complete against the brief (``ATTNLAB_SHARED``; skipped without it unless
``ATTNLAB_REQUIRE_BRIEF=1``, as CI sets), and citations in the chapters."""

from __future__ import annotations

import json
import os
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sites import DOCS, ROOT

from attnlab import lab
from attnlab.site.pages import claims as registry
from attnlab.site.pages.guide import docs_pages
from attnlab.site.pages.mathml import INLINE_MATH

SHARED = Path(os.environ.get("ATTNLAB_SHARED", ROOT.parent / "shared"))
BRIEFS = (SHARED / "BRIEF.md", SHARED / "BRIEF-2.md", SHARED / "BRIEF-3.md")
"""The brief and its later editions, in the order their rows apply: a later row replaces an earlier one."""
REQUIRE_BRIEF = "ATTNLAB_REQUIRE_BRIEF"
IDS = [c.id for c in registry.claims()]
GUIDE_CLAIMS = {"LAB-001", "WE-002", "CL-030", "CL-052", "CL-053"}
"""Claims the guide registers beyond the brief's tables: its two worked examples, the norm-based view of attention
(S9) that the explorer of the real model uses, and the small decoder's own facts (measured, as BRIEF-3 asks)."""
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


def from_briefs(rows: re.Pattern[str], briefs: tuple[Path, ...] = BRIEFS) -> dict[str, tuple[str, ...]]:
    """ID → the other groups of each match of ``rows`` in the briefs (claims or sources), a later file's row
    replacing an earlier one."""
    found: dict[str, tuple[str, ...]] = {}
    for path in briefs:
        matches = rows.findall(brief(path))
        assert matches, f"no {rows.pattern} rows found in {path}"
        found.update((entry_id, tuple(rest)) for entry_id, *rest in matches)
    return found


def test_a_missing_brief_is_a_skip_in_a_plain_clone_and_an_error_where_it_is_required(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(REQUIRE_BRIEF, raising=False)
    with pytest.raises(pytest.skip.Exception, match="the registry's cross-check against it runs where it is"):
        brief(tmp_path / "BRIEF.md")
    (tmp_path / "BRIEF.md").write_text("| CL-001 | source | x | S1 §3.2.1, eq. (1) |\n", encoding="utf-8")
    monkeypatch.setenv(REQUIRE_BRIEF, "1")
    with pytest.raises(pytest.fail.Exception, match=r"BRIEF-2.md .*ATTNLAB_REQUIRE_BRIEF=1 requires it"):
        from_briefs(CLAIM_ROW, (tmp_path / "BRIEF.md", tmp_path / "BRIEF-2.md"))
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"export {REQUIRE_BRIEF}=1" in ci and ci.index(REQUIRE_BRIEF) < ci.index("make test")


def test_the_registry_holds_exactly_the_briefs_claims_and_sources_plus_the_guides_own_claims() -> None:
    expected = {i: (kind, VERIFY.sub("", locator)) for i, (kind, locator) in from_briefs(CLAIM_ROW).items()}
    assert {c.id: (c.kind, c.locator) for c in registry.claims() if c.id in expected} == expected
    assert set(IDS) == set(expected) | GUIDE_CLAIMS and GUIDE_CLAIMS.isdisjoint(expected)
    assert {s.id: s.arxiv or s.url for s in registry.sources()} == {source_id: (re.search(
        r"arXiv:(\d{4}\.\d{4,5})", text) or re.search(r"(https?://\S+[^\s.])", text)).group(1)
        for source_id, (text,) in from_briefs(SOURCE_ITEM).items()}


def test_every_measured_claim_names_a_test_file_that_exists_and_names_the_claim() -> None:
    measured = [c for c in registry.claims() if c.kind == "measured"]
    assert {c.id for c in measured} == {"CL-031", "CL-040", "CL-051", "CL-052", "CL-053"}
    for c in measured:
        for path in c.checked_by:
            assert c.id in (ROOT / path).read_text(encoding="utf-8"), f"{path} does not say it checks {c.id}"


def test_check_refuses_a_registry_that_is_not_whole() -> None:
    bare = registry.Source("S99", "x2020", "misc", ("A. B",), "T", "V", 2020)
    for found_claims, found_sources, message in [
        ([], [bare], "source S99 needs an arXiv number or, lacking one, an address"),
        ([registry.Claim("CL-900", "measured", "x", "tool 1.0")], registry.sources(), "CL-900 is measured"),
        ([registry.Claim("CL-900", "toy", "x", "here", checked_by=("t.py",))], registry.sources(), "CL-900 is toy"),
        ([registry.Claim("CL-900", "derived", "x", "from nowhere")], registry.sources(), "CL-900 must name what it"),
        ([registry.Claim("CL-900", "source", "x", "S1")], registry.sources(), "CL-900 must name its sources"),
        ([registry.claim("CL-001")] * 2, registry.sources(), r"duplicate IDs \['CL-001'\]"),
        ([registry.Claim("CL-900", "source", "x", "S99", sources=("S99",))], registry.sources(), "unknown source S99"),
        ([registry.Claim("CL-900", "derived", "x", "y", rests_on=("CL-999",))], [], "unknown claim CL-999"),
        ([registry.Claim("CL-900", "rumour", "x", "somewhere")], registry.sources(), "kind 'rumour'"),
    ]:
        with pytest.raises(ValueError, match=message):
            registry._check(found_claims, found_sources)


def test_statements_say_what_their_sources_say_with_their_symbols_as_math_not_ascii() -> None:
    ascii_math = re.compile(r"\b[A-Za-z]_\w|\^|√|ᵀ|[₀-₉]")
    outside = {c.id: INLINE_MATH.sub("", c.statement) for c in registry.claims()}
    assert {claim_id: text for claim_id, text in outside.items() if ascii_math.search(text)} == {}
    cl017 = registry.claim("CL-017").statement
    assert "largely recurrent" in cl017 and all(test in cl017 for test in (
        "uniform and frozen weights", "training seeds", "guide simpler models", "adversarially"))
    assert "do not contain it" in registry.claim("CL-015").statement


def test_the_toy_claims_quote_the_toy_as_the_code_has_it(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = {entry["id"]: entry["statement"] for entry in tomllib.loads(
        (ROOT / "attnlab/site/pages/data/claims.toml").read_text(encoding="utf-8"))["claim"]}
    assert "{toy:W_V}" in raw["LAB-001"] and "{toy:we002_query}" in raw["WE-002"]
    assert "$W_V$ = [[1, 0], [0, 2]]" in registry.claim("LAB-001").statement
    assert "one query $[\\sqrt{2}, 0]$ against keys [1, 0], [0, 1] and [1, 1]" in registry.claim("WE-002").statement
    monkeypatch.setattr(lab, "W_V", ((1.5, 0.0), (0.0, 2.0)))
    assert "$W_V$ = [[1.5, 0], [0, 2]]" in registry.filled(raw["LAB-001"], registry.toy_values())
    with pytest.raises(KeyError, match=r"unknown \{toy:W_X\}"):
        registry.filled("$W$ = {toy:W_X}", registry.toy_values())


def test_lookups_by_id_and_the_sources_a_claim_rests_on() -> None:
    assert registry.claim("CL-006").locator == "S1 §3.2.1, footnote 4"
    for lookup, unknown in ((registry.claim, "CL-099"), (registry.source, "S99")):
        with pytest.raises(KeyError, match=unknown):
            lookup(unknown)
    assert registry.rests_on_sources("CL-022") == ("S1",)  # through CL-008, which rests on CL-001, of S1
    assert registry.rests_on_sources("CL-017") == ("S2", "S3") and registry.rests_on_sources("CL-018") == ()
    assert [c.id for c in registry.resting_on("S6")] == ["CL-027"]
    cl030 = registry.claim("CL-030")
    assert (cl030.kind, cl030.sources, cl030.locator) == ("source", ("S9",), "S9 §2.2, §3; §4")
    assert registry.source("S9").reference() == (  # a source's full reference and its arXiv page
        "G. Kobayashi, T. Kuribayashi, S. Yokoi, K. Inui. Attention is Not Only a Weight: Analyzing "
        "Transformers with Vector Norms. Proceedings of EMNLP, 2020, pp. 7057–7075. arXiv:2004.10102.")
    assert registry.source("S8").url == "https://arxiv.org/abs/2112.05682"


def test_bibtex_has_an_entry_per_source_with_names_family_first_and_double_hyphened_pages() -> None:
    bib = registry.bibtex()
    assert re.findall(r"^@\w+\{(\w+),$", bib, re.M) == [s.key for s in registry.sources()]
    assert "author = {Dao, T. and Fu, D. Y. and Ermon, S. and Rudra, A. and Ré, C.}" in bib
    assert "pages = {3543--3556}" in bib
    entry = bib.split("@misc{sbert2021allminilm,")[1].split("\n}")[0]
    assert "author = {{sentence-transformers}}" in entry and "eprint" not in entry
    assert "url = {https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2}" in entry


def test_json_lists_every_claim_with_the_pages_citing_it() -> None:
    data = json.loads(registry.as_json({"CL-001": ["scores.html"]}))
    assert [c["id"] for c in data["claims"]] == IDS
    assert data["claims"][0]["cited_on"] == ["scores.html"]
    assert [s["id"] for s in data["sources"]] == [s.id for s in registry.sources()]


@given(st.lists(st.sampled_from(IDS), min_size=1, max_size=6), st.booleans())
def test_every_citation_in_prose_is_found_in_order_with_its_line_and_none_in_code(ids: list[str], together: bool,
                                                                                 ) -> None:
    markdown = f"[[{', '.join(ids)}]]" if together else " and ".join(f"[[{claim_id}]]" for claim_id in ids)
    assert list(registry.citations(f"Intro.\n\n{markdown}")) == [(claim_id, 3) for claim_id in ids]
    assert list(registry.citations(f"Use `{markdown}`:\n\n```md\n{markdown}\n```\n[[0.5 = 1 / 2]]")) == []


def test_a_citation_becomes_markers_linking_the_claims_with_their_statements_without_the_spaces_before_it() -> None:
    statement = ("How well a query matches a key is measured by their dot product, "
                 "which is divided by √dₖ before the softmax.")
    assert registry.cite("CL-005", "scores.md") == (
        f'[CL-005](claims.md#cl-005 "{statement}"){{.attn-cite data-claim="CL-005"}}')
    assert registry.cite("WE-002", "guide/example.md").startswith("[WE-002](../claims.md#we-002 ")
    out = registry.linked("See [[CL-005]] and `[[CL-005]]`.", "scores.md")
    assert out.startswith("See[CL-005](claims.md#cl-005 ") and out.endswith(" and `[[CL-005]]`.")
    out = registry.linked("Both hold\t [[CL-001, CL-007]].", "scores.md")
    assert out == "Both hold" + registry.cite("CL-001", "scores.md") + registry.cite("CL-007", "scores.md") + "."
    out = registry.linked('??? success "Answer"\n\n    They agree\n    [[CL-028]].\n', "cost.md")
    assert out == '??? success "Answer"\n\n    They agree\n    ' + registry.cite("CL-028", "cost.md") + ".\n"


def test_every_id_cited_in_the_docs_is_registered_and_every_registered_claim_is_cited() -> None:
    pages = docs_pages(DOCS)
    unknown = [f"docs/{page}:{line}: {claim_id}" for page, markdown in pages.items()
               for claim_id, line in registry.citations(markdown) if claim_id not in IDS]
    assert unknown == [], "unregistered claim IDs cited:\n" + "\n".join(unknown)
    cited = registry.cited_on(pages)
    assert [claim_id for claim_id in IDS if claim_id not in cited] == [], "registered but cited on no page"


def test_the_claims_page_promises_ids_and_the_real_model_cites_the_models_files_and_bert() -> None:
    promise = (DOCS / "claims.md").read_text(encoding="utf-8")
    assert "Every statement the guide takes from a published work, from the model's\nfiles or from a library's" \
        in promise
    page = (DOCS / "real-model.md").read_text(encoding="utf-8")
    assert {"CL-031", "CL-032"} <= {claim_id for claim_id, _ in registry.citations(page)}
    assert all(f"(sources.md#{s})" in page for s in ("s10", "s11", "s12"))
