"""The machinery that builds the Attention Lab guide; the package above it is the maths.

``attnlab.site.pages.extension`` is a Python-Markdown extension, listed under
``markdown_extensions`` in ``mkdocs.yml``, that runs the guide's checks on
every page under MkDocs or Zensical. Everything here may import ``attnlab``;
nothing in ``attnlab`` imports this package.
"""
