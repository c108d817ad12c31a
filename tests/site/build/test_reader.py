"""From the unzipped offline copy, with the network off: the wheel installs, and every notebook runs and agrees.

A fresh virtual environment stands for the reader's Python (``reader.py``
says how it is made, its network turned off, and where numpy comes from).
In it the offline copy's own install line, ``pip install
attnlab-<version>-py3-none-any.whl`` run in the copy's folder, installs
``attnlab`` with pip's index disabled; then an exercise's code runs there,
and each chapter's notebook and its answers run top to bottom with nbclient
in a kernel on that Python, each code cell's printed numbers compared with
what the page shows for the same block.
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from page_blocks import blocks, is_subsequence, numbers
from reader import (
    fresh_venv,
    kernel_overlay,
    kernel_spec,
    pip_environment,
    repacked,
    run,
)
from sites import DOCS, read_config

import attnlab
from attnlab.site.build.wheel import LEFT_OUT
from attnlab.site.pages import practice
from attnlab.site.pages.blocks import HIDE
from attnlab.site.pages.guide import Guide
from attnlab.site.pages.page import nav_pages
from attnlab.site.pages.running import answers_path, install_command, notebook_path

GUIDE = Guide.read(DOCS, tuple(nav_pages(read_config()["nav"])))
NOTEBOOKS = [name for path in GUIDE.chapters for name in (notebook_path(path), answers_path(path))]


@pytest.fixture(scope="session")
def reader_python(offline_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh Python with the network off, ``attnlab`` installed from the offline copy by its install line."""
    root = tmp_path_factory.mktemp("reader")
    python = fresh_venv(root / "venv")
    wheels = root / "wheels"
    repacked("numpy", wheels)
    command = [str(python), "-m", *install_command().split(), "--no-index", "--find-links", str(wheels)]
    result = subprocess.run(command, cwd=offline_copy, env=pip_environment(), capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}"
    return python


def test_the_network_is_off_in_the_readers_python(reader_python: Path, tmp_path: Path) -> None:
    result = run(reader_python, "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/numpy/')",
                 tmp_path)
    assert "the network is off in this test: no look-up of 'pypi.org'" in result.stderr


def test_the_wheel_brings_attnlab_and_only_numpy(reader_python: Path, tmp_path: Path) -> None:
    result = run(reader_python, "import json, importlib.metadata as m, attnlab; print(json.dumps(["
                                "attnlab.__file__, m.requires('attnlab'), sorted(d.metadata['Name'] for d in "
                                "m.distributions())]))", tmp_path)
    where, requires, installed = json.loads(result.stdout)
    assert Path(where).is_relative_to(reader_python.parent.parent)
    assert requires == ["numpy>=2"]
    assert sorted(set(installed) - {"pip", "setuptools"}) == ["attnlab", "numpy"]


def maths_modules() -> list[str]:
    """Every module of ``attnlab`` but the site's machinery, by its dotted name."""
    return sorted(m.name for m in pkgutil.walk_packages(attnlab.__path__, "attnlab.")
                  if not m.name.startswith(f"attnlab.{LEFT_OUT}"))


def test_every_module_in_the_wheel_imports_with_numpy_alone(reader_python: Path, tmp_path: Path) -> None:
    result = run(reader_python, f"import importlib\nfor name in {maths_modules()!r}:\n    importlib.import_module(name)",
                 tmp_path)
    assert (result.returncode, result.stderr) == (0, "")


def test_the_wheel_leaves_the_sites_machinery_out(reader_python: Path, tmp_path: Path) -> None:
    result = run(reader_python, "import attnlab.site", tmp_path)
    assert "ModuleNotFoundError: No module named 'attnlab.site'" in result.stderr


def test_the_readers_companion_prints_what_the_builds_prints(reader_python: Path, tmp_path: Path) -> None:
    companion = subprocess.run([str(reader_python.parent / "attnlab")], cwd=tmp_path, env=pip_environment(),
                               capture_output=True, text=True, timeout=120)
    here = subprocess.run([sys.executable, "-m", "attnlab"], capture_output=True, text=True, timeout=120)
    assert (companion.returncode, companion.stdout) == (0, here.stdout)


