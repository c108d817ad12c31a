"""The interactive pieces a page embeds, working without JavaScript: the lab, the checklist, progress, download."""

from __future__ import annotations

import json
from collections.abc import Mapping
from html import escape
from typing import Any

from attnlab.lab import controls
from attnlab.site.figures.plane import live_plane
from attnlab.site.pages.mathml import with_math
from attnlab.site.pages.published import archive_name

CHECKLIST: tuple[str, ...] = (  # the eight-step procedure a reader ticks off (BRIEF); ``$…$`` is math
    "Shapes fit: queries and keys share $d_k$; keys and values share $m$ rows", "Project the rows to $Q$, $K$ and $V$",
    "Take raw scores $Q K^\\top$", "Scale by $1/\\sqrt{d_k}$", "Remove blocked keys",
    "Subtract the row maximum and exponentiate", "Normalise so each row sums to one",
    "Mix the values and check the output lies in the visible values' range")


def checklist() -> str:
    """The eight steps as a list of labelled checkboxes with stable ids."""
    items = "".join(f'<li><input type="checkbox" id="step-{i}" data-step="{i}"> <label for="step-{i}">'
                    f'{with_math(step)}</label></li>' for i, step in enumerate(CHECKLIST, start=1))
    return f'<ol class="attnlab-checklist" aria-label="Procedure checklist">{items}</ol>\n'


LAB_STYLES, PLANE_SCRIPT = "assets/lab.css", "assets/value-plane.js"
LAB_SCRIPTS: tuple[str, ...] = ("assets/lab-data.js", "assets/attnlab.js", PLANE_SCRIPT, "assets/lab-ui.js")
"""The lab's stylesheet, and its scripts in the order they must run (relative to a page at the site's root)."""


def lab(name: str = "Interactive attention lab", start: Mapping[str, Any] | None = None,
        compact: bool = False, assets: bool = True) -> str:
    """The browser lab's placeholder from the controls ``start`` (checked here); a ``compact`` one has no value
    plane, and ``assets=False`` leaves the stylesheet and scripts to the page's first lab."""
    given = dict(start or {})
    checked = controls(given)  # refused here, naming the control, rather than in the reader's browser
    begin = escape(json.dumps({key: checked[key] for key in given}, separators=(",", ":")), quote=True)
    scripts = [src for src in LAB_SCRIPTS if assets and not (compact and src == PLANE_SCRIPT)]
    return ((f'<link rel="stylesheet" href="{LAB_STYLES}">' if assets else "")
            + f'<div class="attnlab-lab" role="region" aria-label="{escape(name, quote=True)}" data-start="{begin}">'
            "<noscript>The lab needs JavaScript; the tables show the same numbers.</noscript>"
            + ("" if compact else live_plane())
            + "".join(f'<script src="{src}"></script>' for src in scripts) + "</div>\n")


def reading() -> str:
    """A placeholder for the home page's "n of N chapters read" and its reset; says so when JavaScript is off."""
    return ('<div class="attnlab-reading" role="region" aria-label="Your reading progress"><noscript>Progress '
            "through the chapters is kept by JavaScript in this browser.</noscript></div>\n")


def download() -> str:
    """A link to the offline copy (``attnlab.site.build.offline``); the page's script adds its size."""
    return (f'<p class="attnlab-download"><a class="md-button" href="{escape(archive_name())}" download '
            'data-attnlab-download>Download the whole guide to read offline <span data-attnlab-download-size></span>'
            "</a></p>\n")
