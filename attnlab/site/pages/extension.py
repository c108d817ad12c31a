"""The guide's per-page work as one Python-Markdown extension: ``attnlab.site.pages``.

Listed under ``markdown_extensions`` in ``mkdocs.yml``, it runs under any
builder that converts pages with Python-Markdown (MkDocs, Zensical). It
works on the text of one page and writes no file; what the site publishes
beside its pages is the post-build pass's (:mod:`attnlab.site.build`).

Before any other block processing, on the page's own Markdown:

- the page is checked, and every problem is listed at once, each as
  ``docs/page.md:LINE: …`` (:func:`problems`): a ``[[`` that is neither a
  citation nor a binding, a binding whose expression fails or disagrees with
  its quote, an unknown claim ID, a number in prose neither bound nor
  declared, and what the page's kind requires (:mod:`~attnlab.site.pages.guide`);
- bindings are replaced by their numbers, citations by links, executed
  blocks are given their place as their id, exercises are numbered, a
  chapter's exercises get the lines on running them (its notebooks, the
  install line: :mod:`~attnlab.site.pages.running`), and the Exercises,
  Claims and Sources pages get their listings.

After the page is HTML: a page that would show a NaN, an infinity or a
traceback is refused (:mod:`~attnlab.site.pages.output`), formulas become
MathML (:mod:`~attnlab.site.pages.mathml`), each generated table gets its
download line (:mod:`~attnlab.site.pages.exports`) and the provenance line
is added at its foot. Any problem raises ``PageError``, which stops the build.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any
from xml.etree.ElementTree import Element

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from threadpoolctl import threadpool_limits

from attnlab.site.figures import explorer
from attnlab.site.pages import bindings, citations, exports, forms, mathml, output, practice, reading, running
from attnlab.site.pages.blocks import placed_blocks
from attnlab.site.pages.errors import PageError
from attnlab.site.pages.guide import Guide
from attnlab.site.pages.page import Page, page_of
from attnlab.site.pages.provenance import provenance

__all__ = ["AttnlabExtension", "PageError", "makeExtension", "problems"]


def problems(markdown: str, page: Page, guide: Guide) -> list[str]:
    """Everything wrong with ``page``'s Markdown (front matter included), one message each, in page order."""
    name = page.name
    return (forms.malformed(markdown, name) + bindings.check(markdown, name) + citations.unknown(markdown, name)
            + bindings.unbound(markdown, name) + guide.requirements(page.path, markdown, name))


def resolved(markdown: str, page: Page, guide: Guide) -> str:
    """``markdown`` (a whole page) checked, then with its bindings, citations, exercises and listings written in."""
    found = problems(markdown, page, guide)
    if found:
        raise PageError("\n".join(found))
    markdown = bindings.render(placed_blocks(markdown, page.name))
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
    return running.with_run_lines(bindings.render(placed_blocks(source, name, f"{practice.slug(path)}-")), path)


class PageSource(Preprocessor):
    """Checks and resolves the page's own Markdown (not code output or docstrings converted inside it)."""

    def __init__(self, md: Markdown, extension: AttnlabExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        """The page's lines, resolved; what builders strip before them is put back for line numbers."""
        page = page_of(self.md, self.extension.getConfigs(), self.extension)
        if page is None:
            return lines
        front, text = page.in_file("\n".join(lines))
        try:
            markdown = resolved(front + text, page, Guide.read(page.docs_dir, page.nav))
        except ValueError as error:
            raise PageError(f"{page.docs_dir.name}/{error}") from error
        return markdown[len(front):].split("\n")


class PageTree(Treeprocessor):
    """Marks a page's conversion as past its tree, so the HTML pass tells the page from a heading's text.

    The ``toc`` extension runs every postprocessor on each heading's text
    while it builds the contents, before this runs (it is registered last).
    """

    def __init__(self, md: Markdown, extension: AttnlabExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, root: Element) -> None:
        """Note that ``md``'s next postprocessing is the whole page's, if ``md`` converts a page."""
        if page_of(self.md, self.extension.getConfigs(), self.extension) is not None:
            self.extension.finished.add(self.md)


class PageHTML(Postprocessor):
    """Refuses a page showing a non-number, turns formulas into MathML, adds download lines, signs the page."""

    def __init__(self, md: Markdown, extension: AttnlabExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, text: str) -> str:
        """The page's HTML with MathML in place of TeX and download lines under its tables.

        Raises ``PageError`` on anything unshowable.
        """
        if self.md not in self.extension.finished:
            return text
        self.extension.finished.discard(self.md)
        page = page_of(self.md, self.extension.getConfigs(), self.extension)
        if page is None:
            return text
        found = output.problems(text, page.name)
        if found:
            raise PageError("\n".join(found))
        try:
            html = mathml.mathml(text, page.name)
        except mathml.FormulaError as error:
            raise PageError(str(error)) from error
        try:
            return exports.resolve(html, page.path) + "\n" + provenance()
        except ValueError as error:
            raise PageError(f"{page.name}: {error}") from error


@functools.cache
def one_blas_thread() -> None:
    """Run numpy's matrix products on one thread for the rest of the build (once per process).

    The build multiplies small matrices, one sentence of the real model at a
    time. A second BLAS thread saves little on those, and on a shared machine
    it often waits for a free core: with two, a clean build under load took
    twice as long as with one.
    """
    threadpool_limits(limits=1, user_api="blas")


class AttnlabExtension(Extension):
    """Registers the page checks before block parsing and the HTML pass after everything else."""

    def __init__(self, **kwargs: Any) -> None:
        one_blas_thread()
        self.config = {
            "page": ["", "path of the page inside docs_dir (only where no builder says)"],
            "docs_dir": ["", "the docs folder (with page)"],
        }
        self.finished: weakref.WeakSet[Markdown] = weakref.WeakSet()
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Run after whitespace is normalised (30) but before fenced code (25); last on the tree and the HTML."""
        md.registerExtension(self)
        md.preprocessors.register(PageSource(md, self), "attnlab-page", 29)
        md.treeprocessors.register(PageTree(md, self), "attnlab-page-tree", -100)
        md.postprocessors.register(PageHTML(md, self), "attnlab-html", 5)


def makeExtension(**kwargs: Any) -> AttnlabExtension:  # noqa: N802 (Python-Markdown's entry point)
    """The extension, as Python-Markdown loads it by module name."""
    return AttnlabExtension(**kwargs)
