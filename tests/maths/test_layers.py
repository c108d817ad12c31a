"""``attnlab.layers``: positions, layer norm, FFN, several heads, the encoder block, cross-attention."""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnlab.attention import attention
from attnlab.layers import (
    EncoderBlockParams,
    FeedForwardParams,
    Head,
    LayerNormParams,
    MultiHeadParams,
    cross_attention,
    encoder_block,
    encoder_block_steps,
    feed_forward,
    init_encoder_block,
    layer_norm,
    multi_head,
    positional_encoding,
    project_head,
    relu,
)

X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
I2 = np.eye(2)


def rows(seed: int, n: int, width: int) -> np.ndarray:
    """Seeded random token rows for the shape and order tests."""
    return np.random.default_rng(seed).standard_normal((n, width)) * 3.0


# --- positional encoding ----------------------------------------------------------------------


def test_positional_encoding_width_2_position_0_is_0_1() -> None:
    assert positional_encoding(1, 2).tolist() == [[0.0, 1.0]]


def test_positional_encoding_width_2_position_1_is_sin_1_cos_1() -> None:
    assert positional_encoding(2, 2)[1].tolist() == [math.sin(1), math.cos(1)]


def test_positional_encoding_width_4_slows_the_second_pair_by_10000_to_the_half() -> None:
    # PE[1, 2] = sin(1 / 10000^(2/4)) = sin(1/100), PE[1, 3] = cos(1/100)
    np.testing.assert_allclose(positional_encoding(2, 4)[1], [math.sin(1), math.cos(1), math.sin(0.01), math.cos(0.01)],
                               rtol=1e-15)


def test_positional_encoding_has_length_rows_and_d_model_columns() -> None:
    assert positional_encoding(7, 5).shape == (7, 5)


@pytest.mark.parametrize(("args", "name", "error"), [
    ((0, 2), "length", ValueError), ((3, 0), "d_model", ValueError),
    ((2.0, 2), "length", TypeError), ((3, "4"), "d_model", TypeError),
])
def test_positional_encoding_refuses_bad_sizes_naming_them(args: tuple, name: str, error: type) -> None:
    with pytest.raises(error, match=name):
        positional_encoding(*args)


# --- layer norm -------------------------------------------------------------------------------


def test_layer_norm_of_1_3_is_minus_1_plus_1_up_to_eps() -> None:
    # mean 2, population variance ((1-2)² + (3-2)²) / 2 = 1
    eps = 1e-5
    np.testing.assert_allclose(layer_norm([1.0, 3.0]), [-1 / math.sqrt(1 + eps), 1 / math.sqrt(1 + eps)], rtol=1e-15)


def test_layer_norm_with_eps_0_of_1_3_is_exactly_minus_1_plus_1() -> None:
    assert layer_norm([1.0, 3.0], eps=0.0).tolist() == [-1.0, 1.0]


def test_layer_norm_applies_gain_then_bias() -> None:
    assert layer_norm([1.0, 3.0], gain=[2.0, 3.0], bias=[1.0, -1.0], eps=0.0).tolist() == [2 * -1 + 1, 3 * 1 - 1]


def test_layer_norm_normalises_each_row_over_its_own_features() -> None:
    # row 2 is row 1 shifted and doubled: the same normalised row
    out = layer_norm([[1.0, 3.0], [12.0, 16.0]], eps=0.0)
    assert out.tolist() == [[-1.0, 1.0], [-1.0, 1.0]]


def test_layer_norm_of_a_constant_row_is_the_bias() -> None:
    assert layer_norm([[5.0, 5.0, 5.0]], bias=[1.0, 2.0, 3.0]).tolist() == [[1.0, 2.0, 3.0]]


def test_layer_norm_of_huge_entries_is_still_minus_1_plus_1() -> None:
    # mean 0, variance 1e400 (beyond float64): the normalised row is still [-1, 1]
    np.testing.assert_allclose(layer_norm([-1e200, 1e200]), [-1.0, 1.0], rtol=1e-15)


def test_layer_norm_of_a_constant_row_of_the_largest_floats_is_zero_not_nan() -> None:
    assert layer_norm([1e308, 1e308]).tolist() == [0.0, 0.0]


