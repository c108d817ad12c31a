"""The guide keeps no cache: the same tree builds to the same bytes with the `docs` extra alone, and a changed input
always reaches the next build."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sites import CONFIG, build, files, one_page_site

from attnlab import bert

pytestmark = pytest.mark.slow  # each test runs real builds, one subprocess each


REFUSED = ("pytest", "hypothesis", "playwright", "pytest_playwright", "axe_playwright_python", "nbformat",
           "nbclient", "ipykernel", "torch", "transformers", "ruff", "mypy")
"""The top-level modules of the `test`, `peer` and `lint` extras."""

HOOK = f'''import sys

class RefuseTestExtras:
    """An import hook: the modules of the test, peer and lint extras are not installed."""

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {REFUSED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (refused: docs extra only)", name=name)
        return None

sys.meta_path.insert(0, RefuseTestExtras())
'''


def docs_only_env(tmp_path: Path) -> dict[str, str]:
    """An environment whose Pythons cannot import the test, peer and lint extras' modules."""
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(HOOK)
    return {"PYTHONPATH": os.pathsep.join([str(hook), os.environ.get("PYTHONPATH", "")])}


def test_the_hook_refuses_every_module_of_the_other_extras(tmp_path: Path) -> None:
    env = {**os.environ, **docs_only_env(tmp_path)}
    probe = "import importlib, sys\nfor name in sys.argv[1:]:\n    try:\n        importlib.import_module(name)\n" \
            "    except ModuleNotFoundError:\n        continue\n    print(name)"
    done = subprocess.run([sys.executable, "-c", probe, *REFUSED], env=env, capture_output=True, text=True, check=True)
    assert done.stdout == ""


def test_a_second_build_of_the_same_tree_with_the_docs_extra_alone_is_the_first_byte_for_byte(
        built_site: Path, tmp_path: Path) -> None:
    # tests/conftest.py dates every build of the session alike, so only the tree could make them differ;
    # the second build cannot import the test, peer and lint extras
    result = build(CONFIG, tmp_path / "again", docs_only_env(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    first, second = files(built_site), files(tmp_path / "again")
    assert sorted(first) == sorted(second) and [name for name in first if first[name] != second[name]] == []


def shadow_model(folder: Path, layer_norm_eps: float) -> Path:
    """A copy of the installed model package in ``folder`` (its files linked), its config.json's
    ``layer_norm_eps`` set to ``layer_norm_eps``: the same package and version, one file changed."""
    installed = bert.model_dir()
    package = folder / bert.MODEL_PACKAGE
    (package / "model").mkdir(parents=True, exist_ok=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    for source in installed.iterdir():
        target = package / "model" / source.name
        if source.name != "config.json" and not target.exists():
            target.symlink_to(source)
    config = json.loads((installed / "config.json").read_text(encoding="utf-8"))
    (package / "model" / "config.json").write_text(json.dumps({**config, "layer_norm_eps": layer_norm_eps}),
                                                    encoding="utf-8")
    return folder


def test_a_model_file_changed_under_the_same_version_an_env_value_and_an_inherited_file_reach_the_next_build(
        tmp_path: Path) -> None:
    block = ('```python exec="on"\nfrom attnlab import bert\n'
             'print(f"eps is {bert.read_config(bert.model_dir())[\'layer_norm_eps\']!r}")\n```\n')
    config = one_page_site(tmp_path, f"---\nkind: reference\n---\n\n# A page\n\n{block}", INHERIT="base.yml",
                           site_description=None)
    for eps, description, url in ((1e-12, "Said by the inherited file.", "https://example.org/guide/"),
                                  (2e-12, "Said again, differently.", "https://example.org/other/")):
        (tmp_path / "base.yml").write_text(f"site_description: {description}\n", encoding="utf-8")
        shadow = shadow_model(tmp_path / "packages", eps)  # before the tree's PYTHONPATH, which keeps its attnlab
        env = {"PYTHONPATH": os.pathsep.join([str(shadow), os.environ.get("PYTHONPATH", "")]), "ATTNLAB_SITE_URL": url}
        result = build(config, tmp_path / "site", env)
        assert result.returncode == 0, result.stderr
        home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
        assert (re.findall(r"eps is ([0-9.e-]+)", home), description in home, url in home) == ([repr(eps)], True, True)
