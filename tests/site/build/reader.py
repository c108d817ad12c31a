"""A reader's own Python: a fresh venv with its network off (an audit hook), numpy repacked from the installed one
(:func:`repacked`), pip without the machine's settings, and a Jupyter kernel spec on that Python (:func:`kernel_spec`)
seeing the kernel's and the model's packages after its own (:func:`kernel_overlay`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from collections.abc import Iterable, Mapping
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from attnlab.bert import MODEL_PACKAGE
from attnlab.site.build.notebooks import MODEL_NEEDS
from attnlab.site.build.wheel import record_line

GUARD_MODULE = "attnlab_tests_network_off"
GUARD = '''"""Written by the tests: the network is off here; only this machine can be reached."""
import sys

LOCAL = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


def _local(host):
    if isinstance(host, bytes):
        host = host.decode()
    return host is None or host in LOCAL or str(host).startswith("127.")


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


def site_packages(root: Path) -> Path:
    """The ``site-packages`` folder of the virtual environment at ``root``."""
    return root / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"


def fresh_venv(root: Path) -> Path:
    """A new virtual environment at ``root`` (pip, no other package) with its network off; its Python."""
    venv.EnvBuilder(with_pip=True).create(root)
    packages = site_packages(root)
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


def overlay(folder: Path, distributions: Iterable[metadata.Distribution]) -> Path:
    """A folder of links to the top-level modules and ``.dist-info`` of ``distributions``; ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for distribution in distributions:
        root = Path(str(distribution.locate_file("")))
        for top in sorted({file.parts[0] for file in distribution.files or []
                           if file.parts[0] not in ("..", "__pycache__") and not file.parts[0].endswith(".pth")}):
            if not (folder / top).exists() and (root / top).exists():
                (folder / top).symlink_to(root / top)
    return folder


def kernel_overlay(folder: Path) -> Path:
    """What a notebook's kernel sees after the fresh venv: the kernel's packages, the model's readers and
    the model's package (without its dependencies, as the notebooks say to install it)."""
    needed = {**closure(KERNEL_NEEDS), **closure(MODEL_NEEDS)}
    needed = {name: d for name, d in needed.items() if name not in ("numpy", "attnlab")}
    return overlay(folder, [*needed.values(), metadata.distribution(MODEL_PACKAGE)])


LAUNCH = "import sys; sys.path.append({overlay!r}); from ipykernel import kernelapp; kernelapp.launch_new_instance()"


def kernel_spec(folder: Path, python: Path, extra: Path, name: str = "reader") -> Path:
    """A Jupyter kernel spec ``name`` in ``folder`` running ``python``, with ``extra`` appended to its path."""
    spec = folder / name
    spec.mkdir(parents=True, exist_ok=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-c", LAUNCH.format(overlay=str(extra)), "-f", "{connection_file}"],
        "display_name": "the reader's Python", "language": "python"}), encoding="utf-8")
    return folder


def run(python: Path, code: str, cwd: Path, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``code`` with ``python`` in isolated mode (no current folder, no ``PYTHON*`` variables) in ``cwd``."""
    return subprocess.run([str(python), "-I", "-c", code], check=False, cwd=cwd, env=dict(env or reader_environment()),
                          capture_output=True, text=True, timeout=300)
