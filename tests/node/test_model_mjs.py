"""``node model.mjs`` from the built site as a reader runs it: ``python -m attnlab``'s text, the lab's ``compute``
(it wraps ``assets/attnlab.js``), and one line, never a stack trace, when a write fails."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser.agreement import assert_agrees, camel, control_settings, in_javascript_terms
from model_js import node, node_output
from sites import DOCS, companion

from attnlab.__main__ import CONTRASTS
from attnlab.lab import compute


def printed(site: Path, *args: str, **options: Any) -> str:
    """What ``node model.mjs`` prints in ``site``; the run must succeed quietly."""
    done = node("model.mjs", *args, cwd=site, **options)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    return done.stdout


def imported(site: Path, settings: list[dict[str, Any]], cwd: Path) -> list[Any]:
    """``compute`` of each setting (or the message refusing it), imported from the site's model.mjs by a script
    running in ``cwd``."""
    script = (f"import {{ compute }} from {json.dumps((site / 'model.mjs').as_uri())};\n"
              "import { readFileSync } from 'node:fs';\n"
              "const settings = JSON.parse(readFileSync(0, 'utf8'));\n"
              "const run = c => { try { return compute(c); } catch (e) { return e.message; } };\n"
              "process.stdout.write(JSON.stringify(settings.map(run)));\n")
    return json.loads(node_output("--input-type=module", "-e", script, cwd=cwd, stdin=json.dumps(settings)))


def test_node_model_mjs_beside_the_pages_prints_what_the_python_companion_prints_in_any_locale_and_as_json(
        built_site: Path, offline_copy: Path) -> None:
    text = printed(built_site)
    c_locale = {**os.environ, "LANG": "C", "LC_ALL": "C"}  # Node writes UTF-8 whatever the locale
    assert text == companion() == printed(offline_copy) == printed(built_site, env=c_locale)
    titles = [block.splitlines()[0] for block in text.split("\n\n")]
    assert titles == [*(title for title, _ in CONTRASTS.values()), "WE-002: q = [√2, 0] against three keys"]
    node_report, python_report = json.loads(printed(built_site, "--json")), json.loads(companion("--json"))
    assert list(node_report) == list(CONTRASTS)
    for key in CONTRASTS:
        assert_agrees(node_report[key], in_javascript_terms(python_report[key]), where=key)


def test_imported_compute_returns_the_labs_fields_and_numbers_under_either_name_and_names_bad_controls(
        built_site: Path, tmp_path: Path) -> None:
    settings = [*control_settings(count=60), {"value_y": 4.0, "query_scale": 0.5}]
    asked = [{camel(name): value for name, value in controls.items()} for controls in settings[:-1]] + settings[-1:]
    *answers, sun, bad_y, colour = imported(built_site, [*asked, {"token": "sun"}, {"valueY": "x"}, {"colour": 1}],
                                            cwd=tmp_path)
    for controls, answer in zip(settings, answers, strict=True):
        assert_agrees(answer, in_javascript_terms(compute(controls).to_dict()), where=f"compute({controls})")
    assert sun.startswith("token must be") and bad_y.startswith("valueY must be")
    assert colour.startswith('unknown control "colour";') and colour.endswith(
        "the known controls are token, queryScale, causal, valueY, scaleScores (snake_case aliases such as "
        "query_scale work too)")
    done = node("--input-type=module", "-e", f"import {json.dumps((built_site / 'model.mjs').as_uri())};",
                cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_help_prints_the_usage_and_every_option_and_an_unknown_argument_is_refused_in_one_line_with_it(
        built_site: Path) -> None:
    for flag in ("--help", "-h"):
        usage = printed(built_site, flag)
        assert usage.startswith("usage: node model.mjs [--json] [--help]\n")
        assert "--json" in usage.split("options:")[1] and "python -m attnlab" in usage
    done = node("model.mjs", "--csv", cwd=built_site)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "node model.mjs: unknown argument(s) --csv; usage: node model.mjs [--json] [--help]\n"


def test_a_pipe_closed_early_or_a_full_disk_ends_it_with_status_1_and_at_most_one_line(built_site: Path) -> None:
    reading, writing = os.pipe()
    os.close(reading)  # a pipe nobody reads any more, as ``| head`` leaves it
    try:
        for args in ((), ("--json",), ("--help",)):
            done = node("model.mjs", *args, cwd=built_site, stdout=writing)
            assert (done.returncode, done.stderr) == (1, ""), args
    finally:
        os.close(writing)
    done = subprocess.run("node model.mjs | head -1", shell=True, cwd=built_site, capture_output=True, text=True,
                          timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, companion().splitlines()[0] + "\n", "")
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = node("model.mjs", cwd=built_site, stdout=full)
    assert (done.returncode, done.stderr) == (1, "node model.mjs: cannot write to standard output: ENOSPC\n")


def test_outside_a_built_site_it_names_the_file_it_needs_in_one_line(tmp_path: Path) -> None:
    shutil.copy(DOCS / "model.mjs", tmp_path / "model.mjs")
    done = node("model.mjs", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith(f"node model.mjs: model.mjs needs {tmp_path / 'assets' / 'lab-data.js'}")
    assert "mkdocs build" in done.stderr and "offline copy" in done.stderr and done.stderr.count("\n") == 1


def test_the_toy_it_exports_cannot_be_changed_under_compute(built_site: Path, tmp_path: Path) -> None:
    script = (f"import {{ toy, contrasts, compute }} from {json.dumps((built_site / 'model.mjs').as_uri())};\n"
              "try { toy.w_v[0][0] = NaN; contrasts[0].controls.token = 'grid'; } catch (e) {}\n"
              "process.stdout.write(JSON.stringify([compute({}).output, contrasts[0].controls]));\n")
    assert json.loads(node_output("--input-type=module", "-e", script, cwd=tmp_path)) == [list(compute().output), {}]


def test_the_module_holds_no_maths_of_its_own() -> None:
    # one copy of the calculation: assets/attnlab.js, which the browser lab runs too
    module = (DOCS / "model.mjs").read_text(encoding="utf-8")
    assert not [maths for maths in ("Math.", "exp(", "sqrt", "reduce(") if maths in module]


# --- the snippets the Notes page shows ------------------------------------------------------------------------

SNIPPET = re.compile(r"^```javascript\n(.*?)^```", re.M | re.S)
NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def notes_snippet(containing: str) -> str:
    """The one JavaScript block of docs/notes.md that contains ``containing``."""
    [snippet] = [s for s in SNIPPET.findall((DOCS / "notes.md").read_text(encoding="utf-8")) if containing in s]
    return snippet


def logged(stdout: str) -> list[list[float]]:
    """The arrays a snippet printed with console.log, one per line."""
    return [[float(x) for x in NUMBER.findall(line)] for line in stdout.splitlines()]


def test_the_notes_require_and_import_snippets_run_as_shown(built_site: Path, tmp_path: Path) -> None:
    snippet = notes_snippet("require(")
    (tmp_path / "site").symlink_to(built_site)
    (tmp_path / "docs").symlink_to(DOCS)
    command = re.search(r"^//\s+python (-c .*)$", snippet, re.M).group(1)  # how the snippet makes toy.json
    subprocess.run(f"{sys.executable} {command}", shell=True, cwd=tmp_path, check=True, timeout=120)
    (tmp_path / "snippet.cjs").write_text(snippet, encoding="utf-8")
    expected = [compute(value_y=4.0).output, compute("load").weights]
    assert logged(node_output("snippet.cjs", cwd=tmp_path)) == [pytest.approx(row, rel=1e-12) for row in expected]
    site = tmp_path / "copy"  # the import snippet runs beside the pages
    shutil.copytree(built_site, site)
    (site / "snippet.mjs").write_text(notes_snippet("import { compute }"), encoding="utf-8")
    weights = compute("grid", causal=False).weights
    assert logged(node_output("snippet.mjs", cwd=site)) == [pytest.approx(weights, rel=1e-12)]


def test_the_notes_link_to_the_module_and_show_how_to_run_it_and_the_home_page_links_there(built_site: Path) -> None:
    html = (built_site / "notes.html").read_text(encoding="utf-8")
    assert '<a href="model.mjs" download>model.mjs</a>' in html and "node model.mjs" in html
    assert 'href="notes.html#running-the-companion"' in (built_site / "index.html").read_text(encoding="utf-8")
