"""Per-page text work: ``attnlab.site.build.convert`` and what it checks.

Every module here reads or rewrites one page's text; none writes a file.
"""
