"""``gelu`` in its negative tail, where 1 + erf(x/√2) is all rounding: x·Φ(x) to 1e-12 relative against
``high_precision.gelu``, down to underflow."""

from __future__ import annotations

import math
from decimal import Decimal

import high_precision
import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from attnlab.erf import FRACTION_FROM
from attnlab.layers import gelu

RELATIVE = 1e-12  # wherever the result is a normal float
TINY = np.finfo(np.float64).tiny  # below it only the absolute error can be small
SUBNORMAL_STEP = 2.0**-1074


def assert_close(x: float) -> None:
    """``gelu(x)`` within ``RELATIVE`` of x·Φ(x), or within two subnormal steps where that is not a normal float."""
    got, exact = float(gelu(x)), high_precision.gelu(x)
    if abs(exact) >= TINY:
        assert high_precision.relative_error(got, exact) <= RELATIVE, (x, got, float(exact))
    else:
        assert abs(float(Decimal(got) - exact)) <= 2 * SUBNORMAL_STEP, (x, got)
        assert math.copysign(1.0, got) == math.copysign(1.0, x), (x, got)


@given(st.floats(min_value=-40.0, max_value=40.0))
def test_gelu_is_x_times_phi_to_1e_12_relative_for_any_float_down_to_underflow(x: float) -> None:
    assert_close(x)


def test_gelu_is_x_times_phi_through_the_tail_at_the_switch_past_underflow_and_minus_zero_beyond_it() -> None:
    edge = -FRACTION_FROM * math.sqrt(2.0)  # where the continued fraction takes over
    crossing = np.linspace(-37.7, -37.55, 16)  # x·Φ(x) crosses the smallest normal float near x = −37.62
    assert abs(high_precision.gelu(-37.7)) < TINY < abs(high_precision.gelu(-37.55))
    for x in [*np.linspace(-38.5, 0.0, 78)[:-1], -1e-300, 1e-300, 0.5, 3.0, 8.0, *crossing,
              edge, math.nextafter(edge, -math.inf), math.nextafter(edge, math.inf)]:
        assert_close(float(x))
    # −10·Φ(−10) ≈ −7.6e-23 rounds to a normal float, so the -0.0 it once gave was an error of 100 %
    assert float(gelu(-10.0)) < 0
    out = gelu(np.array([-40.0, -1e300]))  # −40·Φ(−40) ≈ −1e-349 rounds to −0.0, the correctly rounded float
    assert out.tolist() == [0.0, 0.0] and (np.signbit(out)).all()


def test_a_matrix_mixing_tail_and_ordinary_entries_keeps_its_shape_and_each_entry() -> None:
    x = np.array([[-20.0, 1.0], [-0.5, -5.0]])
    assert gelu(x).tolist() == [[float(gelu(v)) for v in row] for row in x.tolist()]
