"""The guide's per-page work, before and after Python-Markdown converts a page.

The guide's MkDocs plugin (:mod:`attnlab.site.build.plugin`) calls
:func:`page_markdown` from ``on_page_markdown`` and :func:`page_html` from
``on_page_content``; tests call them around a ``Markdown`` of their own.
Neither writes a file; what the site publishes beside its pages is the
post-build pass's (:mod:`attnlab.site.build`).

Before conversion, on the page's Markdown: the page is checked, and every
problem is listed at once, each as ``docs/page.md:LINE: …`` (:func:`problems`):
a ``[[`` that is neither a citation nor a binding, a binding whose expression
fails or disagrees with its quote, an unknown claim ID, a number in prose
neither bound nor declared, and what the page's kind requires
(:mod:`~attnlab.site.pages.guide`). Then bindings are replaced by their
numbers, citations by links, executed blocks are given their place as their
id, exercises are numbered, a chapter's exercises get the lines on running
them (:mod:`~attnlab.site.pages.running`), and the Exercises, Claims and
Sources pages get their listings.

After conversion, on the page's HTML: a page that would show a NaN, an
infinity or a traceback is refused (:mod:`~attnlab.site.pages.output`),
formulas become MathML (:mod:`~attnlab.site.pages.mathml`), the page gets one
download control for its tables and figures (:mod:`~attnlab.site.pages.exports`), the
indentation and blank lines between tags go (:func:`squeezed`) and the
provenance line is added at its foot. Any problem raises ``PageError``,
which stops the build.
"""

from __future__ import annotations

import functools
import re

from threadpoolctl import threadpool_limits

from attnlab.site.build import explorer
from attnlab.site.pages import (
    bindings,
    citations,
    exports,
    forms,
    mathml,
    output,
    practice,
    reading,
    relations,
    running,
)
from attnlab.site.pages.blocks import placed_blocks
from attnlab.site.pages.errors import PageError
from attnlab.site.pages.guide import Guide
from attnlab.site.pages.page import Page
from attnlab.site.pages.provenance import provenance

__all__ = ["PageError", "page_html", "page_markdown", "problems"]


def problems(markdown: str, page: Page, guide: Guide) -> list[str]:
    """Everything wrong with ``page``'s Markdown (front matter included), one message each, in page order."""
    name = page.name
    return (forms.malformed(markdown, name) + bindings.check(markdown, name) + relations.check(markdown, name)
            + citations.unknown(markdown, name) + bindings.unbound(markdown, name)
            + guide.requirements(page.path, markdown, name))


def resolved(markdown: str, page: Page, guide: Guide) -> str:
    """``markdown`` (a whole page) checked, then with its bindings, citations, exercises and listings written in."""
    found = problems(markdown, page, guide)
    if found:
        raise PageError("\n".join(found))
    markdown = relations.render(bindings.render(placed_blocks(markdown, page.name)))
    if page.path in guide.titles and guide.kind(page.path) == "chapter":
        markdown = running.with_run_lines(markdown, page.path)
    markdown = practice.numbered(markdown, page.path)
    if page.path == practice.EXERCISES_PAGE:
        markdown = practice.exercises_page(markdown, guide.chapters, lambda path: shown_elsewhere(page, path))
    markdown = citations.linked(markdown, page.path)
    markdown = citations.registry_page(markdown, page.path, guide.sources, guide.titles)
    if reading.MARKER in markdown:
        markdown = markdown.replace(reading.MARKER, reading.start_buttons(page.docs_dir))
    if explorer.MARKER in markdown:  # the widget states the model's download size: only where it is shown
        markdown = markdown.replace(explorer.MARKER, explorer.widget(page.path))
    return markdown


def shown_elsewhere(page: Page, path: str) -> str:
    """The chapter ``path`` (beside ``page``) ready to be shown on ``page``: blocks placed, bindings resolved.

    Its blocks keep the chapter's place in their ids, with HTML ids
    prefixed by the chapter's name so they stay unique on ``page``.
    """
    name = f"{page.docs_dir.name}/{path}"
    source = (page.docs_dir / path).read_text(encoding="utf-8")
    return running.with_run_lines(
        relations.render(bindings.render(placed_blocks(source, name, f"{practice.slug(path)}-"))), path)


def page_markdown(markdown: str, page: Page) -> str:
    """``markdown``, the page's text as the builder hands it over (front matter stripped), checked and resolved.

    Line numbers in messages count the front matter, as the author's editor does.
    """
    one_blas_thread()
    front, text = page.in_file(markdown)
    try:
        return resolved(front + text, page, Guide.read(page.docs_dir, page.nav))[len(front):]
    except ValueError as error:  # messages name the page by its path in the docs folder, or by its place
        message = str(error)
        docs = f"{page.docs_dir.name}/"
        raise PageError(message if message.startswith(docs) else docs + message) from None


def page_html(html: str, page: Page) -> str:
    """The page's HTML with MathML in place of TeX, its download control and the provenance line.

    Raises ``PageError`` on anything unshowable.
    """
    found = output.problems(html, page.name)
    if found:
        raise PageError("\n".join(found))
    try:
        html = mathml.mathml(html, page.name)
    except mathml.FormulaError as error:
        raise PageError(str(error)) from error
    try:
        return squeezed(exports.resolve(html, page.path)) + "\n" + provenance()
    except ValueError as error:
        raise PageError(f"{page.name}: {error}") from error


BETWEEN_TAGS = re.compile(r"(<(pre|textarea|script)\b.*?</\2>)|>\s*\n\s*<", re.S)
"""A block whose whitespace is content (kept whole), or the whitespace from one tag to the next across a line."""


def squeezed(html: str) -> str:
    """``html`` with each run of whitespace between two tags that spans lines cut to one newline.

    Inside ``pre``, ``textarea`` and ``script`` nothing changes; elsewhere a browser shows the page the same.
    The Reference page's generated markup was a tenth indentation and blank lines.
    """
    return BETWEEN_TAGS.sub(lambda found: found[1] or ">\n<", html)


@functools.cache
def one_blas_thread() -> None:
    """Run numpy's matrix products on one thread for the rest of the build (once per process).

    The build multiplies small matrices, one sentence of the real model at a
    time. A second BLAS thread saves little on those, and on a shared machine
    it often waits for a free core: with two, a clean build under load took
    twice as long as with one.
    """
    threadpool_limits(limits=1, user_api="blas")
