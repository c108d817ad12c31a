"""The ``attnlab`` wheel in the site: ``attnlab-<version>-py3-none-any.whl``, beside the pages.

A reader who has the site, or its offline copy, installs the maths the
pages ran with one line and no network: ``pip install
attnlab-0.1.0-py3-none-any.whl`` (numpy is its only dependency, so with no
network pip takes the numpy that Python already has).

What it holds is the maths a reader imports: every module of ``attnlab/``
but ``attnlab/site/``, and its ``py.typed``. The site's machinery needs MkDocs, Python-Markdown
and latex2mathml (``attnlab.site.figures.tables`` alone imports
``attnlab.site.pages``), so shipped in a numpy-only wheel it would fail to
import; leaving it out keeps ``import attnlab`` and every module in the
wheel working with numpy alone, which the tests check in a fresh virtual
environment. The modules are taken from the ``attnlab`` the build runs
(the code that computed the pages' numbers), the project's facts (summary,
licence, Python and numpy requirements, the ``attnlab`` command) from its
installed metadata, which ``pyproject.toml`` made: nothing is written twice.

The wheel is written here with :mod:`zipfile` rather than by a standard
builder: setuptools builds in a temporary copy of the project, puts
``attnlab/site/`` in (the project's one package list), stamps files with
their modification times and needs its build backend, which pip fetches
from the network unless told otherwise. Written here it is deterministic:
entries in a fixed order (the package's modules sorted, then the
``.dist-info`` files, ``RECORD`` last, as the wheel format advises),
every timestamp the build date (``SOURCE_DATE_EPOCH`` honoured), fixed
permissions: the same sources and date give the same bytes.
``RECORD`` lists each file with its SHA-256 and size, as pip expects.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

import attnlab
from attnlab.site.build.zips import dated_zip
from attnlab.site.pages.provenance import build_date
from attnlab.site.pages.published import NAME, TAG, wheel_name

LEFT_OUT = "site"
"""The subpackage of ``attnlab`` the wheel leaves out: the guide's build machinery."""
GENERATOR = "attnlab.site.build.wheel"
COPIED = ("Summary", "License-Expression", "Requires-Python")
"""The installed metadata's fields the wheel's METADATA carries as they are."""
LICENCE = "LICENSE"
TYPED = "py.typed"
DATA = "data"
"""The package's data folder: the small decoder's files, which the wheel carries."""
"""PEP 561's marker: the package carries type hints."""
EXTRA = re.compile(r"\bextra\s*==")
"""A requirement's marker that ties it to an extra."""


def modules(package: Path) -> dict[str, bytes]:
    """Every module of the package folder ``package`` but those under ``site/``, by path in the wheel, sorted.

    Only ``.py`` files go in (no ``__pycache__``), the ``py.typed`` marker
    that tells type checkers the package has type hints, and the files under ``data/``
    (the small decoder that ``attnlab.decoder.load()`` reads).
    """
    found = {f"{NAME}/{path.relative_to(package).as_posix()}": path.read_bytes()
             for path in package.rglob("*")
             if (path.suffix == ".py" or path.name == TYPED or path.relative_to(package).parts[0] == DATA)
             and path.is_file() and path.relative_to(package).parts[0] != LEFT_OUT and "__pycache__" not in path.parts}
    return dict(sorted(found.items()))


def requirements(distribution: metadata.Distribution) -> list[str]:
    """What the package itself requires: the ``Requires-Dist`` lines with no extra (the guide's build, tests)."""
    return [line for line in distribution.requires or [] if not EXTRA.search(line.partition(";")[2])]


