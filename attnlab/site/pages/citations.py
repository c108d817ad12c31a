"""Claim citations in prose, ``[[CL-005]]`` or ``[[CL-001, CL-007]]``, become superscript links to the Claims page
(the statement as tooltip); the Claims and Sources pages are written from :mod:`~.claims` at their marker lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from html import escape

from attnlab.site.pages import claims as registry
from attnlab.site.pages.mathml import INLINE_MATH, plain_statement
from attnlab.site.pages.source import at_marker, chunks, line_of, relative, sub_prose

ID = r"(?:CL|LAB|WE)-\d{3}"
CITATION = re.compile(rf"(?<!\\)\[\[({ID}(?:\s*,\s*{ID})*)\]\]")
"""Not after a backslash, which would leave link Markdown on the page."""
MARKED = re.compile(rf"(?:(?<=\S)[ \t]+)?{CITATION.pattern}")
"""A citation with the spaces before it, which its superscript marker does without (a line's indent stays)."""
CLAIMS_PAGE = "claims.md"
SOURCES_PAGE = "sources.md"
CLAIMS_MARKER = "<!-- attnlab:claims -->"
SOURCES_MARKER = "<!-- attnlab:sources -->"


def citations(markdown: str) -> Iterator[tuple[str, int]]:
    """Yield ``(claim ID, line)`` for every citation in the prose of a page."""
    for prose, offset, text in chunks(markdown):
        if prose:
            for match in CITATION.finditer(text):
                for claim_id in re.findall(ID, match.group(1)):
                    yield claim_id, line_of(markdown, offset + match.start())


def unknown(markdown: str, page: str) -> list[str]:
    """One message per citation in ``page`` of an ID the registry does not hold."""
    known = {c.id for c in registry.claims()}
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


def _statement(value: str) -> str:
    """A claim's statement for a page: its ``$…$`` formulas kept for the math pass, the rest as :func:`_text`."""
    parts = INLINE_MATH.split(value)  # text, formula, text, … (the group keeps each formula)
    return "".join(f"${part}$" if i % 2 else _text(part) for i, part in enumerate(parts))


def cite(claim_id: str, page: str) -> str:
    """The Markdown link that a citation of ``claim_id`` on ``page`` becomes."""
    statement = plain_statement(registry.claim(claim_id).statement).replace('"', "'")
    target = relative(CLAIMS_PAGE, page)
    return f'[{claim_id}]({target}#{claim_id.lower()} "{statement}"){{.attn-cite data-claim="{claim_id}"}}'


def linked(markdown: str, page: str) -> str:
    """``markdown`` with every citation in prose replaced by links to its claims (superscript markers)."""
    def replace(match: re.Match[str]) -> str:
        return "".join(cite(claim_id, page) for claim_id in re.findall(ID, match.group(1)))

    return sub_prose(MARKED, replace, markdown)


def _page_links(paths: Sequence[str], page: str, titles: Mapping[str, str]) -> str:
    """Comma-separated links to pages in reading order, labelled with their navigation titles."""
    order = list(titles)
    ordered = sorted(paths, key=lambda p: (order.index(p) if p in order else len(order), p))
    return ", ".join(f"[{_text(titles.get(p, p))}]({relative(p, page)})" for p in ordered) or "not cited yet"


def claims_markdown(cited: Mapping[str, Sequence[str]], titles: Mapping[str, str],
                    page: str = CLAIMS_PAGE) -> str:
    """The Claims page's listing: a section per claim with kind, locator, basis and citing pages."""
    sources_page = relative(SOURCES_PAGE, page)
    parts = []
    for c in registry.claims():
        lines = [f"## {c.id} {{#{c.id.lower()}}}", "", _statement(c.statement), "",
                 f"- **Kind:** {c.kind}", f"- **Locator:** {_text(c.locator)}"]
        if c.rests_on:
            lines.append("- **Rests on:** " + ", ".join(f"[{r}](#{r.lower()})" for r in c.rests_on))
        if c.checked_by:
            lines.append("- **Re-checked by:** " + ", ".join(f"`{path}`" for path in c.checked_by)
                         + ", in the test suite")
        through = registry.rests_on_sources(c.id)
        if through:
            lines.append("- **Sources:** " + ", ".join(f"[{s}]({sources_page}#{s.lower()})" for s in through))
        lines.append(f"- **Cited on:** {_page_links(cited.get(c.id, []), page, titles)}")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def sources_markdown(page: str = SOURCES_PAGE) -> str:
    """The Sources page's listing: each source's reference, link and the claims resting on it."""
    claims_page = relative(CLAIMS_PAGE, page)
    parts = []
    for s in registry.sources():
        resting = ", ".join(f"[{c.id}]({claims_page}#{c.id.lower()})" for c in registry.resting_on(s.id))
        parts.append("\n".join([
            f"## {s.id}: {_text(s.title)} {{#{s.id.lower()}}}", "",
            _text(s.reference()), "",
            f"- **Link:** <{s.url}>",
            f"- **BibTeX key:** `{s.key}`",
            f"- **Claims resting on it:** {resting or 'none'}",
        ]))
    return "\n\n".join(parts) + "\n"


def registry_page(markdown: str, page: str, pages: Mapping[str, str], titles: Mapping[str, str]) -> str:
    """``markdown`` with the Claims or Sources listing written in at its marker line."""
    if page == CLAIMS_PAGE:
        return at_marker(markdown, page, CLAIMS_MARKER, lambda: claims_markdown(cited_on(pages), titles, page))
    if page == SOURCES_PAGE:
        return at_marker(markdown, page, SOURCES_MARKER, lambda: sources_markdown(page))
    return markdown
