"""The theme's storage helpers are wrapped so blocked site data cannot throw."""

from __future__ import annotations

from pathlib import Path

import pytest

from attnlab.site.theme_storage import DEFINITION, GUARD, guarded


def test_guard_follows_the_theme_definition_once() -> None:
    page = f"<head><script>__md_get=x,{DEFINITION}<script>__md_get('a')</script>"
    assert guarded(page) == f"<head><script>__md_get=x,{DEFINITION}{GUARD}<script>__md_get('a')</script>"


def test_a_changed_theme_definition_stops_the_build() -> None:
    with pytest.raises(ValueError, match="__md_get/__md_set definition has changed"):
        guarded("<script>__md_get=()=>1</script>")


def test_every_built_page_carries_the_guard(built_site: Path) -> None:
    missing = [p.name for p in built_site.glob("*.html") if GUARD not in p.read_text(encoding="utf-8")]
    assert missing == []
