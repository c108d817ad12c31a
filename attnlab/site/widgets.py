"""HTML for the interactive pieces a chapter embeds: the lab and the checklist.

The markup works without JavaScript (the checklist is a plain list of
checkboxes); ``docs/assets/lab-ui.js`` brings it to life.
"""

from __future__ import annotations

from html import escape

from attnlab.site.plane import live_plane

CHECKLIST: tuple[str, ...] = (
    "Shapes fit: queries and keys share d_k; keys and values share m rows",
    "Project the rows to Q, K and V",
    "Take raw scores Q Kᵀ",
    "Scale by 1/√d_k",
    "Remove blocked keys",
    "Subtract the row maximum and exponentiate",
    "Normalise so each row sums to one",
    "Mix the values and check the output lies in the visible values' range",
)
"""The eight-step procedure a reader ticks off (BRIEF: procedure checklist)."""


def checklist() -> str:
    """The eight steps as a list of labelled checkboxes with stable ids."""
    items = "".join(
        f'<li><input type="checkbox" id="step-{i}" data-step="{i}">'
        f' <label for="step-{i}">{escape(step)}</label></li>'
        for i, step in enumerate(CHECKLIST, start=1)
    )
    return f'<ol class="attnlab-checklist" aria-label="Procedure checklist">{items}</ol>\n'


PLANE_SCRIPT = "assets/value-plane.js"
"""The live plane's script, relative to a page (pages sit at the site's root: ``use_directory_urls: false``)."""


def lab() -> str:
    """A placeholder the browser lab fills in; says so when JavaScript is off.

    It holds the value plane's axes and frame, drawn at build time, in an
    inert ``<template>``, and loads the plane's script: only pages with a
    lab fetch it (``lab-ui.js``, on every page, starts the lab after it).
    """
    return ('<div class="attnlab-lab" role="region" aria-label="Interactive attention lab">'
            "<noscript>The interactive lab needs JavaScript; the tables on this page show the same numbers.</noscript>"
            f'{live_plane()}<script src="{PLANE_SCRIPT}"></script></div>\n')
