"""``attnlab.attention``: small cases worked out by hand, and every bad input refused by name."""

from __future__ import annotations

import dataclasses
import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnlab.attention import Attention, attention, causal, mix, project, scale, scores, softmax

LARGEST = np.finfo(np.float64).max

SQRT2 = math.sqrt(2.0)
KEYS = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]]


def test_project_multiplies_each_row_by_the_same_matrix() -> None:
    # [1, 2] @ [[1, 1], [0, 1]] = [1, 3]; [0, 1] @ it = [0, 1]
    assert project([[1, 2], [0, 1]], [[1, 1], [0, 1]]).tolist() == [[1.0, 3.0], [0.0, 1.0]]


def test_scores_are_dot_products_of_queries_with_keys() -> None:
    q = np.array([[1.0, 2.0]])
    k = np.array([[3.0, 4.0], [-1.0, 0.5]])
    assert scores(q, k).tolist() == [[1 * 3 + 2 * 4, 1 * -1 + 2 * 0.5]]


def test_scores_take_nested_lists_like_every_other_step() -> None:
    assert scores([[1.0, 2.0]], [[3.0, 4.0]]).tolist() == [[1 * 3 + 2 * 4]]


def test_scores_of_one_query_row_are_one_row() -> None:
    assert scores([1.0, 2.0], [[3.0, 4.0], [0.0, 1.0]]).tolist() == [11.0, 2.0]


def test_scores_refuse_mismatched_widths_naming_q_and_k() -> None:
    with pytest.raises(ValueError, match="q has width 2 but k has width 1"):
        scores([[1.0, 2.0]], [[3.0]])


def test_scores_beyond_float64_are_refused_naming_q_and_k() -> None:
    with pytest.raises(ValueError, match=r"q @ k\.T overflow float64"):
        scores([[1e200]], [[1e200]])


def test_scale_divides_by_the_square_root_of_d_k() -> None:
    assert scale(np.array([4.0, -2.0]), 4).tolist() == [4.0 / 2, -2.0 / 2]


@pytest.mark.parametrize(("d_k", "error"), [(0, ValueError), (2.0, TypeError)])
def test_scale_refuses_a_key_width_that_is_not_a_positive_int_naming_d_k(d_k: object, error: type) -> None:
    with pytest.raises(error, match="d_k must be"):
        scale(np.array([4.0]), d_k)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_scale_refuses_non_finite_scores_naming_raw(bad: float) -> None:
    with pytest.raises(ValueError, match=r"raw has a non-finite entry .* at index \(1,\)"):
        scale([1.0, bad], 2)


def test_mix_is_the_weighted_sum_of_value_rows() -> None:
    assert mix(np.array([0.25, 0.75]), np.array([[4.0, 0.0], [0.0, 8.0]])).tolist() == [1.0, 6.0]


def test_mix_takes_nested_lists_and_several_rows() -> None:
    assert mix([[0.5, 0.5], [1.0, 0.0]], [[4.0], [0.0]]).tolist() == [[2.0], [4.0]]


def test_mix_refuses_a_negative_weight_naming_weights_and_index() -> None:
    with pytest.raises(ValueError, match=r"weights has a negative entry -0\.5 at index \(1,\)"):
        mix([1.5, -0.5], [[1.0], [2.0]])


def test_mix_refuses_a_row_that_does_not_add_up_to_one_naming_the_row() -> None:
    with pytest.raises(ValueError, match=r"weights row 1 adds up to 0.75, not 1"):
        mix([[0.5, 0.5], [0.25, 0.5]], [[1.0], [2.0]])


def test_mix_refuses_weights_of_another_length_than_v_naming_both() -> None:
    with pytest.raises(ValueError, match=r"weights has 3 columns but v has 2 rows"):
        mix([0.5, 0.25, 0.25], [[1.0], [2.0]])


@given(st.data(), st.integers(1, 12), st.integers(1, 4))
def test_mix_accepts_every_softmax_output(data: st.DataObject, m: int, n: int) -> None:
    scaled = data.draw(arrays(np.float64, (n, m), elements=st.floats(-1e6, 1e6)))
    weights = softmax(scaled, np.ones((n, m), dtype=bool))
    assert mix(weights, np.ones((m, 1))).shape == (n, 1)


