"""The one error that stops a build of the guide: a page that must not be built as it stands.

It is two things at once, so that it reaches the reader as one clean line
whichever code raises it: a MkDocs ``PluginError``, which MkDocs reports as a
message instead of a traceback, and a SuperFences ``SuperFencesException``,
the one exception SuperFences lets out of a code block's formatter (it
swallows any other and shows the block as plain code).
"""

from __future__ import annotations

from pymdownx.superfences import SuperFencesException

try:
    from mkdocs.exceptions import PluginError as _Reported
except ImportError:  # another builder: a plain exception stops it just as well
    _Reported = Exception  # type: ignore[assignment,misc]


class PageError(_Reported, SuperFencesException):
    """A page that must not be built as it stands; the message names the page and line."""
