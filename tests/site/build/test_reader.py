"""From the unzipped offline copy, with the network off (an audit hook), in a fresh venv whose numpy is repacked
from the installed one: the copy's install line installs ``attnlab``, and each chapter's notebooks run in a kernel
on that Python (seeing the kernel's and the model's packages after its own), each cell's numbers the page's."""

from __future__ import annotations

import json
import os
import pkgutil
import re
import subprocess
import sys
import venv
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from page_blocks import blocks, numbers, source_blocks
from sites import DOCS, companion, guide

import attnlab
from attnlab.bert import MODEL_PACKAGE
from attnlab.site.build.notebooks import MODEL_NEEDS
from attnlab.site.build.wheel import LEFT_OUT, record_line
from attnlab.site.pages.blocks import HIDE, shown_part
from attnlab.site.pages.running import answers_path, install_command, notebook_path

GUIDE = guide()
GUARD_MODULE = "attnlab_tests_network_off"
GUARD = '''"""Written by the tests: the network is off here; only this machine can be reached."""
import sys


def _local(host):
    host = host.decode() if isinstance(host, bytes) else host
    return host is None or host in ("localhost", "::1", "0.0.0.0") or str(host).startswith("127.")


def _guard(event, args):
    if event in ("socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex") and not _local(args[0]):
        raise OSError(f"the network is off in this test: no look-up of {args[0]!r}")
    if event in ("socket.connect", "socket.sendto") and isinstance(args[1], tuple) and not _local(args[1][0]):
        raise OSError(f"the network is off in this test: no connection to {args[1][0]!r}")


sys.addaudithook(_guard)
'''
"""The guard every process of the fresh venv loads (a ``.pth`` line imports it)."""
INSTALLED_ONLY = {"INSTALLER", "REQUESTED", "RECORD", "direct_url.json"}
"""What pip writes into a ``.dist-info`` when it installs, not part of a wheel."""
KERNEL_NEEDS = ("ipykernel",)
BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""The variables that set how many threads numpy's BLAS starts."""


def fresh_venv(root: Path) -> Path:
    """A new virtual environment at ``root`` (pip, no other package) with its network off; its Python."""
    venv.EnvBuilder(with_pip=True).create(root)
    packages = root / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    (packages / f"{GUARD_MODULE}.py").write_text(GUARD, encoding="utf-8")
    (packages / f"{GUARD_MODULE}.pth").write_text(f"import {GUARD_MODULE}\n", encoding="utf-8")
    return root / "bin" / "python"


def reader_environment() -> dict[str, str]:
    """The tests' environment without pip's settings or ``PYTHONPATH`` (a kernel would import the tree's attnlab,
    not the wheel's), numpy on one BLAS thread as the build computes (with more, a number at the level of
    rounding comes out in another last digit)."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith("PIP_") and k != "PYTHONPATH"},
            "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **{name: "1" for name in BLAS_THREADS}}


def wheel_file_name(distribution: metadata.Distribution) -> str:
    """The wheel file name for an installed ``distribution``, its tags from its ``WHEEL`` file."""
    tags = [line.split(":", 1)[1].strip() for line in (distribution.read_text("WHEEL") or "").splitlines()
            if line.startswith("Tag:")]
    parts = [sorted({tag.split("-")[i] for tag in tags}) for i in range(3)]
    name = canonicalize_name(distribution.metadata["Name"]).replace("-", "_")
    return f"{name}-{distribution.version}-" + "-".join(".".join(part) for part in parts) + ".whl"


def repacked(name: str, folder: Path) -> Path:
    """The installed distribution ``name`` packed back into a stored wheel in ``folder`` (its files but scripts,
    caches and what pip added; a ``RECORD`` of its own); the wheel's path."""
    distribution = metadata.distribution(name)
    root = Path(str(distribution.locate_file("")))
    kept = [file for file in distribution.files or []
            if file.parts[0] != ".." and "__pycache__" not in file.parts
            and not (file.parts[0].endswith(".dist-info") and len(file.parts) == 2 and file.name in INSTALLED_ONLY)]
    info = next(file.parts[0] for file in kept if file.parts[0].endswith(".dist-info"))
    target = folder / wheel_file_name(distribution)
    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as wheel:
        record = []
        for file in kept:
            data = (root / file).read_bytes()
            wheel.writestr(file.as_posix(), data)
            record.append(record_line(file.as_posix(), data))
        wheel.writestr(f"{info}/RECORD", "\n".join([*record, f"{info}/RECORD,,"]) + "\n")
    return target


