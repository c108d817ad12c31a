"""The mutation audit: in a scratch copy of the guide, change one toy constant or the prepared sentence, rebind, and
convert the pages it reaches as a strict build does; they convert, or their refusals name file, line and sentence.
``python tests/mutation_audit.py`` prints the table."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SENTENCE = "The grid load rises every evening."  # the prepared sentence the real-model chapters read
SENTENCE_PAGES = ("real-model.md", "limits.md")
TOY_PAGES = ("rows.md", "scores.md", "softmax.md", "mixing.md", "masking.md", "experiments.md", "heads.md",
             "positions.md", "limits.md")  # the chapters whose prose quotes the toy
CONSTANTS = ("X", "W_Q", "W_K", "W_V")  # in attnlab/lab.py


@dataclass(frozen=True)
class Mutation:
    """One change: an entry of a toy constant set to ``value``, or the prepared sentence replaced."""

    label: str
    constant: str = ""
    row: int = 0
    column: int = 0
    value: float = 0.0
    sentence: str = ""

    @property
    def pages(self) -> tuple[str, ...]:
        """The chapters this change reaches."""
        return SENTENCE_PAGES if self.sentence else TOY_PAGES


def mutations() -> Iterator[Mutation]:
    """Every entry of every toy constant moved by one half, then the prepared sentence replaced."""
    from attnlab import lab

    for name in CONSTANTS:
        for r, row in enumerate(getattr(lab, name)):
            for c, entry in enumerate(row):
                yield Mutation(f"{name}[{r}][{c}] = {entry + 0.5:g}", name, r, c, entry + 0.5)
    yield Mutation("W_V[0][0] = 1.5 (the maintainer's change)", "W_V", 0, 0, 1.5)
    yield Mutation("prepared sentence → “The cat sat on the mat.”", sentence="The cat sat on the mat.")


def apply(mutation: Mutation, root: Path) -> None:
    """Make ``mutation`` in the copy at ``root``."""
    if mutation.sentence:
        for page in mutation.pages:
            path = root / "docs" / page
            path.write_text(path.read_text(encoding="utf-8").replace(SENTENCE, mutation.sentence), encoding="utf-8")
        return
    lab = root / "attnlab" / "lab.py"
    source = lab.read_text(encoding="utf-8")
    line = re.search(rf"^{mutation.constant} = (\(.*\))$", source, re.M)
    assert line, f"no constant {mutation.constant} in {lab}"
    rows = [list(row) for row in eval(line.group(1))]  # noqa: S307 - the guide's own source
    rows[mutation.row][mutation.column] = mutation.value
    written = "(" + ", ".join("(" + ", ".join(repr(float(v)) for v in row) + ")" for row in rows) + ")"
    lab.write_text(source[:line.start(1)] + written + source[line.end(1):], encoding="utf-8")


def convert(root: Path, pages: tuple[str, ...]) -> list[str]:
    """Convert ``pages`` of the guide at ``root`` as its build does; what each refusal says, in page order."""
    import markdown
    from mkdocs.config import load_config
    from mkdocs.utils.meta import get_data

    from attnlab.site.build.convert import page_html, page_markdown
    from attnlab.site.pages.guide import Page, nav_pages

    config = load_config(str(root / "mkdocs.yml"))
    nav = tuple(nav_pages(config["nav"]))
    refused = []
    for path in pages:
        page = Page(path, Path(config.docs_dir), nav)
        md = markdown.Markdown(extensions=config.markdown_extensions, extension_configs=config.mdx_configs)
        text, _ = get_data((Path(config.docs_dir) / path).read_text(encoding="utf-8"))  # as MkDocs: no front matter
        try:
            page_html(md.convert(page_markdown(text, page)), page)
        except Exception as error:  # noqa: BLE001 (the refusal, one line per problem, is the result)
            refused.append(str(error))
    return refused


def outcome(mutation: Mutation) -> str:
    """What rebinding and rebuilding the pages ``mutation`` reaches gives: ``builds …`` or ``stops: …``."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)  # a copy of the guide's sources, changed by the mutation
        for folder in ("attnlab", "docs", "overrides"):
            shutil.copytree(ROOT / folder, root / folder, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(ROOT / "mkdocs.yml", root / "mkdocs.yml")
        apply(mutation, root)
        env = {**os.environ, "PYTHONPATH": str(root), "NO_MKDOCS_2_WARNING": "1"}
        rebind = subprocess.run([sys.executable, "-m", "attnlab.site.pages.rebind", "docs"], cwd=root, env=env,
                                capture_output=True, text=True, timeout=600)
        rewritten = len(rebind.stdout.splitlines())
        built = subprocess.run([sys.executable, __file__, "--convert", str(root), *mutation.pages], cwd=root,
                               env=env, capture_output=True, text=True, timeout=600)
        if built.returncode == 0:
            return f"builds true after rebind ({rewritten} quotes rewritten)"
        refusals = [re.sub(r" is false now: .*", " is false", line)  # the place and the sentence
                    for line in built.stderr.splitlines() if re.match(r"docs/[\w-]+\.md:\d+: ", line)]
        return "stops: " + ("; ".join(refusals) or built.stderr.strip().splitlines()[-1])


def main(argv: list[str]) -> int:
    """``--convert ROOT PAGE…`` converts (for :func:`outcome`); with no arguments, print the audit as a table."""
    if argv[:1] == ["--convert"]:
        refused = convert(Path(argv[1]), tuple(argv[2:]))
        print("\n".join(refused), file=sys.stderr)
        return 1 if refused else 0
    print("| mutation | outcome |\n|---|---|")
    for m in mutations():
        print(f"| {m.label} | {outcome(m).replace('|', '/')} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
