"""MkDocs hook: claim citations, the Claims and Sources pages, claims.json and sources.bib.

In a chapter's prose ``[[CL-005]]`` (also ``[[LAB-001]]``, ``[[WE-002]]``,
or several IDs separated by commas) becomes a link to the claim on the
Claims page, with the claim's statement as its tooltip. Code is left alone,
and so are number bindings such as ``[[0.576 = expr]]``. An unknown ID
stops the build, naming the page, line and ID.

The Claims page (``claims.md``) and the Sources page (``sources.md``) are
written from the registry in ``attnlab.claims`` where their source holds the
marker line ``<!-- attnlab:claims -->`` or ``<!-- attnlab:sources -->``; the
pages that cite each claim come from a scan of every page's Markdown.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping
from html import escape
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from attnlab import claims as registry
from attnlab.site.markdown import chunks, line_of, sub_prose

ID = r"(?:CL|LAB|WE)-\d{3}"
CITATION = re.compile(rf"\[\[({ID}(?:\s*,\s*{ID})*)\]\]")
CLAIMS_PAGE = "claims.md"
SOURCES_PAGE = "sources.md"
CLAIMS_MARKER = "<!-- attnlab:claims -->"
SOURCES_MARKER = "<!-- attnlab:sources -->"
DOWNLOADS = ("claims.json", "sources.bib")

_cited_on: dict[str, list[str]] = {}
"""Claim ID → the pages citing it, filled by ``on_files`` for the current build."""
_titles: dict[str, str] = {}
"""Page path → its title in the navigation, filled by ``on_config``."""


def citations(markdown: str) -> Iterator[tuple[str, int]]:
    """Yield ``(claim ID, line)`` for every citation in the prose of a page."""
    for prose, offset, text in chunks(markdown):
        if prose:
            for match in CITATION.finditer(text):
                for claim_id in re.findall(ID, match.group(1)):
                    yield claim_id, line_of(markdown, offset + match.start())


def cited_on(pages: Mapping[str, str]) -> dict[str, list[str]]:
    """Map each cited ID to the sorted paths of the pages (path → Markdown) citing it."""
    found: dict[str, set[str]] = {}
    for path, markdown in pages.items():
        for claim_id, _ in citations(markdown):
            found.setdefault(claim_id, set()).add(path)
    return {claim_id: sorted(paths) for claim_id, paths in found.items()}


def docs_pages(docs: Path) -> dict[str, str]:
    """Every Markdown page under ``docs``, as relative POSIX path → text."""
    return {path.relative_to(docs).as_posix(): path.read_text(encoding="utf-8")
            for path in sorted(docs.rglob("*.md"))}


def _relative(target: str, page: str) -> str:
    """The link from ``page`` to ``target`` (both paths inside docs/)."""
    return posixpath.relpath(target, posixpath.dirname(page) or ".")


def _text(value: str) -> str:
    """Plain text made safe to place in Markdown (no emphasis, links or HTML)."""
    return re.sub(r"([\\`*_\[\]])", r"\\\1", escape(value, quote=False))


def cite(claim_id: str, page: str) -> str:
    """The Markdown link that a citation of ``claim_id`` on ``page`` becomes."""
    statement = registry.claim(claim_id).statement.replace('"', "'")
    target = _relative(CLAIMS_PAGE, page)
    return f'[{claim_id}]({target}#{claim_id.lower()} "{statement}"){{.attn-cite}}'


def _page_links(paths: list[str], page: str) -> str:
    """Comma-separated links to pages in reading order, labelled with their navigation titles."""
    order = list(_titles)
    ordered = sorted(paths, key=lambda p: (order.index(p) if p in order else len(order), p))
    return ", ".join(f"[{_text(_titles.get(p, p))}]({_relative(p, page)})" for p in ordered) or "not cited yet"


def claims_markdown(page: str = CLAIMS_PAGE) -> str:
    """The registry as Markdown: one section per claim with kind, locator, basis and citing pages."""
    sources_page = _relative(SOURCES_PAGE, page)
    parts = []
    for c in registry.claims():
        lines = [f"## {c.id} {{#{c.id.lower()}}}", "", _text(c.statement), "",
                 f"- **Kind:** {c.kind}", f"- **Locator:** {_text(c.locator)}"]
        if c.rests_on:
            lines.append("- **Rests on:** " + ", ".join(f"[{r}](#{r.lower()})" for r in c.rests_on))
        through = registry.rests_on_sources(c.id)
        if through:
            lines.append("- **Sources:** " + ", ".join(f"[{s}]({sources_page}#{s.lower()})" for s in through))
        lines.append(f"- **Cited on:** {_page_links(_cited_on.get(c.id, []), page)}")
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def sources_markdown(page: str = SOURCES_PAGE) -> str:
    """The sources as Markdown: full reference, link, and the claims resting on each."""
    claims_page = _relative(CLAIMS_PAGE, page)
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


def _nav_titles(nav: Any) -> Iterator[tuple[str, str]]:
    """Yield ``(path, title)`` for every page named in the ``nav`` setting."""
    for item in nav or []:
        if isinstance(item, dict):
            for title, value in item.items():
                if isinstance(value, str):
                    yield value, title
                else:
                    yield from _nav_titles(value)


def on_config(config: MkDocsConfig, **kwargs: Any) -> None:
    """Remember each page's navigation title for the "Cited on" lists."""
    _titles.clear()
    _titles.update(_nav_titles(config.nav))


def on_files(files: Files, config: MkDocsConfig, **kwargs: Any) -> Files:
    """Scan every page for citations and add claims.json and sources.bib to the site."""
    pages = {f.src_uri: f.content_string for f in files.documentation_pages()}
    _cited_on.clear()
    _cited_on.update(cited_on(pages))
    urls = {claim_id: [files.get_file_from_path(p).url for p in paths] for claim_id, paths in _cited_on.items()}
    for name, content in zip(DOWNLOADS, (registry.as_json(urls), registry.bibtex())):
        files.append(File.generated(config, name, content=content))
    return files


def on_page_markdown(markdown: str, page: Page, **kwargs: Any) -> str:
    """Turn citations into links, and fill in the Claims and Sources pages.

    IDs are checked in the page's source file, so a line number counts the
    front matter as an author's editor does.
    """
    path = page.file.src_uri
    known = {c.id for c in registry.claims()}
    for claim_id, line in citations(page.file.content_string):
        if claim_id not in known:
            raise PluginError(f"{path}:{line}: unknown claim ID {claim_id} in [[{claim_id}]]")

    def replace(match: re.Match[str]) -> str:
        return ", ".join(cite(claim_id, path) for claim_id in re.findall(ID, match.group(1)))

    markdown = sub_prose(CITATION, replace, markdown)
    for name, marker, generate in ((CLAIMS_PAGE, CLAIMS_MARKER, claims_markdown),
                                   (SOURCES_PAGE, SOURCES_MARKER, sources_markdown)):
        if path == name:
            if marker not in markdown:
                raise PluginError(f"{path}: the marker line {marker} is missing")
            markdown = markdown.replace(marker, generate(path))
    return markdown
