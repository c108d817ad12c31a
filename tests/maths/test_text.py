"""Shown numbers remember what they show: ``fmt``, ``vector`` and friends keep the exact value behind the text."""

from __future__ import annotations

import copy
import json
import math
import pickle

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnlab.cost import readable_bytes
from attnlab.text import Rounded, fmt, given_vector, joined, significant, thousands, vector


@given(st.floats(allow_nan=False, allow_infinity=False), st.integers(0, 6))
def test_fmt_keeps_the_exact_float_it_rounds(x: float, decimals: int) -> None:
    assert fmt(x, decimals).exact == x


def test_fmt_is_text_that_compares_prints_and_serialises_as_its_digits() -> None:
    shown = fmt(1 / 3)
    assert shown == "0.333" and f"[{shown}]" == "[0.333]" and json.dumps(shown) == '"0.333"'
    assert type(f"**{fmt(0.5)}**") is str  # text built around a shown number is plain text
    assert type(fmt(np.float32(0.5)).exact) is float
    assert vector(np.array([[1 / 3], [2 / 3]])).exact == [1 / 3, 2 / 3]


def test_each_way_of_showing_a_number_keeps_the_exact_value_behind_its_text() -> None:
    for shown, text, exact in [(joined(" / ", fmt(1 / 3), fmt(2 / 3)), "0.333 / 0.667", [1 / 3, 2 / 3]),
                               (significant(0.0899999), "0.090", 0.0899999),  # trailing zeros kept
                               (significant(5.7123e-5), "5.7e-05", 5.7123e-5),
                               (significant(1 / 3, 17), "0.33333333333333331", 1 / 3),
                               (thousands(np.int64(1048576)), "1,048,576", 1048576),
                               (readable_bytes(3 * 2**29), "1.5 GiB", 3 * 2**29),
                               (Rounded("about a third", 1 / 3), "about a third", 1 / 3)]:
        assert (shown, shown.exact, type(shown.exact)) == (text, exact, type(exact))
    shown = vector([1 / 3, 1.0])
    assert copy.deepcopy(shown).exact == pickle.loads(pickle.dumps(shown)).exact == [1 / 3, 1.0]


def test_bad_numbers_and_digits_are_refused_naming_them() -> None:
    for call, error, message in [
        *((lambda x=x: significant(x), ValueError, r"^x must be finite, got") for x in (math.nan, -math.inf)),
        *((lambda d=d: significant(0.5, d), e, r"^digits must be")
          for d, e in [(0, ValueError), (18, ValueError), (2.0, TypeError), (True, TypeError)]),
        *((lambda f=f: f([1.0, math.nan]), ValueError, r"^v has a non-finite entry nan at index \(1,\)")
          for f in (vector, given_vector)),
        (lambda: joined(" / ", fmt(0.5), "0.25"), TypeError, r"^parts\[1\] must be a shown number"),
    ]:
        with pytest.raises(error, match=message):
            call()
