"""docs/assets/kernel.js: its bytes are kernel.wat's; both paths (WebAssembly SIMD, plain JavaScript) give y = x Wᵀ + b
in kernel.wat's float32 order (``float32_order``) and y = x b in float64 summed in order."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from model_js import node_output
from sites import ROOT

KERNEL = ROOT / "docs" / "assets" / "kernel.js"

RUNNER = """
const kernel = require(process.argv[1]);
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const pattern = (count, seed) => Float64Array.from({ length: count }, (_, i) => ((i * seed) % 1000) / 1000 - 0.5);
process.stdout.write(JSON.stringify(cases.map(c => {
  const answer = {};
  for (const path of c.paths) {
    if (c.b) {  // a product
      const k = kernel.create(0, { plain: path === "plain" });
      const y = k.product({ x: Float64Array.from(c.x), n: c.n, k: c.k, b: Float64Array.from(c.b), out: c.out });
      answer[path] = { y: Array.from(y), simd: k.simd };
      continue;
    }
    const weightCount = c.weight ? c.weight.length : c.out * c.wStride;
    const k = kernel.create(weightCount + c.out, { plain: path === "plain" });
    const inside = k.weights.subarray(0, weightCount);
    inside.set(c.weight || pattern(weightCount, 7919));
    const weight = c.outside ? Float32Array.from(inside) : inside;
    const bias = c.bias ? k.weights.subarray(weightCount) : null;
    if (bias) { bias.set(c.bias); }
    const x = c.x ? Float64Array.from(c.x) : pattern(c.n * c.xStride, 31);
    const y = k.linear({ x, n: c.n, k: c.k, xStride: c.xStride, weight, wStride: c.wStride, out: c.out, bias });
    answer[path] = { y: Array.from(y), simd: k.simd };
  }
  return answer;
})));
"""
"""Writes each case's y = x Wᵀ + b (with b: y = x b) on each path it names and whether WebAssembly ran."""


def pattern(count: int, seed: int) -> np.ndarray:
    """RUNNER's pattern: ((i · seed) mod 1000) / 1000 − 0.5."""
    return (np.arange(count) * seed % 1000) / 1000 - 0.5


