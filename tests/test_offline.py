"""The offline copy: one deterministic zip of the finished site, linked with its size from every page.

Unit tests zip small folders with ``attnlab.site.offline``; the rest read
the session's built site and its unzipped copy (``offline_copy``). In
Chromium, ``tests/browser/test_offline.py`` reads the copy from disk.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path

import pytest
from sites import CONFIG, build

import attnlab
from attnlab.cost import readable_bytes
from attnlab.site import offline
from attnlab.site.execution import CACHE_VARIABLE
from attnlab.site.offline_hook import on_config
from test_site import pages

NAME = offline.archive_name()
FOLDER = NAME.removesuffix(".zip")


def small_site(root: Path) -> Path:
    """A folder standing for a built site: two pages, an asset, last build's archive and download data."""
    site = root / "site"
    (site / "assets").mkdir(parents=True)
    (site / "index.html").write_text("<h1>Home</h1>", encoding="utf-8")
    (site / "softmax.html").write_text("<h1>Softmax</h1>", encoding="utf-8")
    (site / "assets" / "lab.css").write_text("a {}", encoding="utf-8")
    (site / NAME).write_bytes(b"last build's archive")
    (site / "attention-lab-0.0.1.zip").write_bytes(b"another version's archive")
    (site / offline.DATA).write_text("stale", encoding="utf-8")
    return site


def entries(data: bytes) -> list[zipfile.ZipInfo]:
    """The archive's entries, in their order."""
    return zipfile.ZipFile(BytesIO(data)).infolist()


def download_data(script: str) -> dict:
    """The object a download data script assigns."""
    return json.loads(re.search(r"ATTNLAB_DOWNLOAD = (\{.*\});", script).group(1))


# --- the archive ------------------------------------------------------------------------------------------


def test_the_archive_is_named_for_the_guide_and_its_version() -> None:
    assert offline.archive_name("2.3.4") == "attention-lab-2.3.4.zip"
    assert NAME == f"attention-lab-{attnlab.__version__}.zip"


def test_every_file_sits_in_one_folder_in_sorted_order(tmp_path: Path) -> None:
    names = [e.filename for e in entries(offline.archive(small_site(tmp_path), NAME, "2024-05-06"))]
    assert names == [f"{FOLDER}/{n}" for n in ("README.txt", "assets/download-data.js", "assets/lab.css",
                                              "index.html", "softmax.html")]


def test_no_archive_of_any_version_goes_into_the_archive(tmp_path: Path) -> None:
    names = [e.filename for e in entries(offline.archive(small_site(tmp_path), NAME, "2024-05-06"))]
    assert not [n for n in names if n.endswith(".zip")]


def test_every_entry_has_the_build_date_and_plain_file_permissions(tmp_path: Path) -> None:
    found = {(e.date_time, e.external_attr >> 16, e.create_system, e.compress_type)
             for e in entries(offline.archive(small_site(tmp_path), NAME, "2024-05-06"))}
    assert found == {((2024, 5, 6, 0, 0, 0), 0o100644, 3, zipfile.ZIP_DEFLATED)}