def closure(roots: Iterable[str]) -> dict[str, metadata.Distribution]:
    """The installed distributions ``roots`` need, themselves included, by normalised name (requirements whose
    marker does not hold here left out)."""
    found: dict[str, metadata.Distribution] = {}
    waiting = [(root, frozenset()) for root in roots]
    while waiting:
        name, extras = waiting.pop()
        if canonicalize_name(name) in found:
            continue
        distribution = metadata.distribution(name)
        found[canonicalize_name(name)] = distribution
        for line in distribution.requires or []:
            requirement = Requirement(line)
            if requirement.marker is None or any(requirement.marker.evaluate({"extra": extra})
                                                 for extra in extras | {""}):
                waiting.append((requirement.name, frozenset(requirement.extras)))
    return found


def kernel_overlay(folder: Path) -> Path:
    """A folder of links to what a notebook's kernel sees after the fresh venv (top-level modules and
    ``.dist-info``): the kernel's packages, the model's readers and the model's package (without its dependencies,
    as the notebooks say to install it); ``folder``."""
    needed = {**closure(KERNEL_NEEDS), **closure(MODEL_NEEDS)}
    needed = {name: d for name, d in needed.items() if name not in ("numpy", "attnlab")}
    folder.mkdir(parents=True, exist_ok=True)
    for distribution in [*needed.values(), metadata.distribution(MODEL_PACKAGE)]:
        root = Path(str(distribution.locate_file("")))
        for top in sorted({file.parts[0] for file in distribution.files or []
                           if file.parts[0] not in ("..", "__pycache__") and not file.parts[0].endswith(".pth")}):
            if not (folder / top).exists() and (root / top).exists():
                (folder / top).symlink_to(root / top)
    return folder


LAUNCH = "import sys; sys.path.append({overlay!r}); from ipykernel import kernelapp; kernelapp.launch_new_instance()"


def run(python: Path, code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with ``python`` in isolated mode (no current folder, no ``PYTHON*`` variables) in ``cwd``."""
    return subprocess.run([str(python), "-I", "-c", code], check=False, cwd=cwd, env=reader_environment(),
                          capture_output=True, text=True, timeout=300)


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


def test_the_wheel_brings_attnlab_and_only_numpy_and_every_module_imports(
        reader_python: Path, tmp_path: Path) -> None:
    result = run(reader_python, "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/numpy/')",
                 tmp_path)
    assert "the network is off in this test: no look-up of 'pypi.org'" in result.stderr
    result = run(reader_python, "import json, importlib.metadata as m, attnlab; print(json.dumps(["
                                "attnlab.__file__, sorted(d.metadata['Name'] for d in m.distributions())]))", tmp_path)
    where, installed = json.loads(result.stdout)  # what the wheel requires and holds: test_wheel.py
    assert Path(where).is_relative_to(reader_python.parent.parent)
    assert sorted(set(installed) - {"pip", "setuptools"}) == ["attnlab", "numpy"]
    modules = sorted(m.name for m in pkgutil.walk_packages(attnlab.__path__, "attnlab.")
                     if not m.name.startswith(f"attnlab.{LEFT_OUT}"))
    result = run(reader_python, f"import importlib\nfor name in {modules!r}:\n    importlib.import_module(name)",
                 tmp_path)
    assert (result.returncode, result.stderr) == (0, "")


def test_the_readers_companion_prints_what_the_builds_prints(reader_python: Path, tmp_path: Path) -> None:
    readers = subprocess.run([str(reader_python.parent / "attnlab")], check=False, cwd=tmp_path,
                             env=reader_environment(), capture_output=True, text=True, timeout=120)
    assert (readers.returncode, readers.stdout) == (0, companion())


@pytest.fixture(scope="session")
def reader_kernels(reader_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of kernel specs holding ``reader``: the reader's Python, seeing the kernel's own packages after its
    own."""
    root = tmp_path_factory.mktemp("kernels")
    (root / "specs" / "reader").mkdir(parents=True)
    (root / "specs" / "reader" / "kernel.json").write_text(json.dumps({
        "argv": [str(reader_python), "-c", LAUNCH.format(overlay=str(kernel_overlay(root / "overlay"))), "-f",
                 "{connection_file}"], "display_name": "the reader's Python", "language": "python"}), encoding="utf-8")
    return root / "specs"


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
            text = re.sub(r"(?<=\d),(?=\d{3})", "", " ".join(text for listing, text in block if not listing))
        else:  # the block's text without the listing of the code the notebook ran
            text = "".join(bit for listing, bit in block if not listing or bit.strip() != shown_part(code).strip())
        shown = numbers(text)
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
