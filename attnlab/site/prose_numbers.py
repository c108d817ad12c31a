"""MkDocs hook: numbers in prose are shown as written and checked against their expressions.

``[[0.576 = compute().weights[2]]]`` in a chapter's prose becomes ``0.576``
on the page. If the expression fails, or rounded to the decimals written
does not give the quoted text, the build stops with every such place on the
page, e.g. ``docs/scores.md:42: quoted 0.577 but compute().weights[2] gives
0.576``. Parsing and checking live in ``attnlab.prose``; the scan for
numbers that are neither bound nor declared is a test
(``tests/test_prose_numbers.py``), not a build error, so a chapter in
progress still builds.
"""

from __future__ import annotations

import os
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from attnlab.prose import check, render

_values: dict[str, Any] = {}
"""Expression → value (or error), shared by the pages of one build."""


def on_pre_build(config: MkDocsConfig) -> None:
    """Forget the last build's values, so ``mkdocs serve`` re-evaluates on every rebuild."""
    _values.clear()


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    """Check every binding on the page, then replace each by its quoted number.

    The check reads the page's source file, so line numbers count the front
    matter as an author's editor does.
    """
    source = page.file.content_string
    text = source if source.endswith(markdown) else markdown
    docs = os.path.relpath(config.docs_dir, os.path.dirname(config.config_file_path))
    name = os.path.join(docs, page.file.src_uri)
    problems = check(text, name, _values)
    if problems:
        raise PluginError("prose numbers disagree with their expressions:\n" + "\n".join(problems))
    return render(markdown)
