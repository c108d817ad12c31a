"""``python -m attnlab.site.pages.rebind``: write each stale quoted number back from its expression.

Each change is printed (``docs/scores.md:42: 0.577 -> 0.576 (compute().weights[2])``); what cannot be rewritten (a
failing expression, too many decimals, a file not UTF-8, a false relation) is reported with exit status 1;
``--check`` writes nothing and exits 1 when anything would change."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from attnlab.cli import Parser, run
from attnlab.site.pages.bindings import bindings, check_relations, namespace, verdict
from attnlab.site.pages.blocks import PageError


@dataclass(frozen=True)
class Rebound:
    """A page's Markdown with its quotes up to date, what changed, and what could not be computed."""

    markdown: str
    changes: tuple[str, ...]
    failures: tuple[str, ...]


def rebound(markdown: str, page: str) -> Rebound:
    """``markdown`` (the page named ``page`` in messages) with every stale quote rewritten from its expression."""
    names, cache = namespace(), dict[str, Any]()
    parts, changes, failures, position = [], [], [], 0
    for binding in bindings(markdown):
        try:
            shown, problem = verdict(binding, page, names, cache)
        except PageError as error:  # it would end the command, or runs past the time limit
            shown, problem = "", str(error)
        if not shown:
            failures.append(problem)
        elif problem:
            at = markdown.index(binding.quoted, binding.start)
            parts += [markdown[position:at], shown]
            position = at + len(binding.quoted)
            changes.append(f"{page}:{binding.line}: {binding.quoted} -> {shown} ({binding.expression})")
    return Rebound("".join([*parts, markdown[position:]]), tuple(changes), tuple(failures))


def rebind(paths: Sequence[Path], check_only: bool) -> int:
    """Rewrite (or with ``check_only`` report) every stale quote in ``paths`` (files or folders); the exit status."""
    status = 0
    for path in [found for given in paths for found in (sorted(given.rglob("*.md")) if given.is_dir() else [given])]:
        try:
            with path.open(encoding="utf-8", newline="") as file:  # line endings kept as they are (CRLF too)
                markdown = file.read()
        except (OSError, UnicodeDecodeError) as error:
            print(f"rebind: error: {path} is not UTF-8 text (byte {error.start})" if isinstance(
                error, UnicodeDecodeError) else f"rebind: error: no Markdown file at {path}", file=sys.stderr)
            status = 1
            continue
        result = rebound(markdown, path.as_posix())
        false = check_relations(result.markdown, path.as_posix())
        for failure in (*result.failures, *false):
            print(failure, file=sys.stderr)
        for change in result.changes:
            print(change)
        if result.failures or false or (check_only and result.changes):
            status = 1
        if result.changes and not check_only:
            with path.open("w", encoding="utf-8", newline="") as file:
                file.write(result.markdown)
    return status


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the flags in ``argv`` (default: the command line) and rebind; return the exit status."""
    parser = Parser(prog="python -m attnlab.site.pages.rebind", description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path, default=[Path("docs")],
                        help="Markdown files or folders (default: docs)")
    parser.add_argument("--check", action="store_true", help="print what would change, write nothing")
    args = parser.parse_args(argv)
    return run(parser.prog, lambda: rebind(args.paths, args.check))


if __name__ == "__main__":
    sys.exit(main())
