"""The page pass: :func:`page_markdown` (``on_page_markdown``) and :func:`page_html` (``on_page_content``); a
problem raises ``PageError`` (all of a page's Markdown problems at once, ``docs/page.md:LINE: …``)."""

from __future__ import annotations

import functools
import re

from threadpoolctl import threadpool_limits

from attnlab.site.build import explorer
from attnlab.site.pages import bindings, claims, exports, mathml, output, practice, reading, running
from attnlab.site.pages.blocks import PageError
from attnlab.site.pages.guide import Guide, Page
from attnlab.site.pages.published import provenance

__all__ = ["PageError", "page_html", "page_markdown", "problems"]


def problems(markdown: str, page: Page, guide: Guide) -> list[str]:
    """Everything wrong with ``page``'s Markdown (front matter included), one message each, in page order."""
    name = page.name
    return (bindings.malformed(markdown, name) + bindings.check(markdown, name)
            + bindings.check_relations(markdown, name) + claims.unknown(markdown, name)
            + bindings.unbound(markdown, name) + guide.requirements(page.path, markdown, name))


def resolved(markdown: str, page: Page, guide: Guide) -> str:
    """``markdown`` (a whole page) checked, then with its bindings, citations, exercises and listings written in."""
    found = problems(markdown, page, guide)
    if found:
        raise PageError("\n".join(found))
    markdown = bindings.written_in(markdown, page.name)
    if page.path in guide.titles and guide.kind(page.path) == "chapter":
        markdown = running.with_run_lines(markdown, page.path)
    markdown = practice.numbered(markdown, page.path)
    if page.path == practice.EXERCISES_PAGE:
        markdown = practice.exercises_page(markdown, guide.chapters, lambda path: shown_elsewhere(path, guide, page))
    markdown = claims.linked(markdown, page.path)
    markdown = claims.registry_page(markdown, page.path, guide.sources, guide.titles)
    if reading.MARKER in markdown:
        markdown = markdown.replace(reading.MARKER, reading.start_buttons(page.docs_dir))
    if explorer.MARKER in markdown:  # the widget states the model's download size: only where it is shown
        markdown = markdown.replace(explorer.MARKER, explorer.widget(page.path))
    return markdown


def shown_elsewhere(path: str, guide: Guide, page: Page) -> str:
    """The chapter ``path`` ready to be shown on ``page``: bindings resolved, blocks placed with HTML ids prefixed
    by the chapter's name (to stay unique)."""
    written = bindings.written_in(guide.sources[path], f"{page.docs_dir.name}/{path}", f"{practice.slug(path)}-")
    return running.with_run_lines(written, path)


def page_markdown(markdown: str, page: Page) -> str:
    """``markdown`` (front matter stripped by MkDocs) checked and resolved; messages' lines count the front matter."""
    one_blas_thread()
    front, text = page.in_file(markdown)
    try:
        return resolved(front + text, page, Guide.read(page.docs_dir, page.nav))[len(front):]
    except ValueError as error:  # messages name the page by its path in the docs folder, or by its place
        message = str(error)
        docs = f"{page.docs_dir.name}/"
        raise PageError(message if message.startswith(docs) else docs + message) from None


def page_html(html: str, page: Page) -> str:
    """The page's HTML with MathML, its download control and provenance; ``PageError`` on anything unshowable."""
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
    """``html`` with whitespace spanning lines between two tags cut to one newline (:data:`BETWEEN_TAGS`)."""
    return BETWEEN_TAGS.sub(lambda found: found[1] or ">\n<", html)


@functools.cache
def one_blas_thread() -> None:
    """Run numpy's matrix products on one thread for the rest of the build (under load, two took twice as long)."""
    threadpool_limits(limits=1, user_api="blas")
