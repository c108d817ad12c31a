"""Home's trained head: the prepared sentences, the head :func:`attnlab.bert.strongest_head` finds in each, and
its numbers, which chapters quote as ``[[0.568 = trained.head().weights[7, 5]]]``."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from attnlab import Attention, attention, bert, causal


@dataclass(frozen=True)
class Sentence:
    """A prepared sentence, the pronoun and the noun it stands for, and its button's label."""

    text: str
    query: str
    key: str
    label: str


SENTENCES: tuple[Sentence, ...] = (
    Sentence("The engineer checked the pump because it was leaking.", "it", "pump", "the pump"),
    Sentence("The dog chased the ball because it was bored.", "it", "dog", "the dog"),
)
"""Home's sentences, the first the guide's own (Rows opens on it); every word a single piece."""
QUERY = "it"
STEPS = {"scores": "scaled score", "weights": "weight", "mixing": "size of weight × value", "masked": "causal weight"}
"""The steps the chapters show for the query: q·k/√d_k, its weight, ‖w_j v_j‖, its weight under a causal mask."""


@cache
def shown(sentence: Sentence) -> dict[str, Any]:
    """``sentence``'s tokens, the head the search finds (``layer``, ``head`` from 0) and its weights."""
    encoding = bert.encode(sentence.text)[0]
    layer, head = bert.strongest_head(encoding, sentence.query, sentence.key)
    weights = encoding.layers[layer].heads[head].weights
    return {"text": sentence.text, "tokens": list(encoding.tokens), "query": encoding.tokens.index(sentence.query),
            "key": encoding.tokens.index(sentence.key), "layer": layer, "head": head,
            "heads": len(encoding.layers) * len(encoding.layers[0].heads), "weights": weights.tolist()}


def found() -> tuple[bert.Encoding, int, int]:
    """Home's first sentence through the model, and the (layer, head) Home shows, counted from 0."""
    data = shown(SENTENCES[0])
    return bert.encode(SENTENCES[0].text)[0], data["layer"], data["head"]


def head() -> Attention:
    """The head Home shows, every intermediate kept (scores, scaled, weights, output)."""
    encoding, layer, h = found()
    return encoding.layers[layer].heads[h]


def causal_head() -> Attention:
    """The same head recomputed with a causal mask: each query sees itself and the keys before it."""
    encoding, layer, h = found()
    return attention(*bert.head_inputs(encoding, layer, h), causal(len(encoding.tokens)))


def position(token: str = QUERY) -> int:
    """Where ``token`` first stands in Home's first sentence (``[CLS]`` is 0)."""
    return found()[0].tokens.index(token)


def step_values(step: str) -> tuple[list[float], list[bool]]:
    """What the chart of ``step`` shows for each key, for the query, and which keys it sees."""
    if step not in STEPS:
        raise ValueError(f"step must be one of {sorted(STEPS)}, got {step!r}")
    i = position()
    if step == "masked":
        r = causal_head()
        return r.weights[i].tolist(), r.visible[i].tolist()
    r = head()
    if step == "mixing":
        v = bert.head_inputs(*found())[2]
        values = np.linalg.norm(r.weights[i][:, None] * v, axis=1)
    else:
        values = r.scaled[i] if step == "scores" else r.weights[i]
    return values.tolist(), [True] * len(values)
