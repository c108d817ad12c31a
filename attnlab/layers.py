"""The pieces around one head: several heads, positions, layer norm, FFN, blocks.

Parameters are plain frozen dataclasses of arrays; ``init_*`` draw seeded
random ones for examples. Nothing here learns.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from attnlab.attention import Attention, attention, frozen, project
from attnlab.checks import (
    added,
    as_array,
    as_matrix,
    as_vector,
    at_least,
    finite_number,
    instance,
    overflow_free,
    positive_int,
    shown,
)
from attnlab.erf import FRACTION_FROM, erf, erfcx, gaussian

__all__ = ["EncoderBlockParams", "FeedForwardParams", "Head", "LayerNormParams", "MultiHead", "MultiHeadParams",
           "cross_attention", "encoder_block", "encoder_block_steps", "feed_forward", "gelu", "init_encoder_block",
           "init_multi_head", "layer_norm", "multi_head", "positional_encoding", "project_head", "relu"]

Activation = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Head:
    """One head's projections: queries, keys and values from their own matrices."""

    w_q: np.ndarray
    w_k: np.ndarray
    w_v: np.ndarray
    b_q: np.ndarray | None = None
    b_k: np.ndarray | None = None
    b_v: np.ndarray | None = None


@dataclass(frozen=True)
class MultiHeadParams:
    """Per-head projections and the output matrix W_O (H·d_v × d_model)."""

    heads: tuple[Head, ...]
    w_o: np.ndarray
    b_o: np.ndarray | None = None


@dataclass(frozen=True)
class MultiHead:
    """Each head's full ``Attention``, their concatenation, and the output after W_O."""

    heads: tuple[Attention, ...]
    concat: np.ndarray
    output: np.ndarray


@dataclass(frozen=True)
class LayerNormParams:
    """Gain, bias and epsilon of a layer normalisation over one token's features."""

    gain: np.ndarray
    bias: np.ndarray
    eps: float = 1e-5


@dataclass(frozen=True)
class FeedForwardParams:
    """The two linear maps of the position-wise feed-forward network."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray


@dataclass(frozen=True)
class EncoderBlockParams:
    """Everything one encoder block needs: attention, FFN and its two norms."""

    attention: MultiHeadParams
    ffn: FeedForwardParams
    norm1: LayerNormParams
    norm2: LayerNormParams


def _affine(x: Any, w: Any, b: Any, w_name: str, b_name: str) -> np.ndarray:
    """``x @ w + b``, with the bias ``b`` optional (models such as BERT have them, the toy does not)."""
    product = project(x, w, w_name)
    if b is None:
        return product
    bias = as_vector(b_name, b, product.shape[1], w_name)
    return added(f"x @ {w_name}", product, b_name, bias)


def project_head(x_q: Any, x_kv: Any, head: Head) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One head's queries (from ``x_q``), keys and values (from ``x_kv``), each bias added if it has one."""
    queries, keys = as_matrix("x_q", x_q), as_matrix("x_kv", x_kv)
    head = instance("head", head, Head)
    return (
        _affine(queries, head.w_q, head.b_q, "w_q", "b_q"),
        _affine(keys, head.w_k, head.b_k, "w_k", "b_k"),
        _affine(keys, head.w_v, head.b_v, "w_v", "b_v"),
    )


def multi_head(x_q: Any, x_kv: Any, params: MultiHeadParams, visible: Any = None) -> MultiHead:
    """Multi-head attention, Concat(head_1 … head_H) W_O: queries from ``x_q``, keys and values from ``x_kv``."""
    queries, keys = as_matrix("x_q", x_q), as_matrix("x_kv", x_kv)
    if not instance("params", params, MultiHeadParams).heads:
        raise ValueError("params.heads is empty: multi-head attention needs at least one head")
    results = tuple(attention(*project_head(queries, keys, h), visible) for h in params.heads)
    concat = np.concatenate([r.output for r in results], axis=-1)
    output = _affine(concat, params.w_o, params.b_o, "w_o", "b_o")
    return MultiHead(results, frozen(concat), frozen(output))


