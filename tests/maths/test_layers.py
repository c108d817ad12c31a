"""``attnlab.layers``: positions, layer norm, FFN, several heads, the encoder block, cross-attention."""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnlab import EncoderBlockParams, FeedForwardParams, Head, LayerNormParams, MultiHeadParams, attention, relu
from attnlab.layers import (
    cross_attention,
    encoder_block,
    encoder_block_steps,
    feed_forward,
    init_encoder_block,
    layer_norm,
    multi_head,
    positional_encoding,
)

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
I2 = np.eye(2)
FLOAT = st.floats(allow_nan=False, allow_infinity=False)


def rows(seed: int, n: int, width: int) -> np.ndarray:
    """Seeded random token rows for the shape and order tests."""
    return np.random.default_rng(seed).standard_normal((n, width)) * 3.0


def test_positional_encoding_by_hand() -> None:
    assert positional_encoding(1, 2).tolist() == [[0.0, 1.0]]
    assert positional_encoding(2, 2)[1].tolist() == [math.sin(1), math.cos(1)]
    # PE[1, 2] = sin(1 / 10000^(2/4)) = sin(1/100), PE[1, 3] = cos(1/100)
    np.testing.assert_allclose(positional_encoding(2, 4)[1], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)],
                               rtol=1e-15)
    assert positional_encoding(7, 5).shape == (7, 5)


def test_layer_norm_by_hand_for_ordinary_huge_and_tiny_entries() -> None:
    # mean 2, population variance ((1-2)² + (3-2)²) / 2 = 1
    np.testing.assert_allclose(layer_norm([1.0, 3.0]), np.array([-1, 1]) / math.sqrt(1 + 1e-5), rtol=1e-15)
    assert layer_norm([1.0, 3.0], eps=0.0).tolist() == [-1.0, 1.0]
    assert layer_norm([1.0, 3.0], gain=[2.0, 3.0], bias=[1.0, -1.0], eps=0.0).tolist() == [2 * -1 + 1, 3 * 1 - 1]
    # row 2 is row 1 shifted and doubled: each row is normalised over its own features
    assert layer_norm([[1.0, 3.0], [12.0, 16.0]], eps=0.0).tolist() == [[-1.0, 1.0], [-1.0, 1.0]]
    assert layer_norm([[5.0, 5.0, 5.0]], bias=[1.0, 2.0, 3.0]).tolist() == [[1.0, 2.0, 3.0]]
    # variance 1e400 is beyond float64, yet the normalised row is [-1, 1]
    np.testing.assert_allclose(layer_norm([-1e200, 1e200]), [-1.0, 1.0], rtol=1e-15)
    assert layer_norm([1e308, 1e308]).tolist() == [0.0, 0.0]
    # mean 1.5e-300, variance 0.25e-600: eps dominates, (x - mean) / sqrt(eps)
    np.testing.assert_allclose(layer_norm([1e-300, 2e-300], eps=1e-5),
                               np.array([-0.5e-300, 0.5e-300]) / math.sqrt(1e-5), rtol=1e-12)


@given(st.data(), st.integers(1, 4), st.integers(1, 8), st.sampled_from([0.0, 1e-12, 1e-5, 1.0]), st.booleans())
def test_layer_norm_of_any_finite_rows_is_silent_and_within_root_width_or_with_gain_and_bias_finite_or_refused(
        data: st.DataObject, n: int, width: int, eps: float, affine: bool) -> None:
    x = data.draw(arrays(np.float64, (n, width), elements=FLOAT))
    if eps == 0.0 and (x == x[:, :1]).all(axis=1).any():
        eps = 1e-5  # a constant row with eps 0 is refused (the table of refusals below)
    gain, bias = (data.draw(arrays(np.float64, width, elements=FLOAT)) if affine else None for _ in "gb")
    try:
        with warnings.catch_warnings(), np.errstate(over="raise", divide="raise", invalid="raise"):
            warnings.simplefilter("error")
            out = layer_norm(x, gain, bias, eps)
    except ValueError as error:
        assert affine and "gain and bias entries are too large" in str(error)
    else:
        assert np.isfinite(out).all() and (affine or (np.abs(out) <= math.sqrt(width) * (1 + 1e-12)).all())


