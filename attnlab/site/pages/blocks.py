"""The guide's executed code blocks: :func:`formatter` (SuperFences' formatter in ``mkdocs.yml``) runs them with
markdown-exec under three rules: lines from ``#| hide`` to ``#| show`` run unseen; a page's code (a block, a
binding's expression) can neither end nor hang the build (:func:`guarded`); what it prints holds numbers only
(:mod:`~.output`). Each block's id is its place, ``docs/page.md:LINE`` (:func:`placed_blocks`)."""

from __future__ import annotations

import math
import os
import re
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn
from uuid import uuid4

import markdown_exec
from markdown import Markdown
from markupsafe import Markup
from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

from attnlab.site.pages import output
from attnlab.site.pages.source import line_of

VARIABLE, LIMIT = "ATTNLAB_BLOCK_SECONDS", 120.0
"""How long, in seconds, one block or binding may run, unless the variable says otherwise."""


class PageError(PluginError, SuperFencesException):
    """A page that must not be built as it stands, the one error that stops a build; the message names the page and
    line. MkDocs reports a ``PluginError`` as one line; ``SuperFencesException`` is the one a formatter may let out."""


class _Stopped(BaseException):
    """``os._exit`` called or the time limit passed (a ``BaseException``: markdown-exec lets it through); says which."""


def _stop(why: str) -> NoReturn:
    """Raise :class:`_Stopped` saying ``why``: what ``os._exit`` and the alarm do while a page's code runs."""
    raise _Stopped(why)


def time_limit() -> float:
    """The limit in seconds from :data:`VARIABLE`; anything but a number above 0 stops the build."""
    given = os.environ.get(VARIABLE, "")
    try:
        seconds = float(given) if given else LIMIT
    except ValueError:
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise PageError(f"{VARIABLE} must be a number of seconds above 0, got {given!r}")
    return seconds


@contextmanager
def guarded(place: str, what: str) -> Iterator[None]:
    """Run the ``with`` body as ``what`` (e.g. "a code block") at ``place`` (``docs/page.md:LINE``): ``PageError``
    naming both if it ends the process (``exit()``, ``os._exit``, any ``BaseException`` not an ``Exception``), runs
    past the limit (in the main thread) or starts a thread that raises; an ``Exception`` passes through."""
    seconds = time_limit()
    timed = threading.current_thread() is threading.main_thread()
    real_exit, real_hook = os._exit, threading.excepthook
    os._exit = lambda status: _stop(f"called os._exit({status}): it would end the build with no page")
    failed: list[threading.ExceptHookArgs] = []
    threading.excepthook = failed.append
    if timed:
        handler = signal.signal(signal.SIGALRM, lambda *_: _stop(f"ran longer than {seconds:g} s ({VARIABLE} sets "
                                                                 "the limit)"))
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
        if failed:
            error = failed[0].exc_value
            raise PageError(f"{place}: {what} started a thread that raised {type(error).__name__}: {error}")
    except Exception:
        raise
    except _Stopped as stop:
        raise PageError(f"{place}: {what} {stop.args[0]}") from None
    except BaseException as stop:  # noqa: BLE001 (every way out of the process becomes one line)
        status = f" ({stop.code})" if isinstance(stop, SystemExit) and stop.code is not None else ""
        raise PageError(f"{place}: {what} raised {type(stop).__name__}{status}: it would end the build with "
                        "no page") from None
    finally:
        os._exit, threading.excepthook = real_exit, real_hook
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, handler)


EXEC_FENCE = re.compile(r"^(?P<head>[ \t]*(?:`{3,}|~{3,})[ \t]*[\w-]+\b[^\n`]*\bexec=[^\n]*?)[ \t]*$", re.M)
HIDE, SHOW = "#| hide", "#| show"
BLOCK_CLASS = "attnlab-block"
COMPOSED = ("python", "py")
"""Languages whose shown source this module places and a notebook shows as a cell (pycon: a console session)."""


def placed_blocks(markdown: str, page: str, prefix: str = "") -> str:
    """``markdown`` with ``id="docs/page.md:LINE"`` on each executed block without an id (markdown-exec names a
    failing block by it), its HTML ids prefixed ``{prefix}block-LINE-`` (``prefix``: a block shown elsewhere)."""
    def place(match: re.Match[str]) -> str:
        head = match.group("head")
        if re.search(r"\bid=", head):
            return match.group(0)
        line = line_of(markdown, match.start())
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
        raise PageError("mkdocs.yml: a code block reached the guide's formatter without its place (docs/page.md:LINE):"
                        " list the guide's plugin under plugins: (- attnlab), which checks each page and places its "
                        "blocks")
    place = options["id"]
    if options.get("session"):
        raise PageError(f"{place}: session= is not used in this guide: each block imports what it needs")
    location = options.get("source", "")
    composed = language in COMPOSED and location not in ("", "console")
    with guarded(place, "a code block"):
        result = markdown_exec.formatter(source, language, css_class, {**options, "source": ""} if composed
                                         else options, md, **extra)
    if problems := output.problems(str(result), place, block=True):
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
