"""Measured claims re-checked against PyTorch 2.13.0 (the ``peer`` extra's pin): CL-040 (masking's edges, as
``attnlab.libraries`` shows them), CL-037's formats, CL-015's epsilon, CL-031's GELU, BERT's two masks (eager,
sdpa), a library softmax in float16 and CL-051 (RoPE's pairings)."""

from __future__ import annotations

import json
import warnings
from types import ModuleType

import numpy as np
import pytest

from attnlab import attention, bert, causal, gelu
from attnlab.libraries import (
    additive_mask,
    plain_softmax,
    softmax_with_additive_mask,
    top_left_causal,
    zero_filled_attention,
)
from attnlab.precision import BFLOAT16_MAX, exp_limit, largest

TORCH_VERSION = "2.13.0"
RNG = np.random.default_rng(40)
Q, K, V = (RNG.standard_normal((4, 3)) for _ in range(3))
SOME_EMPTY = np.array([[False, False, False, False],     # no key at all
                       [True, False, True, False],
                       [True, True, True, True],
                       [False, False, False, True]])


@pytest.fixture(scope="module")
def torch() -> ModuleType:
    """PyTorch, at the version CL-040's locator names."""
    import torch as module

    assert module.__version__.split("+")[0] == TORCH_VERSION, "CL-040 names the PyTorch version it was measured on"
    return module


def sdpa(torch: ModuleType, q: np.ndarray, k: np.ndarray, v: np.ndarray, **options: object) -> np.ndarray:
    """torch's scaled_dot_product_attention on float64 copies of one head's rows (batch and head axes added)."""
    q, k, v = (torch.from_numpy(np.ascontiguousarray(a, dtype=np.float64))[None, None] for a in (q, k, v))
    if isinstance(options.get("attn_mask"), np.ndarray):
        options["attn_mask"] = torch.from_numpy(options["attn_mask"])
    return torch.nn.functional.scaled_dot_product_attention(q, k, v, **options)[0, 0].numpy()


def test_a_plain_softmax_over_a_row_of_minus_infinity_is_not_a_number(torch: ModuleType) -> None:
    rows = np.array([[-np.inf] * 4, [0.5, -np.inf, 2.0, 1.0]])
    theirs = torch.softmax(torch.from_numpy(rows), dim=-1).numpy()
    ours = plain_softmax(rows)
    assert np.isnan(theirs[0]).all() and np.isnan(ours[0]).all()
    assert np.allclose(theirs[1], ours[1], rtol=0, atol=1e-15) and ours[1, 1] == 0


def test_scaled_dot_product_attention_returns_zeros_for_a_fully_masked_row(torch: ModuleType) -> None:
    theirs = sdpa(torch, Q, K, V, attn_mask=SOME_EMPTY)
    assert (theirs[0] == 0).all() and (theirs[3] != 0).any()
    assert np.allclose(theirs, zero_filled_attention(Q, K, V, SOME_EMPTY), rtol=0, atol=1e-14)


def test_an_additive_mask_of_the_dtype_minimum_gives_a_blocked_row_uniform_weights(torch: ModuleType) -> None:
    scores = (Q @ K.T / np.sqrt(3)).astype(np.float32)
    mask = additive_mask(SOME_EMPTY, np.float32)
    assert mask[0, 0] == torch.finfo(torch.float32).min
    theirs = torch.softmax(torch.from_numpy(scores) + torch.from_numpy(mask), dim=-1).numpy()
    ours = softmax_with_additive_mask(scores, SOME_EMPTY, np.float32)
    assert (theirs[0] == 0.25).all() and (ours[0] == 0.25).all()   # every key, blocked ones included
    assert (theirs[1, ~SOME_EMPTY[1]] == 0).all()                   # a row with a visible key blocks exactly
    assert np.allclose(theirs, ours, rtol=0, atol=4 * np.finfo(np.float32).eps)  # float32 rounding


