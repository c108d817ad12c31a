"""A page's final HTML shows numbers only: a traceback, NaN or infinity is named."""

from __future__ import annotations

from attnlab.site.pages.output import problems

TRACEBACK_HTML = ('<div class="language-python highlight"><pre><code>Traceback (most recent call last):\n  File '
                  '"&lt;code block: id docs/mixing.md:133&gt;", line 2, in &lt;module&gt;\n    raise ValueError("x")\n'
                  'ValueError: boom\n</code></pre></div>')


def test_a_traceback_names_the_blocks_place_or_else_the_page_and_its_error() -> None:
    assert problems(TRACEBACK_HTML, "docs/mixing.md") == [
        "docs/mixing.md:133: a code block raised ValueError: boom (its traceback would be on the page)"]
    html = "<pre><code>Traceback (most recent call last):\n  File \"x\", line 1\nKeyError: 'k'\n</code></pre>"
    assert problems(html, "docs/p.md")[0].startswith("docs/p.md: a code block raised KeyError: 'k'")


def test_a_non_finite_value_in_a_table_a_text_result_or_an_attribute_a_reader_meets_is_named() -> None:
    for shown in ["nan", "NaN", "inf", "-inf", "−inf", "Infinity", "-Infinity", "INF"]:
        [problem] = problems(f"<table><tr><td>0.5</td><td>{shown}</td></tr></table>", "docs/p.md")
        assert problem.startswith(f"docs/p.md: {shown!r} is not a finite number")
    assert len(problems('<div class="language-text highlight"><pre><code>[0.5, nan]</code></pre></div>', "p.md")) == 1
    printed_then_prose = "<pre><code>[0.5]</code></pre><p>A NaN here, before <code>x</code>.</p>"
    assert [p.split(" is ")[0] for p in problems(printed_then_prose, "p.md")] == ["p.md: 'NaN'"]
    for attribute in ("title", "alt", "aria-label", "data-values", "value", "placeholder", "aria-valuetext",
                      "aria-valuenow", "data-value"):
        [problem] = problems(f'<p><input type="range" {attribute}="w = NaN"> A slider.</p>', "docs/p.md")
        assert problem.startswith("docs/p.md: 'NaN' is not a finite number") and f"in its {attribute}" in problem


def test_source_code_inline_code_words_and_formulas_are_not_results() -> None:
    assert [problems(html, "p.md") for html in [
        '<div class="language-python highlight"><pre><code>x = float("inf")</code></pre></div>',
        "<p>numpy returns <code>nan</code> here</p>",
        '<p>Exponentials overflow to infinity.</p>',
        "<math><mi>∞</mi></math>",
        "<p>np.inf and the word information</p>",
    ]] == [[]] * 5
