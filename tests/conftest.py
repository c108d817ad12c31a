"""Shared fixtures (the site built once per session, strictly) and the markers, which come from a test's folder
(``browser``, ``peer``) and fixtures (``slow``): ``-m "not slow"`` runs no build, no browser and no PyTorch."""

from __future__ import annotations

import os
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import settings
from sites import CONFIG, build

from attnlab.site.pages.published import archive_name

settings.register_profile("attnlab", deadline=None)
settings.load_profile("attnlab")

# Every build of a session carries one date, the session's first day, even when the run crosses midnight UTC
# (the comparisons of one build with another would otherwise differ by the date each page and zip states).
if not os.environ.get("SOURCE_DATE_EPOCH"):
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    os.environ["SOURCE_DATE_EPOCH"] = str(int(today.timestamp()))

FOLDER_MARKERS = {"browser": ("browser", "slow"), "peer": ("peer", "slow")}
SLOW_FIXTURES = {"built_site", "offline_copy"}  # each builds the guide


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by its folder and by the fixtures it uses."""
    tests = Path(__file__).parent
    for item in items:
        folder = Path(item.path).parent.relative_to(tests).as_posix()
        names = {marker for prefix, markers in FOLDER_MARKERS.items()
                 if folder == prefix or folder.startswith(prefix + "/") for marker in markers}
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            names.add("slow")
        for name in sorted(names):
            item.add_marker(name)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The strictly built site; the whole session fails loudly if the build does."""
    destination = tmp_path_factory.mktemp("site") / "site"
    result = build(CONFIG, destination)
    assert result.returncode == 0, f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}"
    return destination


@pytest.fixture(scope="session")
def offline_copy(built_site: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site's zip, unzipped as a reader would into a folder of its own; returns the guide's folder."""
    destination = tmp_path_factory.mktemp("unzipped")
    with zipfile.ZipFile(built_site / archive_name()) as zipped:
        zipped.extractall(destination)
    return destination / archive_name().removesuffix(".zip")
