"""Benchmark: time and peak memory of ``attention`` against ``streaming_attention``.

Run ``python -m attnlab.bench`` (``--json`` for scripts, ``--max-t`` for a
quick run): self-attention over T seeded random rows, d_k = d_v = 64, for
T = 256 … 8192. Time is a median of a few runs, peak memory what
``tracemalloc`` sees during one; a growth exponent of about 2 means "grows with T²".
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np

from attnlab.attention import attention
from attnlab.cli import Parser, run, whole_number
from attnlab.streaming import BLOCK, streaming_attention
from attnlab.text import fmt, table

__all__ = ["SIZES", "WIDTH", "growth_exponent", "main", "measure", "peak_bytes"]

SIZES: tuple[int, ...] = (256, 512, 1024, 2048, 4096, 8192)
WIDTH = 64
MEMORY_T, MEMORY_RATIO = 8192, 20
"""Target: at T = 8192, streaming peak memory at most 1/20 of the naive one."""
TIME_T, TIME_RATIO = 4096, 2.0
"""Target: at T = 4096, streaming time at most 2× the naive one."""


def median_seconds(run: Callable[[], Any], repeats: int) -> float:
    """Median wall-clock seconds of ``repeats`` calls of ``run``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def peak_bytes(run: Callable[[], Any]) -> int:
    """Largest memory (bytes) traced while ``run`` executes, above what existed before."""
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def growth_exponent(sizes: Sequence[int], figures: Sequence[float]) -> float:
    """Least-squares slope of log(figure) against log(T): the p in figure ∝ T^p."""
    return float(np.polyfit(np.log(sizes), np.log(figures), 1)[0])


def measure(t: int, block: int, repeats: int, seed: int) -> dict[str, float | int]:
    """Time and peak memory of both functions on one seeded T×64 self-attention."""
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((t, WIDTH)) for _ in range(3))
    naive = partial(attention, q, k, v)
    streaming = partial(streaming_attention, q, k, v, block=block)
    return {
        "T": t,
        "naive_seconds": median_seconds(naive, repeats),
        "streaming_seconds": median_seconds(streaming, repeats),
        "naive_peak_bytes": peak_bytes(naive),
        "streaming_peak_bytes": peak_bytes(streaming),
    }


def exponents(rows: Sequence[dict[str, Any]]) -> dict[str, float | None]:
    """Growth exponent of every measured column (None with fewer than two sizes)."""
    sizes = [row["T"] for row in rows]
    columns = ("naive_seconds", "streaming_seconds", "naive_peak_bytes", "streaming_peak_bytes")
    return {c: growth_exponent(sizes, [row[c] for row in rows]) if len(rows) > 1 else None
            for c in columns}


def targets(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The two targets with the measured ratio and pass/fail (None if that T was not run)."""
    by_t = {row["T"]: row for row in rows}
    checks = [
        ("streaming peak memory / naive", MEMORY_T, "streaming_peak_bytes", "naive_peak_bytes",
         1 / MEMORY_RATIO),
        ("streaming time / naive", TIME_T, "streaming_seconds", "naive_seconds", TIME_RATIO),
    ]
    result = []
    for name, t, top, bottom, limit in checks:
        ratio = by_t[t][top] / by_t[t][bottom] if t in by_t else None
        result.append({"target": name, "T": t, "ratio": ratio, "at_most": limit,
                       "passed": None if ratio is None else ratio <= limit})
    return result


def report(rows: Sequence[dict[str, Any]], block: int) -> str:
    """The measurements, exponents and targets as plain-text (Markdown) tables."""
    mib = 2**20
    lines = [f"Self-attention, d_k = d_v = {WIDTH}, float64, block = {block}\n",
             table(["T", "naive s", "streaming s", "naive peak MiB", "streaming peak MiB"],
                   [[r["T"], fmt(r["naive_seconds"], 4), fmt(r["streaming_seconds"], 4),
                     fmt(r["naive_peak_bytes"] / mib, 1), fmt(r["streaming_peak_bytes"] / mib, 1)]
                    for r in rows]),
             table(["growth exponent (slope on log-log)", "value"],
                   [[name, "n/a" if p is None else fmt(p, 2)] for name, p in exponents(rows).items()]),
             table(["target", "T", "measured ratio", "at most", "result"],
                   [[x["target"], x["T"], "not run" if x["ratio"] is None else fmt(x["ratio"], 3),
                     fmt(x["at_most"], 3),
                     {None: "not run", True: "PASS", False: "FAIL"}[x["passed"]]]
                    for x in targets(rows)])]
    return "\n".join(lines)


def benchmark(args: argparse.Namespace) -> int:
    """Run the benchmark the flags ask for and print it; exit status 1 if a measured target fails."""
    rows = [measure(t, args.block, args.repeats, args.seed) for t in SIZES if t <= args.max_t]
    checked = targets(rows)
    if args.json:
        print(json.dumps({"d_k": WIDTH, "d_v": WIDTH, "block": args.block, "repeats": args.repeats,
                          "seed": args.seed, "rows": rows, "exponents": exponents(rows),
                          "targets": checked}, indent=2))
    else:
        print(report(rows, args.block))
    return 1 if any(x["passed"] is False for x in checked) else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark with the flags in ``argv`` (default: the command line); return the exit status."""
    parser = Parser(prog="python -m attnlab.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument("--max-t", type=whole_number(SIZES[0]), default=SIZES[-1],
                        help=f"largest T to run, at least {SIZES[0]} (quick: 1024)")
    parser.add_argument("--repeats", type=whole_number(1), default=3, help="timed runs per figure (median)")
    parser.add_argument("--block", type=whole_number(1), default=BLOCK, help="keys per block for streaming")
    parser.add_argument("--seed", type=whole_number(0), default=0, help="seed of the random rows")
    args = parser.parse_args(argv)
    return run(parser.prog, lambda: benchmark(args))


if __name__ == "__main__":
    sys.exit(main())
