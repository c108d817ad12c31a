"""``attnlab.checks``: inputs become finite float arrays, or an error names the argument."""

from __future__ import annotations

import datetime
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnlab.checks import (
    added,
    as_array,
    as_mask,
    as_matrix,
    as_rows,
    as_vector,
    at_least,
    digits,
    finite_number,
    index,
    integer,
    overflow_free,
    positive_int,
    same_rows,
    same_width,
)


def test_as_array_turns_nested_lists_of_ints_into_float64() -> None:
    array = as_array("x", [[1, 2], [3, 4]], 2)
    assert (array.dtype, array.tolist()) == (np.float64, [[1.0, 2.0], [3.0, 4.0]])


def test_as_array_accepts_any_of_several_dimensions() -> None:
    assert as_array("x", [1, 2], (1, 2)).shape == (2,)


def test_as_array_refuses_the_wrong_dimension_naming_shape() -> None:
    with pytest.raises(ValueError, match=r"x must be 1-D or 2-D, got shape \(1, 1, 1\)"):
        as_array("x", [[[1.0]]], (1, 2))


def test_as_array_refuses_ragged_rows_naming_the_argument() -> None:
    with pytest.raises(ValueError, match="keys is ragged"):
        as_array("keys", [[1.0, 2.0], [3.0]], 2)


def test_as_array_refuses_none_entries_naming_the_argument_and_index() -> None:
    with pytest.raises(TypeError, match=r"x must hold real numbers, got None at index \(0, 1\)"):
        as_array("x", [[1.0, None]], 2)


def test_as_array_refuses_ragged_rows_kept_as_objects_naming_the_argument() -> None:
    with pytest.raises(ValueError, match="k is ragged"):
        as_array("k", np.array([[1.0, 2.0], [3.0]], dtype=object), 2)


def test_as_array_accepts_python_integers_beyond_int64() -> None:
    assert as_array("x", [[10**20, 0]], 2).tolist() == [[1e20, 0.0]]


@given(st.integers(2**1024, 10**500))
def test_as_array_refuses_integers_beyond_float64_naming_argument_index_and_size(big: int) -> None:
    with pytest.raises(ValueError, match=rf"q has an entry beyond float64 at index \(0, 1\): "
                                         rf"an integer of {len(str(big))} digits"):
        as_array("q", [[0, -big]], 2)


@pytest.mark.parametrize("value", [[[]], np.zeros((0, 3)), np.zeros((2, 0))])
def test_as_array_refuses_empty_input_naming_shape(value: Any) -> None:
    with pytest.raises(ValueError, match=r"x is empty \(shape"):
        as_array("x", value, 2)


@pytest.mark.parametrize(("bad", "text"), [(math.nan, "nan"), (math.inf, "inf"), (-math.inf, "-inf")])
def test_as_array_refuses_non_finite_entries_naming_value_and_index(bad: float, text: str) -> None:
    with pytest.raises(ValueError, match=rf"x has a non-finite entry {text} at index \(1, 0\)"):
        as_array("x", [[0.0, 1.0], [bad, 2.0]], 2)


@pytest.mark.parametrize("value", [np.array([True, False]), [True, False]])
def test_as_array_refuses_booleans(value: Any) -> None:
    with pytest.raises(TypeError, match="x must hold"):
        as_array("x", value, 1)


@pytest.mark.parametrize("value", [["1", "2"], "12", [1 + 2j, 3.0]])
def test_as_array_refuses_strings_and_complex_numbers(value: Any) -> None:
    with pytest.raises(TypeError, match="x must hold real numbers"):
        as_array("x", value, 1)


def test_as_matrix_refuses_a_single_row() -> None:
    with pytest.raises(ValueError, match="w must be 2-D"):
        as_matrix("w", [1.0, 2.0])


def test_as_rows_lifts_a_single_row_and_says_so() -> None:
    rows, single = as_rows("q", [1.0, 2.0])
    assert (rows.tolist(), single) == ([[1.0, 2.0]], True)


def test_as_rows_keeps_a_matrix_and_says_so() -> None:
    rows, single = as_rows("q", [[1.0, 2.0]])
    assert (rows.tolist(), single) == ([[1.0, 2.0]], False)


def test_as_mask_accepts_nested_lists_of_bools() -> None:
    assert as_mask("visible", [[True, False]], (1, 2)).tolist() == [[True, False]]


@pytest.mark.parametrize("value", [[[1, 0]], np.array([[1.0, 0.0]]), [["yes", "no"]]])
def test_as_mask_refuses_non_boolean_masks_naming_dtype(value: Any) -> None:
    with pytest.raises(TypeError, match="visible must be a boolean array, got dtype"):
        as_mask("visible", value, (1, 2))


