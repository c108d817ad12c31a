"""The site-level work of a build: what the site publishes beside its pages, the offline zip last.

:func:`~attnlab.site.build.publish.publish` is the one post-build pass. MkDocs
runs it through the guide's plugin (:mod:`~attnlab.site.build.plugin`).
"""
