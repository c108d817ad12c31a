"""What the two commands share: a bad flag is one line naming it, and no ending is a traceback.

``python -m attnlab`` (the companion) and ``python -m attnlab.bench`` parse
their flags with ``Parser`` and ``whole_number`` and do their work through
``run``. A reader who pipes the output into ``head`` closes the pipe early;
the command then stops quietly, as the Python documentation recommends for
SIGPIPE, instead of printing a ``BrokenPipeError`` traceback.
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


def run(prog: str, work: Callable[[], int]) -> int:
    """Do ``work`` and return its exit status; a failed write or Ctrl-C ends without a traceback.

    A pipe closed early (``| head``) returns 1 quietly; another failed write
    (``> /dev/full``) prints one line and returns 1; Ctrl-C prints one line
    and returns 130, as shells report it.
    """
    try:
        status = work()
        sys.stdout.flush()  # a pipe closed before the buffered output went out fails here, inside the try
        return status
    except OSError as error:
        if not isinstance(error, BrokenPipeError):
            print(f"{prog}: cannot write to standard output: {error.strerror or error}", file=sys.stderr)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # so the last flush cannot fail again
        return 1
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
