"""What the lab draws beside its numbers: the selected row in the map, the value plane, the steps on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from attnlab.lab import TOKENS, compute
from attnlab.site.figures.plane import geometry, lab_frame

from .labpage import open_lab, set_controls

PLANE = """lab => {
    const plane = lab.querySelector('[data-testid="plane"] svg');
    const at = el => [Number(el.getAttribute("cx")), Number(el.getAttribute("cy")), Number(el.getAttribute("r"))];
    const box = plane.querySelector('[data-testid="plane-output"]').getBBox();
    return {
        values: [0, 1, 2].map(j => at(plane.querySelector(`[data-testid="plane-value-${j}"]`))),
        output: [box.x + box.width / 2, box.y + box.height / 2],
        hull: plane.querySelector(".attnlab-plane-hull").getAttribute("points").trim().split(/\\s+/)
            .filter(Boolean).map(p => p.split(",").map(Number)),
        labels: Array.from(plane.querySelectorAll("[data-marks] text"), t => t.textContent),
        hollow: Array.from(plane.querySelectorAll(".attnlab-plane-blocked"), c => c.dataset.testid),
    };
}"""
SELECTED = """lab => Array.from(lab.querySelectorAll('[data-testid^="map-row-"]'), r => [r.dataset.testid,
    r.matches('tr.attnlab-selected') + r.matches('[aria-current="true"]'),
    getComputedStyle(r.querySelector('td')).boxShadow])"""
"""Each row of the weight map: its test id, its marks as selected (class and aria-current), its first cell's frame."""
IN_VIEW = "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"


def test_the_plane_draws_each_mark_where_python_does_in_a_named_picture_and_the_map_frames_the_query_row(
        page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    plane = lab.get_by_test_id("plane").locator("svg")
    expect(plane).to_have_attribute("role", "img")
    expect(plane).to_have_accessible_name("Value plane of the selected query")
    # (token, query_scale, causal, value_y); the second moves the value slider alone, which moves the output
    for controls in [("rises", 1.0, True, 2.0), ("rises", 1.0, True, 5.0), ("grid", 3.0, True, -4.0),
                     ("load", 0.0, False, 6.0), ("rises", 8.0, False, 0.0)]:
        set_controls(lab, *controls)
        drawn = lab.evaluate(PLANE)
        r = compute(*controls)
        g = geometry(r, lab_frame())
        for (x, y, radius), (px, py), pr in zip(drawn["values"], g["values"], g["radii"]):
            assert (x, y, radius) == pytest.approx((px, py, pr), abs=0.051)
        assert drawn["output"] == pytest.approx(g["output"], abs=0.051)
        assert [c for p in drawn["hull"] for c in p] == pytest.approx([c for p in g["hull"] for c in p], abs=0.051)
        assert drawn["labels"] == [label["text"] for label in g["labels"]]
        assert drawn["hollow"] == [f"plane-value-{j}" for j, seen in enumerate(r.visible) if not seen]
        rows = lab.evaluate(SELECTED)  # the selected row alone is framed, not by colour alone
        assert [(name, marks) for name, marks, _ in rows if marks] == [(f"map-row-{TOKENS.index(r.token)}", 2)]
        assert all(("3px" in frame) == bool(marks) and (marks or frame == "none") for _, marks, frame in rows)


def test_the_steps_fit_a_phone_as_labelled_cells_and_a_desktop_as_a_table(page: Page, site_url: str) -> None:
    page.set_viewport_size({"width": 390, "height": 800})
    lab = open_lab(page, site_url)
    steps = lab.locator(".attnlab-steps")
    box = steps.evaluate("t => { const b = t.parentElement; return [b.scrollWidth, b.clientWidth]; }")
    assert box[0] <= box[1], "the steps table needs sideways scrolling"
    cells = steps.evaluate("t => Array.from(t.querySelectorAll('tbody td'), c => c.getBoundingClientRect())"
                           ".map(r => [r.left, r.right])")
    assert len(cells) == 3 * 8 and all(0 <= left and right <= 390 for left, right in cells)
    labels = steps.evaluate("t => Array.from(t.querySelectorAll('tbody tr:first-child td'),"
                            " c => getComputedStyle(c, '::before').content)")
    assert labels == ['"key"', '"raw score"', '"scaled score"', '"visible"', '"exp(s − max)"', '"weight"',
                      '"value"', '"weight × value"']
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(steps).to_have_css("display", "table")
    assert steps.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")


def test_on_a_desktop_the_pictures_stay_in_view_beside_a_moving_slider(page: Page, site_url: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    for path, pictures in [("lab.html", ("weight-map", "plane")), ("experiments.html", ("weight-map",))]:
        lab = open_lab(page, site_url, path)
        slider = lab.get_by_test_id("query-scale")
        # the reader brings the controls to the top of the screen, under the theme's header
        slider.evaluate("el => { el.closest('form').scrollIntoView({block: 'start'}); scrollBy(0, -60); }")
        slider.focus()
        page.keyboard.press("ArrowRight")
        beside = [lab.get_by_test_id(name).evaluate("el => el.getBoundingClientRect().left") for name in pictures]
        assert all(left > slider.evaluate("el => el.getBoundingClientRect().right") for left in beside), path
        assert all(lab.get_by_test_id(name).evaluate(IN_VIEW) for name in (*pictures, "query-scale")), path
