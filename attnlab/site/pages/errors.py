"""The one error that stops a build: a MkDocs ``PluginError`` (reported as one line, no traceback) and a
SuperFences ``SuperFencesException`` (the only exception SuperFences lets out of a formatter).
"""

from __future__ import annotations

from pymdownx.superfences import SuperFencesException

try:
    from mkdocs.exceptions import PluginError as _Reported
except ImportError:  # another builder: a plain exception stops it just as well
    _Reported = Exception  # type: ignore[assignment,misc]


class PageError(_Reported, SuperFencesException):
    """A page that must not be built as it stands; the message names the page and line."""