def cross_attention(decoder: Any, encoder: Any, params: MultiHeadParams) -> MultiHead:
    """Encoder-decoder attention: queries from the n decoder rows, keys and values from the m encoder rows."""
    return multi_head(as_matrix("decoder", decoder), as_matrix("encoder", encoder), params)


def positional_encoding(length: int, d_model: int) -> np.ndarray:
    """Sinusoidal positions, ``length`` × ``d_model``: PE[p, 2i] = sin(p / 10000^(2i/d)), PE[p, 2i+1] = cos(same)."""
    length = positive_int("length", length)
    d_model = positive_int("d_model", d_model)
    position = np.arange(length)[:, None]
    pair = np.arange(d_model) // 2
    angle = position / np.power(10000.0, 2 * pair / d_model)
    return np.where(np.arange(d_model) % 2 == 0, np.sin(angle), np.cos(angle))


def layer_norm(x: Any, gain: Any = None, bias: Any = None, eps: float = 1e-5) -> np.ndarray:
    """``gain * (x - mean) / sqrt(var + eps) + bias`` with each row's own mean and population variance."""
    rows = as_array("x", x, (1, 2))
    eps = finite_number("eps", eps)
    if eps < 0:
        raise ValueError(f"eps must be non-negative, got {eps}")
    width = rows.shape[-1]
    g = np.ones(width) if gain is None else as_vector("gain", gain, width, "x")
    b = np.zeros(width) if bias is None else as_vector("bias", bias, width, "x")
    # Divide each row by a power of two near its largest entry (exact), so that the mean and
    # variance of huge or tiny entries neither overflow nor underflow; eps is rescaled to match.
    unit = np.ldexp(1.0, np.frexp(np.abs(rows).max(axis=-1, keepdims=True))[1] - 1)
    z = rows / unit
    var = z.var(axis=-1, keepdims=True)
    if eps == 0 and (var == 0).any():
        raise ValueError("x has a row with zero variance and eps is 0: layer norm would divide by zero")
    with np.errstate(over="ignore"):  # an infinite sqrt(eps) / unit is right: eps swamps the spread
        spread = np.hypot(np.sqrt(var), np.sqrt(eps) / unit)  # sqrt(var + eps) / unit
    normalised = (z - z.mean(axis=-1, keepdims=True)) / spread  # each entry at most √width in size
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below, without a warning
        return overflow_free(g * normalised + b, "gain * normalised x + bias", "gain", g, "bias", b)


def relu(x: Any) -> np.ndarray:
    """max(0, x), elementwise over a number, a row or n rows: the activation of the original Transformer."""
    return np.maximum(as_array("x", x, (0, 1, 2)), 0.0)


def gelu(x: Any) -> np.ndarray:
    """x · Φ(x) = x · (1 + erf(x / √2)) / 2, elementwise: BERT's activation (the exact form, not tanh's).

    Below x = −2√2, where 1 + erf(x/√2) is mostly rounding error, Φ(x) is
    erfcx(−x/√2)·e^(−x²/2)/2 instead (``attnlab.erf``).
    """
    values = as_array("x", x, (0, 1, 2))
    z = -values / math.sqrt(2.0)  # Φ(x) = erfc(z) / 2
    tail = z >= FRACTION_FROM
    result = np.array(0.5 * values * (1.0 - erf(z)))  # an array even for one number, to assign to
    result[tail] = 0.5 * values[tail] * erfcx(z[tail]) * gaussian(values[tail])
    return result[()]  # one number as numpy's float, like every other elementwise function


def feed_forward(x: Any, params: FeedForwardParams, activation: Activation = relu) -> np.ndarray:
    """Position-wise FFN: activation(x W1 + b1) W2 + b2, the same map at every row (no row looks at another)."""
    params = instance("params", params, FeedForwardParams)
    if not callable(activation):
        raise TypeError(f"activation must be a function of an array, such as relu or gelu, got {shown(activation)}")
    name = f"{getattr(activation, '__name__', 'activation')}(x @ w1 + b1)"
    hidden = as_matrix(name, activation(_affine(x, params.w1, params.b1, "w1", "b1")))
    return _affine(hidden, params.w2, params.b2, "w2", "b2")