def test_softmax_of_two_visible_entries_by_hand() -> None:
    w = softmax(np.array([1.0, 0.0]), np.array([True, True]))
    assert w.tolist() == pytest.approx([math.e / (math.e + 1), 1 / (math.e + 1)], rel=1e-15)


def test_softmax_blocked_entry_is_exactly_zero_and_leaves_the_denominator() -> None:
    # the blocked entry has the largest score; it must not dilute the others
    w = softmax(np.array([0.0, 0.0, 50.0]), np.array([True, True, False]))
    assert w.tolist() == [0.5, 0.5, 0.0]


def test_zero_score_is_not_the_same_as_blocked() -> None:
    w = softmax(np.array([0.0, 0.0, 0.0]), np.array([True, True, True]))
    assert w.tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3], rel=1e-15)


def test_softmax_fully_blocked_row_is_refused_naming_the_row() -> None:
    visible = np.array([[True, False], [False, False]])
    with pytest.raises(ValueError, match="visible row 1 blocks every key"):
        softmax(np.zeros((2, 2)), visible)


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_softmax_refuses_non_finite_scaled_scores_naming_scaled(bad: float) -> None:
    with pytest.raises(ValueError, match=r"scaled has a non-finite entry .* at index \(1,\)"):
        softmax([0.0, bad], [True, True])


def test_softmax_refuses_a_non_boolean_mask_naming_visible() -> None:
    with pytest.raises(TypeError, match="visible must be a boolean array"):
        softmax([0.0, 1.0], [1, 0])


def test_softmax_refuses_a_mask_of_another_shape_naming_visible() -> None:
    with pytest.raises(ValueError, match=r"visible must have shape \(2,\), got \(3,\)"):
        softmax([0.0, 1.0], [True, True, False])


def test_softmax_keeps_the_input_shape() -> None:
    assert softmax(np.zeros(4), np.ones(4, dtype=bool)).shape == (4,)


def test_extreme_finite_scores_give_one_hot_weights_without_warning() -> None:
    # raw scores +1e308 and -1e308: their gap is beyond float64, the weight is still exactly 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = attention([1e154], [[1e154], [-1e154]], [[1.0], [2.0]])
    assert (r.weights.tolist(), r.output.tolist()) == ([1.0, 0.0], [1.0])


def test_overflowing_scores_are_refused_naming_q_and_k_without_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"q @ k\.T overflow.*\|q\| 1e\+200.*\|k\.T\| 1e\+200"):
            attention([1e200, 1e200], [[1e200, 1e200]], [[1.0]])


def test_projection_that_overflows_is_refused_naming_x_and_the_matrix_without_warning() -> None:
    # 1e308·10 + 1e308·(-10) would be inf - inf = NaN
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"x @ w2 overflow float64: .*\|x\| 1e\+308.*\|w2\| 10"):
            project([[1e308, 1e308]], [[10.0], [-10.0]], "w2")


def test_zero_query_gives_uniform_weights_and_the_mean_value() -> None:
    r = attention([0.0, 0.0], KEYS, VALUES)
    assert r.weights.tolist() == pytest.approx([1 / 3] * 3, rel=1e-15)
    assert r.output.tolist() == pytest.approx([(1 + 0 + 3) / 3, (0 + 2 + 1) / 3], rel=1e-15)


def test_value_width_may_differ_from_key_width() -> None:
    # q·k = 0 for both keys: weights 1/2, 1/2; output is the mean of 3-wide values
    r = attention([[0.0, 0.0]], [[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]])
    assert r.output.tolist() == [[2.0, 3.0, 4.0]]


def test_shapes_follow_n_queries_and_m_keys() -> None:
    r = attention(np.ones((2, 3)), np.ones((5, 3)), np.ones((5, 4)))
    assert [a.shape for a in (r.scores, r.scaled, r.visible, r.weights, r.output)] == [
        (2, 5), (2, 5), (2, 5), (2, 5), (2, 4)]


def test_visible_none_means_every_key_is_visible() -> None:
    assert attention([[1.0], [2.0]], [[1.0], [3.0], [0.0]], [[1.0], [1.0], [1.0]]).visible.all()


def test_mask_blocks_keys_for_one_query_row() -> None:
    # only keys 0 and 2 visible; their scaled scores tie at 0, so weights 1/2, 0, 1/2
    r = attention([0.0, 0.0], KEYS, VALUES, [True, False, True])
    assert r.weights.tolist() == [0.5, 0.0, 0.5]
    assert r.output.tolist() == [(1 + 3) / 2, (0 + 1) / 2]


