"""The claims and sources registry (``data/claims.toml``): what the guide asserts, and on whose authority;
published as ``claims.json`` and ``sources.bib``. A citation in prose, ``[[CL-005]]`` or ``[[CL-001, CL-007]]``,
becomes a superscript link to the Claims page (the statement as tooltip); the Claims and Sources pages are written
from the registry at their marker lines."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from html import escape
from importlib.resources import files
from typing import TypeVar

from attnlab import examples, lab
from attnlab.site.pages.mathml import plain_statement, with_math
from attnlab.site.pages.source import at_marker, chunks, line_of, relative, sub_prose
from attnlab.text import given_vector

KINDS: tuple[str, ...] = ("source", "derived", "toy", "measured")
"""A source says it; a derived claim follows by algebra; a toy claim is this guide's stipulation; a measured claim
is what named software or files at a named version do (its locator names them, ``checked_by`` the tests)."""


@dataclass(frozen=True)
class Source:
    """One published work the claims rest on."""

    id: str
    key: str
    entry: str
    authors: tuple[str, ...]
    title: str
    venue: str
    year: int
    arxiv: str = ""
    pages: str = ""
    address: str = ""
    """The URL of a work without an arXiv number (a repository, a model card)."""

    @property
    def url(self) -> str:
        """The arXiv abstract page, or the address of a work that has no arXiv number."""
        return f"https://arxiv.org/abs/{self.arxiv}" if self.arxiv else self.address

    def reference(self) -> str:
        """The full reference as one line of plain text."""
        pages = f", pp. {self.pages}" if self.pages else ""
        where = f"arXiv:{self.arxiv}" if self.arxiv else self.address
        return f"{', '.join(self.authors)}. {self.title}. {self.venue}, {self.year}{pages}. {where}."


@dataclass(frozen=True)
class Claim:
    """One statement of the guide, with where it comes from."""

    id: str
    kind: str
    statement: str
    locator: str
    sources: tuple[str, ...] = ()
    rests_on: tuple[str, ...] = ()
    checked_by: tuple[str, ...] = ()
    """For a measured claim, the test files that re-check it."""


Entry = TypeVar("Entry", Claim, Source)
TOY = re.compile(r"\{toy:(\w+)\}")
"""``{toy:W_V}`` in a statement: a constant of the toy, written from the code (:func:`toy_values`)."""
ROOT = re.compile(r"√([0-9]+)")


def _given(rows: Sequence[Sequence[float]] | Sequence[float], *, nested: bool = False) -> str:
    """Inputs as typed, roots as math."""
    if nested:
        text = "[" + ", ".join(str(given_vector(row)) for row in rows) + "]"
    elif isinstance(rows[0], Sequence):
        *first, last = (str(given_vector(row)) for row in rows)
        text = f"{', '.join(first)} and {last}"
    else:
        text = str(given_vector(rows))
    return "$" + ROOT.sub(r"\\sqrt{\1}", text) + "$" if "√" in text else text


def toy_values() -> dict[str, str]:
    """What a statement's ``{toy:NAME}`` stands for, from the toy's constants as they are now."""
    *first, last = lab.TOKENS
    return {"tokens": f"{', '.join(first)} and {last}", "states": _given(lab.X),
            "W_Q": _given(lab.W_Q, nested=True), "W_K": _given(lab.W_K, nested=True),
            "W_V": _given(lab.W_V, nested=True), "root_d_k": "$\\sqrt{" + str(len(lab.W_K[0])) + "}$",
            "we002_query": _given(examples.WE002_QUERY), "we002_keys": _given(examples.WE002_KEYS),
            "we002_values": _given(examples.WE002_VALUES)}


def filled(statement: str, values: Mapping[str, str]) -> str:
    """``statement`` with each ``{toy:NAME}`` written out; ``KeyError`` naming an unknown NAME."""
    for name in TOY.findall(statement):
        if name not in values:
            raise KeyError(f"claims.toml: unknown {{toy:{name}}}; known names: {', '.join(values)}")
    return TOY.sub(lambda match: values[match[1]], statement)


@cache
def _registry() -> tuple[tuple[Claim, ...], tuple[Source, ...]]:
    """The registry, read and checked once."""
    data = tomllib.loads(files("attnlab.site.pages").joinpath("data/claims.toml").read_text(encoding="utf-8"))
    found_sources = tuple(Source(**{**entry, "authors": tuple(entry["authors"])}) for entry in data["source"])
    toy, lists = toy_values(), ("sources", "rests_on", "checked_by")
    found_claims = tuple(Claim(**{**entry, "statement": filled(entry["statement"], toy),
                                  **{key: tuple(entry.get(key, ())) for key in lists}}) for entry in data["claim"])
    _check(found_claims, found_sources)
    return found_claims, found_sources


def _check(found_claims: Sequence[Claim], found_sources: Sequence[Source]) -> None:
    """Refuse a registry with duplicate IDs, unknown kinds or dangling references."""
    claim_ids, source_ids = [c.id for c in found_claims], [s.id for s in found_sources]
    problems = [f"duplicate IDs {sorted({i for i in ids if ids.count(i) > 1})}" for ids in (claim_ids, source_ids)
                if len(set(ids)) < len(ids)]
    problems += [f"source {s.id} needs an arXiv number or, lacking one, an address"
                 for s in found_sources if bool(s.arxiv) == bool(s.address)]
    for c in found_claims:
        problems += [message for wrong, message in [
            (c.kind not in KINDS, f"{c.id} has kind {c.kind!r}, expected one of {KINDS}"),
            (c.kind == "derived" and not c.rests_on, f"derived claim {c.id} must name what it rests on"),
            (c.kind == "source" and not c.sources, f"source claim {c.id} must name its sources"),
            ((c.kind == "measured") != bool(c.checked_by), f"{c.id} is {c.kind}: a measured claim, and only a "
             "measured claim, names the tests that re-check it (checked_by)"),
            *((ref not in claim_ids, f"{c.id} rests on unknown claim {ref}") for ref in c.rests_on),
            *((ref not in source_ids, f"{c.id} cites unknown source {ref}") for ref in c.sources)] if wrong]
    if problems:
        raise ValueError(f"claims.toml: {problems[0]}")


def claims() -> tuple[Claim, ...]:
    """Every registered claim, in registry order."""
    return _registry()[0]


def sources() -> tuple[Source, ...]:
    """Every registered source, in registry order."""
    return _registry()[1]


def claim(claim_id: str) -> Claim:
    """The claim with ID ``claim_id``; ``KeyError`` naming it if none is registered."""
    return _by_id(claims(), claim_id, "claim")


def source(source_id: str) -> Source:
    """The source with ID ``source_id``; ``KeyError`` naming it if none is registered."""
    return _by_id(sources(), source_id, "source")


def _by_id(registered: Sequence[Entry], wanted: str, what: str) -> Entry:
    """The entry of ``registered`` with ID ``wanted``; ``KeyError`` naming the registered IDs if none."""
    found = {entry.id: entry for entry in registered}
    if wanted not in found:
        raise KeyError(f"unknown {what} ID {wanted!r}; registered IDs are {', '.join(found)}")
    return found[wanted]


def rests_on_sources(claim_id: str) -> tuple[str, ...]:
    """The sources a claim rests on, directly or through the claims it is derived from, in registry order."""
    found, pending, seen = set[str](), [claim_id], set[str]()
    while pending:
        current = claim(pending.pop())
        if current.id not in seen:
            seen.add(current.id)
            found.update(current.sources)
            pending += current.rests_on
    return tuple(s.id for s in sources() if s.id in found)


def resting_on(source_id: str) -> tuple[Claim, ...]:
    """The claims that rest on a source, directly or through a claim they derive from."""
    source(source_id)
    return tuple(c for c in claims() if source_id in rests_on_sources(c.id))


def _bib_name(author: str) -> str:
    """``"A. N. Gomez"`` becomes ``"Gomez, A. N."``; a name without initials (a project) is kept whole, braced."""
    given, _, family = author.rpartition(" ")
    return f"{family}, {given}" if given.endswith(".") else f"{{{author}}}"


def bibtex() -> str:
    """Every source as a BibTeX entry (UTF-8; venue as booktitle, arXiv as eprint)."""
    entries = []
    for s in sources():
        fields = {"author": " and ".join(_bib_name(a) for a in s.authors), "title": f"{{{s.title}}}",
                  "booktitle" if s.entry == "inproceedings" else "howpublished": s.venue, "year": str(s.year),
                  "pages": s.pages.replace("–", "--"), "eprint": s.arxiv, "archivePrefix": "arXiv" if s.arxiv else "",
                  "url": s.url}
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields.items() if value)
        entries.append(f"@{s.entry}{{{s.key},\n{body}\n}}\n")
    return "\n".join(entries)


def as_json(pages: Mapping[str, Sequence[str]]) -> str:
    """The registry as JSON; ``pages`` maps a claim ID to the pages that cite it."""
    payload = {"claims": [{"id": c.id, "kind": c.kind, "statement": plain_statement(c.statement), "locator": c.locator,
                           "sources": list(rests_on_sources(c.id)), "rests_on": list(c.rests_on),
                           "checked_by": list(c.checked_by), "cited_on": list(pages.get(c.id, ()))} for c in claims()],
               "sources": [{"id": s.id, "key": s.key, "reference": s.reference(), "url": s.url} for s in sources()]}
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


ID = r"(?:CL|LAB|WE)-\d{3}"
CITATION = re.compile(rf"(?<!\\)\[\[({ID}(?:\s*,\s*{ID})*)\]\]")
"""A citation, not after a backslash (which would leave link Markdown on the page)."""
MARKED = re.compile(rf"(?:(?<=\S)[ \t]+)?{CITATION.pattern}")
"""A citation with the spaces before it, which its superscript marker does without (a line's indent stays)."""
CLAIMS_PAGE = "claims.md"
SOURCES_PAGE = "sources.md"


def citations(markdown: str) -> Iterator[tuple[str, int]]:
    """Yield ``(claim ID, line)`` for every citation in the prose of a page."""
    for prose, offset, text in chunks(markdown):
        if prose:
            for match in CITATION.finditer(text):
                for claim_id in re.findall(ID, match.group(1)):
                    yield claim_id, line_of(markdown, offset + match.start())


def unknown(markdown: str, page: str) -> list[str]:
    """One message per citation in ``page`` of an ID the registry does not hold."""
    known = {c.id for c in claims()}
    return [f"{page}:{line}: unknown claim ID {claim_id} in [[{claim_id}]]"
            for claim_id, line in citations(markdown) if claim_id not in known]


def cited_on(pages: Mapping[str, str]) -> dict[str, list[str]]:
    """Map each cited ID to the sorted paths of the pages (path → Markdown) citing it."""
    found: dict[str, set[str]] = {}
    for path, markdown in pages.items():
        for claim_id, _ in citations(markdown):
            found.setdefault(claim_id, set()).add(path)
    return {claim_id: sorted(paths) for claim_id, paths in found.items()}


def _text(value: str) -> str:
    """Plain text made safe to place in Markdown (no emphasis, links or HTML)."""
    return re.sub(r"([\\`*_\[\]])", r"\\\1", escape(value, quote=False))


def cite(claim_id: str, page: str) -> str:
    """The Markdown link that a citation of ``claim_id`` on ``page`` becomes."""
    statement = plain_statement(claim(claim_id).statement).replace('"', "'")
    target = relative(CLAIMS_PAGE, page)
    return f'[{claim_id}]({target}#{claim_id.lower()} "{statement}"){{.attn-cite data-claim="{claim_id}"}}'


def linked(markdown: str, page: str) -> str:
    """``markdown`` with every citation in prose replaced by links to its claims (superscript markers)."""
    def replace(match: re.Match[str]) -> str:
        return "".join(cite(claim_id, page) for claim_id in re.findall(ID, match.group(1)))

    return sub_prose(MARKED, replace, markdown)


def claims_markdown(cited: Mapping[str, Sequence[str]], titles: Mapping[str, str]) -> str:
    """The Claims page's listing: a section per claim with kind, locator, basis and citing pages."""
    sources_page, order = relative(SOURCES_PAGE, CLAIMS_PAGE), list(titles)
    parts = []
    for c in claims():
        citing = sorted(cited.get(c.id, []), key=lambda p: (order.index(p) if p in order else len(order), p))
        listed = {"Rests on": ", ".join(f"[{r}](#{r.lower()})" for r in c.rests_on),  # an empty entry is left out
                  "Re-checked by": ", ".join(f"`{path}`" for path in c.checked_by) + ", in the test suite"
                  if c.checked_by else "",
                  "Sources": ", ".join(f"[{s}]({sources_page}#{s.lower()})" for s in rests_on_sources(c.id)),
                  "Cited on": ", ".join(f"[{_text(titles.get(p, p))}]({relative(p, CLAIMS_PAGE)})" for p in citing)
                  or "not cited yet"}
        statement = with_math(c.statement, lambda latex: f"${latex}$", _text)  # formulas kept for the math pass
        parts.append("\n".join([f"## {c.id} {{#{c.id.lower()}}}", "", statement, "",
                                f"- **Kind:** {c.kind}", f"- **Locator:** {_text(c.locator)}",
                                *(f"- **{label}:** {text}" for label, text in listed.items() if text)]))
    return "\n\n".join(parts) + "\n"


def sources_markdown() -> str:
    """The Sources page's listing: each source's reference, link and the claims resting on it."""
    claims_page = relative(CLAIMS_PAGE, SOURCES_PAGE)
    parts = []
    for s in sources():
        resting = ", ".join(f"[{c.id}]({claims_page}#{c.id.lower()})" for c in resting_on(s.id))
        parts.append(f"## {s.id}: {_text(s.title)} {{#{s.id.lower()}}}\n\n{_text(s.reference())}\n\n- **Link:** "
                     f"<{s.url}>\n- **BibTeX key:** `{s.key}`\n- **Claims resting on it:** {resting or 'none'}")
    return "\n\n".join(parts) + "\n"


def registry_page(markdown: str, page: str, pages: Mapping[str, str], titles: Mapping[str, str]) -> str:
    """``markdown`` with the Claims or Sources listing written in at its marker line."""
    if page not in (CLAIMS_PAGE, SOURCES_PAGE):
        return markdown
    return at_marker(markdown, page, f"<!-- attnlab:{page.removesuffix('.md')} -->", lambda: claims_markdown(
        cited_on(pages), titles) if page == CLAIMS_PAGE else sources_markdown())
