"""The guide's content machinery as one Python-Markdown extension: ``attnlab.site.extension``.

Listed under ``markdown_extensions`` in ``mkdocs.yml``, it runs under any
builder that converts pages with Python-Markdown (MkDocs, Zensical). For each
page, before any other block processing:

- every ``[[`` in prose must be a claim citation or a number binding
  (:mod:`~attnlab.site.forms`);
- every binding ``[[0.576 = expr]]`` is checked against its expression and
  replaced by the number (:mod:`~attnlab.site.prose`);
- every citation ``[[CL-005]]`` must name a registered claim and becomes a
  link (:mod:`~attnlab.site.citations`); the Claims and Sources pages are
  written from the registry;
- every executed code block is given its place, ``docs/page.md:LINE``, as
  its markdown-exec ``id``, so a failure names where it is;
- a chapter's exercises are numbered, and the Exercises page is written from
  every teaching chapter's exercises (:mod:`~attnlab.site.practice`).

After the page is HTML: formulas become MathML (:mod:`~attnlab.site.math`),
each generated table gets its download links and its CSV and JSON files
(:mod:`~attnlab.site.export`), a page that would show a traceback, a NaN or
an infinity is refused (:mod:`~attnlab.site.output`), and the provenance
line is added at its foot
(:mod:`~attnlab.site.provenance`). Converting the home page writes the files the
site publishes (:mod:`~attnlab.site.publish`); a page holding the explorer's
marker gets the explorer there and writes its data (:mod:`~attnlab.site.explorer`). Any problem raises
``PageError`` naming the page and line, which stops the build.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from threadpoolctl import threadpool_limits

from attnlab.site import citations, execution, explorer, export, forms, math, output, practice, prose, publish, tracking
from attnlab.site.provenance import provenance
from attnlab.site.context import Page, page_of, whole_page

try:  # under MkDocs, a plugin error is reported as one clean line instead of a traceback
    from mkdocs.exceptions import PluginError as _Reported
except ImportError:  # another builder: a plain exception stops it just as well
    _Reported = Exception  # type: ignore[assignment,misc]

EXEC_FENCE = re.compile(r"^(?P<head>[ \t]*(?:`{3,}|~{3,})[ \t]*[\w-]+\b[^\n`]*\bexec=[^\n]*?)[ \t]*$", re.M)
"""The opening line of a fenced block that markdown-exec runs."""


class PageError(_Reported):
    """A page that must not be built as it stands; the message names the page and line."""


def placed_blocks(markdown: str, page: str, prefix: str = "") -> str:
    """``markdown`` with ``id="docs/page.md:LINE"`` on each executed block that has no id of its own.

    markdown-exec puts the id in its warning and in the traceback's file
    name, so a failing block is reported by its place in the page. The
    block's HTML ids are prefixed ``block-LINE-``: unique on the page, and
    the same in every build (markdown-exec's default counts blocks across
    the whole build). ``prefix`` goes in front of that, for blocks shown on
    another page too (the Exercises page gathers several chapters').
    """
    def place(match: re.Match[str]) -> str:
        head = match.group("head")
        if re.search(r"\bid=", head):
            return match.group(0)
        line = markdown.count("\n", 0, match.start()) + 1
        return f'{head} id="{page}:{line}" idprefix="{prefix}block-{line}-"'

    return EXEC_FENCE.sub(place, markdown)


def checked_source(markdown: str, page: str) -> str:
    """``markdown`` (a whole page, front matter included) with its bindings and citations resolved.

    Raises ``PageError`` listing every malformed bracket, failing or stale
    binding and unknown claim ID, each as ``docs/page.md:LINE: …``.
    """
    problems = (forms.malformed(markdown, page) + execution.checked_bindings(markdown, page)
                + citations.unknown(markdown, page))
    if problems:
        raise PageError("\n".join(problems))
    return prose.render(markdown)


def shown_elsewhere(page: Page, path: str) -> str:
    """The chapter ``path`` (beside ``page``) ready to be shown on ``page``: blocks placed, bindings resolved.

    Its blocks keep the chapter's place in their ids, with HTML ids
    prefixed by the chapter's name so they stay unique on ``page``.
    """
    name = f"{page.docs_dir.name}/{path}"
    source = tracking.read_doc(page.docs_dir, path)
    return prose.render(placed_blocks(source, name, f"{practice.slug(path)}-"))


class PageSource(Preprocessor):
    """Checks and resolves the page's own Markdown (not code output or docstrings converted inside it)."""

    def __init__(self, md: Markdown, extension: AttnlabExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        """The page's lines, resolved; what builders strip before them is put back for line numbers."""
        if not whole_page():
            return lines
        page = page_of(self.md, self.extension.getConfigs())
        front, text = page.in_file("\n".join(lines))
        try:
            # blocks are placed before bindings are resolved, which may join lines
            markdown = practice.numbered(checked_source(placed_blocks(front + text, page.name), page.name),
                                         page.path)
            if page.path == practice.EXERCISES_PAGE:
                markdown = practice.exercises_page(markdown, lambda path: shown_elsewhere(page, path))
            markdown = citations.linked(markdown[len(front):], page.path)
            markdown = citations.registry_page(markdown, page.path, page.docs_dir, page.titles)
        except ValueError as error:
            raise PageError(f"{page.docs_dir.name}/{error}") from error
        if page.path == publish.HOME and page.site_dir is not None:
            try:
                publish.write(page.site_dir, page.docs_dir)
            except ValueError as error:
                raise PageError(f"{page.docs_dir.name}/{error}") from error
        if explorer.MARKER in markdown:
            markdown = markdown.replace(explorer.MARKER, explorer.widget(page.path))
            if page.site_dir is not None:
                publish.write_files(page.site_dir, execution.kept("explorer", explorer.published))
        return markdown.split("\n")


class PageHTML(Postprocessor):
    """Turns formulas into MathML, publishes the tables' exports, refuses a page showing a non-number, signs it."""

    def __init__(self, md: Markdown, extension: AttnlabExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, text: str) -> str:
        """The page's HTML with MathML in place of TeX and download links under its tables.

        Raises ``PageError`` on anything unshowable.
        """
        if not whole_page():
            return text
        page: Page = page_of(self.md, self.extension.getConfigs())
        try:
            html = math.mathml(text, page.name)
        except math.FormulaError as error:
            raise PageError(str(error)) from error
        html, exports = export.resolve(html, page.path)
        if page.site_dir is not None:
            publish.write_files(page.site_dir, exports)
        problems = output.problems(html, page.name)
        if problems:
            raise PageError("\n".join(problems))
        return html + "\n" + provenance()


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
            "site_dir": ["", "the site folder to publish files into (with page; optional)"],
        }
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        """Run after whitespace is normalised (30) but before fenced code (25); last on the HTML."""
        md.registerExtension(self)
        md.preprocessors.register(PageSource(md, self), "attnlab-page", 29)
        md.postprocessors.register(PageHTML(md, self), "attnlab-html", 5)


def makeExtension(**kwargs: Any) -> AttnlabExtension:  # noqa: N802 (Python-Markdown's entry point)
    """The extension, as Python-Markdown loads it by module name."""
    return AttnlabExtension(**kwargs)