def test_single_query_drops_the_row_axis() -> None:
    r = attention([SQRT2, 0.0], KEYS, VALUES)
    assert (r.scores.shape, r.weights.shape, r.output.shape) == ((3,), (3,), (2,))


def test_causal_self_attention_is_the_lower_triangle() -> None:
    assert causal(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]


def test_causal_with_fewer_queries_than_keys_places_queries_last() -> None:
    # two new queries at positions 2 and 3 of four cached keys
    assert causal(2, 4).tolist() == [[True, True, True, False], [True, True, True, True]]


def test_causal_single_new_query_sees_every_cached_key() -> None:
    assert causal(1, 3).tolist() == [[True, True, True]]


def test_causal_explicit_offset_overrides_the_default() -> None:
    assert causal(2, 4, offset=0).tolist() == [[True, False, False, False], [True, True, False, False]]


@pytest.mark.parametrize(("args", "name"), [((0,), "n"), ((2, 0), "m"), ((-1, 3), "n")])
def test_causal_refuses_sizes_below_one_naming_them(args: tuple[int, ...], name: str) -> None:
    with pytest.raises(ValueError, match=f"{name} must be at least 1"):
        causal(*args)


@pytest.mark.parametrize(("args", "name"), [((2.5,), "n"), ((2, 3.0), "m"), ((True,), "n")])
def test_causal_refuses_non_integer_sizes_naming_them(args: tuple[float, ...], name: str) -> None:
    with pytest.raises(TypeError, match=f"{name} must be an integer"):
        causal(*args)


@pytest.mark.parametrize("offset", [0.5, True, "1"])
def test_causal_refuses_a_non_integer_offset_naming_offset(offset: object) -> None:
    with pytest.raises(TypeError, match="offset must be an integer"):
        causal(3, 3, offset)  # type: ignore[arg-type]


def test_causal_mask_applied_to_attention_gives_exact_zeros_above_the_diagonal() -> None:
    r = attention(np.zeros((3, 2)), KEYS, VALUES, causal(3))
    expected = np.array([[1, 0, 0], [1 / 2, 1 / 2, 0], [1 / 3, 1 / 3, 1 / 3]])
    np.testing.assert_allclose(r.weights, expected, rtol=1e-15)
    assert r.weights[~causal(3)].tolist() == [0.0, 0.0, 0.0]


def test_causal_mask_breaks_permutation_equivariance() -> None:
    # swap the first and last rows of the toy states: with the mask, row 0 now sees only [1, 1]
    x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    swap = [2, 1, 0]
    before = attention(x, x, x, causal(3)).output
    after = attention(x[swap], x[swap], x[swap], causal(3)).output
    assert after[0].tolist() == [1.0, 1.0]
    assert not np.allclose(after, before[swap])


