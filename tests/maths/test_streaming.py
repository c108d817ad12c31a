"""``attnlab.streaming``: attention's exact output, one block of keys at a time."""

from __future__ import annotations

import math
import tracemalloc
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from test_properties import mask

from attnlab import attention, causal, streaming_attention
from attnlab.streaming import streaming_trace


def assert_same_output(streamed: np.ndarray, naive: np.ndarray, values: np.ndarray) -> None:
    """Equal within 1e-12 relative, or 1e-12 of the largest |value| (an output is a mixture of the values)."""
    assert streamed.shape == naive.shape
    np.testing.assert_allclose(streamed, naive, rtol=1e-12, atol=1e-12 * np.abs(values).max())


@st.composite
def cases(draw: st.DrawFn) -> dict[str, Any]:
    """q, k, v (no subnormal values: 1e-12 of them is below one ulp), a mask seeing a key per row, a block."""
    (n, m), (d_k, d_v) = (draw(st.integers(1, 40)) for _ in "nm"), (draw(st.integers(1, 8)) for _ in "kv")
    entries = draw(st.sampled_from([st.floats(-10, 10, allow_nan=False), st.integers(-1000, 1000).map(float)]))
    q = draw(hnp.arrays(np.float64, (n, d_k), elements=entries))
    k = draw(hnp.arrays(np.float64, (m, d_k), elements=entries))
    v = draw(hnp.arrays(np.float64, (m, d_v), elements=st.floats(-1e3, 1e3, allow_nan=False, allow_subnormal=False)))
    return {"q": q, "k": k, "v": v, "visible": draw(mask(n, m)), "block": draw(st.integers(1, m + 3))}


@settings(max_examples=200)
@given(cases())
def test_streaming_equals_attention_silently_for_random_shapes_masks_blocks_and_a_single_1d_query(
        case: dict[str, Any]) -> None:
    q, k, v, visible, block = case["q"], case["k"], case["v"], case["visible"], case["block"]
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        streamed = (streaming_attention(**case), streaming_attention(q, k, v, block=block),
                    streaming_attention(q[0], k, v, visible[0]))
    for found, naive in zip(streamed, (attention(q, k, v, visible), attention(q, k, v),
                                       attention(q[0], k, v, visible[0])), strict=True):
        assert_same_output(found, naive.output, v)


def test_scores_further_apart_than_float64_holds_raise_no_warning() -> None:
    far = [[1.5e308]], [[1.0], [-1.0]], [[1.0], [2.0]]  # scaled scores ±1.5e308
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        apart = streaming_attention(*far, block=1)
    assert_same_output(apart, attention(*far).output, np.array(far[2]))


def test_trace_of_toy_rises_row_keeps_the_running_maximum_and_rescales_the_running_sum() -> None:
    # rises = [1, 1] against keys [1, 1], [0, 1], [1, 2]: scaled scores 2/√2, 1/√2, 3/√2.
    q, k, v = [1.0, 1.0], [[1.0, 1.0], [0.0, 1.0], [1.0, 2.0]], [[1.0, 0.0], [0.0, 2.0], [1.0, 2.0]]
    steps = streaming_trace(q, k, v, block=1)
    peaks = [step.peak[0] for step in steps]
    assert peaks == pytest.approx([2 / math.sqrt(2), 2 / math.sqrt(2), 3 / math.sqrt(2)], rel=1e-15)
    gap = 1 / math.sqrt(2)  # each key's scaled score is 1/√2 away from the next
    expected = [1.0, 1 + math.exp(-gap), (1 + math.exp(-gap)) * math.exp(-gap) + 1]
    assert [step.total[0] for step in steps] == pytest.approx(expected, rel=1e-15)
    for array in (steps[0].peak, steps[0].total, steps[0].weighted):
        with pytest.raises(ValueError, match="read-only"):
            array[0] = 0
    steps = streaming_trace(np.ones((2, 2)), np.ones((7, 2)), np.ones((7, 1)), block=3)
    assert [s.keys_seen for s in steps] == [3, 6, 7]


