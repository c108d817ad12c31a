"""A small trained decoder, read entirely: GPT-2's architecture at 2 layers, 4 heads, width 64.

The model was trained by ``scripts/train_decoder.py`` to continue a
repeated stretch of random letters; its files (Hugging Face layout and the
training log) ship in ``attnlab/data/decoder/``. Everything here is numpy:
the weights are read from ``model.safetensors`` by ``attnlab.tensors``,
a reader of its documented format, and each head's scores are
scaled and turned into weights by ``attnlab.attention``'s ``scale`` and
masked ``softmax``.

One pass over a text, ``forward``, and one generation step, ``step``, are
the same function, ``extend``: it appends new tokens to a ``Cache`` (every
layer's keys and values so far) and computes only the new positions, whose
queries see the cached keys and their own. A whole text is ``extend`` of an
empty cache; generating adds one token at a time and recomputes nothing.
The held-out measurements (``accuracy``, ``study``) run their texts as one
stack of rows (``forward_all``): the same numbers, in far fewer steps; and
``accuracies`` under several ablations computes what they share once (the
layers before the first removed head, a layer's weights), and after the
last layer's heads only the positions it scores.

GPT-2's block (Pre-LN): x + attention(LN₁(x)), then x + MLP(LN₂(x)), then
a final LN and the logits against the token embeddings (tied).
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from attnlab.attention import causal, frozen, scale, softmax
from attnlab.layers import layer_norm
from attnlab.tensors import read_safetensors

__all__ = [
    "DIRECTORY",
    "HELD_OUT_SEED",
    "Cache",
    "Decoder",
    "Generation",
    "Pass",
    "Repeat",
    "Study",
    "accuracies",
    "accuracy",
    "empty_cache",
    "forward_all",
    "gelu_tanh",
    "load",
    "mulberry32",
    "pick",
    "repeats",
    "study",
    "training_log",
]

DIRECTORY = Path(__file__).parent / "data" / "decoder"
"""The committed model: config.json, model.safetensors, vocab.json, training-log.json."""
HELD_OUT_SEED = 2026
"""The seed of the chapter's held-out sequences (``repeats(count, HELD_OUT_SEED)``), none of them seen in training."""
Head = tuple[int, int]
"""(layer, head), both counted from 0."""


def gelu_tanh(x: np.ndarray) -> np.ndarray:
    """GPT-2's activation (``gelu_new``): x · (1 + tanh(√(2/π) · (x + 0.044715 x³))) / 2."""
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * x * x)))


@dataclass(frozen=True)
class Cache:
    """What generation keeps: per layer, every head's keys and values so far (heads × positions × 16)."""

    keys: tuple[np.ndarray, ...]
    values: tuple[np.ndarray, ...]

    @property
    def length(self) -> int:
        """How many positions are cached."""
        return int(self.keys[0].shape[1])


@dataclass(frozen=True)
class Pass:
    """The new positions of one ``extend``: T new tokens after ``start`` cached ones.

    ``attentions[layer][head][query][key]`` (layers × heads × T × (start + T)), ``writes[layer][head]``
    (T × 64): what each head adds to the residual stream (its output through its rows of c_proj, the
    shared bias left out), ``logits`` (T × vocabulary), ``cache``: the cache after these positions.
    """

    tokens: tuple[str, ...]
    ids: np.ndarray
    logits: np.ndarray
    attentions: np.ndarray
    writes: np.ndarray
    cache: Cache

    @property
    def probabilities(self) -> np.ndarray:
        """softmax of each position's logits: the next token's distribution (T × vocabulary)."""
        shifted = np.exp(self.logits - self.logits.max(axis=-1, keepdims=True))
        return shifted / shifted.sum(axis=-1, keepdims=True)


@dataclass(frozen=True)
class Generation:
    """``text``: the generated continuation; ``probabilities``: the distribution each step drew from."""

    text: str
    ids: np.ndarray
    probabilities: np.ndarray


