"""What the two commands share: a bad flag is one line naming it, and no ending is a traceback.

``python -m attnlab`` (the companion) and ``python -m attnlab.bench`` parse
their flags with ``Parser`` and ``whole_number`` and do their work through
``run``. A reader who pipes the output into ``head`` closes the pipe early;
the command then stops quietly, as the Python documentation recommends for
SIGPIPE, instead of printing a ``BrokenPipeError`` traceback. Output that
cannot be written at all (standard output closed, a full disk, a terminal
whose encoding has no "√") ends the command with one line on stderr saying
so and a non-zero status.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn


class Parser(argparse.ArgumentParser):
    """An argument parser whose every error is one line, ``prog: error: message``, with exit status 2.

    A flag must be written whole: argparse's abbreviations would take ``--js`` for ``--json``.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs, allow_abbrev=False)

    def error(self, message: str) -> NoReturn:
        """Print ``message`` on one line and exit with status 2 (argparse would print the usage first)."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def whole_number(least: int) -> Callable[[str], int]:
    """An argparse ``type``: a flag's text as an integer of at least ``least`` (argparse adds the flag's name)."""
    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if number < least:
            raise argparse.ArgumentTypeError(f"must be at least {least}, got {number}")
        return number

    return parse


def silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush cannot fail again."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def run(prog: str, work: Callable[[], int]) -> int:
    """Do ``work`` and return its exit status; no way for its output to fail ends in a traceback.

    A closed pipe returns 1 with nothing on stderr, as ``| head`` expects.
    Standard output closed before the start (``>&-``), a write that fails
    (``> /dev/full``: no space left) or text the output's encoding cannot
    hold (``PYTHONIOENCODING=ascii``) print one line on stderr and return 1.
    Ctrl-C prints one line and returns 130, as shells report it.
    """
    if sys.stdout is None:  # Python leaves it None when file descriptor 1 was closed
        print(f"{prog}: standard output is closed: nothing can be printed", file=sys.stderr)
        return 1
    try:
        status = work()
        sys.stdout.flush()  # a pipe closed before the buffered output went out fails here, inside the try
        return status
    except BrokenPipeError:
        silence_stdout()
        return 1
    except UnicodeEncodeError as error:
        print(
            f"{prog}: standard output is {sys.stdout.encoding}, "
            f"which cannot write U+{ord(error.object[error.start]):04X}: "
            "use a UTF-8 terminal or set PYTHONIOENCODING=utf-8",
            file=sys.stderr,
        )
        silence_stdout()
        return 1
    except OSError as error:
        print(f"{prog}: cannot write to standard output: {error.strerror or error}", file=sys.stderr)
        silence_stdout()
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
