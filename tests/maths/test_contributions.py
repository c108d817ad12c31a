"""``attnlab.contributions``: ‖α_ij f(x_j)‖, the size of what each key adds, and how it differs from the weight."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_stacked import with_biases

from attnlab.contributions import contribution_sizes, disagreement, output_rows, shares, transformed
from attnlab.layers import init_multi_head, multi_head, project_head


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 5), n_heads=st.integers(1, 3), d_v=st.integers(1, 4))
def test_the_heads_transformed_values_weighted_and_summed_are_the_multi_head_output(
        seed: int, n: int, n_heads: int, d_v: int) -> None:
    # Σ_h Σ_j α^h_ij f^h(x_j) + b_O = MultiHead(x)_i: the decomposition the sizes measure
    rng = np.random.default_rng(seed)
    params = with_biases(init_multi_head(rng, 4, n_heads, 3, d_v), rng)
    x = rng.standard_normal((n, 4))
    result = multi_head(x, x, params)
    total = params.b_o + sum(
        result.heads[h].weights @ transformed(project_head(x, x, head)[2], output_rows(params.w_o, h, d_v))
        for h, head in enumerate(params.heads))
    assert np.allclose(total, result.output, atol=1e-12, rtol=0)


def test_by_hand_sizes_are_lengths_of_weighted_transformed_values_and_output_rows_a_heads_rows_of_w_o() -> None:
    weights, values = np.array([[0.25, 0.75]]), np.array([[1.0, 0.0], [0.0, 2.0]])
    w_o_rows = np.array([[3.0, 4.0], [1.0, 0.0]])  # f(x_0) = [3, 4], f(x_1) = [2, 0]
    assert contribution_sizes(weights, values, w_o_rows).tolist() == [[0.25 * 5.0, 0.75 * 2.0]]
    assert contribution_sizes(np.array([[1.0, 0.0]]), np.ones((2, 2)), np.eye(2))[0, 1] == 0.0
    w_o = np.arange(12.0).reshape(6, 2)  # 3 heads of width 2
    assert output_rows(w_o, 1, 2).tolist() == [[4.0, 5.0], [6.0, 7.0]]
    assert shares(np.array([[1.0, 3.0], [2.0, 2.0]])).tolist() == [[0.25, 0.75], [0.5, 0.5]]


def test_disagreement_by_hand_over_the_chosen_rows_one_number_per_head() -> None:
    # weights [0.5, 0.5], sizes [0.5, 1.5] -> shares [0.25, 0.75]: half of |0.25| + |0.25|
    weights = np.array([[0.5, 0.5], [1.0, 0.0]])
    sizes = np.array([[0.5, 1.5], [0.0, 1.0]])  # the second row: complete disagreement
    assert disagreement(weights, sizes, rows=np.array([True, False])) == pytest.approx(0.25)
    assert disagreement(weights, sizes) == pytest.approx((0.25 + 1.0) / 2)
    stack = np.array([[[0.5, 0.5]], [[1.0, 0.0]]])
    assert disagreement(stack, stack).tolist() == [0.0, 0.0]
    # every transformed value of the same length: the shares are the weights
    random = np.random.default_rng(6).dirichlet(np.ones(4), size=3)
    assert disagreement(random, 7.0 * random) == pytest.approx(0.0, abs=1e-15)


def test_what_does_not_fit_is_refused_naming_it() -> None:
    for call, message in [
        (lambda: output_rows(np.ones((6, 2)), 3, 2), "head must be from 0 to 2, got 3"),
        (lambda: output_rows(np.ones((5, 2)), 0, 2), "w_o has 5 rows, not a whole number of heads 2 wide"),
        (lambda: transformed(np.ones((3, 2)), np.ones((3, 4))), r"values \(3, 2\) and w_o_rows \(3, 4\) do not fit"),
        (lambda: contribution_sizes(np.array([[-0.5, 1.5]]), np.ones((2, 2)), np.eye(2)),
         "weights must be non-negative"),
        (lambda: contribution_sizes(np.ones((1, 3)) / 3, np.ones((2, 2)), np.eye(2)),
         r"weights \(1, 3\) need one key per value row"),
        (lambda: shares(np.zeros((1, 2))), "a row that adds up to zero"),
        (lambda: disagreement(np.ones((1, 2)) / 2, np.ones((1, 2)), rows=np.array([False])),
         "rows selects no query row"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()
