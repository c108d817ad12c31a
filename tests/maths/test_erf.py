"""``attnlab.erf.erf`` against ``math.erf``: as exact, for a whole array, with the right edges."""

from __future__ import annotations

import math
from decimal import Decimal

import high_precision
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from attnlab.erf import END, FRACTION_FROM, STEP, erf, erfcx, gaussian

EPS = np.finfo(np.float64).eps
TOLERANCE = 2 * EPS  # math.erf is within one ulp, the polynomial adds about one


def relative_gap(x: np.ndarray) -> np.ndarray:
    """|erf(x) − math.erf(x)| / |math.erf(x)| for each entry (0 where both are 0)."""
    exact = np.array([math.erf(v) for v in x.ravel()]).reshape(x.shape)
    gap = np.abs(erf(x) - exact)
    return np.where(exact == 0, gap, gap / np.where(exact == 0, 1.0, np.abs(exact)))


def test_agrees_with_math_erf_on_a_dense_grid_and_halfway_between_centres_where_the_offset_is_largest() -> None:
    halfway = (np.arange(round(END / STEP)) + 0.5) * STEP
    assert relative_gap(np.concatenate([np.linspace(-7.0, 7.0, 100_001), halfway, -halfway])).max() <= TOLERANCE


@given(st.floats(min_value=-40.0, max_value=40.0, allow_nan=False) | st.floats(min_value=1e-300, max_value=1e-3))
def test_agrees_with_math_erf_at_any_float_relatively_even_for_tiny_ones(x: float) -> None:
    assert relative_gap(np.array([x]))[0] <= TOLERANCE  # erf(x) ≈ 2x/√π near 0: no absolute error may swamp it


def test_is_odd_exactly_keeps_the_shape_and_has_the_right_edges() -> None:
    x = np.linspace(0.0, 7.0, 1001)
    assert (erf(-x) == -erf(x)).all()
    out = erf(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e308]))
    assert out[:4].tolist() == [0.0, 0.0, 1.0, -1.0]
    assert math.copysign(1.0, out[1]) == -1.0 and math.isnan(out[4]) and out[5] == 1.0
    assert erf(np.zeros((2, 3))).shape == (2, 3)


# erfcx and gaussian: what gelu's negative tail is made of ---------------------------------------------


@given(st.floats(min_value=-20.0, max_value=1e6))
def test_erfcx_is_e_to_the_x_squared_times_erfc_to_1e_12(x: float) -> None:
    assert high_precision.relative_error(float(erfcx(np.array([x]))[0]), high_precision.erfcx(x)) <= 1e-12


def test_erfcx_around_the_switch_far_out_and_where_the_true_value_leaves_float64() -> None:
    # at 1e300, erfcx(x) ≈ 1/(x√π): erfc itself is 0 and e^(x²) infinite in float64
    for x in (FRACTION_FROM, math.nextafter(FRACTION_FROM, 0.0), 2.5, 6.0, 26.6, 1e300):
        assert high_precision.relative_error(float(erfcx(np.array([x]))[0]), high_precision.erfcx(x)) <= 1e-15 * 4
    out = erfcx(np.array([[-30.0, 0.0], [1.0, 10.0]]))
    assert out.shape == (2, 2) and out[0, 0] == math.inf and out[0, 1] == 1.0


@given(st.floats(min_value=-37.5, max_value=37.5))  # where e^(−x²/2) is a normal float
def test_gaussian_is_e_to_the_minus_half_x_squared_to_a_few_ulp(x: float) -> None:
    exact = (-(Decimal(x) ** 2) / 2).exp()
    assert high_precision.relative_error(float(gaussian(np.array([x]))[0]), exact) <= 4 * EPS


def test_gaussian_underflows_to_zero_far_out_even_where_x_squared_overflows() -> None:
    assert gaussian(np.array([40.0, -1e200, 1e308])).tolist() == [0.0, 0.0, 0.0]
