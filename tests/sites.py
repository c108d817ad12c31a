"""Building sites for tests: the real docs, a copy of them with one change, a one-page site.

Every build here is ``mkdocs build --strict`` without ``-q``: quiet mode
raises the log level, so strict mode would never see a warning.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CONFIG = ROOT / "mkdocs.yml"


def build(config: Path, destination: Path) -> subprocess.CompletedProcess[str]:
    """Run ``mkdocs build --strict`` of ``config`` into ``destination``; return the finished process."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(destination)],
        cwd=config.parent, env=env, capture_output=True, text=True, timeout=600,
    )


def read_config(config: Path = CONFIG) -> dict:
    """``mkdocs.yml`` as data (MkDocs' own ``!!python`` tags are not used by the guide)."""
    return yaml.safe_load(config.read_text(encoding="utf-8"))


def write_config(root: Path, config: dict) -> Path:
    """Write ``config`` as ``root/mkdocs.yml``; return its path."""
    path = root / "mkdocs.yml"
    path.write_text(yaml.safe_dump(config, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def docs_copy(tmp_path: Path) -> Path:
    """A copy of the guide's sources (config, docs, theme overrides) to change; returns its root.

    Hook paths point back at this repository, so the copy builds exactly as the guide does.
    """
    root = tmp_path / "guide"
    shutil.copytree(DOCS, root / "docs")
    shutil.copytree(ROOT / "overrides", root / "overrides")
    config = read_config()
    config["hooks"] = [str(ROOT / hook) for hook in config.get("hooks", [])]
    write_config(root, config)
    return root


def one_page_site(tmp_path: Path, markdown: str, *extensions: str | dict) -> Path:
    """A site of one page, ``docs/index.md``, converted with the guide's extension; returns its config.

    Math is on (arithmatex, as in the guide); ``extensions`` are added before the guide's own.
    """
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(markdown, encoding="utf-8")
    extensions_used = [{"pymdownx.arithmatex": {"generic": True}}, *extensions, "attnlab.site.extension"]
    return write_config(tmp_path, {"site_name": "tiny", "markdown_extensions": extensions_used})
