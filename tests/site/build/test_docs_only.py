"""The `docs` extra is enough to build the guide: this import hook (a ``sitecustomize`` on ``PYTHONPATH``) refuses
the `test`, `peer` and `lint` extras' modules in the second build of ``test_determinism.py``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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