def test_through_the_library_an_additive_mask_makes_a_blocked_row_the_mean_of_every_value(torch: ModuleType) -> None:
    mask = additive_mask(SOME_EMPTY, np.float64)
    theirs = sdpa(torch, Q, K, V, attn_mask=mask)
    assert np.allclose(theirs[0], V.mean(axis=0), rtol=0, atol=1e-14)
    assert np.allclose(theirs[1:], attention(Q[1:], K, V, SOME_EMPTY[1:]).output, rtol=0, atol=1e-14)


def test_torchs_causal_options_align_top_left_or_as_attnlabs_causal_and_give_a_row_without_a_key_zeros(
        torch: ModuleType) -> None:
    from torch.nn.attention.bias import causal_lower_right, causal_upper_left

    for n, m in [(1, 4), (2, 4), (4, 4), (4, 2), (3, 1)]:
        q, k, v = Q[:n], K[:m], V[:m]
        assert np.array_equal(causal_upper_left(n, m)._materialize().numpy(), top_left_causal(n, m))
        assert np.allclose(sdpa(torch, q, k, v, is_causal=True), zero_filled_attention(q, k, v, top_left_causal(n, m)),
                           rtol=0, atol=1e-15)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lower_right = causal_lower_right(n, m)
        assert bool(caught) == (n > m) and all("seq_len_q > seq_len_kv" in str(w.message) for w in caught)
        assert np.array_equal(lower_right._materialize().numpy(), causal(n, m)), (n, m)
        assert np.allclose(sdpa(torch, q, k, v, attn_mask=lower_right), zero_filled_attention(q, k, v, causal(n, m)),
                           rtol=0, atol=1e-15)
    assert causal(1, 4).all()  # attnlab's causal(n, m) puts the one query last: it sees every key
    with pytest.raises(ValueError, match="visible row 0 blocks every key"):  # where torch gives zeros
        attention(Q, K[:2], V[:2], causal(4, 2))


def test_pytorchs_layer_norm_puts_epsilon_1e_5_by_default_as_attnlab_does(torch: ModuleType) -> None:
    import inspect  # CL-015: the paper has no epsilon; implementations choose

    from attnlab import layer_norm

    assert torch.nn.LayerNorm(4).eps == 1e-5 == inspect.signature(layer_norm).parameters["eps"].default
    x = np.array([[1.0, 3.0, 2.0, 6.0]])
    theirs = torch.nn.functional.layer_norm(torch.from_numpy(x), (4,), eps=1e-5).numpy()
    assert np.allclose(theirs, layer_norm(x), rtol=0, atol=1e-12)  # the root holds variance plus epsilon


def test_transformers_reads_gelu_as_the_exact_erf_form_that_attnlab_computes(torch: ModuleType) -> None:
    from transformers.activations import ACT2FN

    x = np.linspace(-6.0, 6.0, 241)
    activation = json.loads((bert.model_dir() / "config.json").read_text(encoding="utf-8"))["hidden_act"]
    theirs = ACT2FN[activation](torch.from_numpy(x)).numpy()
    assert np.abs(theirs - gelu(x)).max() < 1e-12
    tanh_form = 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))
    assert np.abs(theirs - tanh_form).max() > 1e-4  # the approximation is measurably not what is used


def tiny_bert(torch: ModuleType, implementation: str | None) -> tuple[object, dict[str, object]]:
    """A random one-layer BERT (``implementation`` None: the default) and what its self-attention receives as mask
    and gives on a batch whose second sentence is all masked."""
    from transformers import BertConfig, BertModel

    config = BertConfig(vocab_size=20, hidden_size=8, num_hidden_layers=1, num_attention_heads=2,
                        intermediate_size=16, max_position_embeddings=8)
    if implementation is not None:
        config._attn_implementation = implementation
    torch.manual_seed(0)
    model = BertModel(config).eval()
    seen: dict[str, object] = {}
    attention_layer = model.encoder.layer[0].attention.self
    attention_layer.register_forward_pre_hook(lambda _, args, kwargs: seen.update(mask=kwargs["attention_mask"]),
                                              with_kwargs=True)
    attention_layer.register_forward_hook(lambda _, args, out: seen.update(context=out[0]))
    with torch.no_grad():
        result = model(input_ids=torch.tensor([[1, 2, 3, 4], [5, 6, 7, 8]]),
                       attention_mask=torch.tensor([[1, 1, 1, 0], [0, 0, 0, 0]]),
                       output_attentions=implementation == "eager")
    seen["attentions"] = result.attentions
    return model, seen


