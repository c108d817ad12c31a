"""WE-002 by hand, and the docstring examples of the core modules (attnlab.bert's are in test_bert).

WE-002: q = [√2, 0]; keys [1, 0], [0, 1], [1, 1]; values [1, 0], [0, 2], [3, 1].
Raw scores √2, 0, √2; divided by √2 they are 1, 0, 1. With E = e:
weights e/(2e+1), 1/(2e+1), e/(2e+1); output = (e·[1, 0] + [0, 2] + e·[3, 1]) / (2e+1)
= [4e/(2e+1), (e+2)/(2e+1)].
"""

from __future__ import annotations

import doctest
import importlib
import math

import numpy as np
import pytest

from attnlab.examples import we002
from attnlab.text import fmt

E = math.e
WEIGHTS = [E / (2 * E + 1), 1 / (2 * E + 1), E / (2 * E + 1)]
OUTPUT = [4 * E / (2 * E + 1), (E + 2) / (2 * E + 1)]


def test_we002_raw_scores_are_sqrt2_0_sqrt2() -> None:
    np.testing.assert_allclose(we002().scores, [math.sqrt(2), 0.0, math.sqrt(2)], rtol=1e-15)


def test_we002_scaled_logits_are_1_0_1() -> None:
    np.testing.assert_allclose(we002().scaled, [1.0, 0.0, 1.0], rtol=1e-15, atol=0)


def test_we002_tied_logits_give_exactly_tied_weights() -> None:
    r = we002()
    assert r.scaled[0] == r.scaled[2]
    assert r.weights[0] == r.weights[2]


def test_we002_weights_are_e_over_2e_plus_1_and_1_over_2e_plus_1() -> None:
    np.testing.assert_allclose(we002().weights, WEIGHTS, rtol=1e-15)


def test_we002_output_is_4e_and_e_plus_2_over_2e_plus_1() -> None:
    np.testing.assert_allclose(we002().output, OUTPUT, rtol=1e-15)


def test_we002_six_decimal_table_values() -> None:
    r = we002()
    shown = [fmt(x, 6) for x in (*r.scaled, *r.weights, *r.output)]
    assert shown == [fmt(x, 6) for x in (1, 0, 1, *WEIGHTS, *OUTPUT)]


def test_we002_is_a_single_query_with_every_key_visible() -> None:
    r = we002()
    assert (r.scores.shape, r.visible.tolist(), r.output.shape) == ((3,), [True, True, True], (2,))


@pytest.mark.parametrize(
    "module", ["attnlab.attention", "attnlab.lab", "attnlab.examples", "attnlab.cost", "attnlab.streaming"]
)
def test_docstring_examples_hold(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module), verbose=False)
    assert (result.failed, result.attempted > 0) == (0, True)
