"""The ``attnlab`` wheel the site carries, made in memory; ``test_reader.py`` installs the built one."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
import shutil
import zipfile
from email.parser import Parser
from importlib import metadata
from pathlib import Path

import pytest
from sites import ROOT

import attnlab
from attnlab.site.build import wheel
from attnlab.site.build.offline import dated_zip

VERSION = attnlab.__version__
INFO = f"attnlab-{VERSION}.dist-info"
PACKAGE = Path(attnlab.__file__).parent


def built(date: str = "2024-05-06", package: Path = PACKAGE) -> bytes:
    """The wheel of ``package`` on ``date``, with the installed attnlab's metadata."""
    dated_zip(into := io.BytesIO(), wheel.contents(package, wheel.installed(), VERSION).items(), date)
    return into.getvalue()


def entries(data: bytes) -> dict[str, bytes]:
    """What the zip ``data`` holds, by name, in its order."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    return {entry.filename: archive.read(entry) for entry in archive.infolist()}


def test_it_holds_every_module_of_the_maths_as_the_package_has_it_nothing_of_the_site_then_its_dist_info() -> None:
    found = entries(built())
    names = list(found)
    first_info = next(i for i, n in enumerate(names) if n.startswith(INFO))
    assert names[:first_info] == sorted(f"attnlab/{p.relative_to(ROOT / 'attnlab').as_posix()}" for p in [
        *(ROOT / "attnlab").glob("*.py"), ROOT / "attnlab" / "py.typed", *(ROOT / "attnlab" / "data").rglob("*.*")])
    assert found["attnlab/attention.py"] == (PACKAGE / "attention.py").read_bytes()
    assert names[first_info:-1] == sorted(names[first_info:-1]) and names[-1] == f"{INFO}/RECORD"
    assert sorted(names[first_info:]) == [f"{INFO}/{n}" for n in (
        "METADATA", "RECORD", "WHEEL", "entry_points.txt", "licenses/LICENSE")]


def test_only_python_modules_and_data_outside_site_and_caches_are_taken(tmp_path: Path) -> None:
    package = tmp_path / "attnlab"
    for name in ("__init__.py", "lab.py", "py.typed", "sub/__init__.py", "site/__init__.py", "site/pages/x.py",
                 "site/py.typed", "__pycache__/lab.cpython-311.pyc", "notes.txt", "data/decoder/config.json",
                 "site/data/x.json"):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text("x = 1\n", encoding="utf-8")
    assert list(wheel.modules(package)) == ["attnlab/__init__.py", "attnlab/data/decoder/config.json",
                                            "attnlab/lab.py", "attnlab/py.typed", "attnlab/sub/__init__.py"]


def test_record_lists_every_file_with_its_sha256_and_size() -> None:
    found = entries(built())
    rows = list(csv.reader(io.StringIO(found[f"{INFO}/RECORD"].decode())))
    assert sorted(row[0] for row in rows) == sorted(found)
    for path, digest, size in rows:
        if path == f"{INFO}/RECORD":
            assert (digest, size) == ("", "")
            continue
        expected = base64.urlsafe_b64encode(hashlib.sha256(found[path]).digest()).rstrip(b"=").decode()
        assert (digest, int(size)) == (f"sha256={expected}", len(found[path])), path


def test_the_dist_info_requires_numpy_alone_and_carries_the_licence_the_pure_python_tag_and_the_command() -> None:
    found = entries(built())
    fields = Parser().parsestr(found[f"{INFO}/METADATA"].decode())
    assert (fields["Metadata-Version"], fields["Name"], fields["Version"]) == ("2.4", "attnlab", VERSION)
    assert fields.get_all("Requires-Dist") == ["numpy>=2"]
    assert (fields["Requires-Python"], fields["License-Expression"], fields["License-File"]) == (">=3.11", "MIT",
                                                                                                 "LICENSE")
    assert fields["Summary"] == metadata.metadata("attnlab")["Summary"]
    assert fields.get_payload().startswith("attnlab: the attention calculations")
    assert found[f"{INFO}/licenses/LICENSE"] == (ROOT / "LICENSE").read_bytes()
    text = found[f"{INFO}/WHEEL"].decode()
    assert "Root-Is-Purelib: true\n" in text and "Tag: py3-none-any\n" in text and "Wheel-Version: 1.0\n" in text
    assert found[f"{INFO}/entry_points.txt"].decode() == "[console_scripts]\nattnlab = attnlab.__main__:main\n"


def test_requirements_keep_conditions_on_python_and_drop_the_extras(tmp_path: Path) -> None:
    info = tmp_path / "demo-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.4\nName: demo\nVersion: 1.0\nRequires-Dist: numpy>=2\n"
                                   "Requires-Dist: tomli; python_version < \"3.11\"\n"
                                   "Requires-Dist: mkdocs==1.6.1; extra == \"docs\"\n"
                                   "Requires-Dist: torch; extra=='peer' and sys_platform == 'linux'\n",
                                   encoding="utf-8")
    assert wheel.requirements(metadata.PathDistribution(info)) == ["numpy>=2", 'tomli; python_version < "3.11"']


def test_the_licence_is_read_from_a_dist_info_or_beside_an_editable_installs_egg_info(tmp_path: Path) -> None:
    # `pip install -e .` leaves attnlab.egg-info in the project, found first when pytest runs from there
    info, egg = tmp_path / "demo-1.0.dist-info", tmp_path / "project" / "demo.egg-info"
    (info / "licenses").mkdir(parents=True)
    (info / "licenses" / "LICENSE").write_text("inside", encoding="utf-8")
    egg.mkdir(parents=True)
    assert wheel.licence_text(metadata.PathDistribution(info)) == "inside"
    with pytest.raises(ValueError, match="metadata holds no LICENSE: reinstall it"):
        wheel.licence_text(metadata.PathDistribution(egg))
    (egg.parent / "LICENSE").write_text("beside", encoding="utf-8")
    assert wheel.licence_text(metadata.PathDistribution(egg)) == "beside"


def test_the_same_sources_and_date_give_the_same_bytes_and_another_date_or_module_other_bytes(
        tmp_path: Path) -> None:
    copy = tmp_path / "attnlab"
    for path in [*PACKAGE.glob("*.py"), PACKAGE / "py.typed"]:
        copy.mkdir(exist_ok=True)
        (copy / path.name).write_bytes(path.read_bytes())
    shutil.copytree(PACKAGE / "data", copy / "data")
    assert built(package=copy) == built()
    assert built("2024-05-07") != built()
    (copy / "lab.py").write_bytes((copy / "lab.py").read_bytes() + b"\n")
    assert built(package=copy) != built()


def test_an_installed_version_other_than_the_packages_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(attnlab, "__version__", "9.9.9")
    with pytest.raises(ValueError, match=rf"version {re.escape(VERSION)} but the package is 9\.9\.9: reinstall it"):
        wheel.installed()


def test_writing_puts_the_wheel_into_the_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1714953600")  # 2024-05-06
    target = wheel.write(tmp_path)
    assert target == tmp_path / f"attnlab-{VERSION}-py3-none-any.whl"
    assert target.read_bytes() == built("2024-05-06")