def test_trace_ends_at_the_output_and_its_causal_flag_is_the_causal_mask() -> None:
    rng = np.random.default_rng(6)
    q, k, v = rng.normal(size=(5, 3)), rng.normal(size=(9, 3)), rng.normal(size=(9, 2))
    last = streaming_trace(q, k, v, causal(5, 9), block=4)[-1]
    assert_same_output(last.weighted / last.total[:, None], attention(q, k, v, causal(5, 9)).output, v)
    flagged, masked = streaming_trace(Q, K, V, block=1, causal=True), streaming_trace(Q, K, V, causal(3), block=1)
    assert all(np.array_equal(a.total, b.total) and np.array_equal(a.weighted, b.weighted)
               for a, b in zip(flagged, masked, strict=True))


def raised(function: Any, *args: Any) -> tuple[type, str]:
    """The type and message of the error ``function(*args)`` raises."""
    with pytest.raises((TypeError, ValueError)) as info:
        function(*args)
    return type(info.value), str(info.value)


Q, K, V = [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [0.0, 1.0], [1.0, 2.0]], [[1.0], [2.0], [3.0]]
BLOCKED_ROW_1 = np.array([[True, False, False], [False, False, False], [True, True, True]])
BAD_INPUTS = {  # each array's checks: test_refusals.py; overflow and blocked rows: test_properties.py
    "k and v rows differ": (Q, K, [[1.0], [2.0]], None),
    "visible has the wrong shape": (Q, K, V, np.ones((3, 2), dtype=bool)),
    "visible is 2-D for a 1-D query": (Q[0], K, V, np.ones((3, 3), dtype=bool)),
    "a row blocks every key": (Q, K, V, BLOCKED_ROW_1),
    "a single query blocks every key": (Q[0], K, V, np.zeros(3, dtype=bool)),
}


def test_bad_input_raises_the_same_error_as_attention() -> None:
    for name, args in BAD_INPUTS.items():
        assert raised(streaming_attention, *args) == raised(attention, *args), name
    assert raised(streaming_attention, Q, K, V, BLOCKED_ROW_1) == (
        ValueError, "visible row 1 blocks every key: a fully blocked row has no weights")


def test_a_causal_flag_that_is_not_a_bool_or_leaves_a_row_without_a_key_is_refused() -> None:
    for flag in (1, "yes", None):  # a bad block: test_refusals.py's integer table
        with pytest.raises(TypeError, match="causal must be True or False"):
            streaming_attention(Q, K, V, causal=flag)
    with pytest.raises(ValueError, match="visible row 0 blocks every key"):
        streaming_attention(np.ones((4, 1)), np.ones((2, 1)), np.ones((2, 1)), block=1, causal=True)


def traced_peak(function: Any, *args: Any, **kwargs: Any) -> int:
    """The most memory tracemalloc sees allocated during one call (inputs made before excluded)."""
    tracemalloc.start()
    try:
        function(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_streaming_never_allocates_an_n_by_m_array_and_the_measure_sees_naive_attentions() -> None:
    n, m, rng = 128, 50_000, np.random.default_rng(8)  # an n×m float64 array would take 51.2 MB
    q, k, v, visible = rng.normal(size=(n, 1)), rng.normal(size=(m, 1)), rng.normal(size=(m, 1)), causal(n, m)
    for seen in (None, visible):
        assert traced_peak(streaming_attention, q, k, v, seen, block=64) < n * m * 8 / 20
    assert traced_peak(attention, q, k, v, visible) > n * m * 8
    # causal=True needs no n×m array, not even a boolean one like the dense mask
    assert traced_peak(streaming_attention, q, k, v, block=64, causal=True) < n * m == visible.nbytes


@settings(max_examples=100)
@given(st.integers(1, 30), st.integers(0, 30), st.integers(1, 33), st.integers(0, 2**32 - 1))
def test_causal_flag_equals_attention_with_the_causal_mask_alone_or_with_a_visible_mask(
        n: int, extra: int, block: int, seed: int) -> None:
    m, rng = n + extra, np.random.default_rng(seed)  # n ≤ m: every query sees at least its own position
    q, k, v = rng.normal(size=(n, 3)), rng.normal(size=(m, 3)), rng.normal(size=(m, 2))
    padding = (rng.random(m) < 0.7) | (np.arange(m) == 0)  # every query sees the first key
    for visible, expected in ((None, causal(n, m)), (np.tile(padding, (n, 1)), causal(n, m) & padding)):
        assert_same_output(streaming_attention(q, k, v, visible, block=block, causal=True),
                           attention(q, k, v, expected).output, v)
