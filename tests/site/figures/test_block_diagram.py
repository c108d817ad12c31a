"""The encoder-block diagram: well-formed, labelled for screen readers, free of numbers."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from attnlab.site.figures.tables import BLOCK_STEPS, block_diagram

SVG = "{http://www.w3.org/2000/svg}"


def svg_of(order: str) -> ET.Element:
    """The <svg> element of the diagram for one layer-norm order."""
    return ET.fromstring(block_diagram(order)).find(f"{SVG}svg")


@pytest.mark.parametrize("order", ["post", "pre"])
def test_diagram_is_labelled_by_its_title_and_description(order: str) -> None:
    svg = svg_of(order)
    ids = {el.get("id") for el in svg if el.tag in (f"{SVG}title", f"{SVG}desc")}
    assert svg.get("role") == "img"
    assert set(svg.get("aria-labelledby").split()) == ids and len(ids) == 2


@pytest.mark.parametrize("order", ["post", "pre"])
def test_diagram_text_has_no_numbers(order: str) -> None:
    text = " ".join(ET.fromstring(block_diagram(order)).itertext())
    assert not re.search(r"\d", text)


@pytest.mark.parametrize("order", ["post", "pre"])
def test_diagram_has_one_residual_addition_per_sublayer(order: str) -> None:
    svg = svg_of(order)
    assert len(svg.findall(f"{SVG}polyline")) == 2
    assert sum(kind == "add" for kind, _ in BLOCK_STEPS[order]) == 2


def test_pre_ln_normalises_before_attention_and_post_ln_after() -> None:
    labels = {order: [label for kind, label in BLOCK_STEPS[order] if kind == "box"] for order in BLOCK_STEPS}
    assert labels["pre"].index("Layer norm") < labels["pre"].index("Multi-head self-attention")
    assert labels["post"].index("Layer norm") > labels["post"].index("Multi-head self-attention")


def test_a_pre_ln_stack_ends_with_one_more_layer_norm_and_post_ln_with_its_own() -> None:
    assert BLOCK_STEPS["pre"][-2] == ("final", "Layer norm, after the last block")
    assert BLOCK_STEPS["post"][-2] == ("box", "Layer norm")
    assert 'stroke-dasharray="2 3"' in block_diagram("pre") and 'stroke-dasharray="2 3"' not in block_diagram("post")


def test_diagram_loads_nothing_from_elsewhere() -> None:
    markup = block_diagram("post") + block_diagram("pre")
    assert "http://www.w3.org/2000/svg" in markup
    assert not re.search(r"(href|src)=", markup)


def test_unknown_order_is_rejected_by_name() -> None:
    with pytest.raises(ValueError, match="order must be one of"):
        block_diagram("sandwich")