def mulberry32(seed: int) -> Iterable[float]:
    """The sampler's random numbers in [0, 1): Mulberry32, 32-bit integer steps, the same in the page's JavaScript.

    state += 0x6D2B79F5; t = (state ^ state >>> 15) · (state | 1); t ^= t + (t ^ t >>> 7) · (t | 61);
    the number is (t ^ t >>> 14) / 2³², every product and sum taken mod 2³².
    """
    state = seed & 0xFFFFFFFF
    while True:
        state = (state + 0x6D2B79F5) & 0xFFFFFFFF
        t = ((state ^ (state >> 15)) * (state | 1)) & 0xFFFFFFFF
        t ^= (t + ((t ^ (t >> 7)) * (t | 61) & 0xFFFFFFFF)) & 0xFFFFFFFF
        yield ((t ^ (t >> 14)) & 0xFFFFFFFF) / 2 ** 32


def pick(logits: np.ndarray, temperature: float, draw: float) -> tuple[int, np.ndarray]:
    """The next id and the distribution it came from: softmax(logits / T), then the first id whose
    cumulative probability exceeds ``draw``; at T = 0 the most probable id (the lowest on a tie)."""
    if temperature < 0 or not math.isfinite(temperature):
        raise ValueError(f"temperature must be a finite number ≥ 0, got {temperature}")
    if temperature == 0:
        chosen = int(np.argmax(logits))
        return chosen, np.eye(len(logits))[chosen]
    scaled = logits / temperature
    shifted = np.exp(scaled - scaled.max())
    probabilities = shifted / shifted.sum()
    chosen = int(np.searchsorted(np.cumsum(probabilities), draw, side="right"))
    return min(chosen, len(logits) - 1), probabilities


