"""From the unzipped offline copy, with the network off, in a fresh venv (``reader.py``): the copy's install line
installs ``attnlab``, and each chapter's notebooks run in a kernel there, each cell's numbers the page's."""

from __future__ import annotations

import json
import pkgutil
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from page_blocks import blocks, numbers, source_blocks
from reader import (
    fresh_venv,
    kernel_overlay,
    kernel_spec,
    reader_environment,
    repacked,
    run,
)
from sites import DOCS, guide

import attnlab
from attnlab.site.build.wheel import LEFT_OUT
from attnlab.site.pages.blocks import HIDE, shown_part
from attnlab.site.pages.running import answers_path, install_command, notebook_path

GUIDE = guide()


@pytest.fixture(scope="session")
def reader_python(offline_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh Python with the network off, ``attnlab`` installed from the offline copy by its install line."""
    root = tmp_path_factory.mktemp("reader")
    python = fresh_venv(root / "venv")
    wheels = root / "wheels"
    repacked("numpy", wheels)
    command = [str(python), "-m", *install_command().split(), "--no-index", "--find-links", str(wheels)]
    result = subprocess.run(
        command, check=False, cwd=offline_copy, env=reader_environment(), capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}"
    return python


def test_the_wheel_brings_attnlab_and_only_numpy_every_module_importing_and_the_site_left_out(
        reader_python: Path, tmp_path: Path) -> None:
    result = run(reader_python, "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/numpy/')",
                 tmp_path)
    assert "the network is off in this test: no look-up of 'pypi.org'" in result.stderr
    result = run(reader_python, "import json, importlib.metadata as m, attnlab; print(json.dumps(["
                                "attnlab.__file__, m.requires('attnlab'), sorted(d.metadata['Name'] for d in "
                                "m.distributions())]))", tmp_path)
    where, requires, installed = json.loads(result.stdout)
    assert Path(where).is_relative_to(reader_python.parent.parent)
    assert requires == ["numpy>=2"]
    assert sorted(set(installed) - {"pip", "setuptools"}) == ["attnlab", "numpy"]
    modules = sorted(m.name for m in pkgutil.walk_packages(attnlab.__path__, "attnlab.")
                     if not m.name.startswith(f"attnlab.{LEFT_OUT}"))
    result = run(reader_python, f"import importlib\nfor name in {modules!r}:\n    importlib.import_module(name)",
                 tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert "ModuleNotFoundError: No module named 'attnlab.site'" in run(reader_python, "import attnlab.site",
                                                                         tmp_path).stderr


def test_the_readers_companion_prints_what_the_builds_prints(reader_python: Path, tmp_path: Path) -> None:
    companion = subprocess.run([str(reader_python.parent / "attnlab")], check=False, cwd=tmp_path,
                               env=reader_environment(), capture_output=True, text=True, timeout=120)
    here = subprocess.run([sys.executable, "-m", "attnlab"], check=False, capture_output=True, text=True, timeout=120)
    assert (companion.returncode, companion.stdout) == (0, here.stdout)


# --- the notebooks ---------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def reader_kernels(reader_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of kernel specs holding ``reader``: the reader's Python, seeing the kernel's own packages after its
    own."""
    root = tmp_path_factory.mktemp("kernels")
    return kernel_spec(root / "specs", reader_python, kernel_overlay(root / "overlay"))


def executed(notebook: Path, kernels: Path, home: Path) -> nbformat.NotebookNode:
    """``notebook`` run top to bottom in the reader's kernel, over local sockets, in its own folder."""
    cells = nbformat.read(notebook, as_version=4)
    manager = KernelManager(kernel_name="reader", kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]),
                            transport="ipc", ip=str(home / "kernel"))  # Unix sockets, named from an absolute path
    client = NotebookClient(cells, km=manager, timeout=600, resources={"metadata": {"path": str(notebook.parent)}})
    client.execute(env={**reader_environment(), "IPYTHONDIR": str(home / "ipython"), "HOME": str(home)})
    return cells


@dataclass(frozen=True)
class Compared:
    """How many numbers a notebook's cells printed or displayed, and a line per cell disagreeing with its page."""

    numbers: int
    disagreeing: tuple[str, ...]


def shown_by(cell: nbformat.NotebookNode) -> str:
    """What a code cell printed, then what it displayed (its last expression's value, as Jupyter shows it)."""
    return "".join(o.get("text", "") if o.get("name") == "stdout" else o.get("data", {}).get("text/plain", "")
                   for o in cell.get("outputs", []))


def displayed_numbers(text: str) -> list[str]:
    """The numbers in a cell's output, leaving out digits inside names (``float64``, ``dtype=int32``)."""
    return numbers(re.sub(r"\b[A-Za-z_]\w*", " ", text))


def rounds_to(ran: str, shown: str) -> bool:
    """Whether the number ``ran`` (full precision) is ``shown`` as the page rounds it, to ``shown``'s decimals."""
    mantissa, exponent, _ = shown.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return float(f"{float(ran):.{decimals}{'e' if exponent else 'f'}}") == float(shown)


def compared(cells: nbformat.NotebookNode, copy: Path) -> Compared:
    """Each code cell's numbers against its block's on the page in ``copy``: exactly the page's, or, where hidden
    lines print the page's result, one of them rounded as the page rounds (a cell showing nothing disagrees)."""
    count, disagreeing = 0, []
    for number, cell in enumerate(cells.cells, start=1):
        place = cell.metadata.get("attnlab", {}).get("block", "")
        if not place:
            continue
        page, _, line = place.removeprefix(f"{DOCS.name}/").rpartition(":")
        code = source_blocks(DOCS / page)[int(line)].code
        hidden = HIDE in [row.strip() for row in code.split("\n")]
        printed = shown_by(cell)
        if hidden and not printed.strip():
            disagreeing.append(f"cell {number} ({place}): shows nothing, where its page shows a result")
        ran = displayed_numbers(printed) if hidden else numbers(printed)
        if not printed or (hidden and not ran):
            continue
        block = blocks(copy / page.replace(".md", ".html"))[f"block-{line}"]
        if hidden:  # each piece of text apart (a figure's labels touch), 1,048,576 as one number
            text = re.sub(r"(?<=\d),(?=\d{3})", "", " ".join(text for listing, text in block.pieces if not listing))
        shown = numbers(text if hidden else block.text(shown_part(code)))
        if not (any(rounds_to(n, m) for n in ran for m in shown) if hidden else ran == shown):
            disagreeing.append(f"cell {number} ({place}): showed {ran[:12]}, the page shows {shown[:12]}")
        count += len(ran)
    return Compared(count, tuple(disagreeing))


@pytest.mark.parametrize("path", GUIDE.chapters)
def test_each_chapters_notebooks_run_in_the_readers_python_and_print_the_pages_numbers(
        path: str, offline_copy: Path, reader_kernels: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    found = {name: compared(executed(offline_copy / name, reader_kernels, tmp_path_factory.mktemp("notebook")),
                            offline_copy) for name in (notebook_path(path), answers_path(path))}
    assert {name: c.disagreeing for name, c in found.items() if c.disagreeing} == {}
    assert sum(c.numbers for c in found.values()) > 0, f"{path}: no cell of its notebooks prints a number"