def test_transformers_bert_gives_a_fully_masked_row_zeros_by_default_sdpa_and_equal_weights_when_eager(
        torch: ModuleType) -> None:
    model, seen = tiny_bert(torch, None)
    assert model.config._attn_implementation == "sdpa"
    assert seen["mask"].dtype == torch.bool and not seen["mask"][1].any()
    assert (seen["context"][1] == 0).all() and (seen["context"][0] != 0).any()
    _, seen = tiny_bert(torch, "eager")
    assert seen["mask"].dtype == torch.float32 and (seen["mask"][1] == torch.finfo(torch.float32).min).all()
    weights = seen["attentions"][0][1].numpy()
    assert np.allclose(weights, 0.25, rtol=0, atol=1e-7)  # every key of the masked sentence, all alike


def test_torch_agrees_on_the_half_formats_limits_and_its_float16_softmax_is_finite_where_exp_overflows(
        torch: ModuleType) -> None:
    assert torch.finfo(torch.bfloat16).max == BFLOAT16_MAX and torch.finfo(torch.float16).max == largest("float16")
    limit = exp_limit("float16")
    assert torch.isinf(torch.exp(torch.tensor(limit + 0.01, dtype=torch.float16)))
    assert torch.isfinite(torch.exp(torch.tensor(limit - 0.01, dtype=torch.float16)))
    row = torch.tensor([23.72, 7.82, 2.33], dtype=torch.float16)
    assert torch.isinf(torch.exp(row)).any()
    weights = torch.softmax(row, dim=-1)
    assert torch.isfinite(weights).all() and weights.dtype == torch.float16 and weights[0] == 1
    # but in float16 the scores themselves can overflow before any softmax
    q = torch.full((1, 64), 40.0, dtype=torch.float16)  # 64 · 40² = 102400 > 65504
    assert torch.isinf(q @ q.T).all() and torch.isfinite(q.float() @ q.float().T).all()


def test_llamas_rope_pairs_coordinate_i_with_i_plus_half_the_width(torch: ModuleType) -> None:
    from transformers import LlamaConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

    from attnlab.relative import rotate

    d, positions = 8, np.arange(5)
    x = RNG.standard_normal((5, d))
    rope = LlamaRotaryEmbedding(config=LlamaConfig(hidden_size=2 * d, num_attention_heads=2, num_key_value_heads=2))
    rows = torch.from_numpy(x)[None, None]
    cos, sin = rope(rows, torch.from_numpy(positions)[None])
    theirs = apply_rotary_pos_emb(rows, rows, cos.double(), sin.double())[0][0, 0].numpy()
    pairs = np.ravel(np.column_stack([np.arange(d // 2), np.arange(d // 2) + d // 2]))  # 0, 4, 1, 5, …
    ours = np.empty_like(x)
    ours[:, pairs] = rotate(x[:, pairs], positions)
    assert np.abs(theirs - ours).max() < 1e-6  # transformers computes cos and sin in float32
    assert np.abs(theirs - rotate(x, positions)).max() > 0.1  # not the (2i, 2i+1) pairing of S17


def test_gpt_neox_rotates_only_a_fraction_of_each_heads_coordinates() -> None:
    from transformers import GPTNeoXConfig

    assert GPTNeoXConfig().rope_parameters["partial_rotary_factor"] == 0.25
    assert GPTNeoXConfig(rotary_pct=0.5).rope_parameters["partial_rotary_factor"] == 0.5
