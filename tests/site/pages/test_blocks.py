"""The guide's code blocks, converted in-process as ``mkdocs.yml`` configures them: hidden display lines, no quiet
exit, output checked, each named by its place."""

from __future__ import annotations

import os
import re

import markdown_exec
import pytest
from markdown import Markdown

from attnlab.site.pages.blocks import HIDE, SHOW, PageError, formatter, placed_blocks, shown_part

FENCES = {"pymdownx.superfences": {"custom_fences": [
    {"name": "python", "class": "python", "validator": markdown_exec.validator, "format": formatter},
]}}


def converted(code: str, options: str = "") -> str:
    """One block of ``code`` with its ``options``, placed at ``docs/p.md:1`` as the build places it."""
    page = placed_blocks(f'```python exec="on" {options}\n{code}\n```\n', "docs/p.md")
    md = Markdown(extensions=["tables", "pymdownx.superfences", "pymdownx.arithmatex", "pymdownx.tabbed"],
                  extension_configs={**FENCES, "pymdownx.arithmatex": {"generic": True},
                                     "pymdownx.tabbed": {"alternate_style": True}})
    return md.convert(page)


TABLE_BLOCK = f"""from attnlab import softmax
weights = softmax([[0.0, 1.0]], [[True, True]])  # may overflow to inf
{HIDE}
from attnlab.site.figures.tables import table
from attnlab.text import fmt
print(table(["w0", "w1"], [[fmt(w) for w in weights[0]]]))"""


def test_lines_after_hide_are_run_but_not_shown_beside_the_output_or_behind_a_source_tab() -> None:
    for options, shown in [('source="block"', "<td>0.269</td>"), ('source="tabbed-right"', "<td>0.731</td>")]:
        html = converted(TABLE_BLOCK, options)  # shown code may speak of infinity: it is no result
        code = re.sub(r"<[^>]+>", "", "".join(re.findall(r'<div class="highlight">(.*?)</div>', html, re.S)))
        assert "weights = softmax" in code and "overflow to inf" in code and shown in html
        assert "attnlab.site" not in code and "print" not in code


def test_show_ends_a_hidden_stretch_no_marker_line_is_shown_and_a_block_without_them_is_shown_whole() -> None:
    assert shown_part(f"a = 1\n{HIDE}\nb = 2\n{SHOW}\nc = 3") == "a = 1\nc = 3"
    assert shown_part(f"  {HIDE}\nb = 2") == ""
    assert shown_part("a = 1\n\nb = 2\n\n") == "a = 1\n\nb = 2"


def test_a_block_that_shows_no_source_shows_its_output_alone() -> None:
    html = converted('print("**bold**")')
    assert "<strong>bold</strong>" in html and "highlight" not in html


def test_a_block_that_would_end_the_build_stops_it_naming_its_place_and_the_process_lives_on() -> None:
    for code, named in [("exit()", "raised SystemExit"), ("import sys\nsys.exit(0)", "raised SystemExit (0)"),
                        ("raise SystemExit(3)", "raised SystemExit (3)"),
                        ("raise KeyboardInterrupt", "raised KeyboardInterrupt"),
                        ("raise GeneratorExit", "raised GeneratorExit"),
                        ("class Stop(BaseException): pass\nraise Stop", "raised Stop"),
                        ("import os\nos._exit(7)", "called os._exit(7)")]:
        with pytest.raises(PageError, match=rf"^docs/p\.md:1: a code block {re.escape(named)}: it would end"):
            converted(code)
    assert os._exit.__module__ == "posix"


def test_a_block_running_past_the_time_limit_or_a_limit_that_is_not_a_positive_number_stops_the_build_saying_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ATTNLAB_BLOCK_SECONDS", "0.2")
    with pytest.raises(PageError, match=r"^docs/p\.md:1: a code block ran longer than 0\.2 s \(ATTNLAB_BLOCK_SECONDS"):
        converted("import time\ntime.sleep(10**6)")
    for given in ["soon", "0", "-1", "nan"]:
        monkeypatch.setenv("ATTNLAB_BLOCK_SECONDS", given)
        with pytest.raises(PageError, match=r"^ATTNLAB_BLOCK_SECONDS must be a number of seconds above 0"):
            converted("print(1)")


def test_a_thread_that_raises_in_a_block_stops_the_page_naming_its_place_and_error() -> None:
    code = "import threading\nt = threading.Thread(target=lambda: 1 / 0)\nt.start()\nt.join()\nprint(1)"
    with pytest.raises(PageError, match=r"^docs/p\.md:1: a code block started a thread that raised "
                                        r"ZeroDivisionError: division by zero$"):
        converted(code)


def test_a_non_number_in_what_a_block_prints_stops_the_page() -> None:
    for printed in ['print(f"`{float(\'nan\')}`")',  # in inline code
                    'print(f"$w = {float(\'inf\')}$")',  # in a formula
                    'print(f"| w |\\n|---|\\n| ${float(\'-inf\')}$ |")']:  # a table cell written as math
        with pytest.raises(PageError, match=r"^docs/p\.md:1: '-?(nan|inf)' is not a finite number"):
            converted(printed)


def test_a_session_is_refused_naming_the_block() -> None:
    with pytest.raises(PageError, match=r"docs/p\.md:1: session= is not used in this guide"):
        converted("x = 1", 'session="s"')


def test_an_executed_block_is_given_its_place_and_a_stable_id_prefix_unless_it_has_an_id() -> None:
    page = 'Intro.\n\n```python exec="on"\nprint(1)\n```\n'
    assert '```python exec="on" id="docs/p.md:3" idprefix="block-3-"\n' in placed_blocks(page, "docs/p.md")
    for page in ['```python exec="on" id="mine"\nprint(1)\n```\n', "```python\nprint(1)\n```\n"]:
        assert placed_blocks(page, "docs/p.md") == page
