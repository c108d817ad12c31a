"""Per-page text work for ``attnlab.site.build.convert``: each module reads or rewrites a page's text."""