def test_as_mask_refuses_ragged_rows_naming_the_argument() -> None:
    with pytest.raises(ValueError, match="visible is ragged: every row must have the same length"):
        as_mask("visible", [[True, False], [True]], (2, 2))


def test_as_vector_returns_one_finite_entry_per_column() -> None:
    assert as_vector("b1", [1, 2], 2, "w1").tolist() == [1.0, 2.0]


@pytest.mark.parametrize(("value", "shape"), [([0.0, 0.0, 0.0], r"\(3,\)"), ([[0.0], [0.0]], None)])
def test_as_vector_refuses_another_length_or_a_column_naming_it(value: Any, shape: str | None) -> None:
    wanted = rf"b1 must have shape \(2,\) to match w1, got {shape}" if shape else r"b1 must be 1-D, got shape \(2, 1\)"
    with pytest.raises(ValueError, match=wanted):
        as_vector("b1", value, 2, "w1")


def test_as_mask_refuses_a_wrong_shape_naming_both_shapes() -> None:
    with pytest.raises(ValueError, match=r"visible must have shape \(2, 2\), got \(1, 2\)"):
        as_mask("visible", [[True, False]], (2, 2))


def test_same_width_names_both_arguments_and_shapes() -> None:
    with pytest.raises(
        ValueError, match=r"q has width 2 but k has width 3: they must match \(shapes \(1, 2\) and \(4, 3\)\)"
    ):
        same_width("q", np.zeros((1, 2)), "k", np.zeros((4, 3)))


def test_same_rows_names_both_arguments_and_shapes() -> None:
    with pytest.raises(ValueError, match=r"k has 4 rows but v has 3: they must match \(shapes \(4, 2\) and \(3, 5\)\)"):
        same_rows("k", np.zeros((4, 2)), "v", np.zeros((3, 5)))


@pytest.mark.parametrize(("value", "expected"), [(3, 3.0), (-0.5, -0.5), (np.float32(0.25), 0.25), (np.int64(2), 2.0)])
def test_finite_number_returns_a_float(value: Any, expected: float) -> None:
    result = finite_number("query_scale", value)
    assert (type(result), result) == (float, expected)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, np.float64("nan")])
def test_finite_number_refuses_nan_and_infinity_naming_the_argument(value: Any) -> None:
    with pytest.raises(ValueError, match="value_y must be finite"):
        finite_number("value_y", value)


@pytest.mark.parametrize(("value", "written"), [(True, "True"), ("1", "'1'"), (None, "None"), ([1.0], r"\[1.0\]"),
                                               (1 + 0j, r"\(1\+0j\)"), (np.timedelta64(3, "s"), "np.timedelta64.*")])
def test_finite_number_refuses_non_numbers_naming_the_argument_and_showing_the_value(value: Any, written: str) -> None:
    with pytest.raises(TypeError, match=f"value_y must be a real number, got {written}$"):
        finite_number("value_y", value)


@given(st.integers(2**1024, 10**500) | st.integers(-(10**500), -(2**1024)))
def test_finite_number_refuses_integers_beyond_float64_naming_the_argument(big: int) -> None:
    with pytest.raises(
        ValueError, match=f"query_scale must be finite in float64, got an integer of {len(str(abs(big)))} digits"
    ):
        finite_number("query_scale", big)


def test_overflow_free_names_both_inputs_and_their_largest_entries() -> None:
    a, b = np.array([1e308]), np.array([-4.0])
    with pytest.raises(ValueError, match=r"a \* b overflow float64: a and b entries are too large "
                                         r"\(largest \|a\| 1e\+308, largest \|b\| 4\)"):
        overflow_free(np.array([math.inf]), "a * b", "a", a, "b", b)


def test_added_returns_the_sum() -> None:
    assert added("x", np.array([1.0]), "b", np.array([2.0])).tolist() == [3.0]


@pytest.mark.parametrize("b", [np.array([1e308]), np.array([-1e308])])
def test_added_refuses_a_sum_beyond_float64_naming_both_terms(b: np.ndarray) -> None:
    with pytest.raises(ValueError, match=r"x \+ b1 overflow float64: x and b1 entries are too large"):
        added("x", b * 1.5, "b1", b)


def test_at_least_accepts_its_bound() -> None:
    assert at_least("seed", 0, 0) == 0


def test_at_least_refuses_values_below_its_bound_naming_the_argument() -> None:
    with pytest.raises(ValueError, match="seed must be at least 0, got -1"):
        at_least("seed", -1, 0)


