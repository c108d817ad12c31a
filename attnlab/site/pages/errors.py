"""The one error that stops a build: a MkDocs ``PluginError`` (reported as one line, no traceback) and a
SuperFences ``SuperFencesException`` (the only exception SuperFences lets out of a formatter).
"""

from __future__ import annotations

from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException


class PageError(PluginError, SuperFencesException):
    """A page that must not be built as it stands; the message names the page and line."""
