"""The ``attnlab`` wheel in the site (``pip install`` it with no network): ``attnlab/`` but ``site/``, the installed
metadata's facts, written with :mod:`zipfile` and dated the build's day (the same sources and date, the same bytes)."""

from __future__ import annotations

import base64
import hashlib
import re
from importlib import metadata
from pathlib import Path

import attnlab
from attnlab.site.build.offline import dated_zip
from attnlab.site.pages.published import NAME, TAG, build_date, wheel_name

LEFT_OUT = "site"
COPIED = ("Summary", "License-Expression", "Requires-Python")
"""The installed metadata's fields the wheel's METADATA carries as they are."""
LICENCE = "LICENSE"
EXTRA = re.compile(r"\bextra\s*==")


def modules(package: Path) -> dict[str, bytes]:
    """The ``.py`` files, ``py.typed`` and ``data/`` of ``package`` but ``site/``, by path in the wheel, sorted."""
    found = {f"{NAME}/{path.relative_to(package).as_posix()}": path.read_bytes() for path in package.rglob("*")
             if (path.suffix == ".py" or path.name == "py.typed" or path.relative_to(package).parts[0] == "data")
             and path.is_file() and path.relative_to(package).parts[0] != LEFT_OUT and "__pycache__" not in path.parts}
    return dict(sorted(found.items()))


def requirements(distribution: metadata.Distribution) -> list[str]:
    """What the package itself requires: the ``Requires-Dist`` lines with no extra (the guide's build, tests)."""
    return [line for line in distribution.requires or [] if not EXTRA.search(line.partition(";")[2])]


def metadata_text(distribution: metadata.Distribution, version: str) -> str:
    """The wheel's ``METADATA`` (core metadata 2.4); ``ValueError`` naming a field the installed metadata lacks."""
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


def record_line(path: str, data: bytes) -> str:
    """One line of ``RECORD``: the path, ``sha256=`` and the URL-safe base64 digest without padding, the size."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def licence_text(distribution: metadata.Distribution) -> str:
    """The licence, from a ``.dist-info`` (``licenses/LICENSE``) or beside the ``.egg-info`` an editable install
    leaves in the project (found first when the project folder is on ``sys.path``, as under ``python -m pytest``)."""
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
    wheel = f"Wheel-Version: 1.0\nGenerator: {__name__}\nRoot-Is-Purelib: true\nTag: {TAG}\n"
    files: dict[str, bytes] = {**modules(package), **{f"{info}/{name}": text.encode() for name, text in (
        ("METADATA", metadata_text(distribution, version)), ("WHEEL", wheel),
        ("entry_points.txt", entry_points_text(distribution)), (f"licenses/{LICENCE}", licence_text(distribution)))}}
    record = "".join(record_line(path, data) + "\n" for path, data in files.items()) + f"{info}/RECORD,,\n"
    return {**files, f"{info}/RECORD": record.encode()}


def installed() -> metadata.Distribution:
    """The installed ``attnlab`` distribution; ``ValueError`` when it is missing or not the package's version."""
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
    with target.open("wb") as into:
        dated_zip(into, contents(Path(attnlab.__file__).parent, installed(), version).items(), build_date())
    return target