def test_layer_norm_of_tiny_entries_is_dominated_by_eps() -> None:
    # mean 1.5e-300, variance 0.25e-600: (x - mean) / sqrt(eps)
    eps = 1e-5
    np.testing.assert_allclose(
        layer_norm([1e-300, 2e-300], eps=eps), [-0.5e-300 / math.sqrt(eps), 0.5e-300 / math.sqrt(eps)], rtol=1e-12
    )


def test_layer_norm_refuses_gain_of_the_wrong_width_naming_gain() -> None:
    with pytest.raises(ValueError, match=r"gain must have shape \(2,\) to match x, got \(3,\)"):
        layer_norm([1.0, 3.0], gain=[1.0, 1.0, 1.0])


@pytest.mark.parametrize(("gain", "bias"), [([1e308, 1e308], [1e308, 1e308]), ([1.5e308, 1.0], [0.0, 0.0]),
                                           ([1e308, 1e308], [1e308, 1.7e308])])
def test_layer_norm_refuses_gain_and_bias_that_carry_it_past_float64_naming_both(gain: list, bias: list) -> None:
    with pytest.raises(ValueError, match=r"gain \* normalised x \+ bias overflow float64: gain and bias entries"):
        layer_norm([1.0, 3.0, 2.0], gain=[*gain, 1.0], bias=[*bias, 0.0])


FLOAT = st.floats(allow_nan=False, allow_infinity=False)


@settings(deadline=None)
@given(arrays(np.float64, (2, 3), elements=FLOAT), arrays(np.float64, 3, elements=FLOAT),
       arrays(np.float64, 3, elements=FLOAT))
def test_layer_norm_of_any_finite_gain_and_bias_is_finite_or_refused_naming_them(
        x: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            out = layer_norm(x, gain, bias)
    except ValueError as error:
        assert "gain and bias entries are too large" in str(error)
    else:
        assert np.isfinite(out).all()


def test_layer_norm_refuses_a_column_of_gains_naming_gain() -> None:
    with pytest.raises(ValueError, match=r"gain must be 1-D, got shape \(2, 1\)"):
        layer_norm([1.0, 3.0], gain=[[1.0], [1.0]])


def test_layer_norm_refuses_negative_eps_naming_eps() -> None:
    with pytest.raises(ValueError, match="eps must be non-negative"):
        layer_norm([1.0, 3.0], eps=-1e-5)


def test_layer_norm_refuses_zero_eps_with_a_constant_row() -> None:
    with pytest.raises(ValueError, match="zero variance and eps is 0"):
        layer_norm([2.0, 2.0], eps=0.0)


def test_layer_norm_refuses_nan_naming_x() -> None:
    with pytest.raises(ValueError, match="x has a non-finite entry"):
        layer_norm([1.0, math.nan])


# --- feed-forward -----------------------------------------------------------------------------


def test_relu_keeps_positives_and_zeroes_negatives() -> None:
    assert relu(np.array([-2.0, 0.0, 3.0])).tolist() == [0.0, 0.0, 3.0]


def test_feed_forward_by_hand() -> None:
    # [1, -1] @ I + 0 = [1, -1]; relu -> [1, 0]; @ [[2], [3]] = [2]; + 0.5 = 2.5
    params = FeedForwardParams(I2, np.zeros(2), np.array([[2.0], [3.0]]), np.array([0.5]))
    assert feed_forward([[1.0, -1.0]], params).tolist() == [[2.5]]


def test_feed_forward_acts_on_each_row_independently() -> None:
    params = init_encoder_block(3).ffn
    x = rows(4, 5, 4)
    order = [3, 0, 4, 1, 2]
    np.testing.assert_allclose(feed_forward(x[order], params), feed_forward(x, params)[order], rtol=1e-14)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("b1", np.zeros(3), r"b1 must have shape \(2,\) to match w1, got \(3,\)"),
    ("b1", np.zeros((2, 1)), r"b1 must be 1-D, got shape \(2, 1\)"),
    ("b2", np.zeros(2), r"b2 must have shape \(1,\) to match w2, got \(2,\)"),
])
def test_feed_forward_refuses_a_bias_that_does_not_fit_its_matrix_naming_it(field: str, value: np.ndarray,
                                                                            message: str) -> None:
    params = FeedForwardParams(I2, np.zeros(2), np.array([[2.0], [3.0]]), np.array([0.5]))
    with pytest.raises(ValueError, match=message):
        feed_forward([[1.0, -1.0]], dataclasses.replace(params, **{field: value}))