def test_the_same_site_gives_the_same_bytes_whatever_the_files_times(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    first = offline.archive(site, NAME, "2024-05-06")
    for path in site.rglob("*"):
        os.utime(path, (1_000_000_000, 1_000_000_000))
    assert offline.archive(site, NAME, "2024-05-06") == first


def test_with_the_cache_on_an_archive_is_the_same_and_an_edited_site_is_zipped_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = small_site(tmp_path)
    uncached = offline.archive(site, NAME, "2024-05-06")
    monkeypatch.setenv(CACHE_VARIABLE, str(tmp_path / "cache"))
    assert offline.archive(site, NAME, "2024-05-06") == uncached  # made and kept
    assert offline.archive(site, NAME, "2024-05-06") == uncached  # taken from the cache
    (site / "index.html").write_text("<p>edited</p>", encoding="utf-8")
    edited = zipfile.ZipFile(BytesIO(offline.archive(site, NAME, "2024-05-06")))
    assert edited.read(f"{FOLDER}/index.html") == b"<p>edited</p>"


def test_the_copy_says_it_is_the_offline_copy(tmp_path: Path) -> None:
    data = offline.archive(small_site(tmp_path), NAME, "2024-05-06")
    script = zipfile.ZipFile(BytesIO(data)).read(f"{FOLDER}/{offline.DATA}").decode()
    assert download_data(script) == {"file": NAME, "bytes": None, "size": None, "offline": True}


def test_the_copy_has_a_readme_saying_how_to_open_it(tmp_path: Path) -> None:
    readme = zipfile.ZipFile(BytesIO(offline.archive(small_site(tmp_path), NAME, "2024-05-06"))).read(
        f"{FOLDER}/README.txt").decode()
    assert "Open index.html" in readme and "node model.mjs" in readme and attnlab.__version__ in readme


def test_writing_puts_the_archive_in_the_site_and_states_its_exact_size(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    target = offline.write(site)
    size = target.stat().st_size
    assert target == site / NAME
    assert download_data((site / offline.DATA).read_text(encoding="utf-8")) == {
        "file": NAME, "bytes": size, "size": readable_bytes(size), "offline": False}


def test_the_hook_names_the_archive_for_the_theme() -> None:
    class Config:
        extra: dict = {}
    assert on_config(Config()).extra["offline_copy"] == NAME


# --- the built site -------------------------------------------------------------------------------------------


def site_files(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}


def test_the_build_zips_the_whole_finished_site(built_site: Path, offline_copy: Path) -> None:
    # everything the build wrote, the search index of the theme's offline plugin included
    assert site_files(offline_copy) == (site_files(built_site) - {NAME}) | {"README.txt"}


def test_the_copys_pages_are_the_sites_pages(built_site: Path, offline_copy: Path) -> None:
    differ = [name for name in site_files(built_site) - {NAME, offline.DATA}
              if (built_site / name).read_bytes() != (offline_copy / name).read_bytes()]
    assert differ == []


def test_the_site_states_the_size_of_its_archive(built_site: Path) -> None:
    stated = download_data((built_site / offline.DATA).read_text(encoding="utf-8"))
    assert stated["bytes"] == (built_site / NAME).stat().st_size and not stated["offline"]


@pytest.mark.parametrize("kind", ["link", "size script"])
def test_every_page_links_to_the_archive_in_its_footer(built_site: Path, kind: str) -> None:
    link = rf'<aside class="attnlab-offline"[^>]*>\s*<p[^>]*>\s*<a href="(\./)?{re.escape(NAME)}" download'
    wanted = re.compile(link if kind == "link" else r'<script src="(\./)?assets/download-data\.js"></script>')
    assert [p.name for p in pages(built_site) if not wanted.search(p.read_text(encoding="utf-8"))] == []


def test_the_home_page_offers_the_download(built_site: Path) -> None:
    html = (built_site / "index.html").read_text(encoding="utf-8")
    assert f'<a class="md-button" href="{NAME}" download data-attnlab-download>' in html


@pytest.mark.slow
def test_building_again_gives_the_same_archive(built_site: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    first_date = datetime(*zipfile.ZipFile(built_site / NAME).infolist()[0].date_time, tzinfo=UTC)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(int(first_date.timestamp())))  # should midnight have passed
    result = build(CONFIG, tmp_path / "again")
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "again" / NAME).read_bytes() == (built_site / NAME).read_bytes()


def test_the_models_files_stay_out_of_the_guides_archive(tmp_path: Path) -> None:
    site = small_site(tmp_path)
    (site / offline.MODEL_FOLDER).mkdir(parents=True)
    (site / offline.MODEL_FOLDER / "weights-0.js").write_bytes(b"45 MB of weights")
    names = [e.filename for e in entries(offline.archive(site, NAME, "2024-05-06"))]
    assert not [n for n in names if "/assets/model/" in n] and f"{FOLDER}/assets/lab.css" in names


def test_an_archive_can_store_its_entries_uncompressed(tmp_path: Path) -> None:
    data = offline.zipped({"a.txt": b"aaaa" * 100}, NAME, "2024-05-06", compress=False)
    [entry] = entries(data)
    assert entry.compress_type == zipfile.ZIP_STORED and entry.compress_size == entry.file_size == 400
