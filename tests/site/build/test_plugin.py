"""The guide's MkDocs plugin: its refusals in-process, the post-build pass, a preview server's rebuilds kept short."""

from __future__ import annotations

import gc
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from jinja2 import DictLoader, Environment
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError

from attnlab.site.build import publish
from attnlab.site.build.offline import DATA
from attnlab.site.build.plugin import YOUNG, AttnlabPlugin, CompiledTemplates
from attnlab.site.pages.published import archive_name


def rendered(cache: CompiledTemplates, source: str, monkeypatch: pytest.MonkeyPatch | None = None) -> str:
    """``source`` rendered by a new environment using ``cache``; with ``monkeypatch``, compiling is an error."""
    env = Environment(loader=DictLoader({"page.html": source}), bytecode_cache=cache)
    if monkeypatch is not None:
        monkeypatch.setattr(env, "compile", lambda *args, **kwargs: pytest.fail("compiled again"))
    return env.get_template("page.html").render(word="kept")


def test_a_source_date_epoch_that_is_not_a_whole_number_of_seconds_is_refused_before_the_build(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for epoch in ("yesterday", "-5", "1.5"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        with pytest.raises(PluginError, match="SOURCE_DATE_EPOCH must be a whole number of seconds"):
            AttnlabPlugin().on_config(MkDocsConfig())


def test_toc_depth_that_is_not_a_heading_level_stops_the_build() -> None:
    page = SimpleNamespace(meta={"toc_depth": 7}, toc=[], file=SimpleNamespace(src_uri="reference.md"))
    with pytest.raises(PluginError, match=r"reference.md: toc_depth must be a heading level 1-6, got 7"):
        AttnlabPlugin().on_page_content("", page=page, config=SimpleNamespace(docs_dir="docs", nav=[]))


def test_a_preview_server_gives_the_theme_templates_compiled_once_per_process_and_again_when_changed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    for command, expected in (("serve", CompiledTemplates), ("build", type(None))):  # a build compiles afresh
        plugin = AttnlabPlugin()
        plugin.on_startup(command=command, dirty=False)
        assert isinstance(plugin.on_env(Environment()).bytecode_cache, expected)
    cache = CompiledTemplates()
    assert rendered(cache, "<p>{{ word }}</p>") == "<p>kept</p>"
    assert rendered(cache, "<b>{{ word }}</b>") == "<b>kept</b>"
    assert rendered(cache, "<b>{{ word }}</b>", monkeypatch) == "<b>kept</b>"


@pytest.fixture
def built(tmp_path: Path) -> SimpleNamespace:
    """A config whose docs hold one page and whose site holds its built page, as MkDocs hands it over."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("---\nkind: reference\n---\n\n# Home\n", encoding="utf-8")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "index.html").write_text("<h1>Home</h1>", encoding="utf-8")
    return SimpleNamespace(site_dir=str(tmp_path / "site"), docs_dir=str(tmp_path / "docs"),
                           nav=[{"Home": "index.md"}])


@pytest.mark.parametrize("command, zipped", [("build", True), ("gh-deploy", True), ("serve", False)])
def test_only_a_preview_server_leaves_out_the_offline_zip(built: SimpleNamespace, command: str,
                                                          zipped: bool) -> None:
    plugin = AttnlabPlugin()
    plugin.on_startup(command=command, dirty=False)
    plugin.on_post_build(config=built)
    site = Path(built.site_dir)
    assert (site / archive_name()).is_file() is zipped and (site / DATA).is_file() is zipped
    assert (site / "claims.json").is_file()


def test_a_build_that_ends_with_a_page_missing_fails_naming_it(built: SimpleNamespace) -> None:
    (Path(built.docs_dir) / "notes.md").write_text("---\nkind: reference\n---\n\n# Notes\n", encoding="utf-8")
    built.nav = [{"Home": "index.md"}, {"More": [{"Notes": "notes.md"}]}, {"Elsewhere": "https://example.org/"}]
    with pytest.raises(PluginError, match=rf"^{re.escape(built.site_dir)}: the build ended without 1 of the 2 pages "
                                          r"the navigation lists: notes\.html$"):
        AttnlabPlugin().on_post_build(config=built)
    assert not (Path(built.site_dir) / "claims.json").exists()


def test_a_link_in_docs_to_a_file_outside_the_project_is_refused_naming_it(tmp_path: Path) -> None:
    docs = tmp_path / "project" / "docs"
    (docs / "assets").mkdir(parents=True)
    (tmp_path / "secret.txt").write_text("not the guide's", encoding="utf-8")
    (tmp_path / "project" / "LICENSE").write_text("MIT", encoding="utf-8")
    (docs / "LICENSE").symlink_to(tmp_path / "project" / "LICENSE")  # inside the project: published as it is
    publish.links_outside(docs)
    (docs / "assets" / "notes.txt").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(ValueError, match=rf"^docs/assets/notes\.txt -> {re.escape(str(tmp_path))}/secret\.txt: a link "
                                         "to a file outside the project"):
        publish.links_outside(docs)


def test_startup_leaves_what_is_loaded_out_of_the_collectors_passes_and_makes_them_rarer() -> None:
    saved = gc.get_threshold()
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)  # Python's defaults
    try:
        AttnlabPlugin().on_startup(command="build", dirty=False)
        assert gc.get_freeze_count() > 0 and gc.get_threshold() == (YOUNG, 10, 10) and YOUNG > 700
    finally:
        gc.unfreeze()
        gc.set_threshold(*saved)


def test_a_toy_constant_rebound_while_the_pages_were_built_stops_the_lab_files(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from attnlab import lab
    from attnlab.site.build.publish import unchanged_lab_files

    assert unchanged_lab_files()
    monkeypatch.setattr(lab, "W_V", ((1.0, 0.0), (0.0, 3.0)))
    with pytest.raises(ValueError, match=r"^assets/lab-data\.js: the toy's data changed while the pages were built"):
        unchanged_lab_files()
