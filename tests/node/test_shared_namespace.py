"""The site's scripts share one namespace, ``globalThis.attnlab``: loaded into one context in any order, it holds
every key each script gives when loaded alone."""

from __future__ import annotations

import itertools
import json

from model_js import node_output
from sites import ROOT

ASSETS = ROOT / "docs" / "assets"
SCRIPTS = ("wordpiece.js", "minilm.js", "attnlab.js", "explorer-model.js")

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
    paths = [[str(ASSETS / name) for name in order] for order in orders]
    return json.loads(node_output("-e", LOADER, stdin=json.dumps(paths)))


def test_every_order_of_loading_keeps_every_scripts_keys() -> None:
    alone = namespaces([(name,) for name in SCRIPTS])
    assert all(alone)
    every = sorted(set().union(*alone))
    assert namespaces(list(itertools.permutations(SCRIPTS))) == [every] * 24
