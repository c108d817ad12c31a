"""The site-level work of a build: the MkDocs plugin, the page pass and the post-build pass."""
