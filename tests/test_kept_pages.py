"""Kept pages: a page is converted again exactly when something it depends on changed.

The first tests check the parts (what a conversion notes, the key, the
table of contents kept as tokens); the last build a copy of the guide,
edit it, and compare a build from kept pages with a build from nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import mkdocs
import pytest
from mkdocs.structure.toc import get_toc
from sites import build, docs_copy
from test_execution import tree

from attnlab.site import cache_hook, kept_pages, publish, tracking
from attnlab.site.execution import CACHE_VARIABLE

TOKENS = [
    {"level": 1, "id": "scores", "name": "Scores", "children": [
        {"level": 2, "id": "why-scale", "name": "Why <em>scale</em>", "children": []},
    ]},
    {"level": 1, "id": "exercises", "name": "Exercises", "children": []},
]
"""A table of contents as MkDocs builds it: two top entries, one with a child."""
WHOLE = {"page": "p.md", "content": "<p>P</p>", "toc": [], "title": None, "anchors": [], "links": {}, "reads": {},
         "writes": {}, "registered": [], "conversions": 0}
"""A kept page's entry with every field, having read nothing."""


def test_a_doc_read_inside_a_recording_is_noted_with_its_digest(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n", encoding="utf-8")
    with tracking.recording() as record:
        tracking.read_doc(tmp_path, "a.md")
    assert record.reads == {"a.md": tracking.text_digest("# A\n")}


def test_a_doc_read_outside_a_recording_is_not_noted(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n", encoding="utf-8")
    with tracking.recording() as record:
        pass
    tracking.read_doc(tmp_path, "a.md")
    assert record.reads == {}


def test_files_published_during_a_recording_are_noted(tmp_path: Path) -> None:
    with tracking.recording() as record:
        publish.write_files(tmp_path, {"exports/t.csv": "a,b\n"})
    assert record.writes == {"exports/t.csv": "a,b\n"}


def test_a_kept_page_is_stale_when_a_file_it_read_changed(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n", encoding="utf-8")
    kept = {**WHOLE, "reads": {"a.md": tracking.text_digest("# A\n")}}
    assert kept_pages.unchanged(kept, tmp_path)
    (tmp_path / "a.md").write_text("# A, edited\n", encoding="utf-8")
    assert not kept_pages.unchanged(kept, tmp_path)


def test_a_kept_page_is_stale_when_a_file_it_read_is_gone(tmp_path: Path) -> None:
    kept = {**WHOLE, "reads": {"gone.md": tracking.text_digest("# Gone\n")}}
    assert not kept_pages.unchanged(kept, tmp_path)


@pytest.mark.parametrize("field", sorted(kept_pages.FIELDS))
def test_a_kept_page_missing_a_field_is_converted_again(tmp_path: Path, field: str) -> None:
    assert kept_pages.unchanged(WHOLE, tmp_path)
    assert not kept_pages.unchanged({name: value for name, value in WHOLE.items() if name != field}, tmp_path)


def test_a_table_of_contents_is_kept_as_the_tokens_it_was_built_from() -> None:
    assert kept_pages.toc_tokens(get_toc(TOKENS)) == TOKENS


def test_installed_packages_are_named_with_their_versions() -> None:
    assert any(name.startswith(f"mkdocs-{mkdocs.__version__}.") for name in kept_pages.installed())


def fake(tmp_path: Path, markdown: str = "# Page\n", config_text: str = "site_name: x\n",
         site_url: str = "", counter: int = 0) -> str:
    """The key of a page ``p.md`` in a folder ``tmp_path`` holding its config and docs."""
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "mkdocs.yml").write_text(config_text, encoding="utf-8")
    page = SimpleNamespace(file=SimpleNamespace(src_uri="p.md"), markdown=markdown)
    config = SimpleNamespace(config_file_path=str(tmp_path / "mkdocs.yml"), site_url=site_url,
                             docs_dir=str(tmp_path / "docs"))
    return kept_pages.page_key(page, config, counter)


@pytest.mark.parametrize("change", [
    {"markdown": "# Page, edited\n"}, {"config_text": "site_name: y\n"}, {"site_url": "https://x.org/"},
    {"counter": 3},
])
def test_the_page_key_changes_with_markdown_config_address_and_counter(tmp_path: Path, change: dict) -> None:
    assert fake(tmp_path) != fake(tmp_path, **change)


def test_the_page_key_changes_when_a_file_is_added_under_docs(tmp_path: Path) -> None:
    before = fake(tmp_path)
    (tmp_path / "docs" / "new.md").write_text("# New\n", encoding="utf-8")
    assert fake(tmp_path) != before


def test_the_page_key_changes_with_the_build_date(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    before = fake(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767312000")
    assert fake(tmp_path) != before


def search_page(content: str = "<h1 id=\"a\">A</h1>", url: str = "a.html") -> SimpleNamespace:
    """A page as the search plugin sees it."""
    return SimpleNamespace(meta={}, content=content, url=url, title="A", toc=get_toc(TOKENS))


@pytest.mark.parametrize("change", [{"content": "<h1 id=\"a\">B</h1>"}, {"url": "b.html"}])
def test_kept_search_entries_are_keyed_by_the_html_and_address(change: dict) -> None:
    assert cache_hook.entries_key(search_page()) != cache_hook.entries_key(search_page(**change))


def kept_entries(cache: Path) -> dict[tuple[Path, int], str]:
    """Each kept page's entry, by its file and when that was written, with the page's path inside docs."""
    found = {}
    for path in cache.rglob("*.json"):
        entry = json.loads(path.read_text(encoding="utf-8"))
        if "content" in entry:
            found[path, path.stat().st_mtime_ns] = entry["page"]
    return found


@pytest.mark.slow
def test_after_an_edit_a_build_from_kept_pages_is_byte_for_byte_a_clean_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    root, cache = docs_copy(tmp_path), tmp_path / "cache"
    assert build(root / "mkdocs.yml", tmp_path / "before", exec_cache=cache).returncode == 0
    kept = kept_entries(cache)
    chapter = root / "docs" / "masking.md"  # does not cite CL-001: now it does, so the Claims page must change
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\nThe scores come first [[CL-001]].\n", encoding="utf-8")
    warm = build(root / "mkdocs.yml", tmp_path / "warm", exec_cache=cache)
    clean = build(root / "mkdocs.yml", tmp_path / "clean")
    assert warm.returncode == 0 and clean.returncode == 0, warm.stderr + clean.stderr
    assert tree(tmp_path / "warm") == tree(tmp_path / "clean")
    assert (tmp_path / "warm" / "claims.html").read_bytes() != (tmp_path / "before" / "claims.html").read_bytes()
    again = {page for written, page in kept_entries(cache).items() if written not in kept}
    assert {"masking.md", "claims.md"} <= again  # the edited page, and the page that lists where claims are cited
    assert "lab.md" not in again and "licenses.md" not in again  # pages that read neither were kept


@pytest.mark.slow
def test_a_page_whose_conversion_logged_a_warning_is_not_kept(tmp_path: Path) -> None:
    root, cache = docs_copy(tmp_path), tmp_path / "cache"
    chapter = root / "docs" / "masking.md"
    chapter.write_text(chapter.read_text(encoding="utf-8") + "\nSee [nowhere](nowhere.md).\n", encoding="utf-8")
    subprocess.run(  # not strict: the warning alone must keep the page out of the cache
        [sys.executable, "-m", "mkdocs", "build", "--no-strict", "-f", str(root / "mkdocs.yml"),
         "-d", str(tmp_path / "site")],
        cwd=root, env={**os.environ, "NO_MKDOCS_2_WARNING": "1", CACHE_VARIABLE: str(cache)},
        capture_output=True, text=True, timeout=600, check=True)
    kept = set(kept_entries(cache).values())
    assert "mixing.md" in kept and "masking.md" not in kept
