"""Properties of attention over random shapes (each size 1 to 8), entries (within ±1e3) and masks (hypothesis)."""

from __future__ import annotations

import dataclasses
import json
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from attnlab.attention import attention, softmax
from attnlab.lab import TOKENS, compute
from attnlab.layers import encoder_block, init_encoder_block
from attnlab.streaming import streaming_attention

PROPERTY = settings(max_examples=100)

SIZE = st.integers(1, 8)
ENTRY = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


def matrix(rows: int, cols: int, entries: st.SearchStrategy[float] = ENTRY) -> st.SearchStrategy[np.ndarray]:
    """Float matrices of one shape."""
    return arrays(np.float64, (rows, cols), elements=entries)


@st.composite
def mask(draw: st.DrawFn, n: int, m: int) -> np.ndarray:
    """A random n×m boolean mask with at least one visible key per row."""
    visible = draw(arrays(np.bool_, (n, m)))
    keep = draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n))
    visible[np.arange(n), keep] = True
    return visible


@st.composite
def problem(draw: st.DrawFn, entries: st.SearchStrategy[float] = ENTRY) -> dict[str, np.ndarray]:
    """q (n×d_k), k (m×d_k), v (m×d_v) and a visible mask (n×m)."""
    n, m, d_k, d_v = draw(SIZE), draw(SIZE), draw(SIZE), draw(SIZE)
    return {"q": draw(matrix(n, d_k, entries)), "k": draw(matrix(m, d_k, entries)),
            "v": draw(matrix(m, d_v, entries)), "visible": draw(mask(n, m))}