@dataclass(frozen=True)
class Decoder:
    """The loaded model: its settings, vocabulary and weights (float64, named as in the file)."""

    vocabulary: str
    layers: int
    heads: int
    width: int
    context: int
    eps: float
    weights: dict[str, np.ndarray]

    @property
    def head_width(self) -> int:
        """Each head's query, key and value width: width / heads."""
        return self.width // self.heads

    def encode(self, text: str) -> np.ndarray:
        """The ids of ``text``, one character a token; a character outside the vocabulary is refused."""
        for place, character in enumerate(text):
            if character not in self.vocabulary:
                raise ValueError(f"character {character!r} at position {place} is not in the decoder's "
                                 f"vocabulary {self.vocabulary!r}")
        return np.array([self.vocabulary.index(c) for c in text], dtype=np.int64)

    def extend(self, cache: Cache, ids: np.ndarray, ablate: Collection[Head] = ()) -> Pass:
        """Run the new tokens ``ids`` after the ``cache.length`` cached ones.

        ``ablate``: the (layer, head) pairs whose output is zeroed before c_proj.
        """
        return self._extend([cache], np.asarray(ids).reshape(1, -1), ablate)[0]

    def _extend(self, caches: Sequence[Cache], ids: np.ndarray, ablate: Collection[Head]) -> tuple[Pass, ...]:
        """``extend`` of B texts as one stack of B × T rows: row b of ``ids`` (B × T) after ``caches[b]``, the caches
        all of one length. The same numbers as B calls, in far fewer (and larger) steps."""
        (batch, count), start = ids.shape, caches[0].length
        if count == 0 or start + count > self.context:
            raise ValueError(f"{start} cached and {count} new tokens: the decoder takes 1 to {self.context} in all")
        x = self._embedded(ids, start)
        keys, values, maps, writes = [], [], [], []
        for layer in range(self.layers):
            weights, mixed, k, v = self._attend(layer, x, np.stack([c.keys[layer] for c in caches]),
                                                np.stack([c.values[layer] for c in caches]))
            x, write = self._write_and_feed(layer, x, mixed, ablate)
            keys.append(k)
            values.append(v)
            maps.append(weights)
            writes.append(write)
        logits = frozen(self._logits(x).reshape(batch, count, -1))
        every_map, every_write = (frozen(np.stack(a, axis=1)) for a in (maps, writes))  # B × layers × heads × …
        return tuple(Pass(tuple(self.vocabulary[i] for i in ids[b]), frozen(ids[b]), logits[b], every_map[b],
                          every_write[b], Cache(tuple(k[b] for k in keys), tuple(v[b] for v in values)))
                     for b in range(batch))

    def _embedded(self, ids: np.ndarray, start: int) -> np.ndarray:
        """The residual stream's start for ``ids`` (B × T) at positions ``start`` on: B·T × width."""
        w = self.weights
        return (w["transformer.wte.weight"][ids] + w["transformer.wpe.weight"][start:start + ids.shape[1]]
                ).reshape(-1, self.width)

    def _attend(self, layer: int, x: np.ndarray, past_keys: np.ndarray,
                past_values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One layer's heads on the stream ``x`` (B·T × width) after the cached keys and values (B × heads × start
        × 16): the weights (B × heads × T × (start + T)), each head's output before c_proj (B × heads × T × 16),
        and the keys and values so far."""
        w, d, (batch, _, start, _) = self.weights, self.head_width, past_keys.shape
        count = len(x) // batch
        name = f"transformer.h.{layer}."
        h = layer_norm(x, w[name + "ln_1.weight"], w[name + "ln_1.bias"], self.eps)           # B·T × 64
        qkv = h @ w[name + "attn.c_attn.weight"] + w[name + "attn.c_attn.bias"]               # B·T × 192
        q, k, v = np.ascontiguousarray(qkv.reshape(batch, count, 3, self.heads, d).transpose(2, 0, 3, 1, 4))
        keys, values = np.concatenate([past_keys, k], axis=2), np.concatenate([past_values, v], axis=2)
        raw = q @ keys.swapaxes(2, 3)                                               # B × heads × T × (start + T)
        seen = np.broadcast_to(causal(count, start + count), raw.shape).reshape(-1, start + count)
        weights = softmax(scale(raw.reshape(seen.shape), d), seen).reshape(raw.shape)
        return weights, weights @ values, keys, values

    def _write_and_feed(self, layer: int, x: np.ndarray, mixed: np.ndarray,
                        ablate: Collection[Head]) -> tuple[np.ndarray, np.ndarray]:
        """The stream after one layer's heads (those in ``ablate`` zeroed) wrote ``mixed`` through c_proj and its MLP
        ran; and each head's write (B × heads × T × 64)."""
        w, name = self.weights, f"transformer.h.{layer}."
        kept = np.array([(layer, i) not in ablate for i in range(self.heads)])
        rows = w[name + "attn.c_proj.weight"].reshape(self.heads, self.head_width, self.width)  # heads × 16 × 64
        write = (mixed * kept[:, None, None]) @ rows
        x = x + write.sum(axis=1).reshape(x.shape) + w[name + "attn.c_proj.bias"]
        h = layer_norm(x, w[name + "ln_2.weight"], w[name + "ln_2.bias"], self.eps)
        hidden = gelu_tanh(h @ w[name + "mlp.c_fc.weight"] + w[name + "mlp.c_fc.bias"])       # B·T × 256
        return x + hidden @ w[name + "mlp.c_proj.weight"] + w[name + "mlp.c_proj.bias"], write

    def _logits(self, x: np.ndarray) -> np.ndarray:
        """The final layer norm of the stream, against the token embeddings (tied): B·T × vocabulary."""
        w = self.weights
        return layer_norm(x, w["transformer.ln_f.weight"], w["transformer.ln_f.bias"], self.eps
                          ) @ w["transformer.wte.weight"].T

    def _ablated_logits(self, ids: np.ndarray, ablations: Sequence[frozenset[Head]],
                        rows: np.ndarray) -> list[np.ndarray]:
        """The logits at the positions ``rows`` (B × T, true where wanted) of the texts ``ids`` (B × T, no cache) with
        each set of heads in ``ablations`` removed, as ``_extend`` gives them, what sets share computed once: a layer's
        heads run once for all the sets that remove the same heads before it, the stream after it once for all that
        remove the same up to it; after the last layer's heads, only the wanted rows go on (each row on its own)."""
        nothing = np.zeros((len(ids), self.heads, 0, self.head_width))
        streams: dict[frozenset[Head], np.ndarray] = {frozenset(): self._embedded(ids, 0)}
        for layer in range(self.layers):
            mixed: dict[frozenset[Head], np.ndarray] = {}
            after: dict[frozenset[Head], np.ndarray] = {}
            for ablate in ablations:
                before, upto = (frozenset(h for h in ablate if h[0] < limit) for limit in (layer, layer + 1))
                if upto not in after:
                    if before not in mixed:
                        mixed[before] = self._attend(layer, streams[before], nothing, nothing)[1]
                    x, heads_out = streams[before], mixed[before]                 # B·T × 64, B × heads × T × 16
                    if layer == self.layers - 1:  # the wanted rows only, as if one text: 1 × heads × rows × 16
                        x, heads_out = x[rows.ravel()], heads_out.swapaxes(1, 2)[rows].swapaxes(0, 1)[None]
                    after[upto] = self._write_and_feed(layer, x, heads_out, upto)[0]
            streams = after
        return [self._logits(streams[ablate]) for ablate in ablations]

    def forward(self, text: str, ablate: Collection[Head] = ()) -> Pass:
        """Every position of ``text`` at once (an empty cache extended by the whole text)."""
        return self.extend(empty_cache(self), self.encode(text), ablate)

    def step(self, cache: Cache, token: int, ablate: Collection[Head] = ()) -> Pass:
        """One generation step: the token ``token`` after the cached ones, nothing earlier recomputed."""
        return self.extend(cache, np.array([token]), ablate)

    def generate(self, prompt: str, steps: int, temperature: float = 0.0, seed: int = 0,
                 ablate: Collection[Head] = ()) -> Generation:
        """Continue ``prompt`` by ``steps`` tokens, each drawn at ``temperature`` with ``mulberry32(seed)``.

        The prompt runs once; each step then runs only its new token against the cache.
        """
        if steps < 1 or len(prompt) + steps - 1 > self.context:
            raise ValueError(f"a prompt of {len(prompt)} and {steps} steps do not fit the context of {self.context}"
                             " (steps must be ≥ 1)")
        draws = iter(mulberry32(seed))
        current = self.forward(prompt, ablate)
        chosen, distributions = [], []
        for step in range(steps):
            token, probabilities = pick(current.logits[-1], temperature, next(draws))
            chosen.append(token)
            distributions.append(probabilities)
            if step + 1 < steps:
                current = self.step(current.cache, token, ablate)
        return Generation("".join(self.vocabulary[i] for i in chosen), frozen(np.array(chosen)),
                          frozen(np.array(distributions)))


