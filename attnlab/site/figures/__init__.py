"""What the guide's code blocks print: tables, weight maps, figures (one SVG convention) and widgets.

Pure functions from attnlab's results to Markdown or one line of HTML; none
reads a page or writes a file.
"""
