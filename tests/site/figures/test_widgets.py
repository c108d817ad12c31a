"""The lab's placeholder (``attnlab.site.figures.widgets.lab``): its name, where it starts, what it loads."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from attnlab.site.figures.widgets import LAB_SCRIPTS, LAB_STYLES, PLANE_SCRIPT, lab


def start_of(html: str) -> dict:
    """The controls a lab's markup says it starts from."""
    found = re.search(r'data-start="([^"]*)"', html)
    assert found, "a lab says where it starts"
    return json.loads(unescape(found.group(1)))


def test_a_lab_starts_from_the_controls_it_is_given_checked_at_build_time_as_python_checks_them() -> None:
    # the rest are the toy's defaults, which lab-ui.js fills in from assets/lab-data.js
    assert start_of(lab(start={"token": "grid", "causal": False})) == {"token": "grid", "causal": False}
    assert start_of(lab()) == {}
    assert start_of(lab(start={"query_scale": 2})) == {"query_scale": 2.0}
    with pytest.raises(ValueError, match="token must be one of"):
        lab(start={"token": "sun"})
    with pytest.raises(TypeError, match="scale_scores must be a boolean"):
        lab(start={"scale_scores": "no"})
    assert 'aria-label="Lab for &quot;experiment&quot; 1"' in lab('Lab for "experiment" 1')


def test_a_full_lab_loads_everything_a_compact_one_leaves_the_plane_out_and_a_later_one_the_assets() -> None:
    html = lab()
    assert f'<link rel="stylesheet" href="{LAB_STYLES}">' in html and "attnlab-plane-template" in html
    assert re.findall(r'<script src="([^"]*)"></script>', html) == list(LAB_SCRIPTS)
    html = lab(compact=True)
    assert "attnlab-plane-template" not in html
    assert re.findall(r'<script src="([^"]*)"></script>', html) == [s for s in LAB_SCRIPTS if s != PLANE_SCRIPT]
    html = lab(compact=True, assets=False)
    assert "<script" not in html and "<link" not in html and 'class="attnlab-lab"' in html
