"""Running the code yourself: the install line on Home, Notes and each exercise in Python; each chapter's notebooks."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from sites import ROOT

from attnlab.site.pages import running
from attnlab.site.pages.published import wheel_name

WHEEL = wheel_name()


def test_the_python_line_links_the_wheel_to_download_from_the_page() -> None:
    # the notebooks' line, on every chapter: test_notebooks.test_the_site_holds_two_notebooks_per_chapter_linked...
    assert WHEEL.startswith("attnlab-") and WHEEL.endswith("-py3-none-any.whl")
    assert f'<a href="{WHEEL}" download>the wheel</a>' in running.python_line("mixing.md")
    assert f'<a href="../{WHEEL}" download>' in running.python_line("part/mixing.md")


def test_home_and_notes_say_where_the_wheel_is_and_that_numpy_2_is_its_only_dependency() -> None:
    text = running.install("notes.md")  # the link and the line as built: test_home_and_notes_show_the_install_line
    assert ("numpy 2 or newer is its only dependency, so where that Python already has numpy 2 the line needs no "
            "network") in text
    [requirement] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    assert requirement == "numpy>=2"


def test_home_and_notes_show_the_install_line(built_site: Path) -> None:
    # each exercise in Python: test_practice.py places the line, test_notebooks.py finds the chapters' run lines
    for page in ["index.html", "notes.html"]:
        html = (built_site / page).read_text(encoding="utf-8")
        assert re.search(rf"<code>pip install {re.escape(WHEEL)}\s*</code>", re.sub(r"</?span[^>]*>", "", html)), page
        assert f'<a href="{WHEEL}" download>{WHEEL}</a>' in html
