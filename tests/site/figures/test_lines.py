"""Home's lines view and the chapters' "same step in a trained model" charts, drawn from attnlab.bert."""

from __future__ import annotations

import json
import re
from html import unescape

import numpy as np
import pytest

from attnlab.site.figures import lines
from attnlab.site.pages import trained

PAGE_BUDGET_KB = 32
"""What the lines view may add to Home and keep its first load within 500 KB."""


def test_the_view_draws_a_line_from_the_pronoun_to_every_key_as_wide_as_its_weight() -> None:
    html = lines.lines_view("t", trained.SENTENCES[:1])
    sentence = json.loads(unescape(re.search(r'data-values="([^"]*)"', html).group(1)))["sentences"][0]
    weights = np.array(sentence["weights"])[sentence["query"]]
    drawn = re.findall(r'<line [^>]*data-key="(\d+)" data-weight="([^"]+)" stroke-width="([^"]+)" '
                       r'stroke-opacity="([^"]+)"', html)
    assert [int(k) for k, *_ in drawn] == list(range(len(weights)))  # each weight: test_figures_site.attention_lines
    np.testing.assert_allclose([float(s) for _, _, s, _ in drawn], lines.STROKE[0] + lines.STROKE[1] * weights,
                               atol=0.005)


def test_the_line_above_a_sentence_names_its_head() -> None:
    shown = trained.shown(trained.SENTENCES[0])  # the head the search finds: test_figures_site.attention_lines
    assert lines.head_line(shown).startswith(f"Layer {shown['layer'] + 1}, head {shown['head'] + 1} of 72:")


def test_one_word_of_each_sentence_is_chosen_and_takes_the_tab_stop_within_homes_budget() -> None:
    html = lines.lines_view("home-lines")
    assert html.count('aria-checked="true"') == html.count('tabindex="0"') == len(trained.SENTENCES)
    assert html.count('class="lines-panel"') == len(trained.SENTENCES) and html.count(" hidden>") == 1
    assert len(html.encode("utf-8")) <= PAGE_BUDGET_KB * 1024
    with pytest.raises(ValueError, match="at least one sentence"):
        lines.lines_view("t", ())


def test_a_step_the_trained_charts_do_not_draw_is_refused() -> None:
    # each step's values, weight × ‖v‖ for the mixing: test_figures_site.trained_step
    with pytest.raises(ValueError, match="'softmax'"):
        trained.step_values("softmax")
