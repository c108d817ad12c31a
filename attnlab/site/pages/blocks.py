"""The guide's executed code blocks: :func:`formatter` (SuperFences' formatter in ``mkdocs.yml``) runs them with
markdown-exec under three rules: lines from ``#| hide`` to ``#| show`` run unseen; a block can neither end nor
hang the build (:mod:`~.guard`); what it prints holds numbers only (:mod:`~.output`).
Each block's id is its place, ``docs/page.md:LINE`` (:func:`placed_blocks`); its HTML sits in
``<div class="attnlab-block" id="block-LINE">`` (:func:`anchored`).
"""

from __future__ import annotations

import re
from typing import Any
from uuid import uuid4

import markdown_exec
from markdown import Markdown
from markupsafe import Markup

from attnlab.site.pages import output
from attnlab.site.pages.guard import PageError, guarded

EXEC_FENCE = re.compile(r"^(?P<head>[ \t]*(?:`{3,}|~{3,})[ \t]*[\w-]+\b[^\n`]*\bexec=[^\n]*?)[ \t]*$", re.M)
HIDE, SHOW = "#| hide", "#| show"
BLOCK_CLASS = "attnlab-block"
PLUGIN_MISSING = ("mkdocs.yml: a code block reached the guide's formatter without its place (docs/page.md:LINE): "
                  "list the guide's plugin under plugins: (- attnlab), which checks each page and places its blocks")
"""Why a block without a place stops the build: without the plugin, pages would ship unchecked, citations raw."""
COMPOSED = ("python", "py")
"""Languages whose shown source this module places and a notebook shows as a cell (pycon: a console session)."""


def placed_blocks(markdown: str, page: str, prefix: str = "") -> str:
    """``markdown`` with ``id="docs/page.md:LINE"`` (markdown-exec names a failing block by it) on each executed
    block without an id, its HTML ids prefixed ``{prefix}block-LINE-`` (``prefix`` for a block shown elsewhere)."""
    def place(match: re.Match[str]) -> str:
        head = match.group("head")
        if re.search(r"\bid=", head):
            return match.group(0)
        line = markdown.count("\n", 0, match.start()) + 1
        return f'{head} id="{page}:{line}" idprefix="{prefix}block-{line}-"'

    return EXEC_FENCE.sub(place, markdown)


def shown_part(source: str) -> str:
    """The lines of ``source`` a reader sees: everything outside ``#| hide`` … ``#| show``, markers dropped."""
    shown, hidden = [], False
    for line in source.split("\n"):
        marker = line.strip()
        if marker in (HIDE, SHOW):
            hidden = marker == HIDE
        elif not hidden:
            shown.append(line)
    return "\n".join(shown).rstrip("\n")


def formatter(source: str, language: str, css_class: str, options: dict[str, Any], md: Markdown,
              **extra: Any) -> Markup:
    """SuperFences' format function: markdown-exec's HTML for the block, under the three rules above."""
    if not options.get("id"):  # placed_blocks gives every block its place: the plugin did not run
        raise PageError(PLUGIN_MISSING)
    place = options["id"]
    if options.get("session"):
        raise PageError(f"{place}: session= is not used in this guide: each block imports what it needs")
    location = options.get("source", "")
    composed = language in COMPOSED and location not in ("", "console")
    with guarded(place, "a code block"):
        result = markdown_exec.formatter(source, language, css_class, {**options, "source": ""} if composed
                                         else options, md, **extra)
    problems = output.problems(str(result), place, block=True)
    if problems:
        raise PageError("\n".join(problems))
    if not composed:
        return anchored(result, options)
    placeholder = f'<div class="attnlab-result-{uuid4()}"></div>'
    wrapped = markdown_exec.add_source(source=shown_part(source), location=location, output=placeholder,
                                       language=language, tabs=options["tabs"], **options["extra"])
    return anchored(markdown_exec.MarkdownConverter(md).convert(wrapped, stash={placeholder: str(result)},
                                                                id_prefix=options.get("id_prefix")), options)


def anchored(html: str, options: dict[str, Any]) -> Markup:
    """A block's HTML in one ``<div class="attnlab-block">``, its id ``block-LINE`` where it has its place."""
    prefix = options.get("id_prefix") or ""
    anchor = Markup(' id="{}"').format(prefix.removesuffix("-")) if prefix.endswith("-") else ""
    opening = Markup('<div class="{}"{}>').format(BLOCK_CLASS, anchor)
    return opening + Markup(html) + Markup("</div>")  # noqa: S704 - the block's HTML, checked above
