"""The mutation audit (``tests/mutation_audit.py``): a changed constant either leaves true pages after rebind or stops
the build naming the sentence that went false. Two runs here; ``python tests/mutation_audit.py`` prints every one."""

from __future__ import annotations

import re

import pytest
from mutation_audit import Mutation, outcome

pytestmark = pytest.mark.slow  # each test rebinds and rebuilds a changed copy's chapters


def test_the_maintainers_change_to_w_v_stops_at_both_sentences_of_keeping_the_claim_small() -> None:
    result = outcome(Mutation("W_V[0][0] = 1.5", "W_V", 0, 0, 1.5))
    named = re.findall(r"(docs/[\w-]+\.md):\d+: '([^']+)' is false", result)
    assert result.startswith("stops: ")
    assert named == [("docs/limits.md", "about as long"), ("docs/limits.md", "twice as long"),
                     ("docs/limits.md", "about as large")]


def test_a_change_no_sentence_rests_on_builds_after_rebind_with_its_quotes_rewritten() -> None:
    result = outcome(Mutation("W_Q[1][1] = 1.5", "W_Q", 1, 1, 1.5))
    assert re.fullmatch(r"builds true after rebind \([1-9][0-9]* quotes rewritten\)", result), result
