"""Every link inside the built site leads to a page and anchor that exist."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

from page_blocks import anchors, page


def broken_links(site: Path, path: Path) -> list[str]:
    """Internal links of the page at ``path`` whose file or #anchor does not exist in ``site``."""
    broken = []
    for href in [e.attrs["href"] for e in page(path).iter() if e.tag == "a" and e.attrs.get("href")]:
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            continue  # another host or mailto: not part of the site
        target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file() or site.resolve() not in target.parents:
            broken.append(f"{href} (no such file)")
        elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in anchors(page(target)):
            broken.append(f"{href} (no anchor #{parts.fragment})")
    return broken


def pages(site: Path) -> list[Path]:
    return sorted(p for p in site.glob("*.html") if p.name != "404.html")


def test_every_internal_link_resolves(built_site: Path) -> None:
    assert len(pages(built_site)) > 10
    problems = {p.name: broken_links(built_site, p) for p in pages(built_site)}
    assert {name: found for name, found in problems.items() if found} == {}


def test_a_missing_anchor_or_page_is_reported_and_another_host_is_not(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text('<a href="b.html#x">b</a><a href="b.html#y">b</a><a href="nowhere.html">n</a>'
                                     '<a href="https://example.org/">e</a>')
    (tmp_path / "b.html").write_text('<h2 id="x">X</h2>')
    assert broken_links(tmp_path, tmp_path / "a.html") == ["b.html#y (no anchor #y)", "nowhere.html (no such file)"]
