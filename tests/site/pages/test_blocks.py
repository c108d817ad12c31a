"""The guide's code blocks, converted in-process as ``mkdocs.yml`` configures them: hidden display lines, no quiet
exit, output checked, each named by its place."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from sites import converted

from attnlab.site.pages.blocks import HIDE, SHOW, PageError, placed_blocks, shown_part


@pytest.fixture
def block(tmp_path: Path) -> Callable[..., str]:
    """One block of code with its options, at ``docs/p.md:1``, converted as the build converts its page."""
    return lambda code, options="": converted(tmp_path, f'```python exec="on" {options}\n{code}\n```\n')


TABLE_BLOCK = f"""from attnlab import softmax
weights = softmax([[0.0, 1.0]], [[True, True]])  # may overflow to inf
{HIDE}
from attnlab.site.figures.tables import table
from attnlab.text import fmt
print(table(["w0", "w1"], [[fmt(w) for w in weights[0]]]))"""


def test_lines_after_hide_are_run_but_not_shown_beside_the_output_or_behind_a_source_tab(
        block: Callable[..., str]) -> None:
    for options, shown in [('source="block"', "<td>0.269</td>"), ('source="tabbed-right"', "<td>0.731</td>")]:
        html = block(TABLE_BLOCK, options)  # shown code may speak of infinity: it is no result
        listings = re.findall(r'<div class="language-python highlight">(.*?)</div>', html, re.S)
        code = re.sub(r"<[^>]+>", "", "".join(listings))
        assert "weights = softmax" in code and "overflow to inf" in code and shown in html
        assert "attnlab.site" not in code and "print" not in code


def test_show_ends_a_hidden_stretch_no_marker_line_is_shown_and_a_block_without_them_is_shown_whole() -> None:
    assert shown_part(f"a = 1\n{HIDE}\nb = 2\n{SHOW}\nc = 3") == "a = 1\nc = 3"
    assert shown_part(f"  {HIDE}\nb = 2") == ""
    assert shown_part("a = 1\n\nb = 2\n\n") == "a = 1\n\nb = 2"


def test_a_block_that_shows_no_source_shows_its_output_alone(block: Callable[..., str]) -> None:
    html = block('print("**bold**")')
    assert "<strong>bold</strong>" in html and "highlight" not in html


def test_a_block_that_would_end_the_build_stops_it_naming_its_place_and_the_process_lives_on(
        block: Callable[..., str]) -> None:
    for code, named in [("exit()", "raised SystemExit"), ("import sys\nsys.exit(0)", "raised SystemExit (0)"),
                        ("raise SystemExit(3)", "raised SystemExit (3)"),
                        ("raise KeyboardInterrupt", "raised KeyboardInterrupt"),
                        ("raise GeneratorExit", "raised GeneratorExit"),
                        ("class Stop(BaseException): pass\nraise Stop", "raised Stop"),
                        ("import os\nos._exit(7)", "called os._exit(7)")]:
        with pytest.raises(PageError, match=rf"^docs/p\.md:1: a code block {re.escape(named)}: it would end"):
            block(code)
    assert os._exit.__module__ == "posix"


def test_a_block_running_past_the_time_limit_or_a_limit_that_is_not_a_positive_number_stops_the_build_saying_so(
        block: Callable[..., str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ATTNLAB_BLOCK_SECONDS", "0.2")
    with pytest.raises(PageError, match=r"^docs/p\.md:1: a code block ran longer than 0\.2 s \(ATTNLAB_BLOCK_SECONDS"):
        block("import time\ntime.sleep(10**6)")
    for given in ["soon", "0", "-1", "nan"]:
        monkeypatch.setenv("ATTNLAB_BLOCK_SECONDS", given)
        with pytest.raises(PageError, match=r"^ATTNLAB_BLOCK_SECONDS must be a number of seconds above 0"):
            block("print(1)")


def test_a_thread_that_raises_in_a_block_stops_the_page_naming_its_place_and_error(block: Callable[..., str]) -> None:
    code = "import threading\nt = threading.Thread(target=lambda: 1 / 0)\nt.start()\nt.join()\nprint(1)"
    with pytest.raises(PageError, match=r"^docs/p\.md:1: a code block started a thread that raised "
                                        r"ZeroDivisionError: division by zero$"):
        block(code)


def test_a_non_number_in_what_a_block_prints_stops_the_page(block: Callable[..., str]) -> None:
    for printed in ['print(f"`{float(\'nan\')}`")',  # in inline code
                    'print(f"$w = {float(\'inf\')}$")',  # in a formula
                    'print(f"| w |\\n|---|\\n| ${float(\'-inf\')}$ |")']:  # a table cell written as math
        with pytest.raises(PageError, match=r"^docs/p\.md:1: '-?(nan|inf)' is not a finite number"):
            block(printed)


def test_a_session_is_refused_naming_the_block(block: Callable[..., str]) -> None:
    with pytest.raises(PageError, match=r"docs/p\.md:1: session= is not used in this guide"):
        block("x = 1", 'session="s"')


def test_an_executed_block_is_given_its_place_and_a_stable_id_prefix_unless_it_has_an_id() -> None:
    page = 'Intro.\n\n```python exec="on"\nprint(1)\n```\n'
    assert '```python exec="on" id="docs/p.md:3" idprefix="block-3-"\n' in placed_blocks(page, "docs/p.md")
    for page in ['```python exec="on" id="mine"\nprint(1)\n```\n', "```python\nprint(1)\n```\n"]:
        assert placed_blocks(page, "docs/p.md") == page
