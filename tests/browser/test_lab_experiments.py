"""The brief's three experiments, done with the lab's controls and read off the rendered numbers: the text expected
is ``attnlab.lab.compute``'s, and the assertions add what each experiment is meant to show."""

from __future__ import annotations

from playwright.sync_api import Locator, Page

from attnlab.lab import compute
from attnlab.text import fmt

from .labpage import as_shown, open_lab, rendered, set_controls


def numbers(texts: list[str]) -> list[float]:
    """Rendered numbers as floats ("blocked" is not a number and must not appear here)."""
    return [float(t) for t in texts]


def test_the_multiplier_concentrates_weight_without_hard_selection_and_keeps_ties(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    set_controls(lab, token="rises", query_scale=0)
    shown = rendered(lab)
    python = compute("rises", query_scale=0.0)
    assert shown == as_shown(python.to_dict())
    assert len(set(shown["weights"])) == 1, "a zero multiplier gives uniform weights"
    assert shown["output"] == [fmt(sum(column) / len(python.values)) for column in zip(*python.values)]
    assert numbers(shown["output"]) != [0.0, 0.0], "a zero query still gives a non-zero output"
    top = max(range(3), key=lambda j: compute("rises").scores[j])
    previous = -1.0
    for scale in (1, 2, 3, 4):
        set_controls(lab, query_scale=scale)
        shown = rendered(lab)
        assert shown == as_shown(compute("rises", query_scale=float(scale)).to_dict())
        weights = numbers(shown["weights"])
        assert weights[top] > previous and all(w > 0 for w in weights)
        previous = weights[top]
    set_controls(lab, token="grid", causal=False)
    scores = compute("grid", causal=False).scores
    tied = [j for j in range(3) if scores[j] == max(scores)]
    assert len(tied) == 2
    for scale in (1, 2.5, 4):
        set_controls(lab, query_scale=scale)
        shown = rendered(lab)
        assert shown == as_shown(compute("grid", query_scale=float(scale), causal=False).to_dict())
        assert len({shown["weights"][j] for j in tied}) == 1, "tied scores stay tied"
        assert all(w > 0 for w in numbers(shown["weights"]))


def test_the_causal_mask_leaves_grid_its_own_value_and_changes_nothing_for_rises(page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    set_controls(lab, token="grid", causal=True)
    shown = rendered(lab)
    assert shown == as_shown(compute("grid", causal=True).to_dict())
    assert shown["visible"] == ["visible", "blocked", "blocked"]
    assert shown["output"] == shown["values"][0]
    set_controls(lab, causal=False)
    shown = rendered(lab)
    assert shown == as_shown(compute("grid", causal=False).to_dict())
    assert all(w > 0 for w in numbers(shown["weights"][1:])), "without the mask grid mixes in later rows"
    assert shown["output"] != shown["values"][0]
    set_controls(lab, token="rises", causal=True)
    masked = rendered(lab)
    set_controls(lab, causal=False)
    open_row = rendered(lab)
    assert masked == as_shown(compute("rises", causal=True).to_dict())
    for field in ("query", "scores", "scaled", "visible", "weights", "output"):
        assert masked[field] == open_row[field], field


def raise_the_third_value(lab: Locator, token: str) -> tuple[dict, dict]:
    """What ``lab`` shows for ``token`` (causal on) with the third value's second number at 2, then at 4."""
    set_controls(lab, token=token, causal=True, value_y=2)
    before = rendered(lab)
    set_controls(lab, value_y=4)
    after = rendered(lab)
    assert after == as_shown(compute(token, value_y=4.0).to_dict())
    return before, after


def test_raising_the_third_value_moves_only_the_second_output_coordinate_and_only_when_it_is_seen(
        page: Page, site_url: str) -> None:
    lab = open_lab(page, site_url)
    before, after = raise_the_third_value(lab, "rises")
    for field in ("scores", "scaled", "weights", "weight_map"):
        assert after[field] == before[field], field
    weight = compute("rises").weights[2]
    assert after["output"] == [before["output"][0], fmt(compute("rises", value_y=2.0).output[1] + 2 * weight)]
    assert after["parts"][:2] == before["parts"][:2], "grid's and load's shares do not move"
    assert after["parts"][2][1] == fmt(4.0 * weight) != before["parts"][2][1]
    before, after = raise_the_third_value(lab, "load")  # its third key is blocked: only the value changes
    assert after["visible"][2] == "blocked"
    assert {k: v for k, v in after.items() if k != "values"} == {k: v for k, v in before.items() if k != "values"}
