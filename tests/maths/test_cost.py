"""The cost chapter's tools: exact counts (``attnlab.cost``) and the benchmark's helpers (the chart: test_plot.py)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnlab import causal
from attnlab.bench import growth_exponent, targets
from attnlab.bench import main as bench_main
from attnlab.cost import UNITS, LayerMadds, causal_visible, cost, crossover, layer_madds, readable_bytes


def test_counts_by_hand() -> None:
    c = cost(4, d_k=2)
    assert (c.score_entries, c.causal_visible, c.d_v) == (4 * 4, 1 + 2 + 3 + 4, 2)
    assert cost(4, d_k=2, bytes_per_number=4).score_bytes == 4 * 4 * 4
    c = cost(3, 5, d_k=2, d_v=7)  # n queries over m keys
    assert (c.score_entries, c.score_madds, c.mix_madds, c.madds) == (3 * 5, 3 * 5 * 2, 3 * 5 * 7, 3 * 5 * 9)
    c = cost(3, 5, d_k=2, d_v=7, heads=8, layers=6, bytes_per_number=2)
    assert (c.total_score_entries, c.total_score_bytes, c.total_madds) == (
        3 * 5 * 8 * 6, 3 * 5 * 2 * 8 * 6, 3 * 5 * (2 + 7) * 8 * 6)
    assert cost(1, 1000, d_k=64).madds == 1000 * (64 + 64)  # one cached query
    assert cost(np.int64(4), d_k=np.int32(2)).score_entries == 16
    assert cost(10**9 + 7, d_k=1).causal_visible == (10**9 + 7) * (10**9 + 8) // 2  # beyond float64's integers
    with pytest.raises(dataclasses.FrozenInstanceError):
        cost(4, d_k=2).n = 5  # type: ignore[misc]


def test_the_kv_cache_holds_a_key_and_a_value_per_position_key_value_head_and_layer_which_divide_the_heads() -> None:
    assert cost(1, 10, d_k=64, d_v=32, heads=8, layers=6, bytes_per_number=2).kv_cache_bytes == 10 * 96 * 8 * 6 * 2
    assert cost(1, 100, d_k=64, heads=8, layers=6, bytes_per_number=4).kv_cache_bytes == 2 * 100 * 64 * 8 * 6 * 4
    c = cost(1, 10, d_k=128, heads=32, kv_heads=8, layers=32, bytes_per_number=2)  # grouped-query attention
    assert c.kv_cache_bytes * 4 == cost(1, 10, d_k=128, heads=32, layers=32, bytes_per_number=2).kv_cache_bytes
    assert {cost(1, 7, d_k=4, heads=h, kv_heads=1).kv_cache_bytes for h in (1, 2, 8)} == {7 * 8 * 8}  # multi-query
    shared, separate = cost(5, d_k=4, heads=8, kv_heads=2), cost(5, d_k=4, heads=8)
    assert (shared.total_score_entries, shared.total_madds) == (separate.total_score_entries, separate.total_madds)
    assert cost(3, d_k=2, heads=6).kv_heads == 6
    for kv in (3, 16, 0):  # other integers: test_refusals.py
        with pytest.raises(ValueError, match="kv_heads"):
            cost(3, d_k=2, heads=8, kv_heads=kv)


def test_block_bytes_hold_n_by_block_scores_and_never_exceed_the_full_matrix() -> None:
    assert (cost(10, 100, d_k=2).block_bytes(16), cost(10, 100, d_k=2).block_bytes(1000)) == (10 * 16 * 8, 10 * 100 * 8)
    with pytest.raises(ValueError, match="block must be at least 1, got 0"):
        cost(4, d_k=2).block_bytes(0)


@given(st.integers(1, 30), st.integers(1, 30), st.one_of(st.none(), st.integers(-40, 40)))
def test_causal_visible_counts_the_true_entries_of_causal(n: int, m: int, offset: int | None) -> None:
    assert causal_visible(n, m, offset) == int(causal(n, m, offset).sum())


@given(st.integers(1, 10**6), st.integers(1, 10**6), st.integers(1, 512), st.integers(1, 512))
def test_counts_grow_with_n_times_m(n: int, m: int, d_k: int, d_v: int) -> None:
    c, doubled = cost(n, m, d_k=d_k, d_v=d_v), cost(2 * n, 2 * m, d_k=d_k, d_v=d_v)
    assert (doubled.score_entries, doubled.madds) == (4 * c.score_entries, 4 * c.madds)


def test_readable_bytes_uses_binary_units_picked_after_rounding() -> None:
    for count, text in [(0, "0 bytes"), (1023, "1023 bytes"), (1024, "1 KiB"), (1536, "1.5 KiB"),
                        (512 * 2**30, "512 GiB"), (3 * 2**39, "1.5 TiB"), (2**20 - 1, "1 MiB"),
                        (1023 * 2**10 + 922, "1023.9 KiB"), (2**30 - 1, "1 GiB"),
                        (10**400 * 2**60, f"{10**400} EiB")]:  # every digit of a count beyond float64
        assert readable_bytes(count) == text


JUST_BELOW_A_UNIT = st.integers(1, len(UNITS) - 1).flatmap(lambda k: st.integers(1024**k - 1024**(k - 1), 1024**k - 1))
"""Counts from 1023 to just below 1024 of a unit, where rounding decides which unit is shown."""


@given(st.integers(0, 2**80) | JUST_BELOW_A_UNIT)
def test_readable_bytes_shows_a_number_from_1_to_below_1024_with_at_most_one_decimal(count: int) -> None:
    number, unit = readable_bytes(count).split(" ")
    assert (unit == "bytes" or float(number) >= 1) and (unit == "EiB" or float(number) < 1024)
    assert len(number.partition(".")[2]) <= 1


def test_growth_exponent_of_t_squared_is_two_and_targets_judge_the_measured_ratios_and_not_sizes_not_run() -> None:
    assert growth_exponent([256, 512, 1024], [256**2, 512**2, 1024**2]) == pytest.approx(2.0, abs=1e-12)
    rows = [{"T": 4096, "naive_seconds": 1.0, "streaming_seconds": 2.5},
            {"T": 8192, "naive_peak_bytes": 2000, "streaming_peak_bytes": 100}]
    assert [(x["ratio"], x["passed"]) for x in targets(rows)] == [(100 / 2000, True), (2.5 / 1.0, False)]
    assert [x["passed"] for x in targets([])] == [None, None]


def test_quick_benchmark_prints_json_with_one_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["--max-t", "256", "--repeats", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert ([row["T"] for row in result["rows"]], result["exponents"]["naive_seconds"]) == ([256], None)


# --- where the T² part takes over (CL-041) ---------------------------------------------------


def test_a_layer_counts_twelve_t_d_squared_linear_and_two_t_squared_d_quadratic_multiply_adds() -> None:
    assert layer_madds(10, 4) == LayerMadds(12 * 10 * 4**2, 2 * 10**2 * 4)
    assert layer_madds(10, 4, d_ff=2) == LayerMadds(4 * 10 * 4**2 + 2 * 10 * 4 * 2, 2 * 10**2 * 4)


def test_the_crossover_is_six_times_the_width_with_the_usual_feed_forward() -> None:
    assert layer_madds(1024, 512).quadratic_share == 0.25
    assert crossover(512) == 6 * 512 and crossover(384, d_ff=1536) == 6 * 384 and crossover(4, d_ff=2) == 10


@given(st.integers(1, 2048), st.integers(1, 4096))
def test_the_quadratic_part_is_larger_exactly_beyond_the_crossover(d_model: int, d_ff: int) -> None:
    at = crossover(d_model, d_ff)
    equal, past, before = (layer_madds(t, d_model, d_ff) for t in (at, at + 1, at - 1 or 1))
    assert equal.linear == equal.quadratic and past.quadratic > past.linear
    assert at == 1 or before.quadratic < before.linear
