"""The machinery that builds the guide: its MkDocs plugin (:mod:`.build.plugin`) runs the page pass
(:mod:`.build.convert`) and the post-build pass (:mod:`.build.publish`). It imports ``attnlab``, never the reverse."""