def empty_cache(model: Decoder) -> Cache:
    """A cache holding no position yet."""
    nothing = np.zeros((model.heads, 0, model.head_width))
    return Cache((nothing,) * model.layers, (nothing,) * model.layers)


@lru_cache(maxsize=4)
def load(directory: Path = DIRECTORY) -> Decoder:
    """The decoder in ``directory`` (Hugging Face layout: config.json, model.safetensors, vocab.json)."""
    config = json.loads((directory / "config.json").read_text())
    ids = json.loads((directory / "vocab.json").read_text())
    vocabulary = "".join(sorted(ids, key=ids.get))
    return Decoder(vocabulary, config["n_layer"], config["n_head"], config["n_embd"], config["n_positions"],
                   config["layer_norm_epsilon"], {name: tensor.astype(np.float64) for name, tensor
                                                  in read_safetensors(directory / "model.safetensors").items()})


@lru_cache(maxsize=1)
def training_log(directory: Path = DIRECTORY) -> dict[str, Any]:
    """The committed run's log: its settings, the loss at every step, [step, held-out accuracy] pairs, its times
    (read once per folder: do not change it)."""
    log: dict[str, Any] = json.loads((directory / "training-log.json").read_text())
    return log


@dataclass(frozen=True)
class Repeat:
    """A held-out sequence: random letters in which ``text[start:start + length]`` repeats right after itself."""

    text: str
    start: int
    length: int

    @property
    def predictable(self) -> range:
        """Positions whose next token the first copy gives: the second copy's, its first token's prediction excluded."""
        second = self.start + self.length
        return range(second, second + self.length - 1)


