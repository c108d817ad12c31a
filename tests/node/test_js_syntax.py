"""Every script the site ships parses (each file under ``docs/assets`` as a classic script, ``model.mjs`` as a
module), and those sharing ``globalThis.attnlab``, loaded into one context in any order, leave in it every key each
gives when loaded alone."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from model_js import node_output
from sites import DOCS

SCRIPTS = sorted([*(DOCS / "assets").rglob("*.js"), DOCS / "model.mjs"])
PARSER = """
const vm = require("vm"), fs = require("fs");
process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(0, "utf8")).map(file => {
  const source = fs.readFileSync(file, "utf8");
  try { return (file.endsWith(".mjs") ? new vm.SourceTextModule(source) : new vm.Script(source)) && ""; }
  catch (e) { return String(e); }
})));
"""


def parse_errors(scripts: list[Path]) -> list[str]:
    """For each script, "" or the error that stops it parsing."""
    return json.loads(node_output("--experimental-vm-modules", "--no-warnings", "-e", PARSER,
                                  stdin=json.dumps([str(s) for s in scripts])))


def test_every_script_parses_where_a_script_or_module_with_a_syntax_error_would_not(tmp_path: Path) -> None:
    assert len(SCRIPTS) > 5
    errors = parse_errors(SCRIPTS)
    assert not any(errors), [(s.relative_to(DOCS).as_posix(), e) for s, e in zip(SCRIPTS, errors, strict=True) if e]
    (tmp_path / "broken.js").write_text("function (", encoding="utf-8")
    (tmp_path / "broken.mjs").write_text("export const x = ;", encoding="utf-8")
    assert all(parse_errors([tmp_path / "broken.js", tmp_path / "broken.mjs"]))


SHARING = ("wordpiece.js", "minilm.js", "attnlab.js", "explorer-model.js")
"""The scripts that add to ``globalThis.attnlab``."""
LOADER = """
const vm = require("vm"), fs = require("fs");
const keys = files => {
  const context = vm.createContext({});
  for (const file of files) vm.runInContext(fs.readFileSync(file, "utf8"), context, {filename: file});
  return Object.keys(vm.runInContext("globalThis.attnlab", context)).sort();
};
process.stdout.write(JSON.stringify(JSON.parse(fs.readFileSync(0, "utf8")).map(keys)));
"""


def namespaces(orders: list[tuple[str, ...]]) -> list[list[str]]:
    """The keys of ``globalThis.attnlab`` after loading each order of scripts into a fresh context."""
    paths = [[str(DOCS / "assets" / name) for name in order] for order in orders]
    return json.loads(node_output("-e", LOADER, stdin=json.dumps(paths)))


def test_every_order_of_loading_keeps_every_scripts_keys() -> None:
    alone = namespaces([(name,) for name in SHARING])
    assert all(alone)
    every = sorted(set().union(*alone))
    assert namespaces(list(itertools.permutations(SHARING))) == [every] * 24
