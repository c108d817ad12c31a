"""The offline copy, a zip of the finished site (``tests/browser/test_offline.py`` opens it in Chromium)."""

from __future__ import annotations

import json
import re
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
from sites import files
from test_site import pages

import attnlab
from attnlab.cost import readable_bytes
from attnlab.site.build import model_files, offline
from attnlab.site.pages.published import archive_name, wheel_name

NAME = archive_name()
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


def archive(site: Path, date: str = "2024-05-06") -> bytes:
    """The zip the build would write of ``site`` on ``date``."""
    offline.zipped(into := BytesIO(), offline.packed(site, NAME), NAME, date)
    return into.getvalue()


def entries(data: bytes) -> list[zipfile.ZipInfo]:
    """The archive's entries, in their order."""
    return zipfile.ZipFile(BytesIO(data)).infolist()


def download_data(script: str) -> dict:
    """The object a download data script assigns."""
    return json.loads(re.search(r"ATTNLAB_DOWNLOAD = (\{.*\});", script).group(1))


def test_every_file_but_archives_and_the_model_sits_in_one_folder_sorted_dated_not_before_1980_and_a_plain_file(
        tmp_path: Path) -> None:
    site = small_site(tmp_path)  # with two archives, and the model's files, a download of their own
    (site / offline.MODEL_FOLDER).mkdir(parents=True)
    (site / offline.MODEL_FOLDER / "weights-0.js").write_bytes(b"45 MB of weights")
    found = entries(archive(site))
    assert [e.filename for e in found] == [f"{FOLDER}/{n}" for n in (
        "README.txt", "assets/download-data.js", "assets/lab.css", "index.html", "softmax.html")]
    assert {(e.date_time, e.external_attr >> 16, e.create_system, e.compress_type) for e in found} == {
        ((2024, 5, 6, 0, 0, 0), 0o100644, 3, zipfile.ZIP_DEFLATED)}
    assert {e.date_time for e in entries(archive(site, "1970-01-01"))} == {(1980, 1, 1, 0, 0, 0)}
    offline.zipped(into := BytesIO(), {"a.txt": b"aaaa" * 100}, NAME, "2024-05-06", compress=False)
    [stored] = entries(into.getvalue())
    assert stored.compress_type == zipfile.ZIP_STORED and stored.compress_size == stored.file_size == 400


def test_a_name_a_zip_would_carry_unsafely_the_sites_own_readme_or_a_name_written_two_ways_is_refused() -> None:
    for name in ("a\\b.html", "assets/..hidden/../x.js", "./x.html", "tab\there.html"):
        with pytest.raises(ValueError, match=re.escape(repr(name)) + " cannot go into the offline copy"):
            offline.checked_names({"index.html": b"<h1>Home</h1>", name: b"x"})
    for names, message in ((["README.txt"], "'README.txt' cannot go into the offline copy, whose own README.txt"),
                           (["caf\u00e9.html", "cafe\u0301.html"], "one name written two ways (Unicode NFC and NFD)")):
        with pytest.raises(ValueError, match=re.escape(message)):
            offline.checked_names({"index.html": b"<h1>Home</h1>", **dict.fromkeys(names, b"x")})


def test_the_copy_says_it_is_the_offline_copy_and_has_a_readme_saying_how_to_open_it(tmp_path: Path) -> None:
    zipped = zipfile.ZipFile(BytesIO(archive(small_site(tmp_path))))
    script = zipped.read(f"{FOLDER}/{offline.DATA}").decode()
    assert download_data(script) == {"file": NAME, "bytes": None, "size": None, "offline": True}
    readme = zipped.read(f"{FOLDER}/README.txt").decode()
    assert "Open index.html" in readme and "node model.mjs" in readme and attnlab.__version__ in readme
    assert f"`pip install {wheel_name()}` here" in readme and "notebooks/" in readme


def test_the_build_zips_the_whole_finished_site_as_it_is_but_the_model_names_it_for_the_version_and_states_its_size(
        built_site: Path, offline_copy: Path) -> None:
    # everything the build wrote, the search index of the theme's offline plugin included; the model is its own zip
    built, copy = files(built_site), files(offline_copy)
    model = {name for name in built if name.startswith(offline.MODEL_FOLDER + "/")}
    assert model and model_files.archive_name() in built
    assert set(copy) == (set(built) - {NAME, model_files.archive_name()} - model) | {"README.txt"}
    assert [name for name in set(copy) - {offline.DATA, "README.txt"} if built[name] != copy[name]] == []
    size = (built_site / f"attention-lab-{attnlab.__version__}.zip").stat().st_size
    assert download_data((built_site / offline.DATA).read_text(encoding="utf-8")) == {
        "file": NAME, "bytes": size, "size": readable_bytes(size), "offline": False}


def test_the_home_page_offers_the_download_and_the_explorer_the_models_own_zip(built_site: Path) -> None:
    html = (built_site / "index.html").read_text(encoding="utf-8")
    assert f'<a class="md-button" href="{NAME}" download data-attnlab-download>' in html
    html = (built_site / "explorer.html").read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]+)" download data-testid="model-archive">', html)
    assert links == [model_files.archive_name()] and (built_site / links[0]).is_file()


def test_every_page_has_the_offline_line_at_its_foot_for_the_script_to_fill(built_site: Path) -> None:
    # hidden, its link at the site's root, until download.js reads the zip's name (browser/test_offline.py)
    line = re.compile(r'<aside class="attnlab-offline"[^>]*data-attnlab-offline hidden>\s*<p[^>]*>\s*'
                      r'<a href="(\./)?index\.html" download')
    script = re.compile(r'<script src="(\./)?assets/download-data\.js"></script>')
    assert [p.name for p in pages(built_site)
            if not (line.search(html := p.read_text(encoding="utf-8")) and script.search(html))] == []

