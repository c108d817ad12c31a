"""``attnlab.relative``: rotary position embedding (CL-035) and ALiBi's distance penalty (CL-036)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from attnlab import positional_encoding
from attnlab.relative import alibi_bias, rotate, rotation_angles

entries = st.floats(-10, 10, allow_nan=False)
positions = st.integers(-500, 500)


def test_width_two_turns_one_radian_a_position_position_zero_stays_and_the_angles_are_the_sinusoidal_ones() -> None:
    assert np.allclose(rotate([1.0, 0.0], [1]), [math.cos(1), math.sin(1)], rtol=0, atol=1e-15)
    assert np.allclose(rotate([0.0, 1.0], [math.pi / 2]), [-1.0, 0.0], rtol=0, atol=1e-15)
    x = np.array([[0.3, -2.0, 5.0, 1.5]])
    assert np.array_equal(rotate(x, [0]), x)
    angles = rotation_angles(np.arange(6), 8)
    encoding = positional_encoding(6, 8)
    assert np.allclose(np.sin(angles), encoding[:, 0::2], rtol=0, atol=1e-15)
    assert np.allclose(np.cos(angles), encoding[:, 1::2], rtol=0, atol=1e-15)


@given(st.integers(1, 4).map(lambda half: 2 * half).flatmap(
    lambda d: st.tuples(hnp.arrays(np.float64, d, elements=entries), hnp.arrays(np.float64, d, elements=entries))),
    positions, positions, positions)
def test_shifting_both_positions_by_the_same_amount_leaves_every_score(pair: tuple[np.ndarray, np.ndarray],
                                                                       p: int, r: int, shift: int) -> None:
    q, k = pair
    before = rotate(q, [p]) @ rotate(k, [r])
    after = rotate(q, [p + shift]) @ rotate(k, [r + shift])
    assert math.isclose(before, after, rel_tol=0, abs_tol=1e-9 * (1 + np.abs(q).sum() * np.abs(k).sum()))


@given(hnp.arrays(np.float64, (3, 4), elements=entries), hnp.arrays(np.float64, 3, elements=positions))
def test_turning_keeps_the_length_of_every_pair(x: np.ndarray, places: np.ndarray) -> None:
    turned = rotate(x, places)
    assert np.allclose(np.hypot(turned[:, 0::2], turned[:, 1::2]), np.hypot(x[:, 0::2], x[:, 1::2]),
                       rtol=1e-12, atol=1e-12)


def test_an_added_position_vector_does_not_give_scores_that_depend_on_the_offset_alone() -> None:
    # the contrast of item 4: content plus a sinusoidal position, projected, then scored
    q, k, w = np.array([1.0, 0.5]), np.array([0.2, 1.0]), np.array([[1.0, 2.0], [0.0, 1.0]])
    pe = positional_encoding(12, 2)
    near, far = ((q + pe[p]) @ w @ (k + pe[p + 2]) for p in (1, 9))
    assert abs(near - far) > 0.1
    rotated = [rotate(q @ w, [p]) @ rotate(k, [p + 2]) for p in (1, 9)]
    assert math.isclose(*rotated, rel_tol=1e-12)


def test_alibi_penalises_each_key_by_slope_times_its_distance_with_fewer_queries_at_the_last_positions() -> None:
    assert alibi_bias(3, slope=0.5).tolist() == [[0.0, -0.5, -1.0], [-0.5, 0.0, -0.5], [-1.0, -0.5, 0.0]]
    assert alibi_bias(1, 4, slope=2.0).tolist() == [[-6.0, -4.0, -2.0, 0.0]]


def test_bad_rotations_and_slopes_are_refused_naming_what_is_wrong() -> None:
    for call, message in [(lambda: rotate([1.0, 2.0, 3.0], [1]), "width must be even"),
                          (lambda: rotate([[1.0, 2.0], [3.0, 4.0]], [1]), "positions has 1 entries but there are 2"),
                          (lambda: rotate([1.0, 2.0], [math.nan]), "positions"),
                          (lambda: alibi_bias(3, slope=0.0), "slope must be positive")]:
        with pytest.raises(ValueError, match=message):
            call()