def repeats(count: int, seed: int, length: int = 64, segment: tuple[int, int] = (8, 32)) -> tuple[Repeat, ...]:
    """``count`` sequences built as the training data is (prefix, segment, the segment again, filler).

    Drawn with numpy's generator from ``seed``, not PyTorch's: none is a training sequence.
    """
    rng = np.random.default_rng(seed)
    made = []
    for _ in range(count):
        letters = [chr(ord("a") + i) for i in rng.integers(0, 26, length)]
        size = int(rng.integers(segment[0], segment[1] + 1))
        start = int(rng.integers(0, length - 2 * size + 1))
        letters[start + size:start + 2 * size] = letters[start:start + size]
        made.append(Repeat("".join(letters), start, size))
    return tuple(made)


BATCH = 10
"""How many texts ``forward_all`` runs as one stack at most: more rows at once outgrow the processor's caches
and run slower (on the chapter's 50 held-out texts, 10 at a time took two thirds of the time of 50 at once)."""


def _chunks(model: Decoder, texts: Sequence[str]) -> Iterable[tuple[list[int], np.ndarray]]:
    """``forward_all``'s stacks: the places in ``texts`` of up to ``BATCH`` texts of one length, and their ids."""
    for length in {len(text) for text in texts}:
        places = [i for i, text in enumerate(texts) if len(text) == length]
        for chunk in (places[i:i + BATCH] for i in range(0, len(places), BATCH)):
            yield chunk, np.array([model.encode(texts[i]) for i in chunk])                # texts × length


def forward_all(model: Decoder, texts: Sequence[str], ablate: Collection[Head] = ()) -> tuple[Pass, ...]:
    """``model.forward`` of each of ``texts``: up to ``BATCH`` texts of one length run at a time, as one stack."""
    runs: dict[int, Pass] = {}
    for chunk, ids in _chunks(model, texts):
        runs.update(zip(chunk, model._extend([empty_cache(model)] * len(chunk), ids, ablate)))
    return tuple(runs[i] for i in range(len(texts)))


def accuracy(model: Decoder, sequences: Iterable[Repeat], ablate: Collection[Head] = ()) -> float:
    """Share of the predictable positions (second copies) where the most probable next token is the right one."""
    return accuracies(model, sequences, [ablate])[0]


def accuracies(model: Decoder, sequences: Iterable[Repeat], ablations: Sequence[Collection[Head]]) -> list[float]:
    """``accuracy`` with each set of heads in ``ablations`` removed, the work the sets share done once."""
    sequences, sets = tuple(sequences), [frozenset(ablate) for ablate in ablations]
    hits: list[list[bool]] = [[] for _ in sets]
    for chunk, ids in _chunks(model, [s.text for s in sequences]):
        rows = np.array([np.isin(range(ids.shape[1]), sequences[place].predictable) for place in chunk])  # texts × T
        following = np.roll(ids, -1, axis=1)[rows]                                     # the next token of each row
        for found, logits in zip(hits, model._ablated_logits(ids, sets, rows), strict=True):
            found.extend((logits.argmax(axis=-1) == following).tolist())
    return [sum(found) / len(found) for found in hits]


