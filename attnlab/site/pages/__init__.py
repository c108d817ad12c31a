"""Per-page text work: the Python-Markdown extension ``attnlab.site.pages.extension`` and what it checks.

Every module here reads or rewrites one page's text; none writes a file.
"""
