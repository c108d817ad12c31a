"""``attnlab.stacked``: every head of a layer in one product gives ``multi_head``'s numbers to 1e-12."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import mask

from attnlab import Head, MultiHead, MultiHeadParams, gelu, init_encoder_block, multi_head, relu
from attnlab.layers import encoder_block_steps, init_multi_head
from attnlab.stacked import stack_block, stack_heads, stacked_encoder_block_steps, stacked_multi_head

TOLERANCE = 1e-12


def largest_gap(a: MultiHead, b: MultiHead) -> float:
    """The largest |difference| between two multi-head results, over every head's every step."""
    gaps = [np.abs(a.output - b.output).max(), np.abs(a.concat - b.concat).max()]
    for x, y in zip(a.heads, b.heads, strict=True):
        assert (x.visible == y.visible).all()
        gaps += [np.abs(getattr(x, step) - getattr(y, step)).max()
                 for step in ("scores", "scaled", "weights", "output")]
    return float(max(gaps))


def with_biases(params: MultiHeadParams, rng: np.random.Generator) -> MultiHeadParams:
    """The same heads with a random bias row on every projection and on W_O."""
    heads = tuple(Head(h.w_q, h.w_k, h.w_v, rng.standard_normal(h.w_q.shape[1]),
                       rng.standard_normal(h.w_k.shape[1]), rng.standard_normal(h.w_v.shape[1]))
                  for h in params.heads)
    return MultiHeadParams(heads, params.w_o, rng.standard_normal(params.w_o.shape[1]))


@settings(max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 6), m=st.integers(1, 6),
       n_heads=st.integers(1, 4), d_k=st.integers(1, 5), d_v=st.integers(1, 5), biased=st.booleans(),
       masked=st.booleans(), data=st.data())
def test_stacked_multi_head_equals_multi_head_read_only_and_without_a_mask_sees_every_key(
        seed: int, n: int, m: int, n_heads: int, d_k: int, d_v: int, biased: bool, masked: bool,
        data: st.DataObject) -> None:
    rng = np.random.default_rng(seed)
    params = init_multi_head(rng, 4, n_heads, d_k, d_v)
    params = with_biases(params, rng) if biased else params
    x_q, x_kv = rng.standard_normal((n, 4)) * 3, rng.standard_normal((m, 4)) * 3
    visible = data.draw(mask(n, m)) if masked else None
    result = stacked_multi_head(x_q, x_kv, stack_heads(params), visible)
    assert largest_gap(result, multi_head(x_q, x_kv, params, visible)) < TOLERANCE
    assert masked or all(head.visible.all() for head in result.heads)
    assert not any(a.flags.writeable for a in (result.output, result.concat, result.heads[-1].weights,
                                               result.heads[0].scores))


@settings(max_examples=25)
@given(seed=st.integers(0, 2**16), n=st.integers(1, 6), activation=st.sampled_from([relu, gelu]), data=st.data())
def test_stacked_encoder_block_equals_the_post_ln_block(seed: int, n: int, activation, data: st.DataObject) -> None:
    params = init_encoder_block(seed, d_model=6, n_heads=3, d_ff=10)
    rng = np.random.default_rng(seed + 1)
    x = rng.standard_normal((n, 6))
    visible = data.draw(mask(n, n))
    expected, expected_heads = encoder_block_steps(x, params, visible, order="post", activation=activation)
    found, heads = stacked_encoder_block_steps(x, stack_block(params), visible, activation=activation)
    assert np.abs(found - expected).max() < TOLERANCE
    assert largest_gap(heads, expected_heads) < TOLERANCE


def test_stack_block_keeps_read_only_row_major_copies_of_the_feed_forward_weights_and_w_o() -> None:
    params = init_encoder_block(5, d_model=6, n_heads=3, d_ff=10)
    transposed = replace(params, ffn=replace(params.ffn, w1=np.asfortranarray(params.ffn.w1)))  # as a file's Wᵀ reads
    stacked = stack_block(transposed)
    for given_array, kept in ((transposed.ffn.w1, stacked.ffn.w1), (transposed.ffn.w2, stacked.ffn.w2),
                              (transposed.attention.w_o, stacked.attention.w_o)):
        assert kept.flags.c_contiguous and not kept.flags.writeable and (kept == given_array).all()
        given_array[0, 0] += 1.0
        assert kept[0, 0] != given_array[0, 0]


def test_heads_rows_or_a_mask_that_do_not_fit_are_refused_naming_what_is_wrong() -> None:
    params = init_multi_head(np.random.default_rng(8), 4, 2, 2, 3)
    first, second = Head(np.eye(2), np.eye(2), np.eye(2)), Head(np.ones((2, 3)), np.ones((2, 3)), np.eye(2))
    stacked, rows = stack_heads(init_multi_head(np.random.default_rng(9), 4, 2, 2, 2)), np.ones((2, 4))
    for call, message in [
        (lambda: stack_heads(MultiHeadParams((), np.eye(2))), "params.heads is empty"),
        (lambda: stack_heads(MultiHeadParams((first, second), np.eye(4))),
         r"w_q of head 1 has shape \(2, 3\) but head 0's is \(2, 2\)"),
        (lambda: stack_heads(MultiHeadParams(params.heads, np.ones((5, 4)))),
         "w_o has 5 rows but the heads' values are 6 wide"),
        (lambda: stack_heads(MultiHeadParams((Head(np.eye(2), np.eye(2), np.eye(2), b_q=np.zeros(3)),), np.eye(2))),
         r"b_q of head 0 must have shape \(2,\)"),
        (lambda: stacked_multi_head(rows, np.ones((2, 3)), stacked), "x_kv has width 3 but the heads project from 4"),
        (lambda: stacked_multi_head(rows, rows, stacked, np.ones((2, 3), dtype=bool)),
         r"visible must have shape \(2, 2\)"),
        (lambda: stacked_multi_head(rows, rows, stacked, np.array([[True, True], [False, False]])), "blocks every key"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()
