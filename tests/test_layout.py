"""The two houses: ``attnlab`` is the maths (numpy only), ``attnlab.site`` the machinery that builds the guide."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from sites import ROOT

PACKAGE = ROOT / "attnlab"


def imports(path: Path) -> set[tuple[str, str]]:
    """(module, name bound) of each import in a source file, by absolute name: ``import a.b`` binds ``a``, ``from a
    import b`` imports ``a`` (binding nothing) and ``a.b`` (binding ``b``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {(a.name, a.asname or a.name.split(".")[0]) for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {(node.module, "")} | {(f"{node.module}.{a.name}", a.asname or a.name) for a in node.names}
    return found


def module_name(path: Path) -> str:
    """The dotted name of a module file: ``attnlab/site/pages/guide.py`` → ``attnlab.site.pages.guide``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


LAYERS = ("", "site", "pages", "figures", "build")  # the maths, then attnlab.site's: each imports only from earlier


def layer(module: str) -> int:
    """Where an ``attnlab`` module sits in :data:`LAYERS` (a package's own ``__init__`` with it)."""
    parts = module.split(".")
    return 0 if parts[1:2] != ["site"] else LAYERS.index(parts[2] if len(parts) > 2 else "site")


def upward_imports(modules: dict[str, set[str]]) -> list[str]:
    """Each ``importer -> imported`` in ``modules`` (a module's imports, by name) going up :data:`LAYERS`."""
    return sorted(f"{name} -> {found}" for name, imports in modules.items()
                  for found in imports if found in modules and layer(found) > layer(name))


def test_attnlab_imports_one_way_maths_then_the_site_pages_figures_and_build() -> None:
    modules = {module_name(p): {module for module, _ in imports(p)} for p in PACKAGE.rglob("*.py")}
    assert {LAYERS[layer(name)] for name in modules} == set(LAYERS)
    assert upward_imports(modules) == []
    probe = {"attnlab.site.pages.a": {"attnlab.site.build.b"}, "attnlab.site.build.b": {"attnlab.site.pages.a"},
             "attnlab.lab": {"attnlab.site"}, "attnlab.site": set()}
    assert upward_imports(probe) == ["attnlab.lab -> attnlab.site", "attnlab.site.pages.a -> attnlab.site.build.b"]


PATH = re.compile(r"(?<![\w/.-])((?:attnlab|tests|docs|benchmarks|scripts|overrides|\.ci)/[\w./-]*\w/?)")


def missing_paths(text: str) -> list[str]:
    """The repository paths ``text`` names that do not exist."""
    return sorted({p for p in PATH.findall(text) if not (ROOT / p).exists()})


def test_readme_and_contributing_name_only_paths_that_exist() -> None:
    named = {name: missing_paths((ROOT / name).read_text(encoding="utf-8"))
             for name in ("README.md", "CONTRIBUTING.md")}
    assert named == {"README.md": [], "CONTRIBUTING.md": []}
    assert missing_paths("See `tests/site/gone.py`, tests/sites.py and docs/<page>.md.") == ["tests/site/gone.py"]


THIRD_PARTY = ("markdown", "mkdocs", "markdown_exec", "mkdocstrings", "mkdocs_autorefs", "material", "pymdownx")


def root_name(node: ast.expr) -> str | None:
    """The name an attribute chain starts from: ``a.b.c`` → ``a``."""
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def patches(path: Path) -> list[str]:
    """Each place in ``path`` assigning to an attribute of a third-party thing it imported: ``path:line: what``."""
    names = {name for module, name in imports(path) if name and module.split(".")[0] in THIRD_PARTY}
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        targets = (node.targets if isinstance(node, ast.Assign) else [node.target]
                   if isinstance(node, ast.AugAssign | ast.AnnAssign) else [])
        for target in targets:
            if isinstance(target, ast.Attribute) and root_name(target) in names:
                found.append(f"{path}:{node.lineno}: assigns {ast.unparse(target)}")
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr")
                and node.args and root_name(node.args[0]) in names):
            found.append(f"{path}:{node.lineno}: calls {node.func.id} on {ast.unparse(node.args[0])}")
    return found


def test_no_file_assigns_to_an_attribute_of_a_library_the_guide_builds_with(tmp_path: Path) -> None:
    assert [p for path in sorted(PACKAGE.rglob("*.py")) for p in patches(path)] == []
    probe = tmp_path / "probe.py"
    probe.write_text("import markdown_exec\nfrom mkdocs.structure.pages import Page\n"
                     "markdown_exec.MarkdownConverter.counter += 1\nPage.render = None\nsetattr(Page, 'x', 1)\n",
                     encoding="utf-8")
    assert [line.split(": ", 1)[1] for line in patches(probe)] == [
        "assigns markdown_exec.MarkdownConverter.counter", "assigns Page.render", "calls setattr on Page"]


CALL_STACK = ("_getframe", "currentframe", "inspect.stack", "f_back", "f_code")


def test_nothing_reads_the_call_stack() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
             for path in sorted(PACKAGE.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if any(word in line for word in CALL_STACK)]
    assert found == []


def test_every_benchmark_imports() -> None:
    # benchmarks are run by hand, not by the suite: an import a change to tests/ broke would go unseen
    names = sorted(f"benchmarks.{p.stem}" for p in ROOT.glob("benchmarks/*.py") if p.stem != "__init__")
    probe = "import importlib, sys; [importlib.import_module(name) for name in sys.argv[1:]]"
    result = subprocess.run([sys.executable, "-c", probe, *names], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
