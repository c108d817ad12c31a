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


def test_a_lab_starts_from_the_controls_it_is_given_and_only_those() -> None:
    # the rest are the toy's defaults, which lab-ui.js fills in from assets/lab-data.js
    assert start_of(lab(start={"token": "grid", "causal": False})) == {"token": "grid", "causal": False}
    assert start_of(lab()) == {}


def test_a_starting_control_is_checked_at_build_time_as_python_checks_it() -> None:
    assert start_of(lab(start={"query_scale": 2})) == {"query_scale": 2.0}
    with pytest.raises(ValueError, match="token must be one of"):
        lab(start={"token": "sun"})
    with pytest.raises(TypeError, match="scale_scores must be a boolean"):
        lab(start={"scale_scores": "no"})


def test_each_lab_carries_its_own_name() -> None:
    assert 'aria-label="Lab for &quot;experiment&quot; 1"' in lab('Lab for "experiment" 1')


def test_a_full_lab_loads_everything_and_holds_the_planes_template() -> None:
    html = lab()
    assert f'<link rel="stylesheet" href="{LAB_STYLES}">' in html and "attnlab-plane-template" in html
    assert re.findall(r'<script src="([^"]*)"></script>', html) == list(LAB_SCRIPTS)


def test_a_compact_lab_leaves_the_plane_out() -> None:
    html = lab(compact=True)
    assert "attnlab-plane-template" not in html
    assert re.findall(r'<script src="([^"]*)"></script>', html) == [s for s in LAB_SCRIPTS if s != PLANE_SCRIPT]


def test_a_later_lab_can_leave_the_assets_to_the_first() -> None:
    html = lab(compact=True, assets=False)
    assert "<script" not in html and "<link" not in html and 'class="attnlab-lab"' in html
