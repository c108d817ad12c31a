"""Practice in the chapters (CONTRIBUTING.md, "Practice"): a prompt ``!!! question "Predict first: …"`` with its
computed answer nested as ``??? success "Answer"``, and ``## Exercises``, an exercise per ``###`` heading
(``{ .python }`` asks for attnlab in Python) ending with its collapsed, computed answer. :func:`problems` says
what a chapter lacks; the build numbers the exercises and gathers them on the Exercises page."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from attnlab.site.pages.blocks import COMPOSED
from attnlab.site.pages.source import FENCE, at_marker, code_blanked, line_of, sub_prose

EXERCISES_PAGE = "exercises.md"
EXERCISES_MARKER = "<!-- attnlab:exercises -->"
FEWEST, MOST = 2, 4

PROMPT = re.compile(r'^!!! question "(?P<title>Predict first\b[^"]*)"[ \t]*$', re.M)
ANSWER = '??? success "Answer"'
ANSWER_LINE = re.compile(rf"^(?P<indent>[ \t]*){re.escape(ANSWER)}[ \t]*$", re.M)
SECTION = re.compile(r"^## Exercises[ \t]*$", re.M)
HEADING = re.compile(r"^(?P<hashes>#{1,3}) (?P<text>[^\n]*?)[ \t]*$", re.M)
ATTRS = re.compile(r"[ \t]*\{(?P<attrs>[^{}\n]*)\}$")
IN_PAGE_LINK = re.compile(r"\]\(#")


@dataclass(frozen=True)
class Exercise:
    """One exercise of a chapter: its place, its title and its Markdown (question and answer)."""

    number: int
    title: str
    python: bool
    line: int
    body: str

    @property
    def question(self) -> str:
        """The exercise without its answer: what the Exercises page shows."""
        answer = ANSWER_LINE.search(self.body)
        return (self.body[:answer.start()] if answer else self.body).strip("\n")

    def heading(self, prefix: str = "") -> str:
        """The numbered heading the reader sees, with its id (``exercise-2`` in its chapter) and classes."""
        where = " (in Python)" if self.python else ""
        return f"### Exercise {self.number}: {self.title}{where} {{#{prefix}exercise-{self.number} .attn-exercise}}"


def _indented_block(markdown: str, start: int, indent: int) -> str:
    """The lines after offset ``start`` that are blank or indented by at least ``indent`` spaces."""
    lines = []
    for line in markdown[start:].split("\n")[1:]:
        if line.strip() and len(line) - len(line.lstrip(" ")) < indent:
            break
        lines.append(line)
    return "\n".join(lines)


def prompts(markdown: str) -> list[tuple[str, int, str]]:
    """``(title, line, body)`` of every predict-first admonition in the prose of ``markdown``."""
    return [(markdown[m.start("title"):m.end("title")], line_of(markdown, m.start()),
             _indented_block(markdown, m.start(), 4)) for m in PROMPT.finditer(code_blanked(markdown))]


def section(markdown: str) -> tuple[int, int] | None:
    """Start (its heading's line end) and end offsets of the ``## Exercises`` section, or None."""
    prose = code_blanked(markdown)
    if (found := SECTION.search(prose)) is None:
        return None
    return found.end(), next((m.start() for m in HEADING.finditer(prose, found.end()) if len(m["hashes"]) <= 2),
                             len(markdown))


def exercises(markdown: str, page: str = "page") -> list[Exercise]:
    """The exercises of the ``## Exercises`` section, numbered from 1 in order."""
    start, end = section(markdown) or (0, 0)
    heads = [m for m in HEADING.finditer(code_blanked(markdown), start, end) if len(m["hashes"]) == 3]
    found = []
    for number, (head, following) in enumerate(zip(heads, [*heads[1:], None]), start=1):
        text, python = markdown[head.start("text"):head.end("text")], False
        if attrs := ATTRS.search(text):
            if set(attrs["attrs"].split()) - {".python"}:
                raise ValueError(f"{page}:{line_of(markdown, head.start())}: an exercise heading takes only "
                                 f"{{ .python }}, not {{{attrs['attrs']}}}: its number and id are given for it")
            text, python = text[:attrs.start()], True
        found.append(Exercise(number, text.strip(), python, line_of(markdown, head.start()),
                              markdown[head.end():following.start() if following else end].strip("\n")))
    return found


def numbered(markdown: str, page: str = "page") -> str:
    """``markdown`` with each exercise heading numbered and given its id (``### Exercise 2: … {#exercise-2}``)."""
    lines = markdown.split("\n")
    for exercise in exercises(markdown, page):
        lines[exercise.line - 1] = exercise.heading()
    return "\n".join(lines)


def slug(page: str) -> str:
    """The prefix a chapter's ids take on the Exercises page: ``real-model.md`` → ``real-model``."""
    return page.removesuffix(".md").replace("/", "-")


def gathered(chapters: Mapping[str, str]) -> str:
    """The Exercises page's listing: a section per chapter (path → Markdown ready to show, in reading order), each
    question linking back to its answer in the chapter (the answers would take the page past its weight budget)."""
    parts = []
    for path, markdown in chapters.items():
        heading = re.search(r"^# (.+?)[ \t]*$", code_blanked(markdown), re.M)  # the chapter's title
        title = markdown[heading.start(1):heading.end(1)] if heading else path
        parts.append(f"## {title} {{#{slug(path)}}}\n\nFrom [{title}]({path}#exercises).")
        parts += ["\n\n".join([exercise.heading(f"{slug(path)}-"),
                                 sub_prose(IN_PAGE_LINK, f"]({path}#", exercise.question),
                                 f"[The answer, in {title}]({path}#exercise-{exercise.number}){{.attn-back}}"])
                  for exercise in exercises(markdown, path)]
    return "\n\n".join(parts) + "\n"


def exercises_page(markdown: str, chapters: Sequence[str], read: Callable[[str], str]) -> str:
    """The Exercises page's ``markdown`` with the listing written in at its marker."""
    return at_marker(markdown, EXERCISES_PAGE, EXERCISES_MARKER, lambda: gathered({p: read(p) for p in chapters}))


def _executed(body: str) -> list[re.Match[str]]:
    """The blocks run while the site is built in the collapsed answer inside ``body`` (at the body's indentation)."""
    m = ANSWER_LINE.search(body)
    answer = _indented_block(body, m.start(), len(m["indent"]) + 4) if m else ""
    return [block for block in FENCE.finditer(answer) if 'exec="on"' in block["head"]]


def problems(markdown: str, page: str) -> list[str]:
    """What ``page``, a teaching chapter, lacks: one message per missing prompt, exercise or answer."""
    asked = prompts(markdown)
    found = [] if len(asked) == 1 else [f"{page}: has {len(asked)} predict-first prompts (!!! question \"Predict "
                                        "first: …\"), needs exactly one"]
    found += [f"{page}:{line}: the prompt \"{title}\" needs a collapsed answer ({ANSWER}, nested) that holds an "
              "executed code block" for title, line, body in asked if not _executed(body)]
    if section(markdown) is None:
        return [*found, f"{page}: has no '## Exercises' section"]
    listed = exercises(markdown, page)
    if not FEWEST <= len(listed) <= MOST:
        found.append(f"{page}: has {len(listed)} exercises, needs {FEWEST} to {MOST}")
    found += [f"{page}:{e.line}: exercise \"{e.title}\" needs a collapsed answer ({ANSWER}) that holds an executed "
              "code block" for e in listed if not _executed(e.body)]
    if not any(e.python and block["head"].split()[0] in COMPOSED and "source=" in block["head"]
               and re.search(r"^\s*(?:from|import) attnlab\b", block["code"], re.M)
               for e in listed for block in _executed(e.body)):
        found.append(f"{page}: no exercise marked {{ .python }} whose answer shows executed code using attnlab")
    return found
