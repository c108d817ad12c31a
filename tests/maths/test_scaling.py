"""The scaling experiment: dividing by √d_k keeps the scores' spread near 1 for independent entries, not for
entries that share a part (the Scores chapter)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnlab.scaling import _spread, rows, spread

WIDTHS = (8, 32, 128, 512)


def test_without_a_shared_part_the_draw_is_plain_and_with_only_one_every_entry_of_a_vector_is_the_same() -> None:
    assert np.array_equal(rows(np.random.default_rng(5), (4, 6)), np.random.default_rng(5).standard_normal((4, 6)))
    drawn = rows(np.random.default_rng(5), (4, 6), shared=1.0)
    assert np.array_equal(drawn, np.repeat(drawn[:, :1], 6, axis=1)) and len(set(drawn[:, 0])) == 4


@given(st.floats(min_value=0.0, max_value=1.0))
def test_a_shared_part_keeps_every_entry_at_mean_zero_and_variance_one_and_is_their_correlation(
        shared: float) -> None:
    drawn = rows(np.random.default_rng(11), (40_000, 2), shared)
    assert np.allclose(drawn.mean(axis=0), 0.0, atol=0.03) and np.allclose(drawn.var(axis=0), 1.0, atol=0.05)
    assert np.corrcoef(drawn[:, 0], drawn[:, 1])[0, 1] == pytest.approx(shared, abs=0.02)


@given(st.floats(min_value=0.0, max_value=1.0), st.integers(0, 2**32 - 1))
def test_the_draw_is_the_own_and_common_parts_weighted_by_the_square_roots_of_their_shares(
        shared: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    own, common = rng.standard_normal((3, 5, 4)), rng.standard_normal((3, 5, 1))
    assert np.array_equal(rows(np.random.default_rng(seed), (3, 5, 4), shared),
                          np.sqrt(1 - shared) * own + np.sqrt(shared) * common)


def test_a_shared_part_outside_zero_to_one_or_a_width_below_one_is_refused_naming_it() -> None:
    for shared in (-0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match="shared"):
            rows(np.random.default_rng(0), (2, 2), shared)
    with pytest.raises(ValueError, match="d_k"):
        spread(0)


def test_independent_entries_keep_the_scaled_spread_near_one_at_every_width_the_same_every_time() -> None:
    assert [round(spread(d).spread, 1) for d in WIDTHS] == [0.9] * 4
    first = spread(32, 0.25)
    _spread.cache_clear()  # a fresh draw, not the cached figures
    assert spread(32, 0.25) == first


def test_a_shared_part_makes_the_scaled_spread_grow_with_the_width_and_concentrates_the_weights() -> None:
    grown, tops = zip(*((s.spread, s.top_weight) for s in (spread(d, shared=0.25) for d in WIDTHS)))
    assert list(grown) == sorted(grown) and grown[-1] > 3 * grown[0]
    assert list(tops) == sorted(tops) and tops[-1] > 2 * spread(512).top_weight
