"""The diagrams (``attnlab.site.figures.flow``): every shape and weight they draw is what a real run produced."""

from __future__ import annotations

import json
import re
from xml.etree import ElementTree

import numpy as np
import pytest
from pictures import SVG, texts

from attnlab import Head, MultiHeadParams, causal, multi_head
from attnlab.lab import TOKENS, W_K, W_Q, W_V, X, compute
from attnlab.layers import init_multi_head
from attnlab.site.figures import flow
from attnlab.site.figures.svg import MIN_TEXT, PHONE_COLUMN, min_font


def head(w_v: object = W_V) -> ElementTree.Element:
    return ElementTree.fromstring(flow.head_flow(X, W_Q, W_K, w_v, causal(len(TOKENS)), ident="f", caption="Head"))


def carried(html: str) -> dict:
    return json.loads(ElementTree.fromstring(html).get("data-values"))


def smallest_font(figure: ElementTree.Element | str) -> float:
    """The smallest text of a figure, in CSS pixels, once its widest picture shrinks to a phone's column."""
    element = ElementTree.fromstring(figure) if isinstance(figure, str) else figure
    return min(float(t.get("font-size")) * min(1.0, PHONE_COLUMN / float(svg.get("width")))
               for svg in element.iter(f"{SVG}svg") for t in svg.iter(f"{SVG}text"))


def test_every_step_of_the_head_is_drawn_in_order_each_arrow_labelled_and_carried_with_its_shape() -> None:
    shown = texts(figure := head())
    steps = ["X, the input rows", "× W_Q", "× W_K", "× W_V", "Q Kᵀ", "÷ √d_k (d_k = 2)", "mask the blocked keys",
             "softmax, row by row", "× V: mix the values", "output rows"]
    assert [t for t in shown if t in steps] == steps
    assert {"Q 3 × 2", "K 3 × 2", "V 3 × 2", "scores 3 × 3", "scaled 3 × 3", "masked 3 × 3", "weights 3 × 3",
            "output 3 × 2"} <= set(shown)
    desc = figure.find(f"{SVG}svg").find(f"{SVG}desc").text
    assert "Q (3 × 2)" in desc and "weights (3 × 3)" in desc and "d_k = 2" in desc


def test_a_wider_w_v_widens_the_value_and_output_arrows_and_their_glyphs_of_at_most_8_cells_a_side() -> None:
    wider = head([[1.0, 0.0, 1.0], [0.0, 2.0, 1.0]])  # d_v = 3
    assert {"V 3 × 3", "output 3 × 3", "Q 3 × 2", "scores 3 × 3"} <= set(texts(wider))
    assert json.loads(wider.get("data-values"))["shapes"]["output"] == [3, 3]

    def cells(element: ElementTree.Element) -> int:
        return sum(len(g.findall(f"{SVG}rect")) for g in element.iter(f"{SVG}g"))

    assert cells(wider) - cells(head()) == 3 + 3  # one more column on V and on the output
    assert len(re.findall("<rect", flow.glyph(0, 0, (100, 5)))) == flow.MOST_CELLS * 5  # at most 8 a side
    with pytest.raises(ValueError, match="width"):  # shapes that do not fit are refused by attention
        flow.head_flow(X, W_Q, np.ones((2, 3)), W_V, ident="f", caption="c")


def test_the_masking_figure_writes_minus_infinity_left_zero_right() -> None:
    html = flow.masking_flow([compute(t).scaled for t in TOKENS], causal(3), TOKENS, ident="m", caption="c")
    shown = texts(html)
    assert shown.count("−∞") == shown.count("0") - 1 == 3  # the triangle above the diagonal, each side; legend 0
    # the weights it carries: test_figures_site.masked_scores
    assert "weight" in shown and "blocked" in shown
    assert html.count('fill="url(#m-blocked)"') == 3 + 3 + 1 and '<pattern id="m-blocked"' in html  # and the legend


