"""Building sites for tests: the docs, their config read and written, a page converted in-process, a one-page site."""

from __future__ import annotations

import functools
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from markdown import Markdown

from attnlab.site.build.convert import page_html, page_markdown
from attnlab.site.pages.guide import Guide, Page, nav_pages
from attnlab.site.pages.source import FRONT_MATTER

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
CONFIG = ROOT / "mkdocs.yml"
PYTHON_NAME = "tag:yaml.org,2002:python/name:"


def build(config: Path, destination: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of ``config`` into ``destination`` (never ``-q``, which hides warnings from strict)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(destination)],
        cwd=config.parent, env=env, capture_output=True, text=True, timeout=600,
    )


def run_command(*args: str, stdout: int = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """Run ``python <args>`` from the repository root and return the finished process."""
    return subprocess.run([sys.executable, *args], cwd=ROOT, stdout=stdout, stderr=subprocess.PIPE, text=True,
                          timeout=300, check=False)


@functools.cache
def companion(*args: str) -> str:
    """What ``python -m attnlab`` prints with ``args``, run from the repository; it must succeed quietly."""
    done = run_command("-m", "attnlab", *args)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return done.stdout


class PythonName(str):
    """A ``!!python/name:module.object`` reference in ``mkdocs.yml``, kept as its dotted name."""


class EnvTag(list):
    """An ``!ENV [VARIABLE, default]`` value in ``mkdocs.yml``, kept as written (MkDocs reads the variable)."""


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, reading ``!!python/name:`` tags as :class:`PythonName` (nothing is imported)."""


class _Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, writing :class:`PythonName` back as its tag."""


_Loader.add_multi_constructor(PYTHON_NAME, lambda loader, suffix, node: PythonName(suffix))
_Dumper.add_representer(PythonName, lambda dumper, name: dumper.represent_scalar(PYTHON_NAME + name, ""))
_Loader.add_constructor("!ENV", lambda loader, node: EnvTag(loader.construct_sequence(node)))
_Dumper.add_representer(EnvTag, lambda dumper, tag: dumper.represent_sequence("!ENV", list(tag), flow_style=True))


def files(site: Path) -> dict[str, bytes]:
    """Every file of a built site by its path inside it."""
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in sorted(site.rglob("*")) if p.is_file()}


def site_pages() -> list[str]:
    """Every HTML page the guide's build writes (its navigation's pages and 404.html), read from ``mkdocs.yml``."""
    return sorted([path.removesuffix(".md") + ".html" for path, _ in nav_pages(read_config()["nav"])] + ["404.html"])


def read_config(config: Path = CONFIG) -> dict:
    """``mkdocs.yml`` as data; a ``!!python/name:`` reference (a fence formatter) is a :class:`PythonName`,
    an ``!ENV`` value an :class:`EnvTag`."""
    return yaml.load(config.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506 - a safe loader


def guide() -> Guide:
    """The guide's pages as mkdocs.yml's navigation lists them."""
    return Guide.read(DOCS, tuple(nav_pages(read_config()["nav"])))


def write_config(root: Path, config: dict) -> Path:
    """Write ``config`` as ``root/mkdocs.yml``; return its path."""
    path = root / "mkdocs.yml"
    path.write_text(yaml.dump(config, Dumper=_Dumper, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def docs_copy(tmp_path: Path) -> Path:
    """A copy of the guide's sources (config, docs, theme overrides) to change, building as the guide does."""
    root = tmp_path / "guide"
    shutil.copytree(DOCS, root / "docs")
    shutil.copytree(ROOT / "overrides", root / "overrides")
    write_config(root, read_config())
    return root


def converted(root: Path, markdown: str, path: str = "p.md") -> str:
    """``markdown`` saved as ``root/docs/<path>`` and converted in-process as the guide's plugin does (front matter
    stripped), with the Markdown extensions ``mkdocs.yml`` configures (Python blocks through the guide's formatter)."""
    (root / "docs").mkdir(exist_ok=True)
    (root / "docs" / path).write_text(markdown, encoding="utf-8")
    page = Page(path, root / "docs")
    settings = dict(item.popitem() if isinstance(item, dict) else (item, {})
                    for item in read_config()["markdown_extensions"])
    md = Markdown(extensions=list(settings), extension_configs={name: imported(config)
                                                                for name, config in settings.items()})
    return page_html(md.convert(page_markdown(FRONT_MATTER.sub("", markdown), page)), page)


def imported(value: object) -> object:
    """A ``mkdocs.yml`` value with each :class:`PythonName` replaced by the object it names."""
    if isinstance(value, PythonName):
        module, _, name = value.rpartition(".")
        return getattr(importlib.import_module(module), name)
    if isinstance(value, dict | list):
        return {k: imported(v) for k, v in value.items()} if isinstance(value, dict) else [imported(v) for v in value]
    return value


def one_page_site(tmp_path: Path, markdown: str, **settings: object) -> Path:
    """A site of one page, ``docs/index.md``, with every Markdown setting of the guide (its plugin, formatter, theme
    and overrides) and ``settings`` (None leaves a setting out); returns its config."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(markdown, encoding="utf-8")
    shutil.copytree(ROOT / "overrides", tmp_path / "overrides")
    config = {**read_config(), "nav": [{"Home": "index.md"}], "extra_css": [], "extra_javascript": [], "extra": {},
              **settings}
    # the plugins a page of prose and code blocks needs: the guide's and markdown-exec's
    config["plugins"] = [p for p in config["plugins"] if p == "attnlab" or "markdown-exec" in p]
    return write_config(tmp_path, {name: value for name, value in config.items() if value is not None})