def test_feed_forward_refuses_a_bias_that_carries_a_row_past_float64_naming_it() -> None:
    params = FeedForwardParams(I2, np.array([1.7e308, 0.0]), I2, np.zeros(2))
    with pytest.raises(ValueError, match=r"x @ w1 \+ b1 overflow float64: x @ w1 and b1 entries are too large"):
        feed_forward([[1e308, 0.0]], params)


def test_feed_forward_names_an_activation_that_returns_nan() -> None:
    def broken(x: np.ndarray) -> np.ndarray:
        return x * np.nan

    with pytest.raises(ValueError, match=r"broken\(x @ w1 \+ b1\) has a non-finite entry nan"):
        feed_forward([[1.0, -1.0]], init_encoder_block(0, d_model=2, n_heads=1).ffn, activation=broken)


def test_feed_forward_refuses_rows_of_the_wrong_width_naming_w1() -> None:
    with pytest.raises(ValueError, match="x has width 3 but w1 has 4 rows"):
        feed_forward(np.ones((2, 3)), init_encoder_block(0).ffn)


# --- several heads ----------------------------------------------------------------------------


def identity_heads(count: int) -> MultiHeadParams:
    """``count`` heads with identity projections and W_O = I (2·count × 2·count)."""
    return MultiHeadParams(tuple(Head(I2, I2, I2) for _ in range(count)), np.eye(2 * count))


def test_one_identity_head_with_identity_output_is_plain_attention() -> None:
    result = multi_head(X, X, identity_heads(1))
    np.testing.assert_array_equal(result.output, attention(X, X, X).output)


def test_multi_head_concatenates_heads_to_h_times_d_v() -> None:
    heads = tuple(Head(np.ones((4, 2)), np.ones((4, 2)), np.ones((4, 3))) for _ in range(3))
    result = multi_head(np.ones((5, 4)), np.ones((5, 4)), MultiHeadParams(heads, np.ones((9, 4))))
    assert (result.concat.shape, result.output.shape) == ((5, 3 * 3), (5, 4))


def test_multi_head_concat_is_the_heads_outputs_side_by_side() -> None:
    result = multi_head(X, X, identity_heads(2))
    single = attention(X, X, X).output
    np.testing.assert_array_equal(result.concat, np.hstack([single, single]))


def test_multi_head_output_applies_w_o_to_the_concatenation() -> None:
    w_o = np.array([[1.0], [0.0], [0.0], [2.0]])
    result = multi_head(X, X, MultiHeadParams((Head(I2, I2, I2), Head(I2, I2, I2)), w_o))
    np.testing.assert_allclose(result.output, result.concat @ w_o, rtol=1e-15)


def test_multi_head_passes_the_mask_to_every_head() -> None:
    visible = np.array([[True, False, False], [True, True, False], [True, True, True]])
    result = multi_head(X, X, identity_heads(2), visible)
    for head in result.heads:
        assert (head.weights[~visible] == 0.0).all()


def test_project_head_takes_queries_from_x_q_and_keys_and_values_from_x_kv_adding_biases() -> None:
    head = Head(I2, 2 * I2, 3 * I2, b_q=np.array([1.0, 0.0]), b_v=np.array([0.0, -1.0]))
    q, k, v = project_head([[1.0, 2.0]], [[0.0, 1.0]], head)
    assert (q.tolist(), k.tolist(), v.tolist()) == ([[1 + 1.0, 2.0]], [[0.0, 2 * 1.0]], [[0.0, 3 * 1.0 - 1]])


def test_multi_head_refuses_a_head_bias_of_another_width_naming_it() -> None:
    with pytest.raises(ValueError, match=r"b_k must have shape \(2,\) to match w_k, got \(3,\)"):
        multi_head(X, X, MultiHeadParams((Head(I2, I2, I2, b_k=np.zeros(3)),), I2))


