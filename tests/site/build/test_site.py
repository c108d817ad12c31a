"""The built site (``built_site``: ``mkdocs build --strict`` once a session), read back page by page."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import numpy
from page_blocks import Element, anchors, page, parsed
from sites import DOCS, ROOT

import attnlab
from attnlab.site.pages import claims as registry
from attnlab.site.pages.guide import docs_pages

LOADS = {  # element → attributes whose URL the browser fetches by itself
    "script": ("src",), "img": ("src", "srcset"), "iframe": ("src",), "source": ("src", "srcset"),
    "video": ("src", "poster"), "audio": ("src",), "embed": ("src",), "object": ("data",),
    "image": ("href", "xlink:href"), "track": ("src",), "input": ("src",),
}
LINK_LOADS = {"stylesheet", "icon", "preload", "modulepreload", "prefetch", "preconnect", "dns-prefetch",
              "manifest", "apple-touch-icon"}
SKIP_TEXT = frozenset({"code", "pre", "script", "style", "textarea", "kbd", "samp"})


def pages(site: Path) -> list[Path]:
    """Every HTML file of the built site."""
    return sorted(site.rglob("*.html"))


def loads(root: Element) -> list[str]:
    """The URLs the elements under ``root`` make the browser load by themselves."""
    found = []
    for e in root.iter():
        if e.tag in LOADS:
            found += [e.attrs[a] for a in LOADS[e.tag] if a in e.attrs and a != "srcset"]
            found += [c.split()[0] for c in e.attrs.get("srcset", "").split(",") if c.strip()]
        if e.tag == "link" and LINK_LOADS & set(e.attrs.get("rel", "").split()):
            found.append(e.attrs.get("href", ""))
        found += re.findall(r"url\(\s*['\"]?([^'\")]+)", e.attrs.get("style", ""))
    return found


def remote(url: str) -> bool:
    """Whether loading ``url`` would contact another host (data: and same-site URLs do not)."""
    parts = urlsplit(url.strip())
    return bool(parts.netloc) or parts.scheme not in ("", "data")


def local_file(site: Path, page: Path, url: str) -> Path:
    """The file a same-site URL on ``page`` names (root-absolute URLs start at the site root)."""
    path = urlsplit(url).path
    return site / path.lstrip("/") if path.startswith("/") else page.parent / path


def test_the_built_site_holds_mathml_and_no_tex_outside_code(built_site: Path) -> None:
    assert any("<math " in p.read_text(encoding="utf-8") for p in pages(built_site))
    leftovers = [f"{p.name}: {d}" for p in pages(built_site)
                 for d in ("\\(", "\\)", "\\[", "\\]", "$$") if d in page(p).text(lambda e: e.tag in SKIP_TEXT)]
    leftovers += [p.name for p in pages(built_site) if 'class="arithmatex"' in p.read_text(encoding="utf-8")]
    assert leftovers == []


def test_no_page_or_stylesheet_loads_from_another_host_and_every_local_resource_exists(built_site: Path) -> None:
    loaded = [(p, url) for p in pages(built_site) for url in loads(page(p))]
    assert [f"{p.name}: {url}" for p, url in loaded if remote(url)] == [], "resources from other hosts"
    assert [f"{p.name}: {url}" for p, url in loaded if url and not url.startswith("data:")
            and not local_file(built_site, p, url).is_file()] == [], "local resources missing"
    remote_css = re.compile(r"url\(\s*['\"]?\s*(?:[a-z]+:)?//|@import\s+(?:url\()?\s*['\"]?\s*(?:[a-z]+:)?//", re.I)
    found = [f"{css.relative_to(built_site)}: {m.group(0)}" for css in sorted(built_site.rglob("*.css"))
             for m in remote_css.finditer(css.read_text(encoding="utf-8"))]
    assert found == []


def test_search_works_from_file_urls_its_worker_shim_shipped_and_its_index_inlined(built_site: Path) -> None:
    shim = "assets/vendor/iframe-worker/shim.js"
    assert (built_site / shim).is_file() and (built_site / "assets/vendor/iframe-worker/LICENSE").is_file()
    assert all(any(url.endswith(shim) for url in loads(page(p))) for p in pages(built_site))
    assert (built_site / "search/search_index.js").read_text(encoding="utf-8").startswith("var __index = ")


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


def test_every_internal_link_resolves(built_site: Path) -> None:
    problems = {p.name: broken_links(built_site, p) for p in pages(built_site) if p.name != "404.html"}
    assert len(problems) > 10
    assert {name: found for name, found in problems.items() if found} == {}


def test_a_missing_anchor_or_page_is_reported_and_another_host_is_not(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text('<a href="b.html#x">b</a><a href="b.html#y">b</a><a href="nowhere.html">n</a>'
                                     '<a href="https://example.org/">e</a>')
    (tmp_path / "b.html").write_text('<h2 id="x">X</h2>')
    assert broken_links(tmp_path, tmp_path / "a.html") == ["b.html#y (no anchor #y)", "nowhere.html (no such file)"]


NEGATIVE_ZERO = re.compile(r"(?<![\w.])[-\u2212]0(?:\.0+)?(?![\d.])")
"""A minus sign before a zero with only zeros after its point, not inside a word or a longer number."""


def negative_zeros(html: str) -> list[str]:
    """The negative zeros in a page's shown text, each with a little of its context."""
    text = parsed(html).text(lambda e: e.tag in ("script", "style"), " ")  # a cell apart from the next
    return [text[max(0, m.start() - 30):m.end() + 10] for m in NEGATIVE_ZERO.finditer(text)]


