"""``attnlab.libraries`` on cases worked by hand (tests/peer/test_library_edges.py compares it with PyTorch)."""

from __future__ import annotations

import numpy as np
import pytest

from attnlab import attention, causal, libraries


def test_a_plain_softmax_of_minus_infinity_everywhere_is_nan_elsewhere_blocks_exactly_and_refuses_inf() -> None:
    rows = libraries.plain_softmax([[-np.inf, -np.inf], [0.0, -np.inf]])
    assert np.isnan(rows[0]).all() and rows[1].tolist() == [1.0, 0.0]
    with pytest.raises(ValueError, match="below"):
        libraries.plain_softmax([0.0, np.inf])


def test_an_additive_mask_is_zero_or_the_dtype_minimum_blocks_through_underflow_and_ties_a_fully_blocked_row() -> None:
    mask = libraries.additive_mask(np.array([True, False]), np.float16)
    assert mask.dtype == np.float16 and mask.tolist() == [0.0, -65504.0]
    weights = libraries.softmax_with_additive_mask([[3.0, 1.0, 2.0], [3.0, 1.0, 2.0]],
                                                   np.array([[False, False, False], [True, False, True]]))
    assert weights[0].tolist() == [np.float32(1 / 3)] * 3
    assert weights[1, 1] == 0 and np.isclose(weights[1, 0] / weights[1, 2], np.e, rtol=1e-6)


def test_zero_filled_attention_is_attention_where_a_key_is_seen_and_zero_elsewhere() -> None:
    q, k, v = np.eye(3), np.eye(3), np.arange(9.0).reshape(3, 3)
    visible = np.array([[False] * 3, [True, True, False], [True] * 3])
    out = libraries.zero_filled_attention(q, k, v, visible)
    assert (out[0] == 0).all()
    assert np.array_equal(out[1:], attention(q[1:], k, v, visible[1:]).output)


def test_top_left_causal_lets_the_first_query_see_the_first_key_where_bottom_right_may_leave_rows_empty() -> None:
    assert libraries.top_left_causal(1, 4).tolist() == [[True, False, False, False]]
    assert np.array_equal(libraries.top_left_causal(3), causal(3))
    rows_seen = [mask(4, 2).sum(axis=1).tolist() for mask in (causal, libraries.top_left_causal)]
    assert rows_seen == [[0, 0, 1, 2], [1, 2, 2, 2]]