def test_feed_forward_by_hand() -> None:
    assert relu(np.array([-2.0, 0.0, 3.0])).tolist() == [0.0, 0.0, 3.0]
    # [1, -1] @ I + 0 = [1, -1]; relu -> [1, 0]; @ [[2], [3]] = [2]; + 0.5 = 2.5
    params = FeedForwardParams(I2, np.zeros(2), np.array([[2.0], [3.0]]), np.array([0.5]))
    assert feed_forward([[1.0, -1.0]], params).tolist() == [[2.5]]  # row by row: test_properties.py


def identity_heads(count: int) -> MultiHeadParams:
    """``count`` heads with identity projections and W_O = I (2·count × 2·count)."""
    return MultiHeadParams(tuple(Head(I2, I2, I2) for _ in range(count)), np.eye(2 * count))


def test_multi_head_is_the_heads_side_by_side_through_w_o() -> None:
    single = attention(X, X, X).output
    np.testing.assert_array_equal(multi_head(X, X, identity_heads(1)).output, single)
    two = multi_head(X, X, identity_heads(2))
    np.testing.assert_array_equal(two.concat, np.hstack([single, single]))
    w_o = np.array([[1.0], [0.0], [0.0], [2.0]])
    np.testing.assert_allclose(multi_head(X, X, dataclasses.replace(identity_heads(2), w_o=w_o)).output,
                               two.concat @ w_o, rtol=1e-15)
    heads = tuple(Head(np.ones((4, 2)), np.ones((4, 2)), np.ones((4, 3))) for _ in range(3))
    result = multi_head(np.ones((5, 4)), np.ones((5, 4)), MultiHeadParams(heads, np.ones((9, 4))))
    assert (result.concat.shape, result.output.shape) == ((5, 3 * 3), (5, 4))
    with pytest.raises(ValueError, match="read-only"):
        result.output[0, 0] = 1.0


def test_cross_attention_is_decoder_rows_by_encoder_keys() -> None:
    result = cross_attention(rows(1, 2, 4), rows(2, 5, 4), init_encoder_block(0).attention)
    assert result.output.shape == (2, 4) and [h.weights.shape for h in result.heads] == [(2, 5), (2, 5)]
    # zero decoder queries: uniform weights, so each head's output is the mean of the encoder's values
    encoder = rows(2, 5, 2)
    np.testing.assert_allclose(cross_attention(np.zeros((2, 2)), encoder, identity_heads(1)).output,
                               np.tile(encoder.mean(axis=0), (2, 1)), rtol=1e-14)


def test_post_ln_is_the_default_and_normalises_its_output_pre_ln_does_not_from_a_seeded_block() -> None:
    x, params = rows(6, 5, 4), init_encoder_block(2)
    post, pre = encoder_block(x, params), encoder_block(x, params, order="pre")
    np.testing.assert_array_equal(post, encoder_block(x, params, order="post"))
    assert post.shape == pre.shape == (5, 4)
    np.testing.assert_allclose(post.mean(axis=1), 0.0, atol=1e-12)
    np.testing.assert_allclose(post.var(axis=1), 1.0, atol=1e-3)
    assert not np.allclose(pre.mean(axis=1), 0.0, atol=1e-3) or not np.allclose(pre.var(axis=1), 1.0, atol=1e-3)
    assert not np.allclose(post, pre)
    np.testing.assert_array_equal(encoder_block(x, init_encoder_block(2)), post)  # reproducible from its seed


def test_with_silent_sublayers_pre_ln_returns_x_and_post_ln_normalises_it_twice() -> None:
    # attention (W_O = 0) and feed-forward (all zeros) add nothing
    zero_ffn = FeedForwardParams(np.zeros((2, 3)), np.zeros(3), np.zeros((3, 2)), np.zeros(2))
    silent = [EncoderBlockParams(MultiHeadParams((Head(I2, I2, I2),), np.zeros((2, 2))), zero_ffn, unit, unit)
              for unit in (LayerNormParams(np.ones(2), np.zeros(2), eps) for eps in (1e-5, 0.0))]
    x = np.array([[1.0, 3.0], [0.0, 5.0]])
    assert encoder_block(x, silent[0], order="pre").tolist() == x.tolist()
    # [1, 3] -> [-1, 1] -> [-1, 1]; [0, 5] -> [-1, 1]
    assert encoder_block(x, silent[1], order="post").tolist() == [[-1.0, 1.0], [-1.0, 1.0]]