@PROPERTY
@given(problem())
def test_weights_are_a_distribution_over_the_visible_keys_every_step_finite_and_read_only(
        p: dict[str, np.ndarray]) -> None:
    # raw scores up to ±8e6 and still no warning; the output within the visible values: extreme inputs below
    with warnings.catch_warnings(), np.errstate(over="raise", divide="raise", invalid="raise"):
        warnings.simplefilter("error")
        r = attention(**p)
    for field in dataclasses.fields(r):
        array = getattr(r, field.name)
        assert np.isfinite(array.astype(float)).all(), field.name
        with pytest.raises(ValueError, match="read-only"):
            array[(0,) * array.ndim] = 1
    np.testing.assert_allclose(r.weights.sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert (r.weights >= 0).all() and (r.weights[~p["visible"]] == 0.0).all()


@PROPERTY
@given(st.data(), SIZE, SIZE, SIZE, SIZE, st.integers(0, 2**32 - 1), st.sampled_from(["post", "pre"]))
def test_all_visible_self_attention_and_the_encoder_block_without_positions_are_permutation_equivariant(
        data: st.DataObject, n: int, d_model: int, d_k: int, d_v: int, seed: int, order: str) -> None:
    # CL-011: reordering the rows by P reorders the outputs alike and the weights A become P A Pᵀ.
    # Projection entries within ±1 keep scores small enough that rounding cannot reorder weights.
    x, p = data.draw(matrix(n, d_model)), data.draw(st.permutations(range(n)))
    w_q, w_k, w_v = (data.draw(matrix(d_model, d, st.floats(-1, 1))) for d in (d_k, d_k, d_v))
    moved, before = (attention(rows @ w_q, rows @ w_k, rows @ w_v) for rows in (x[p], x))
    np.testing.assert_allclose(moved.output, before.output[p], rtol=1e-7, atol=1e-7 * (1.0 + np.abs(x @ w_v).max()))
    np.testing.assert_allclose(moved.weights, before.weights[np.ix_(p, p)], rtol=0, atol=1e-7)
    rows, params = data.draw(matrix(n, 4, st.floats(-10, 10))), init_encoder_block(seed)
    np.testing.assert_allclose(encoder_block(rows[p], params, order=order),
                               encoder_block(rows, params, order=order)[p], rtol=1e-9, atol=1e-9)


@PROPERTY
@given(st.data(), SIZE, SIZE, arrays(np.float64, 8, elements=ENTRY))
def test_softmax_ignores_a_constant_added_to_a_row(data: st.DataObject, n: int, m: int, shifts: np.ndarray) -> None:
    scaled, visible = data.draw(matrix(n, m)), data.draw(mask(n, m))  # within ±1e3: a shift moves a weight by rounding
    after = softmax(scaled + shifts[:n, None], visible)
    np.testing.assert_allclose(after, softmax(scaled, visible), rtol=1e-9, atol=1e-12)


@PROPERTY
@given(problem())
def test_each_query_row_is_computed_independently_of_the_other_rows_and_alike_as_a_1d_query(
        p: dict[str, np.ndarray]) -> None:
    one = attention(p["q"][0], p["k"], p["v"], p["visible"][0])
    alone = attention(p["q"][:1], p["k"], p["v"], p["visible"][:1])
    for field in dataclasses.fields(one):
        assert getattr(one, field.name).tolist() == getattr(alone, field.name)[0].tolist(), field.name
    # a different matrix shape may round q·k differently in the last bit; the weights move by
    # at most that rounding times the size of the scaled scores
    full = attention(**p)
    slack = 1e-13 * (1.0 + np.abs(full.scaled).max())
    np.testing.assert_allclose(alone.scaled[0], full.scaled[0], rtol=1e-14, atol=slack)
    np.testing.assert_allclose(alone.weights[0], full.weights[0], rtol=0, atol=slack)
    np.testing.assert_allclose(alone.output[0], full.output[0], rtol=0, atol=slack * (1.0 + np.abs(p["v"]).sum()))


@PROPERTY
@given(st.sampled_from(TOKENS), st.floats(allow_nan=False, allow_infinity=False), st.booleans(),
       st.floats(allow_nan=False, allow_infinity=False))
def test_lab_compute_is_finite_for_every_finite_control(token: str, query_scale: float, causal: bool,
                                                         value_y: float) -> None:
    # only a query_scale beyond about 1e308 / 3 can push the toy's scores out of float64
    try:
        r = compute(token, query_scale, causal, value_y)
    except ValueError as error:
        assert "query_scale" in str(error) and abs(query_scale) > 1e300
    else:
        json.dumps(r.to_dict(), allow_nan=False)  # refuses NaN and infinity anywhere inside


LARGE = st.floats(-1e300, 1e300)  # subnormals included; nearer the float64 maximum a mix may overflow


@st.composite
def extreme(draw: st.DrawFn) -> dict[str, Any]:
    """q and k within ±1e150 (scores to ±3e300) or ±1e160 (some overflow), values to ±1e300, any mask."""
    n, m, d_k, d_v = draw(st.integers(1, 4)), draw(st.integers(1, 8)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    bound = draw(st.sampled_from([1e150, 1e160]))
    side = st.floats(-bound, bound)
    return {"q": draw(matrix(n, d_k, side)), "k": draw(matrix(m, d_k, side)), "v": draw(matrix(m, d_v, LARGE)),
            "visible": draw(arrays(np.bool_, (n, m))), "block": draw(st.integers(1, m + 1))}


def outcome(function: Any) -> tuple[np.ndarray | None, str | None]:
    """``function()``'s result and None, or None and the message of the ValueError it raised."""
    try:
        return function(), None
    except ValueError as error:
        return None, str(error)


def assert_within_visible_values(output: np.ndarray, v: np.ndarray, visible: np.ndarray) -> None:
    """Each output coordinate finite and within its column's visible values, up to a mix's m + 3 roundings."""
    m = v.shape[0]
    assert np.isfinite(output).all()
    for i, row in enumerate(visible):
        seen = v[row]
        slack = 2 * (m + 3) * 2.0**-52 * np.abs(seen).max(axis=0) + 8 * (m + 1) ** 2 * 2.0**-1074
        with np.errstate(over="ignore"):  # past either end of float64 a bound is ±inf, which is right
            low, high = seen.min(axis=0) - slack, seen.max(axis=0) + slack
        assert ((low <= output[i]) & (output[i] <= high)).all(), (i, output[i], seen)


@settings(max_examples=300)
@given(extreme())
def test_attention_and_streaming_of_any_finite_inputs_refuse_alike_or_stay_within_the_visible_values(
        case: dict[str, Any]) -> None:
    q, k, v, visible = case["q"], case["k"], case["v"], case["visible"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        naive, naive_error = outcome(lambda: attention(q, k, v, visible).output)
        streamed, streamed_error = outcome(lambda: streaming_attention(q, k, v, visible, case["block"]))
    assert (naive_error or "").split(":")[0] == (streamed_error or "").split(":")[0]  # the largest |k| is the block's
    if naive_error is not None:
        assert naive_error.startswith(("visible row ", "q @ k.T overflow float64")), naive_error
        return
    assert_within_visible_values(naive, v, visible)
    assert_within_visible_values(streamed, v, visible)


def test_no_property_has_a_deadline() -> None:
    # tests/conftest.py's profile: a busy machine must not fail a property that holds
    assert settings.default.deadline is None