def run(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each case through kernel.js under Node."""
    return json.loads(node_output("-e", RUNNER, str(KERNEL), stdin=json.dumps(cases)))


def float32_order(case: dict[str, Any]) -> np.ndarray:
    """y (n × out) in kernel.wat's order, every operation in float32: four lanes of products, (lane 0 + lane 1) +
    (lane 2 + lane 3), the last k mod 4 products, the bias."""
    n, k, out, xs, ws = case["n"], case["k"], case["out"], case["xStride"], case["wStride"]
    x = np.asarray(case.get("x", pattern(n * xs, 31)), dtype=np.float64)
    w = np.asarray(case.get("weight", pattern(out * ws, 7919)), dtype=np.float32)
    rows = np.stack([x[i * xs:i * xs + k] for i in range(n)]).astype(np.float32)
    weights = np.stack([w[o * ws:o * ws + k] for o in range(out)])
    k4 = k - k % 4
    lanes = np.zeros((n, out, 4), dtype=np.float32)
    for c in range(0, k4, 4):
        lanes += rows[:, None, c:c + 4] * weights[None, :, c:c + 4]
    total = (lanes[..., 0] + lanes[..., 1]) + (lanes[..., 2] + lanes[..., 3])
    for c in range(k4, k):
        total += rows[:, None, c] * weights[None, :, c]
    bias = np.asarray(case.get("bias") or np.zeros(out), dtype=np.float32)
    return total + bias[None, :]


def test_the_embedded_bytes_are_what_kernel_wat_compiles_to() -> None:
    node_output(str(ROOT / "scripts" / "kernel-bytes.js"), "--check")


def numbers(draw: st.DrawFn, count: int, scale: float) -> list[float]:
    """``count`` numbers in ±scale · 10^-3 … 10^3, from a drawn seed (hundreds of drawn floats exceed hypothesis)."""
    rng = np.random.default_rng(draw(st.integers(0, 2 ** 32 - 1)))
    return (rng.uniform(-scale, scale, count) * 10.0 ** rng.integers(-3, 4, count)).tolist()


@st.composite
def linear_case(draw: st.DrawFn) -> dict[str, Any]:
    n, k, out = draw(st.integers(1, 9)), draw(st.integers(1, 13)), draw(st.integers(1, 7))
    x_stride, w_stride = k + draw(st.integers(0, 3)), k + draw(st.integers(0, 3))
    return {"n": n, "k": k, "out": out, "xStride": x_stride, "wStride": w_stride, "paths": ["simd", "plain"],
            "x": numbers(draw, n * x_stride, 4e-3), "weight": numbers(draw, out * w_stride, 4e-3),  # W, b: float32
            "bias": numbers(draw, out, 4e-3) if draw(st.booleans()) else None, "outside": draw(st.booleans())}


@settings(max_examples=5, deadline=None)  # 5 Node launches of 5 cases each
@given(st.lists(linear_case(), min_size=5, max_size=5))
def test_both_paths_give_the_float32_order_exactly(cases: list[dict[str, Any]]) -> None:
    for case, answer in zip(cases, run(cases), strict=True):
        expected = float32_order(case).ravel().tolist()
        assert answer["simd"]["y"] == answer["plain"]["y"] == expected


def test_the_models_shapes_and_rows_past_one_chunk_of_scratch_memory_give_the_float32_order() -> None:
    cases = [{"n": 37, "k": k, "out": 384, "xStride": k, "wStride": k, "bias": pattern(384, 13).tolist(),
              "paths": ["simd", "plain"]} for k in (384, 1536, 32)]
    # 4 MiB of scratch holds 131071 rows of 6 inputs and 2 outputs (4 bytes each): 140000 rows take two chunks
    cases.append({"n": 140000, "k": 6, "out": 2, "xStride": 7, "wStride": 6, "paths": ["simd"]})
    for case, answer in zip(cases, run(cases), strict=True):
        assert answer["simd"]["simd"]
        assert all(answer[path]["y"] == float32_order(case).ravel().tolist() for path in case["paths"]), case["k"]


@st.composite
def product_case(draw: st.DrawFn) -> dict[str, Any]:
    n, k, out = draw(st.integers(1, 9)), draw(st.integers(1, 40)), draw(st.integers(1, 9))
    return {"n": n, "k": k, "out": out, "x": numbers(draw, n * k, 1), "b": numbers(draw, k * out, 1),
            "paths": ["simd", "plain"]}


@settings(max_examples=5, deadline=None)  # 5 Node launches of 5 cases each
@given(st.lists(product_case(), min_size=5, max_size=5))
def test_both_paths_give_the_float64_product_summed_in_order(cases: list[dict[str, Any]]) -> None:
    for case, answer in zip(cases, run(cases), strict=True):
        x, b = np.reshape(case["x"], (case["n"], -1)), np.reshape(case["b"], (case["k"], -1))
        expected = np.zeros((case["n"], case["out"]))
        for c in range(case["k"]):  # each product rounded, then added, c by c
            expected += x[:, c, None] * b[None, c, :]
        assert answer["simd"]["simd"] and not answer["plain"]["simd"]
        assert answer["simd"]["y"] == answer["plain"]["y"] == expected.ravel().tolist()


def test_a_product_too_large_for_scratch_memory_is_refused_naming_its_sizes() -> None:
    script = ("const k = require(process.argv[1]).create(0);"
              "try { k.product({ x: new Float64Array(8), n: 8, k: 1, b: new Float64Array(600000), out: 600000 }); }"
              "catch (error) { process.stdout.write(error.name + ': ' + error.message); }")
    refusal = "RangeError: kernel.product: 8 × 1 numbers by 1 × 600000 do not fit"
    assert node_output("-e", script, str(KERNEL)) == refusal
