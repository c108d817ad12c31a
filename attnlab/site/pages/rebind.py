"""``python -m attnlab.site.pages.rebind``: write each stale quoted number back from its expression.

Each quote becomes what its expression gives now at the decimals it was written with, and each change is
printed (``docs/scores.md:42: 0.577 -> 0.576 (compute().weights[2])``). A failing expression, a quote of more
decimals than a float64 holds, a file not UTF-8 or a false relation is reported and left alone (exit status
1); ``--check`` writes nothing and exits 1 when anything would change.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from attnlab.cli import Parser, run
from attnlab.site.pages import relations
from attnlab.site.pages.bindings import bindings, decimals, evaluate, namespace
from attnlab.site.pages.errors import PageError
from attnlab.site.pages.guard import guarded
from attnlab.text import MAX_DECIMALS


@dataclass(frozen=True)
class Rebound:
    """A page's Markdown with its quotes brought up to date, what changed, and what could not be computed."""

    markdown: str
    changes: tuple[str, ...]
    failures: tuple[str, ...]


def rebound(markdown: str, page: str) -> Rebound:
    """``markdown`` (the page named ``page`` in messages) with every stale quote rewritten from its expression."""
    names = namespace()
    parts, changes, failures, position = [], [], [], 0
    for binding in bindings(markdown):
        where = f"{page}:{binding.line}"
        if max(map(decimals, binding.entries)) > MAX_DECIMALS:
            failures.append(f"{where}: {binding.quoted} has more than {MAX_DECIMALS} decimals, more than a float64 "
                            "holds")
            continue
        try:
            with guarded(where, f"[[{binding.quoted} = {binding.expression}]]"):
                value = evaluate(binding.expression, names)
        except PageError as error:  # it would end the command, or runs past the time limit
            failures.append(str(error))
            continue
        except Exception as error:  # noqa: BLE001 (every failure becomes a message naming the place)
            failures.append(f"{where}: {binding.expression} cannot be evaluated: {type(error).__name__}: {error}")
            continue
        shown = binding.shown(value)
        if shown == binding.quoted:
            continue
        written = markdown[binding.start:binding.end]
        at = written.index(binding.quoted)
        parts += [markdown[position:binding.start], written[:at], shown, written[at + len(binding.quoted):]]
        position = binding.end
        changes.append(f"{page}:{binding.line}: {binding.quoted} -> {shown} ({binding.expression})")
    return Rebound("".join([*parts, markdown[position:]]), tuple(changes), tuple(failures))


def pages(paths: Iterable[Path]) -> list[Path]:
    """The Markdown files named, or found below the folders named, in path order."""
    found: list[Path] = []
    for path in paths:
        found += sorted(path.rglob("*.md")) if path.is_dir() else [path]
    return found


def rebind(paths: Sequence[Path], check_only: bool) -> int:
    """Rewrite (or with ``check_only`` only report) every stale quote in ``paths``; the exit status."""
    status = 0
    for path in pages(paths):
        if not path.is_file():
            print(f"rebind: error: no Markdown file at {path}", file=sys.stderr)
            status = 1
            continue
        try:
            with path.open(encoding="utf-8", newline="") as file:  # line endings kept as they are (CRLF too)
                markdown = file.read()
        except UnicodeDecodeError as error:
            print(f"rebind: error: {path} is not UTF-8 text (byte {error.start})", file=sys.stderr)
            status = 1
            continue
        result = rebound(markdown, path.as_posix())
        false = relations.check(result.markdown, path.as_posix())
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
