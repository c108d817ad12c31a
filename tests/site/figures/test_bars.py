"""Bar charts (``attnlab.site.figures.bars``): each bar as long as its number says, the number written beside it."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import numpy as np
import pytest
from pictures import SVG, texts

from attnlab.lab import TOKENS, compute
from attnlab.site.figures.bars import LABEL, NUMBER, Bars, panel, saturation_bars, softmax_steps, weights_and_sizes
from attnlab.site.figures.palette import INDIGO, RUST


def bar_lengths(svg: ElementTree.Element) -> list[float]:
    return [float(r.get("width")) for r in svg.iter(f"{SVG}rect") if r.get("fill") in (INDIGO, RUST)]


def test_a_bar_is_as_long_as_its_share_of_the_panels_scale() -> None:
    drawn, bottom = panel(0, 0, 200, Bars("h", ("a", "b"), (0.5, 1.0), 2.0))
    svg = ElementTree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{drawn}</svg>')
    room = 200 - LABEL - 6 - NUMBER
    assert bar_lengths(svg) == pytest.approx([room / 4, room / 2], abs=0.05)
    assert [t.text for t in svg.iter(f"{SVG}text")] == ["h", "a", "0.500", "b", "1.000"] and bottom > 0


def test_a_panel_refuses_a_bar_outside_its_scale_and_labels_that_do_not_fit_its_values() -> None:
    for values in [(-0.1, 0.5), (0.5, 2.5)]:
        with pytest.raises(ValueError, match="bars run from 0 to 2"):
            panel(0, 0, 200, Bars("h", ("a", "b"), values, 2.0))
    with pytest.raises(ValueError, match=r"must have shape \(2,\) to match its labels, got \(3,\)"):
        panel(0, 0, 200, Bars("h", ("a", "b"), (1, 1, 1), 2.0))


def test_the_softmax_steps_draw_each_multipliers_scores_exponentials_and_weights() -> None:
    figure = ElementTree.fromstring(softmax_steps("rises", (0.5, 2.0), ident="s", caption="c"))
    # each row's numbers from its controls: test_figures_site.softmax_steps
    assert [row["controls"] for row in json.loads(figure.get("data-values"))["rows"]] == [
        dict(compute("rises", query_scale=m).controls) for m in (0.5, 2.0)]
    pictures = figure.findall(f".//{SVG}svg")
    assert len(pictures) == 2
    # one scale per quantity across the pictures: the doubled query's top exponential is the longest bar of all
    lengths = [bar_lengths(p) for p in pictures]
    assert max(lengths[1][3:6]) == max(max(bar) for bar in lengths) and max(lengths[0][3:6]) < max(lengths[1][3:6])


def test_the_weights_beside_their_sizes_share_one_scale_for_both_lengths() -> None:
    figure = ElementTree.fromstring(weights_and_sizes("rises", ident="w", caption="c"))
    lengths = bar_lengths(figure.find(f".//{SVG}svg"))
    values, contributions = lengths[3:6], lengths[6:9]
    r = compute("rises")
    assert np.allclose(np.array(contributions) / np.array(values), r.weights, atol=0.01)
    assert json.loads(figure.get("data-values"))["controls"]["token"] == "rises"
    assert set(TOKENS) <= set(texts(figure))  # each bar labelled with its key


def test_the_saturation_bars_head_each_width_and_need_both_weights_at_each() -> None:
    # what they carry, the draws included, recomputed: test_figures_site.saturation
    html = saturation_bars([2, 8], [0.4, 0.9], [0.3, 0.35], ident="t", caption="c", drawn={"seed": 1})
    assert [t for t in texts(html) if t.startswith("d_k")] == ["d_k = 2", "d_k = 8"]
    with pytest.raises(ValueError, match="one unscaled and one scaled"):
        saturation_bars([2], [0.4, 0.9], [0.3], ident="t", caption="c", drawn={})
