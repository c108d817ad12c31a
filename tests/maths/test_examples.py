"""WE-002 by hand, and the docstring examples of the core modules.

WE-002: q = [√2, 0]; keys [1, 0], [0, 1], [1, 1]; values [1, 0], [0, 2], [3, 1]. Raw scores √2, 0, √2; divided by √2
they are 1, 0, 1. With E = e: weights e/(2e+1), 1/(2e+1), e/(2e+1); output = (e·[1, 0] + [0, 2] + e·[3, 1]) / (2e+1)
= [4e/(2e+1), (e+2)/(2e+1)].
"""

from __future__ import annotations

import doctest
import importlib
import math

import numpy as np

from attnlab.examples import we002
from attnlab.text import fmt

E = math.e
WEIGHTS = [E / (2 * E + 1), 1 / (2 * E + 1), E / (2 * E + 1)]
OUTPUT = [4 * E / (2 * E + 1), (E + 2) / (2 * E + 1)]


def test_we002_by_hand() -> None:
    r = we002()
    np.testing.assert_allclose(r.scores, [math.sqrt(2), 0.0, math.sqrt(2)], rtol=1e-15)
    np.testing.assert_allclose(r.scaled, [1.0, 0.0, 1.0], rtol=1e-15, atol=0)
    assert r.scaled[0] == r.scaled[2] and r.weights[0] == r.weights[2]  # tied logits, exactly tied weights
    np.testing.assert_allclose(r.weights, WEIGHTS, rtol=1e-15)
    np.testing.assert_allclose(r.output, OUTPUT, rtol=1e-15)
    assert [fmt(x, 6) for x in (*r.scaled, *r.weights, *r.output)] == [fmt(x, 6) for x in (1, 0, 1, *WEIGHTS, *OUTPUT)]
    assert (r.scores.shape, r.visible.tolist(), r.output.shape) == ((3,), [True, True, True], (2,))  # one query


def test_docstring_examples_hold() -> None:
    for module in ("attnlab.attention", "attnlab.lab", "attnlab.examples", "attnlab.cost", "attnlab.streaming",
                   "attnlab.bert"):
        result = doctest.testmod(importlib.import_module(module), verbose=False)
        assert (result.failed, result.attempted > 0) == (0, True), module