def test_multi_head_refuses_an_output_bias_that_overflows_naming_it() -> None:
    params = MultiHeadParams((Head(I2, I2, I2),), I2, b_o=np.array([1.7e308, 1.7e308]))
    with pytest.raises(ValueError, match=r"x @ w_o \+ b_o overflow float64"):
        multi_head(X * 1e308, X * 1e308, dataclasses.replace(params, heads=(Head(0 * I2, I2, I2),)))


def test_multi_head_refuses_no_heads() -> None:
    with pytest.raises(ValueError, match=r"params.heads is empty"):
        multi_head(X, X, MultiHeadParams((), np.eye(2)))


def test_multi_head_refuses_a_w_o_of_the_wrong_height_naming_w_o() -> None:
    with pytest.raises(ValueError, match="x has width 4 but w_o has 3 rows"):
        multi_head(X, X, MultiHeadParams((Head(I2, I2, I2), Head(I2, I2, I2)), np.ones((3, 2))))


def test_multi_head_results_are_read_only() -> None:
    result = multi_head(X, X, identity_heads(1))
    with pytest.raises(ValueError, match="read-only"):
        result.output[0, 0] = 1.0


# --- cross-attention --------------------------------------------------------------------------


def test_cross_attention_gives_one_row_per_decoder_row() -> None:
    result = cross_attention(rows(1, 2, 4), rows(2, 5, 4), init_encoder_block(0).attention)
    assert result.output.shape == (2, 4)


def test_cross_attention_head_weights_are_decoder_by_encoder() -> None:
    result = cross_attention(rows(1, 2, 4), rows(2, 5, 4), init_encoder_block(0).attention)
    assert [h.weights.shape for h in result.heads] == [(2, 5), (2, 5)]


def test_cross_attention_takes_keys_and_values_from_the_encoder() -> None:
    # zero decoder queries: uniform weights, so each head's output is the mean of the encoder's values
    encoder = rows(2, 5, 2)
    result = cross_attention(np.zeros((2, 2)), encoder, identity_heads(1))
    np.testing.assert_allclose(result.output, np.tile(encoder.mean(axis=0), (2, 1)), rtol=1e-14)


# --- encoder block ----------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["post", "pre"])
def test_encoder_block_output_has_the_input_shape(order: str) -> None:
    x = rows(5, 6, 4)
    assert encoder_block(x, init_encoder_block(1), order=order).shape == (6, 4)


def test_encoder_block_default_order_is_post() -> None:
    x, params = rows(5, 3, 4), init_encoder_block(1)
    np.testing.assert_array_equal(encoder_block(x, params), encoder_block(x, params, order="post"))


def test_post_ln_output_rows_have_mean_0_and_variance_1() -> None:
    out = encoder_block(rows(6, 5, 4), init_encoder_block(2), order="post")
    np.testing.assert_allclose(out.mean(axis=1), 0.0, atol=1e-12)
    np.testing.assert_allclose(out.var(axis=1), 1.0, atol=1e-3)


def test_pre_ln_output_rows_are_not_normalised() -> None:
    # the Pre-LN block ends with a residual addition, not a norm
    out = encoder_block(rows(6, 5, 4), init_encoder_block(2), order="pre")
    assert not np.allclose(out.mean(axis=1), 0.0, atol=1e-3) or not np.allclose(out.var(axis=1), 1.0, atol=1e-3)


def test_post_and_pre_ln_differ_on_the_same_parameters() -> None:
    x, params = rows(7, 4, 4), init_encoder_block(3)
    assert not np.allclose(encoder_block(x, params, order="post"), encoder_block(x, params, order="pre"))


def test_pre_ln_is_the_input_plus_two_sublayers_by_hand() -> None:
    # zero attention output matrix and zero FFN: both sublayers add nothing, so Pre-LN returns x
    heads = (Head(I2, I2, I2),)
    zero_ffn = FeedForwardParams(np.zeros((2, 3)), np.zeros(3), np.zeros((3, 2)), np.zeros(2))
    unit = LayerNormParams(np.ones(2), np.zeros(2))
    params = EncoderBlockParams(MultiHeadParams(heads, np.zeros((2, 2))), zero_ffn, unit, unit)
    x = np.array([[1.0, 3.0], [0.0, 5.0]])
    assert encoder_block(x, params, order="pre").tolist() == x.tolist()


