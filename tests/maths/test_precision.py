"""``attnlab.precision``: where exp overflows in each format (CL-037), on a real head of the guide."""

from __future__ import annotations

import math

import numpy as np
import pytest

from attnlab import bert
from attnlab.precision import BFLOAT16_MAX, FORMATS, exp_limit, largest, naive_exp_overflows, stable_exp_overflows


def test_each_formats_exp_limit_is_where_rounding_to_nearest_reaches_infinity() -> None:
    assert largest("float16") == 65504 and math.isclose(exp_limit("float16"), math.log(65520))
    assert [round(exp_limit(f), 2) for f in FORMATS] == [11.09, 88.72, 88.72, 709.78]
    assert BFLOAT16_MAX == float.fromhex("0x1.fep127") and BFLOAT16_MAX < largest("float32")  # 7 stored bits
    for format, kind in (("float16", np.float16), ("float32", np.float32)):
        threshold = math.exp(exp_limit(format))
        with np.errstate(over="ignore"):
            assert kind(threshold * (1 - 1e-12)) == largest(format) and np.isinf(kind(threshold * (1 + 1e-12)))
    below = np.nextafter(np.float16(exp_limit("float16")), np.float16(0))
    above = np.nextafter(below, np.float16(100))
    assert not naive_exp_overflows([float(below)], "float16") and naive_exp_overflows([float(above)], "float16")


def test_the_first_heads_scaled_scores_overflow_a_naive_float16_softmax_but_not_the_stable_one() -> None:
    scaled = bert.encode("grid load rises")[0].layers[0].heads[2].scaled
    assert scaled.max() > exp_limit("float16")
    assert naive_exp_overflows(scaled, "float16") and not naive_exp_overflows(scaled, "float32")
    assert not stable_exp_overflows(scaled, "float16")


def test_a_format_numpy_lacks_is_refused_for_computing_but_known_for_its_limit() -> None:
    assert exp_limit("bfloat16") > 88
    with pytest.raises(ValueError, match="numpy has no bfloat16"):
        naive_exp_overflows([1.0], "bfloat16")
    with pytest.raises(ValueError, match="format must be one of"):
        largest("float8")