def python_exercise() -> tuple[str, str, str]:
    """The first exercise in Python of the guide: its chapter, its answer's shown code and that block's line."""
    for path in GUIDE.chapters:
        source = (DOCS / path).read_text(encoding="utf-8")
        for exercise in practice.exercises(source, path):
            for block in practice.FENCED.finditer(exercise.body) if exercise.python else ():
                if "source=" in block["head"] and 'exec="on"' in block["head"]:
                    code = "\n".join(line.removeprefix(block["indent"]) for line in block["code"].split("\n"))
                    line = exercise.line + exercise.body[:block.start()].count("\n") + 1
                    return path, code, str(line)
    raise AssertionError("no chapter has an exercise in Python with its code shown")


def test_an_exercises_code_runs_in_the_readers_python_and_prints_the_pages_numbers(
        reader_python: Path, offline_copy: Path) -> None:
    path, code, line = python_exercise()
    result = run(reader_python, code, offline_copy)
    assert result.returncode == 0, result.stderr
    shown = blocks(offline_copy / path.replace(".md", ".html"))[f"block-{line}"].text(leaving_out=code)
    assert numbers(result.stdout) == numbers(shown) != []


# --- the notebooks ---------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def reader_kernels(reader_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of kernel specs holding ``reader``: the reader's Python, seeing the kernel's own packages after its own."""
    root = tmp_path_factory.mktemp("kernels")
    return kernel_spec(root / "specs", reader_python, kernel_overlay(root / "overlay"))


def executed(notebook: Path, kernels: Path, home: Path) -> nbformat.NotebookNode:
    """``notebook`` run top to bottom in the reader's kernel, over local sockets, in its own folder."""
    cells = nbformat.read(notebook, as_version=4)
    manager = KernelManager(kernel_name="reader", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]),
                            transport="ipc", ip=str(home / "kernel"))  # Unix sockets, named from an absolute path
    client = NotebookClient(cells, km=manager, timeout=600, resources={"metadata": {"path": str(notebook.parent)}})
    client.execute(env={**pip_environment(), "IPYTHONDIR": str(home / "ipython"), "HOME": str(home)})
    return cells


def block_source(page: str, line: int) -> str:
    """The whole source of the executed block at ``line`` of ``docs/page`` (its hidden lines included)."""
    source = (DOCS / page).read_text(encoding="utf-8")
    offset = len("\n".join(source.split("\n")[:line - 1]))
    found = practice.FENCED.search(source, offset)
    assert found is not None and source.count("\n", 0, found.start()) + 1 == line, f"no block at {page}:{line}"
    return found["code"]


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_every_notebook_runs_in_the_readers_python_and_prints_the_pages_numbers(
        name: str, offline_copy: Path, reader_kernels: Path, tmp_path: Path) -> None:
    cells = executed(offline_copy / name, reader_kernels, tmp_path)
    compared, disagreeing = 0, []
    for number, cell in enumerate(cells.cells, start=1):
        place = cell.metadata.get("attnlab", {}).get("block", "")
        printed = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("name") == "stdout")
        if not place or not printed:
            continue
        page, line = place.removeprefix(f"{DOCS.name}/"), int(place.rpartition(":")[2])
        shown = numbers(blocks(offline_copy / page.replace(".md", ".html"))[f"block-{line}"].text(cell.source))
        ran = numbers(printed)
        hidden = any(l.strip() == HIDE for l in block_source(page, line).split("\n"))
        if not (is_subsequence(ran, shown) if hidden else ran == shown):
            disagreeing.append(f"cell {number} ({place}): printed {ran[:12]}, the page shows {shown[:12]}")
        compared += len(ran)
    assert disagreeing == []
    shows_code = any(c.cell_type == "code" and c.metadata.get("attnlab") for c in cells.cells)
    assert compared or not shows_code, f"{name}: its cells print no number, so none is compared with the page"