def _right(model: Decoder, run: Pass, sequence: Repeat, position: int) -> bool:
    """Whether ``run``'s most probable next token at ``position`` is the one ``sequence`` has there."""
    return model.vocabulary[int(np.argmax(run.logits[position]))] == sequence.text[position + 1]


@dataclass(frozen=True)
class Study:
    """The chapter's measurements on held-out repeats, each layers × heads but ``accuracy``.

    ``previous_token``: mean weight on the key just before the query (every query but the first).
    ``prefix_matching``: Olsson et al.'s prefix matching, measured: mean weight, from a query in the
    second copy, on the key that followed the same token in the first copy (the token to come next).
    ``copying``: how far the head's write, read straight through the output embedding (the final layer
    norm left out), raises the right next token's logit above the mean logit, at the predictable positions.
    ``accuracy``: greedy accuracy on the predictable positions; ``ablated``: the same with one head removed;
    ``without_layer``: the same with every head of one layer removed (one entry per layer).
    ``unique`` and ``ambiguous``: the accuracy split by whether the current letter occurs once before the
    position (in the first copy: one place to look) or more than once (several places that could be the match).
    """

    previous_token: np.ndarray
    prefix_matching: np.ndarray
    copying: np.ndarray
    accuracy: float
    ablated: np.ndarray
    without_layer: np.ndarray
    unique: float
    ambiguous: float

    @property
    def previous_token_head(self) -> Head:
        """The head with the highest previous-token score."""
        return _largest(self.previous_token)

    @property
    def induction_head(self) -> Head:
        """The head with the highest prefix-matching score."""
        return _largest(self.prefix_matching)


def _largest(scores: np.ndarray) -> Head:
    layer, head = np.unravel_index(np.argmax(scores), scores.shape)
    return int(layer), int(head)


@lru_cache(maxsize=2)
def study(count: int = 50, seed: int = HELD_OUT_SEED) -> Study:
    """Scores, accuracy, every one-head ablation and every whole-layer ablation on ``repeats(count, seed)``."""
    model, sequences = load(), repeats(count, seed)
    embedding = model.weights["transformer.wte.weight"]                            # vocabulary × 64
    previous: list[np.ndarray] = []
    prefix: list[np.ndarray] = []
    copying: list[np.ndarray] = []
    hits: dict[bool, list[bool]] = {False: [], True: []}                           # by "letter seen twice before"
    for s, run in zip(sequences, forward_all(model, [s.text for s in sequences])):
        previous.append(np.diagonal(run.attentions, offset=-1, axis1=2, axis2=3).mean(axis=-1))
        second = range(s.start + s.length, s.start + 2 * s.length)
        prefix.extend(run.attentions[:, :, query, query - s.length + 1] for query in second)
        for position in s.predictable:
            logits = run.writes[:, :, position] @ embedding.T                     # layers × heads × vocabulary
            copying.append(logits[:, :, model.vocabulary.index(s.text[position + 1])] - logits.mean(axis=-1))
            hits[s.text[:position].count(s.text[position]) > 1].append(_right(model, run, s, position))
    heads = [(layer, head) for layer in range(model.layers) for head in range(model.heads)]
    found = accuracies(model, sequences, [{one} for one in heads] +
                       [{(layer, head) for head in range(model.heads)} for layer in range(model.layers)])
    ablated, without_layer = np.reshape(found[:len(heads)], (model.layers, model.heads)), found[len(heads):]
    share = lambda found: sum(found) / len(found)  # noqa: E731
    return Study(frozen(np.mean(previous, axis=0)), frozen(np.mean(prefix, axis=0)), frozen(np.mean(copying, axis=0)),
                 share(hits[False] + hits[True]), frozen(ablated), frozen(np.array(without_layer)),
                 share(hits[False]), share(hits[True]))