def test_encoder_block_steps_returns_the_output_and_the_heads_the_block_computed() -> None:
    x, params = rows(4, 3, 4), init_encoder_block(5)
    for order in ("post", "pre"):
        output, heads = encoder_block_steps(x, params, order=order)
        np.testing.assert_array_equal(output, encoder_block(x, params, order=order))
        inner = x if order == "post" else layer_norm(x, params.norm1.gain, params.norm1.bias, params.norm1.eps)
        np.testing.assert_array_equal(heads.output, multi_head(inner, inner, params.attention).output)


def test_what_does_not_fit_a_layer_is_refused_naming_it() -> None:
    ffn = FeedForwardParams(I2, np.zeros(2), np.array([[2.0], [3.0]]), np.array([0.5]))
    # zero queries: each head's output is the mean of the values, here rows near 1.5e308 each
    unit = LayerNormParams(np.ones(2), np.zeros(2))
    block = EncoderBlockParams(MultiHeadParams((Head(np.zeros((2, 2)), I2, I2),), I2),
                               FeedForwardParams(I2, np.zeros(2), I2, np.zeros(2)), unit, unit)
    huge = 1e308 * np.array([[1.0, 1.0], [1.0, 1.0]])
    for call, message in [
        (lambda: layer_norm([1.0, 3.0], gain=[1.0, 1.0, 1.0]), r"gain must have shape \(2,\) to match x, got \(3,\)"),
        (lambda: layer_norm([1.0, 3.0], eps=-1e-5), "eps must be non-negative"),
        (lambda: layer_norm([2.0, 2.0], eps=0.0), "zero variance and eps is 0"),
        (lambda: feed_forward([[1.0, -1.0]], dataclasses.replace(ffn, b1=np.zeros(3))),
         r"b1 must have shape \(2,\) to match w1, got \(3,\)"),
        (lambda: feed_forward([[1.0, -1.0]], dataclasses.replace(ffn, b2=np.zeros(2))),
         r"b2 must have shape \(1,\) to match w2, got \(2,\)"),
        (lambda: feed_forward([[1e308, 0.0]], FeedForwardParams(I2, np.array([1.7e308, 0.0]), I2, np.zeros(2))),
         r"x @ w1 \+ b1 overflow float64: x @ w1 and b1 entries are too large"),
        (lambda: feed_forward(np.ones((2, 3)), init_encoder_block(0).ffn), "x has width 3 but w1 has 4 rows"),
        (lambda: feed_forward([[1.0, -1.0]], ffn, activation=lambda x: x * np.nan),
         r"<lambda>\(x @ w1 \+ b1\) has a non-finite entry nan"),
        (lambda: multi_head(X, X, MultiHeadParams((Head(I2, I2, I2, b_k=np.zeros(3)),), I2)),
         r"b_k must have shape \(2,\) to match w_k, got \(3,\)"),
        (lambda: multi_head(huge, huge, MultiHeadParams((Head(0 * I2, I2, I2),), I2, b_o=np.array([1.7e308] * 2))),
         r"x @ w_o \+ b_o overflow float64"),
        (lambda: multi_head(X, X, MultiHeadParams((), np.eye(2))), "params.heads is empty"),
        (lambda: multi_head(X, X, MultiHeadParams((Head(I2, I2, I2),) * 2, np.ones((3, 2)))),
         "x has width 4 but w_o has 3 rows"),
        (lambda: encoder_block(rows(0, 2, 4), init_encoder_block(0), order="middle"),  # type: ignore[arg-type]
         "order must be 'post' or 'pre', got 'middle'"),
        (lambda: encoder_block([[1.5e308, 0.0], [1.5e308, 0.0]], block), r"x \+ attention overflow float64"),
        (lambda: init_encoder_block(0, d_model=5, n_heads=2), "d_model=5 must be divisible by n_heads=2"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()