def test_each_head_shows_its_own_weights_the_concatenation_its_width_and_more_heads_widen_the_picture() -> None:
    toy = Head(np.array(W_Q), np.array(W_K), np.array(W_V))
    other = init_multi_head(np.random.default_rng(1), d_model=2, n_heads=1, d_k=2, d_v=3).heads[0]
    params = MultiHeadParams((toy, other), np.ones((5, 2)))
    html = flow.heads_flow(X, params, causal(3), tokens=TOKENS, ident="h", caption="c")
    run = multi_head(X, X, params, causal(3))
    values = carried(html)  # each head's weights: test_figures_site.heads_flow
    assert values["shapes"] == {"concat": [3, 5], "output": [3, 2]} and values["heads"][1]["w_v"] == other.w_v.tolist()
    shown = texts(html)
    assert {"concatenate: 3 × 5", "× W_O (5 × 2)", "output 3 × 2", "2 × 2; V 2 × 3", "× V: output 3 × 3"} <= set(shown)
    assert [f"{w:.2f}" for w in run.heads[1].weights[2]] == [t for t in shown if re.fullmatch(r"\d\.\d\d", t)][-3:]
    assert html.count('fill="url(#h-blocked)"') == 2 * 3 + 1  # each head's hidden triangle, and the legend
    more = flow.heads_flow(X, init_multi_head(np.random.default_rng(2), d_model=2, n_heads=4, d_k=2, d_v=2),
                           tokens=TOKENS, ident="h", caption="c")
    assert float(ElementTree.fromstring(more).find(f"{SVG}svg").get("width")) > flow.WIDTH  # more heads, wider
    assert "blocked" not in texts(more)  # nothing is masked, so the legend has no hatching


def test_the_block_figure_draws_both_orders_and_loads_nothing() -> None:
    html = flow.block_flow(ident="b", caption="c")
    pictures = ElementTree.fromstring(html).findall(f".//{SVG}svg")
    assert [p.find(f"{SVG}title").text for p in pictures] == ["Encoder block, Post-LN (the original order)",
                                                             "Encoder block, Pre-LN (a later variant)"]
    assert not re.search(r"\d", " ".join(texts(html)))
    assert not re.search(r"(href|src)=", html.replace('href="http://www.w3.org', ""))
    assert html.count('stroke-dasharray="2 3"') == 1 and "Layer norm, after the last block" in html


def test_the_whole_model_names_its_sizes_as_symbols_by_default_and_keeps_its_text_readable() -> None:
    html = flow.model_flow(ident="w", caption="c")
    assert carried(html)["sizes"] == flow.SYMBOLS  # and every shape carried: test_figures_site.model_flow
    assert {"N ×", "cross-attention", "causal self-attention", "softmax", "n × V"} <= set(texts(html))
    assert flow.MODEL_FONT == min_font(flow.MODEL_WIDTH)


def test_the_whole_model_draws_a_real_encoders_numbers_and_bert_its_token_types_and_embedding_norm() -> None:
    sizes = {"N": 6, "heads": 12, "d_model": 384, "source": "n", "vocabulary": 30522, "positions": 512}
    shown = texts(flow.model_flow(sizes, decoder=False, pooling="mean", ident="w", caption="c"))
    assert {"6 ×", "n × 384", "1 × 384", "encoder block, 12 heads", "embed + positions (up to 512)"} <= set(shown)
    assert "cross-attention" not in shown and "softmax" not in shown and "layer norm" not in shown
    html = flow.model_flow({**sizes, "token_types": 2}, decoder=False, pooling="mean", embedding_norm=True,
                           ident="w", caption="c")
    assert {"embed + positions (up to 512) + token type (of 2)", "layer norm", "n × 384"} <= set(texts(html))


def test_the_whole_model_refuses_missing_sizes_and_an_encoder_without_pooling() -> None:
    for missing in ("vocabulary", "target"):  # the decoder's target is read too, never drawn as None
        with pytest.raises(KeyError, match=missing):
            flow.model_flow({k: v for k, v in flow.SYMBOLS.items() if k != missing}, ident="w", caption="c")
    with pytest.raises(ValueError, match="pooling"):
        flow.model_flow(decoder=False, ident="w", caption="c")


def test_each_position_reads_what_the_one_before_must_predict_at_11_px_on_a_phone() -> None:
    html = flow.shifted_targets(["A", "B", "⟨end⟩"], ident="s", caption="c")
    assert (carried(html)["reads"], carried(html)["target"]) == (["⟨start⟩", "A", "B"], ["A", "B", "⟨end⟩"])
    assert [t for t in texts(html) if t.startswith("position")] == ["position 1", "position 2", "position 3"]
    for length in (2, 3, 4, 5):
        assert smallest_font(flow.shifted_targets([*"ABCD"[:length - 1], "⟨end⟩"], ident="s", caption="c")) >= MIN_TEXT
    with pytest.raises(ValueError, match="followed by ⟨end⟩"):
        flow.shifted_targets(["A", "B"], ident="s", caption="c")
