"""What every figure shares (``attnlab.site.figures.svg``): a named, described picture that carries its numbers."""

from __future__ import annotations

import json
from xml.etree import ElementTree

import pytest
from pictures import SVG

from attnlab.site.figures.svg import MIN_TEXT, PHONE_COLUMN, figure, legend_bar, min_font, num, svg_image, text, upright


def test_min_font_is_eleven_up_to_the_phone_column_and_grows_with_the_shrink_a_wider_picture_suffers() -> None:
    assert min_font(PHONE_COLUMN) == MIN_TEXT == 11 and min_font(200) == 11
    assert min_font(400) == 13 and min_font(716) == 22  # 11 × 400 / 358 = 12.3
    assert (num(1.26), num(-0.04), num(3)) == ("1.3", "0.0", "3.0")


def test_text_escapes_its_content_sets_the_size_and_lowers_subscripts_at_its_own_size() -> None:
    element = ElementTree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{text(1, 2, "a < b", 13)}</svg>')
    label = element.find(f"{SVG}text")
    assert (label.text, label.get("font-size"), label.get("x")) == ("a < b", "13", "1.0")
    drawn = ElementTree.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{text(0, 0, "× W_Q (d_model)", 13)}</svg>')
    label = drawn.find(f"{SVG}text")
    assert [(s.text, s.get("baseline-shift"), s.get("font-size")) for s in label] == [("Q", "sub", None),
                                                                                      ("model", "sub", None)]
    assert "".join(label.itertext()) == "× WQ (dmodel)" and label.get("font-size") == "13"
    assert text(0, 0, "a < b_", 12).endswith(">a &lt; b_</text>")
    assert ' text-anchor="middle" transform="translate(13 50.0) rotate(-90)">y' in upright(13, "50.0", "y", 12)


def test_a_picture_scales_from_its_view_box_and_needs_a_title_and_a_description() -> None:
    # named by its title, described by its desc: test_figures_site.test_every_picture_is_an_image_named_and_described
    svg = ElementTree.fromstring(svg_image("p", "Name", "What it shows.", 100, 50, ""))
    assert (svg.get("viewBox"), svg.get("width")) == ("0 0 100.0 50.0", "100.0")
    for title, desc in [("", "d"), ("t", " ")]:
        with pytest.raises(ValueError, match="needs an ident, a title and a description"):
            svg_image("p", title, desc, 10, 10, "")


def test_figure_carries_its_numbers_as_json_and_has_a_caption_with_formulas_drawn_as_in_the_prose() -> None:
    html = figure("f", "<b>x</b>", "Caption & more", kind="two-weights",
                  values={"weights": [0.25, 0.75], "name": 'a "b"'})
    element = ElementTree.fromstring(html)
    assert json.loads(element.get("data-values")) == {"weights": [0.25, 0.75], "name": 'a "b"'}
    assert (element.get("data-figure"), element.get("class")) == ("two-weights", "attnlab-figure attnlab-two-weights")
    assert (element.get("id"), element.find("figcaption").text) == ("f", "Caption & more")
    assert html.endswith("</figure>\n") and html.count("\n") == 1  # one line: Markdown passes it through
    caption = ElementTree.fromstring(figure("f", "", "then $W_O$ & more", kind="k", values={})).find("figcaption")
    assert caption.text == "then " and caption[0].tag.endswith("math") and caption[0].tail == " & more"


def test_figure_refuses_numbers_that_are_not_finite_and_a_kind_that_is_not_hyphenated_lower_case_words() -> None:
    with pytest.raises(ValueError):
        figure("f", "", "c", kind="k", values={"x": float("nan")})
    for kind in ["", "Two", "two words", "two_words", "-two"]:
        with pytest.raises(ValueError, match="kind"):
            figure("f", "", "c", kind=kind, values={})


def test_legend_bar_draws_its_stops_and_labels_under_the_bar() -> None:
    bar = ElementTree.fromstring(
        f'<svg xmlns="http://www.w3.org/2000/svg">'
        f"{legend_bar('l', 0, 10, 100, [(0, '#ffffff'), (1, '#000000')], [(0.5, 'half')], 13, name='w')}</svg>"
    )
    assert [s.get("stop-color") for s in bar.iter(f"{SVG}stop")] == ["#ffffff", "#000000"]
    rect = next(r for r in bar.iter(f"{SVG}rect") if r.get("fill") == "url(#l-scale)")
    label = next(t for t in bar.iter(f"{SVG}text") if t.text == "half")
    assert float(label.get("x")) == float(rect.get("x")) + 50 and float(label.get("y")) > 10 + 12