def test_no_built_page_shows_a_negative_zero(built_site: Path) -> None:
    sample = "<p>-0.000 and \u22120.00 and -0</p><p>-0.001, 10.000, x-0.0 and 2-0.05</p><script>-0.000</script>"
    assert len(negative_zeros(sample)) == 3, "a negative zero is found, a small negative number is not"
    found = {p.relative_to(built_site).as_posix(): negative_zeros(p.read_text(encoding="utf-8"))
             for p in pages(built_site)}
    assert {name: zeros for name, zeros in found.items() if zeros} == {}


THEME_HELPERS = "__md_get=(e,_=localStorage"
"""The start of the theme's definition of its storage helpers (an inline script in the page head)."""
GUARD = 'assets/storage-guard.js"></script>'
"""The guard's script tag, as pages address it (``assets/…``, or ``./assets/…`` on the 404 page)."""


def test_every_page_loads_the_theme_names_and_the_guard_after_the_theme_defines_its_helpers_and_before_the_palette(
        built_site: Path) -> None:
    wrong = [p.name for p in pages(built_site) if not 0 <= (html := p.read_text(encoding="utf-8")).find(THEME_HELPERS)
             < html.find(GUARD) < html.find('__md_get("__palette")')]
    assert wrong == []
    missing = [p.name for p in pages(built_site)
               if not re.search(r'src="(\./)?assets/theme-names\.js"', p.read_text(encoding="utf-8"))]
    assert missing == [], "the theme-names script"


def test_the_not_found_page_addresses_every_asset_relative_to_itself(built_site: Path) -> None:
    html = (built_site / "404.html").read_text(encoding="utf-8")
    for attribute in ("href", "src"):
        assert re.findall(rf'{attribute}="\./assets/', html) and re.findall(rf'{attribute}="(/[^"]*)"', html) == []


def test_every_page_names_the_versions_that_computed_it(built_site: Path) -> None:
    line = re.compile(rf'<details class="attn-provenance"><summary>About these numbers</summary><p>Numbers computed by '
                      rf'attnlab {re.escape(attnlab.__version__)} with numpy {re.escape(numpy.__version__)} · '
                      rf'built \d{{4}}-\d{{2}}-\d{{2}} \(UTC\)</p></details>')
    missing = [p.name for p in pages(built_site)
               if p.name != "404.html" and not line.search(p.read_text(encoding="utf-8"))]
    assert missing == []


def test_claims_page_has_a_section_for_every_claim_listing_the_pages_citing_it(built_site: Path) -> None:
    html = (built_site / "claims.html").read_text(encoding="utf-8")
    sections = dict(re.findall(r'<h2 id="([a-z]+-\d{3})">(.*?)(?=<h2 |</article>)', html, re.S))
    assert [c.id for c in registry.claims() if c.id.lower() not in sections] == []
    missing = [f"{claim_id} on {page}"
               for claim_id, cited in registry.cited_on(docs_pages(DOCS)).items()
               for page in cited if f'href="{page.removesuffix(".md")}.html"' not in sections[claim_id.lower()]]
    assert missing == []
    assert "<msqrt>" in sections["cl-001"] and "$" not in sections["cl-001"], "a statement's formulas as MathML"


def test_sources_page_lists_the_claims_resting_on_each_source(built_site: Path) -> None:
    html = (built_site / "sources.html").read_text(encoding="utf-8")
    sections = dict(re.findall(r'<h2 id="(s\d+)">(.*?)(?=<h2 |</article>)', html, re.S))
    assert all(f'href="claims.html#{c.id.lower()}"' in sections[s.id.lower()] and s.url in sections[s.id.lower()]
               for s in registry.sources() for c in registry.resting_on(s.id))


def test_site_publishes_claims_json_and_sources_bib_and_both_pages_offer_them(built_site: Path) -> None:
    data = json.loads((built_site / "claims.json").read_text(encoding="utf-8"))
    assert [c["id"] for c in data["claims"]] == [c.id for c in registry.claims()]
    assert (built_site / "sources.bib").read_text(encoding="utf-8") == registry.bibtex()
    for path in ("claims.html", "sources.html"):
        html = (built_site / path).read_text(encoding="utf-8")
        assert all(f'<a href="{name}" download>{name}</a>' in html for name in ("claims.json", "sources.bib")), path


INTERNAL_MODULES = {"checks", "cli"}
"""Modules the Reference page describes without members: their functions serve attnlab's own."""


def package_modules() -> list[str]:
    """The short names of attnlab's modules (not ``__main__``, the command line)."""
    return sorted(p.stem for p in (ROOT / "attnlab").glob("*.py") if not p.stem.startswith("_"))


def test_reference_page_documents_every_module_and_shows_the_public_api_named_in_all_and_no_helper(
        built_site: Path) -> None:
    reference = (DOCS / "reference.md").read_text(encoding="utf-8")
    assert [m for m in package_modules() if f"::: attnlab.{m}\n" not in reference] == []
    ids = anchors(page(built_site / "reference.html"))
    shown = {name: {i.split(".")[2] for i in ids if i.startswith(f"attnlab.{name}.") and i.count(".") == 2}
             for name in package_modules()}
    expected = {name: set() if name in INTERNAL_MODULES else set(importlib.import_module(f"attnlab.{name}").__all__)
                for name in package_modules()}
    assert shown == expected


def test_reference_page_shows_no_sphinx_role_and_its_contents_list_modules_not_members(built_site: Path) -> None:
    html = (built_site / "reference.html").read_text(encoding="utf-8")
    # mkdocstrings reads Markdown docstrings: a reST role (:func:`x`) would reach the reader as typed
    assert re.findall(r":(?:func|class|meth|mod|data|attr):", html) == []
    contents = set(re.findall(r'<a href="#([^"]*)" class="md-nav__link">', html))
    assert "attnlabattention" in contents and "attnlab.attention.softmax" not in contents
