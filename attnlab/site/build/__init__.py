"""The site-level work of a build: the MkDocs plugin, the page pass and the post-build pass."""

from importlib import resources


def data_text(path: str) -> str:
    """The text of the file at ``path`` inside this package (``data/…``)."""
    return resources.files(__name__).joinpath(path).read_text(encoding="utf-8")