def test_positive_int_returns_an_int() -> None:
    assert positive_int("length", np.int32(4)) == 4


@pytest.mark.parametrize("value", [0, -3])
def test_positive_int_refuses_values_below_one(value: int) -> None:
    with pytest.raises(ValueError, match=f"length must be at least 1, got {value}"):
        positive_int("length", value)


@pytest.mark.parametrize("value", [True, 2.0, "2"])
def test_positive_int_refuses_non_integers(value: Any) -> None:
    with pytest.raises(TypeError, match="length must be an integer"):
        positive_int("length", value)


def test_index_returns_an_int_position() -> None:
    assert index("row", np.int64(4), 5) == 4


@pytest.mark.parametrize("value", [5, -1])
def test_index_refuses_positions_outside_0_to_count_minus_1_naming_the_argument(value: int) -> None:
    with pytest.raises(ValueError, match=f"row must be from 0 to 4, got {value}"):
        index("row", value, 5)


@pytest.mark.parametrize("value", [True, 1.0, "1"])
def test_index_refuses_non_integers_naming_the_argument(value: Any) -> None:
    with pytest.raises(TypeError, match="row must be an integer"):
        index("row", value, 5)


def test_integer_accepts_negative_numpy_integers() -> None:
    assert integer("offset", np.int8(-3)) == -3


@pytest.mark.parametrize("value", [True, 0.5, "1", None])
def test_integer_refuses_non_integers_naming_the_argument(value: Any) -> None:
    with pytest.raises(TypeError, match="offset must be an integer"):
        integer("offset", value)


@pytest.mark.parametrize(("value", "where"), [([1.0, True], r"\(1,\)"), ([[0.5, 2.0], [np.True_, 1.0]], r"\(1, 0\)"),
                                             ([False, 3], r"\(0,\)")])
def test_as_array_refuses_a_boolean_among_numbers_naming_argument_and_index(value: Any, where: str) -> None:
    # numpy would read True as 1.0 and False as 0.0 without a word
    with pytest.raises(
        TypeError, match=rf"^x must hold real numbers, got the boolean (np\.)?(True|False)_? at index {where}"
    ):
        as_array("x", value, (1, 2))


@pytest.mark.parametrize("value", [np.array([1, 2], dtype="m8[s]"), [np.timedelta64(1, "D")],
                                   np.array([np.timedelta64(5, "s")], dtype=object)])
def test_as_array_refuses_durations_which_numpy_counts_as_integers(value: Any) -> None:
    with pytest.raises(TypeError, match=r"^k must hold real numbers, got"):
        as_array("k", value, 1)


@pytest.mark.parametrize("value", [np.array(["2020-01-01"], dtype="M8[D]"), [datetime.datetime(2020, 1, 1)],
                                   [datetime.timedelta(seconds=1)]])
def test_as_array_refuses_dates_and_python_durations(value: Any) -> None:
    with pytest.raises(TypeError, match=r"^k must hold real numbers, got"):
        as_array("k", value, 1)


@pytest.mark.parametrize("mask", [[False, True], False])
def test_as_array_refuses_a_masked_array_whose_mask_numpy_would_drop(mask: Any) -> None:
    with pytest.raises(TypeError, match=r"^v is a masked array, whose mask attnlab would ignore: pass v.filled"):
        as_array("v", np.ma.masked_array([1.0, 99.0], mask=mask), 1)


def test_as_mask_refuses_a_masked_array_too() -> None:
    with pytest.raises(TypeError, match=r"^visible is a masked array"):
        as_mask("visible", np.ma.masked_array([[True, False]]), (1, 2))


@pytest.mark.parametrize("function", [finite_number, integer])
@pytest.mark.parametrize("value", [np.timedelta64(3, "s"), np.datetime64("2020-01-01"), np.bool_(True)])
def test_scalars_numpy_counts_as_integers_are_refused(function: Any, value: Any) -> None:
    with pytest.raises(TypeError, match=r"^n must be"):
        function("n", value)


def test_an_integer_of_ten_thousand_digits_is_refused_by_its_length_not_written_out() -> None:
    # Python refuses str() of an int of 4,300 digits or more, so the message must count them otherwise
    with pytest.raises(ValueError, match=r"^eps must be finite in float64, got an integer of 10001 digits$"):
        finite_number("eps", 10**10000)
    with pytest.raises(
        ValueError, match=r"^q has an entry beyond float64 at index \(0,\): an integer of 10001 digits$"
    ):
        as_array("q", [-(10**10000)], 1)


@given(st.integers(-(10**700), 10**700))
def test_digits_counts_what_str_writes(n: int) -> None:
    assert digits(n) == len(str(abs(n)))
