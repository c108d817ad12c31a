"""``attnlab.attention``: small cases worked out by hand, and the refusals the table in test_refusals.py lacks."""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

from attnlab.attention import MAX_MASK, Attention, attention, causal, mix, project, scale, scores, softmax

KEYS = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
VALUES = [[1.0, 0.0], [0.0, 2.0], [3.0, 1.0]]


def test_each_step_by_hand() -> None:
    # [1, 2] @ [[1, 1], [0, 1]] = [1, 3]; [0, 1] @ it = [0, 1]
    assert project([[1, 2], [0, 1]], [[1, 1], [0, 1]]).tolist() == [[1.0, 3.0], [0.0, 1.0]]
    assert scores([[1.0, 2.0]], [[3.0, 4.0], [-1.0, 0.5]]).tolist() == [[1 * 3 + 2 * 4, 1 * -1 + 2 * 0.5]]
    assert scores([1.0, 2.0], [[3.0, 4.0], [0.0, 1.0]]).tolist() == [11.0, 2.0]  # one query row is one row
    assert scale(np.array([4.0, -2.0]), 4).tolist() == [4.0 / 2, -2.0 / 2]
    assert mix(np.array([0.25, 0.75]), np.array([[4.0, 0.0], [0.0, 8.0]])).tolist() == [1.0, 6.0]
    assert mix([[0.5, 0.5], [1.0, 0.0]], [[4.0], [0.0]]).tolist() == [[2.0], [4.0]]


def test_mismatched_shapes_products_beyond_float64_and_weights_not_a_distribution_are_refused_naming_them() -> None:
    for call, message in [
        (lambda: scores([[1.0, 2.0]], [[3.0]]), "q has width 2 but k has width 1"),
        (lambda: attention([[1.0, 2.0, 3.0]], KEYS, VALUES),
         r"q has width 3 but k has width 2: they must match \(shapes \(1, 3\) and \(3, 2\)\)"),
        (lambda: attention([1.0, 0.0], KEYS, VALUES[:2]),
         r"k has 3 rows but v has 2: they must match \(shapes \(3, 2\) and \(2, 2\)\)"),
        (lambda: attention([1.0, 0.0], [1.0, 0.0], VALUES), r"k must be 2-D, got shape \(2,\)"),
        (lambda: project([[1.0, 0.0]], np.ones((3, 2)), "W_V"), "x has width 2 but W_V has 3 rows"),
        (lambda: mix([0.5, 0.25, 0.25], [[1.0], [2.0]]), "weights has 3 columns but v has 2 rows"),
        (lambda: attention([1.0, 0.0], KEYS, VALUES, np.ones((1, 3), dtype=bool)),
         r"visible must have shape \(3,\), got \(1, 3\)"),  # a 2-D mask for one query: test_refusals has none
        (lambda: attention([1e200, 1e200], [[1e200, 1e200]], [[1.0]]),
         r"q @ k\.T overflow.*\|q\| 1e\+200.*\|k\.T\| 1e\+200"),
        # 1e308·10 + 1e308·(-10) would be inf - inf = NaN
        (lambda: project([[1e308, 1e308]], [[10.0], [-10.0]], "w2"),
         r"x @ w2 overflow float64: .*\|x\| 1e\+308.*\|w2\| 10"),
        (lambda: mix([1.5, -0.5], [[1.0], [2.0]]), r"weights has a negative entry -0\.5 at index \(1,\)"),
        (lambda: mix([[0.5, 0.5], [0.25, 0.5]], [[1.0], [2.0]]), r"weights row 1 adds up to 0.75, not 1"),
        (lambda: softmax(np.zeros((2, 2)), np.array([[True, False], [False, False]])),
         "visible row 1 blocks every key"),
    ]:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(ValueError, match=message):
                call()


def test_extreme_finite_scores_give_one_hot_weights_without_warning() -> None:
    # raw scores +1e308 and -1e308: their gap is beyond float64, the weight is still exactly 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = attention([1e154], [[1e154], [-1e154]], [[1.0], [2.0]])
    assert (r.weights.tolist(), r.output.tolist()) == ([1.0, 0.0], [1.0])


def test_a_zero_query_weighs_its_visible_keys_equally_and_blocked_ones_exactly_zero() -> None:
    r = attention([0.0, 0.0], KEYS, VALUES)
    assert r.weights.tolist() == pytest.approx([1 / 3] * 3, rel=1e-15)
    assert r.output.tolist() == pytest.approx([(1 + 0 + 3) / 3, (0 + 2 + 1) / 3], rel=1e-15)
    r = attention([0.0, 0.0], KEYS, VALUES, [True, False, True])
    assert (r.weights.tolist(), r.output.tolist()) == ([0.5, 0.0, 0.5], [(1 + 3) / 2, (0 + 1) / 2])
    r = attention(np.zeros((3, 2)), KEYS, VALUES, causal(3))
    np.testing.assert_allclose(r.weights, [[1, 0, 0], [1 / 2, 1 / 2, 0], [1 / 3, 1 / 3, 1 / 3]], rtol=1e-15)
    assert r.weights[~causal(3)].tolist() == [0.0, 0.0, 0.0]


def test_causal_masks_by_hand_and_one_past_the_stated_limit_refused_before_allocating_it() -> None:
    assert causal(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]
    # two new queries at positions 2 and 3 of four cached keys
    assert causal(2, 4).tolist() == [[True, True, True, False], [True, True, True, True]]
    assert causal(1, 3).tolist() == [[True, True, True]]
    assert causal(2, 4, offset=0).tolist() == [[True, False, False, False], [True, True, False, False]]
    with pytest.raises(ValueError, match=r"a 1000000000000×1000000000000 mask has more than 1,000,000,000 entries"):
        causal(10**12)
    with pytest.raises(ValueError, match=r"a 1×1000000001 mask"):
        causal(1, MAX_MASK + 1)


def test_the_result_is_frozen_in_the_documented_order_shaped_n_by_m_and_n_by_d_v_and_shares_no_memory() -> None:
    r = attention(np.ones((2, 3)), np.ones((5, 3)), np.ones((5, 4)))
    assert [a.shape for a in (r.scores, r.scaled, r.visible, r.weights, r.output)] == [(2, 5)] * 4 + [(2, 4)]
    assert r.visible.all()  # None means every key; a single query: test_properties.py
    q = np.array([[1.0, 0.0]])
    r = attention(q, KEYS, VALUES)
    assert [f.name for f in dataclasses.fields(Attention)] == ["scores", "scaled", "visible", "weights", "output"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.weights = np.zeros(3)  # type: ignore[misc]
    q[0, 0] = 5.0
    assert r.scores.tolist() == [[1.0, 0.0, 1.0]]