def norm(x: np.ndarray, params: LayerNormParams) -> np.ndarray:
    """Apply ``layer_norm`` with a parameter bundle."""
    return layer_norm(x, params.gain, params.bias, params.eps)


def encoder_block(x: Any, params: EncoderBlockParams, visible: Any = None,
                  order: Literal["post", "pre"] = "post", activation: Activation = relu) -> np.ndarray:
    """One encoder block with residual paths (no dropout).

    ``order="post"`` is the original Transformer, LayerNorm(x + Sublayer(x));
    ``order="pre"`` is the Pre-LN variant, x + Sublayer(LayerNorm(x)).
    """
    return encoder_block_steps(x, params, visible, order, activation)[0]


def encoder_block_steps(x: Any, params: EncoderBlockParams, visible: Any = None,
                        order: Literal["post", "pre"] = "post",
                        activation: Activation = relu) -> tuple[np.ndarray, MultiHead]:
    """``encoder_block``'s output and the multi-head attention it computed, every head's steps kept."""
    rows = as_matrix("x", x)
    params = instance("params", params, EncoderBlockParams)
    if not isinstance(order, str) or order not in ("post", "pre"):
        raise ValueError(f"order must be 'post' or 'pre', got {shown(order)}")
    if order == "post":
        heads = multi_head(rows, rows, params.attention, visible)
        mid = norm(added("x", rows, "attention", heads.output), params.norm1)
        return norm(added("x", mid, "feed-forward", feed_forward(mid, params.ffn, activation)), params.norm2), heads
    inner = norm(rows, params.norm1)
    heads = multi_head(inner, inner, params.attention, visible)
    mid = added("x", rows, "attention", heads.output)
    return added("x + attention", mid, "feed-forward",
                 feed_forward(norm(mid, params.norm2), params.ffn, activation)), heads


def init_multi_head(rng: np.random.Generator, d_model: int, n_heads: int, d_k: int, d_v: int) -> MultiHeadParams:
    """Seeded random multi-head parameters, scaled by 1/√fan-in, for examples."""
    rng = instance("rng", rng, np.random.Generator)
    for name, value in (("d_model", d_model), ("n_heads", n_heads), ("d_k", d_k), ("d_v", d_v)):
        positive_int(name, value)

    def draw(rows: int, cols: int) -> np.ndarray:
        return rng.standard_normal((rows, cols)) / np.sqrt(rows)

    heads = tuple(Head(draw(d_model, d_k), draw(d_model, d_k), draw(d_model, d_v)) for _ in range(n_heads))
    return MultiHeadParams(heads, draw(n_heads * d_v, d_model))


def init_encoder_block(seed: int, d_model: int = 4, n_heads: int = 2, d_ff: int = 8) -> EncoderBlockParams:
    """Seeded random encoder-block parameters (d_k = d_v = d_model / n_heads)."""
    for name, value in (("d_model", d_model), ("n_heads", n_heads), ("d_ff", d_ff)):
        positive_int(name, value)
    if d_model % n_heads:
        raise ValueError(f"d_model={d_model} must be divisible by n_heads={n_heads}")
    rng = np.random.default_rng(at_least("seed", seed, 0))
    d_head = d_model // n_heads
    mha = init_multi_head(rng, d_model, n_heads, d_head, d_head)
    ffn = FeedForwardParams(
        rng.standard_normal((d_model, d_ff)) / np.sqrt(d_model),
        np.zeros(d_ff),
        rng.standard_normal((d_ff, d_model)) / np.sqrt(d_ff),
        np.zeros(d_model),
    )
    unit = LayerNormParams(np.ones(d_model), np.zeros(d_model))
    return EncoderBlockParams(mha, ffn, unit, unit)