def test_result_arrays_are_read_only() -> None:
    r = attention([1.0, 0.0], KEYS, VALUES)
    for field in ("scores", "scaled", "visible", "weights", "output"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(r, field)[0] = 0


def test_result_is_a_frozen_dataclass() -> None:
    r = attention([1.0, 0.0], KEYS, VALUES)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.weights = np.zeros(3)  # type: ignore[misc]


def test_result_does_not_share_memory_with_the_inputs() -> None:
    q = np.array([[1.0, 0.0]])
    r = attention(q, KEYS, VALUES)
    q[0, 0] = 5.0
    assert r.scores.tolist() == [[1.0, 0.0, 1.0]]


def test_result_fields_are_in_the_documented_order() -> None:
    assert [f.name for f in dataclasses.fields(Attention)] == ["scores", "scaled", "visible", "weights", "output"]


# --- bad input: each error names the argument -------------------------------------------------


def test_mismatched_query_and_key_widths_are_refused_naming_both() -> None:
    with pytest.raises(ValueError, match=r"q has width 3 but k has width 2"):
        attention([[1.0, 2.0, 3.0]], KEYS, VALUES)


def test_mismatched_key_and_value_rows_are_refused_naming_both() -> None:
    with pytest.raises(ValueError, match=r"k has 3 rows but v has 2"):
        attention([1.0, 0.0], KEYS, VALUES[:2])


@pytest.mark.parametrize("name", ["q", "k", "v"])
def test_ragged_rows_are_refused_naming_the_argument(name: str) -> None:
    args = {"q": [[1.0, 0.0]], "k": KEYS, "v": VALUES}
    args[name] = [[1.0, 0.0], [1.0]]
    with pytest.raises(ValueError, match=f"{name} is ragged"):
        attention(**args)


@pytest.mark.parametrize(("name", "empty"), [("q", []), ("k", [[]]), ("v", np.zeros((3, 0))), ("q", np.zeros((0, 2)))])
def test_empty_input_is_refused_naming_the_argument(name: str, empty: object) -> None:
    args: dict[str, object] = {"q": [[1.0, 0.0]], "k": KEYS, "v": VALUES}
    args[name] = empty
    with pytest.raises(ValueError, match=f"{name} is empty"):
        attention(**args)


def test_one_dimensional_keys_are_refused_naming_k() -> None:
    with pytest.raises(ValueError, match=r"k must be 2-D, got shape \(2,\)"):
        attention([1.0, 0.0], [1.0, 0.0], VALUES)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("name", ["q", "k", "v"])
def test_non_finite_entries_are_refused_naming_argument_and_index(name: str, bad: float) -> None:
    args = {"q": [[1.0, 0.0]], "k": [r[:] for r in KEYS], "v": [r[:] for r in VALUES]}
    args[name][0][1] = bad
    with pytest.raises(ValueError, match=rf"{name} has a non-finite entry .* at index \(0, 1\)"):
        attention(**args)


def test_string_entries_are_refused_naming_the_argument() -> None:
    with pytest.raises(TypeError, match="v must hold real numbers"):
        attention([1.0, 0.0], KEYS, [["a", "b"]] * 3)


def test_boolean_values_are_refused_naming_the_argument() -> None:
    with pytest.raises(TypeError, match="v must hold"):
        attention([1.0, 0.0], KEYS, np.ones((3, 2), dtype=bool))


@pytest.mark.parametrize("mask", [np.ones((1, 3)), [[1, 0, 1]], np.array([[1.0, 0.0, 1.0]])])
def test_non_boolean_mask_is_refused_naming_visible(mask: object) -> None:
    with pytest.raises(TypeError, match="visible must be a boolean array"):
        attention([[1.0, 0.0]], KEYS, VALUES, mask)


@pytest.mark.parametrize("mask", [np.ones((1, 2), dtype=bool), np.ones((3, 3), dtype=bool), np.ones(3, dtype=bool)])
def test_wrongly_shaped_mask_is_refused_naming_visible_and_shapes(mask: np.ndarray) -> None:
    with pytest.raises(ValueError, match=re.escape(f"visible must have shape (1, 3), got {mask.shape}")):
        attention([[1.0, 0.0]], KEYS, VALUES, mask)


def test_single_query_mask_must_be_one_row() -> None:
    with pytest.raises(ValueError, match=r"visible must have shape \(3,\), got \(1, 3\)"):
        attention([1.0, 0.0], KEYS, VALUES, np.ones((1, 3), dtype=bool))


def test_fully_blocked_row_is_refused_naming_the_row_index() -> None:
    visible = np.array([[True, True, True], [True, False, False], [False, False, False]])
    with pytest.raises(ValueError, match="visible row 2 blocks every key"):
        attention(np.zeros((3, 2)), KEYS, VALUES, visible)


def test_ragged_mask_is_refused_naming_visible() -> None:
    with pytest.raises(ValueError, match="visible is ragged"):
        attention(np.zeros((2, 2)), KEYS[:2], VALUES[:2], [[True, False], [True]])


def test_project_refuses_mismatched_inner_sizes_naming_the_matrix() -> None:
    with pytest.raises(ValueError, match=r"x has width 2 but W_V has 3 rows"):
        project([[1.0, 0.0]], np.ones((3, 2)), "W_V")


def test_causal_refuses_a_mask_past_its_stated_limit_before_allocating_it() -> None:
    from attnlab.attention import MAX_MASK

    with pytest.raises(ValueError, match=r"a 1000000000000×1000000000000 mask has more than 1,000,000,000 entries"):
        causal(10**12)
    with pytest.raises(ValueError, match=r"a 1×1000000001 mask"):
        causal(1, MAX_MASK + 1)
