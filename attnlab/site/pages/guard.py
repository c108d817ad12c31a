"""A page's code (an executed block, a binding's expression) can neither end nor hang the build: :func:`guarded`
turns ``exit()``, any other ``BaseException``, ``os._exit`` and code (in the main thread) running past
``ATTNLAB_BLOCK_SECONDS`` (default :data:`LIMIT`) into a :class:`PageError` naming the code's place, the one error
that stops a build.
"""

from __future__ import annotations

import math
import os
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

LIMIT = 120.0
"""How long, in seconds, one block or binding may run unless ``ATTNLAB_BLOCK_SECONDS`` says otherwise."""
VARIABLE = "ATTNLAB_BLOCK_SECONDS"


class PageError(PluginError, SuperFencesException):
    """A page that must not be built as it stands; the message names the page and line. MkDocs reports a
    ``PluginError`` as one line, no traceback; ``SuperFencesException`` is the only one a formatter may let out."""


class _Exited(BaseException):
    """``os._exit(status)`` called by a page's code."""


class _OutOfTime(BaseException):
    """A page's code ran past the time limit (a ``BaseException``, so markdown-exec lets it through)."""


def _exit(status: int) -> NoReturn:
    """What ``os._exit`` does while a page's code runs."""
    raise _Exited(status)


def _out_of_time(signum: int, frame: Any) -> NoReturn:
    """The alarm's handler."""
    raise _OutOfTime


def time_limit() -> float:
    """The limit in seconds, from ``ATTNLAB_BLOCK_SECONDS``; anything but a number above 0 stops the build."""
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
    naming both if it ends the process, raises a ``BaseException`` that is not an ``Exception``, runs past the limit
    or starts a thread that raises; any ``Exception`` passes through unchanged."""
    seconds = time_limit()
    timed = threading.current_thread() is threading.main_thread()
    real_exit, real_hook = os._exit, threading.excepthook
    os._exit = _exit
    failed: list[threading.ExceptHookArgs] = []
    threading.excepthook = failed.append
    if timed:
        handler = signal.signal(signal.SIGALRM, _out_of_time)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
        if failed:
            error = failed[0].exc_value
            raise PageError(f"{place}: {what} started a thread that raised {type(error).__name__}: {error}")
    except Exception:
        raise
    except _OutOfTime:
        raise PageError(f"{place}: {what} ran longer than {seconds:g} s ({VARIABLE} sets the limit)") from None
    except _Exited as stop:
        raise PageError(f"{place}: {what} called os._exit({stop.args[0]}): it would end the build with no page"
                        ) from None
    except BaseException as stop:  # noqa: BLE001 (every way out of the process becomes one line)
        status = f" ({stop.code})" if isinstance(stop, SystemExit) and stop.code is not None else ""
        raise PageError(f"{place}: {what} raised {type(stop).__name__}{status}: it would end the build with no page"
                        ) from None
    finally:
        os._exit, threading.excepthook = real_exit, real_hook
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, handler)