def test_post_ln_with_silent_sublayers_is_layer_norm_twice() -> None:
    heads = (Head(I2, I2, I2),)
    zero_ffn = FeedForwardParams(np.zeros((2, 3)), np.zeros(3), np.zeros((3, 2)), np.zeros(2))
    unit = LayerNormParams(np.ones(2), np.zeros(2), eps=0.0)
    params = EncoderBlockParams(MultiHeadParams(heads, np.zeros((2, 2))), zero_ffn, unit, unit)
    # [1, 3] -> [-1, 1] -> [-1, 1]; [0, 5] -> [-1, 1]
    assert encoder_block([[1.0, 3.0], [0.0, 5.0]], params, order="post").tolist() == [[-1.0, 1.0], [-1.0, 1.0]]


@pytest.mark.parametrize("order", ["post", "pre"])
def test_encoder_block_steps_returns_the_blocks_output(order: str) -> None:
    x, params = rows(4, 3, 4), init_encoder_block(5)
    np.testing.assert_array_equal(encoder_block_steps(x, params, order=order)[0], encoder_block(x, params, order=order))


def test_encoder_block_steps_post_ln_heads_attend_over_the_input_itself() -> None:
    x, params = rows(4, 3, 4), init_encoder_block(5)
    expected = multi_head(x, x, params.attention)
    heads = encoder_block_steps(x, params, order="post")[1]
    np.testing.assert_array_equal(heads.output, expected.output)


def test_encoder_block_steps_pre_ln_heads_attend_over_the_normalised_input() -> None:
    x, params = rows(4, 3, 4), init_encoder_block(5)
    inner = layer_norm(x, params.norm1.gain, params.norm1.bias, params.norm1.eps)
    heads = encoder_block_steps(x, params, order="pre")[1]
    np.testing.assert_array_equal(heads.output, multi_head(inner, inner, params.attention).output)


def test_encoder_block_refuses_an_unknown_order_naming_order() -> None:
    with pytest.raises(ValueError, match="order must be 'post' or 'pre', got 'middle'"):
        encoder_block(rows(0, 2, 4), init_encoder_block(0), order="middle")  # type: ignore[arg-type]


def test_init_encoder_block_is_reproducible_from_its_seed() -> None:
    x = rows(0, 3, 4)
    np.testing.assert_array_equal(encoder_block(x, init_encoder_block(9)), encoder_block(x, init_encoder_block(9)))


def test_init_encoder_block_refuses_d_model_not_divisible_by_heads() -> None:
    with pytest.raises(ValueError, match="d_model=5 must be divisible by n_heads=2"):
        init_encoder_block(0, d_model=5, n_heads=2)


def test_encoder_block_refuses_a_residual_sum_past_float64_naming_it() -> None:
    # zero queries: each head's output is the mean of the values, here rows near 1.5e308 each
    heads = MultiHeadParams((Head(np.zeros((2, 2)), I2, I2),), I2)
    unit = LayerNormParams(np.ones(2), np.zeros(2))
    params = EncoderBlockParams(heads, FeedForwardParams(I2, np.zeros(2), I2, np.zeros(2)), unit, unit)
    with pytest.raises(ValueError, match=r"x \+ attention overflow float64"):
        encoder_block([[1.5e308, 0.0], [1.5e308, 0.0]], params)


def test_init_encoder_block_refuses_a_negative_seed_naming_seed() -> None:
    with pytest.raises(ValueError, match="seed must be at least 0, got -1"):
        init_encoder_block(-1)


@pytest.mark.parametrize("seed", ["a", 1.5, None])
def test_init_encoder_block_refuses_a_seed_that_is_not_an_integer_naming_seed(seed: object) -> None:
    with pytest.raises(TypeError, match="seed must be an integer"):
        init_encoder_block(seed)  # type: ignore[arg-type]