def metadata_text(distribution: metadata.Distribution, version: str) -> str:
    """The wheel's ``METADATA`` (core metadata 2.4, as setuptools writes): name, version, the copied fields,
    the licence file, the requirements, and the package's docstring as its description.

    Raises ``ValueError`` naming a field the installed metadata lacks.
    """
    fields = distribution.metadata
    missing = [field for field in COPIED if field not in fields]
    if missing:
        raise ValueError(f"the installed attnlab's metadata has no {', '.join(missing)}: reinstall it "
                         "(pip install -e .) so the wheel can say what it is")
    lines = ["Metadata-Version: 2.4", f"Name: {NAME}", f"Version: {version}",
             *(f"{field}: {fields[field]}" for field in COPIED),
             "Description-Content-Type: text/plain", f"License-File: {LICENCE}",
             *(f"Requires-Dist: {line}" for line in requirements(distribution))]
    return "\n".join(lines) + "\n\n" + (attnlab.__doc__ or "").strip() + "\n"


def entry_points_text(distribution: metadata.Distribution) -> str:
    """``entry_points.txt``: the console scripts whose code the wheel holds (the ``attnlab`` command)."""
    scripts = sorted((point.name, point.value) for point in distribution.entry_points
                     if point.group == "console_scripts" and not point.module.startswith(f"{NAME}.{LEFT_OUT}"))
    return "[console_scripts]\n" + "".join(f"{name} = {value}\n" for name, value in scripts)


def wheel_text() -> str:
    """The ``WHEEL`` file: format version, who wrote it, pure Python, the one tag."""
    return f"Wheel-Version: 1.0\nGenerator: {GENERATOR}\nRoot-Is-Purelib: true\nTag: {TAG}\n"


def record_line(path: str, data: bytes) -> str:
    """One line of ``RECORD``: the path, ``sha256=`` and the URL-safe base64 digest without padding, the size."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def licence_text(distribution: metadata.Distribution) -> str:
    """The licence the metadata's ``License-File`` names: inside a ``.dist-info`` (``licenses/LICENSE``), or
    beside the project's ``.egg-info`` (where a checkout puts it for ``pip install -e``).

    Raises ``ValueError`` when neither holds it.
    """
    inside = distribution.read_text(f"licenses/{LICENCE}")
    if inside is not None:
        return inside
    beside = Path(str(distribution.locate_file(LICENCE)))
    if beside.is_file():
        return beside.read_text(encoding="utf-8")
    raise ValueError(f"the installed attnlab's metadata holds no {LICENCE}: reinstall it (pip install -e .)")


def contents(package: Path, distribution: metadata.Distribution, version: str) -> dict[str, bytes]:
    """Everything the wheel holds, in its order: the modules, then ``.dist-info`` with ``RECORD`` last."""
    info = f"{NAME}-{version}.dist-info"
    licence = licence_text(distribution)
    files: dict[str, bytes] = {**modules(package), **{f"{info}/{name}": text.encode() for name, text in (
        ("METADATA", metadata_text(distribution, version)), ("WHEEL", wheel_text()),
        ("entry_points.txt", entry_points_text(distribution)), (f"licenses/{LICENCE}", licence))}}
    record = "".join(record_line(path, data) + "\n" for path, data in files.items()) + f"{info}/RECORD,,\n"
    return {**files, f"{info}/RECORD": record.encode()}


def wheel(entries: Mapping[str, bytes], date: str) -> bytes:
    """The wheel's bytes: ``entries`` in their order, each dated ``date``."""
    return dated_zip(entries.items(), date)


def installed() -> metadata.Distribution:
    """The installed ``attnlab`` distribution, once its version is the package's own.

    Raises ``ValueError`` when it is missing or out of date (``pyproject.toml``
    reads the version from ``attnlab.__version__`` when the package is installed).
    """
    try:
        distribution = metadata.distribution(NAME)
    except metadata.PackageNotFoundError as error:
        raise ValueError("attnlab is not installed, so its wheel has no metadata: pip install -e .") from error
    if distribution.version != attnlab.__version__:
        raise ValueError(f"the installed attnlab's metadata says version {distribution.version} but the package "
                         f"is {attnlab.__version__}: reinstall it (pip install -e .) before building")
    return distribution


def write(site: Path) -> Path:
    """Write the wheel of the running ``attnlab`` into ``site``; return its path."""
    version = attnlab.__version__
    target = site / wheel_name(version)
    target.write_bytes(wheel(contents(Path(attnlab.__file__).parent, installed(), version), build_date()))
    return target
