"""The two houses: ``attnlab`` is the maths (numpy only), ``attnlab.site`` the machinery that builds the guide."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from sites import ROOT

PACKAGE = ROOT / "attnlab"


def imported_modules(path: Path) -> set[str]:
    """The modules a source file imports, by absolute name."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found |= {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_no_maths_module_imports_the_site_machinery() -> None:
    upward = {p.name: sorted(m for m in imported_modules(p) if m.startswith("attnlab.site"))
              for p in sorted(PACKAGE.glob("*.py"))}
    assert {name: found for name, found in upward.items() if found} == {}


def test_importing_attnlab_loads_no_site_module() -> None:
    probe = "import sys, attnlab; print(sorted(m for m in sys.modules if m.startswith('attnlab.site')))"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


def test_the_site_machinery_has_no_import_cycle() -> None:
    site = {f"attnlab.site.{p.stem}": imported_modules(p) for p in (PACKAGE / "site").glob("*.py")}
    edges = {name: {m for m in found if m in site} for name, found in site.items()}

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})) for nxt in edges[start])

    assert [name for name in edges if reaches(name, name)] == []
