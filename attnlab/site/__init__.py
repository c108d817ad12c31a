"""The machinery that builds the Attention Lab guide; the package above it is the maths.

The guide's MkDocs plugin (:mod:`attnlab.site.build.plugin`) runs the
guide's checks on every page (:mod:`attnlab.site.build.convert`) and the
post-build pass (:mod:`attnlab.site.build.publish`). Everything here may import ``attnlab``;
nothing in ``attnlab`` imports this package.
"""
