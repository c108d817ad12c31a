"""Citing the guide and its claims: ``CITATION.cff`` in step with the package, and the Claims page's instructions."""

from __future__ import annotations

import datetime
import json
import re

import yaml
from sites import DOCS, ROOT

import attnlab
from attnlab.site.pages import claims as registry

CITATION = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def test_the_citation_has_what_the_format_requires_the_packages_version_and_a_date_not_after_today() -> None:
    # Citation File Format 1.2.0: cff-version, message, title and authors are required
    assert CITATION["cff-version"] == "1.2.0"
    assert CITATION["message"].strip() and CITATION["title"].strip()
    assert all(author.get("name") or author.get("family-names") for author in CITATION["authors"])
    assert CITATION["version"] == attnlab.__version__
    released = CITATION["date-released"]
    assert isinstance(released, datetime.date) and released <= datetime.date.today()


def test_the_citation_licences_are_the_readmes() -> None:
    # README: "Prose and exercises: CC0-1.0. Code: MIT"; pyproject.toml gives the package MIT
    licence = re.search(
        r"^## Licence\n\n(.*?)(\n\n|\Z)", (ROOT / "README.md").read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL
    )
    assert sorted(CITATION["license"]) == ["CC0-1.0", "MIT"]
    assert all(spdx in licence.group(1) for spdx in CITATION["license"])
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_claims_page_says_how_to_cite_a_claim_with_fields_claims_json_has() -> None:
    section = (DOCS / "claims.md").read_text(encoding="utf-8").split("## How to cite a claim", 1)[1].split("<!--", 1)[0]
    fields = set(json.loads(registry.as_json({}))["claims"][0])
    quoted = set(re.findall(r"`(\w+)`\s+field", section))
    assert {"statement", "id", "sources", "locator"} <= quoted <= fields
    assert "`claims.html#cl-005`" in section and "CITATION.cff" in section

