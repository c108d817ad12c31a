"""The built site (``built_site``: ``mkdocs build --strict`` once a session): MathML instead of TeX, nothing loaded
from other hosts, provenance, the claims, sources and Reference pages."""

from __future__ import annotations

import importlib
import json
import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import numpy
import pytest
from fontTools.ttLib import TTFont
from hypothesis import given
from hypothesis import strategies as st
from mkdocs.exceptions import PluginError
from sites import DOCS, ROOT

import attnlab
from attnlab.site.build import plugin
from attnlab.site.pages import citations
from attnlab.site.pages import claims as registry
from attnlab.site.pages.guide import docs_pages
from attnlab.site.pages.mathml import FormulaError, mathml, plain_statement, plain_text, to_mathml

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
    found = sorted(site.rglob("*.html"))
    assert found, f"no HTML in {site}"
    return found


class Scan(HTMLParser):
    """Collects the URLs a page loads, its ids and links, its text outside the elements ``skip`` names, and the
    text of each highlighted code listing (``<div class="highlight">`` … ``<code>``)."""

    def __init__(self, skip: frozenset[str] = SKIP_TEXT) -> None:
        super().__init__(convert_charrefs=True)
        self.skip = skip
        self.loads: list[str] = []
        self.text: list[str] = []
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.listings: list[str] = []
        self._code = 0
        self._highlight = 0  # <div> nesting inside a highlighted listing, 0 outside one
        self._listing = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        self.ids |= {found.get("id", ""), found.get("name", "")}
        if tag in LOADS:
            self.loads += [found[a] for a in LOADS[tag] if a in found and a != "srcset"]
            self.loads += [c.split()[0] for c in found.get("srcset", "").split(",") if c.strip()]
        if tag == "link" and LINK_LOADS & set(found.get("rel", "").split()):
            self.loads.append(found.get("href", ""))
        if tag == "a" and found.get("href"):
            self.hrefs.append(found["href"])
        self.loads += re.findall(r"url\(\s*['\"]?([^'\")]+)", found.get("style", ""))
        self._code += tag in self.skip
        if tag == "div" and (self._highlight or "highlight" in found.get("class", "").split()):
            self._highlight += 1
        elif tag == "code" and self._highlight:
            self._listing = True
            self.listings.append("")

    def handle_endtag(self, tag: str) -> None:
        self._code -= tag in self.skip and self._code > 0
        if tag == "div" and self._highlight:
            self._highlight -= 1
        self._listing = self._listing and tag != "code"

    def handle_data(self, data: str) -> None:
        if not self._code:
            self.text.append(data)
        if self._listing:
            self.listings[-1] += data


@cache
def scan(path: Path) -> Scan:
    """Parse one built page."""
    parser = Scan()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def remote(url: str) -> bool:
    """Whether loading ``url`` would contact another host (data: and same-site URLs do not)."""
    parts = urlsplit(url.strip())
    return bool(parts.netloc) or parts.scheme not in ("", "data")


def local_file(site: Path, page: Path, url: str) -> Path:
    """The file a same-site URL on ``page`` names (root-absolute URLs start at the site root)."""
    path = urlsplit(url).path
    return site / path.lstrip("/") if path.startswith("/") else page.parent / path


# --- the math conversion --------------------------------------------------------------------------------

CONVERTED = {  # TeX → a piece of its MathML
    r"\frac{a}{\sqrt{d_k}}": '<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><mfrac>',
    r"\sqrt{d_k}": "<msqrt><mrow><msub><mi>d</mi><mi>k</mi></msub></mrow></msqrt>",
    "[-3, 5]": '<mo stretchy="false">[</mo><mo form="prefix">\u2212</mo><mn>3</mn>',  # a sign, not a subtraction
    "a - b": "<mi>a</mi><mo>\u2212</mo><mi>b</mi>",
    "(a) - b": '<mo stretchy="false">)</mo><mo>\u2212</mo>',
    r"-\infty": "<mi>\u221e</mi>",  # an identifier, not an operator
    r"\{ a \}": "<mo",  # escaped braces are no group
}
REFUSED = {
    r"\begin{aligned} a &= b \\ c &= d \end{aligned}": "aligned",
    r"\operatorname*{arg\,max}_j s_j": r"operatorname\*",
    r"\sofmax(x)": r"unknown command \\sofmax",
    r"\frac{a}": "<mfrac> has 1 arguments, expected 2",
    r"\left( x": "cannot convert",
    "x^{2": r"1 brace group\(s\) opened with \{ are never closed",
    "x^{2}}": r"a closing brace \} has no opening \{",
}


def test_tex_becomes_mathml_and_what_cannot_be_converted_is_refused_naming_why() -> None:
    assert {tex: expected in to_mathml(tex) for tex, expected in CONVERTED.items()} == dict.fromkeys(CONVERTED, True)
    assert 'display="block"' in to_mathml("x^2", display=True) and "{" in to_mathml(r"\{ a")
    for tex, message in REFUSED.items():
        with pytest.raises(FormulaError, match=message):
            to_mathml(tex)


@given(st.integers(min_value=0, max_value=10**9))
def test_a_whole_number_becomes_one_mn(n: int) -> None:
    assert f"<mn>{n}</mn>" in to_mathml(str(n))


def test_page_pass_replaces_inline_and_display_arithmatex_with_mathml() -> None:
    html = ('<p>Here <span class="arithmatex">\\(a &lt; b\\)</span>.</p>\n'
            '<div class="arithmatex">\\[\nx^2\n\\]</div>')
    out = mathml(html, "docs/p.md")
    assert "arithmatex" not in out and "\\(" not in out and "\\[" not in out
    assert '<mi>a</mi><mo>&lt;</mo><mi>b</mi>' in out and 'display="block"' in out


def test_plain_text_writes_scripts_as_unicode_where_it_has_them() -> None:
    assert plain_text(r"\mathrm{softmax}(Q K^\top / \sqrt{d_k})") == "softmax(QKᵀ/√dₖ)"
    assert plain_text(r"d_{\text{model}} = 512") == "d_model = 512"  # the mark of a script Unicode lacks
    assert plain_statement(r"divided by $\sqrt{d_k}$, then $-\infty$ blocks") == "divided by √dₖ, then −∞ blocks"


# --- math in the built site ---------------------------------------------------------------------


def test_the_built_site_holds_mathml_and_no_tex_outside_code(built_site: Path) -> None:
    assert any("<math " in p.read_text(encoding="utf-8") for p in pages(built_site))
    leftovers = [f"{p.name}: {d}" for p in pages(built_site)
                 for d in ("\\(", "\\)", "\\[", "\\]", "$$") if d in "".join(scan(p).text)]
    leftovers += [p.name for p in pages(built_site) if 'class="arithmatex"' in p.read_text(encoding="utf-8")]
    assert leftovers == []


def test_math_is_drawn_with_the_shipped_woff2_font_its_math_table_and_licence(built_site: Path) -> None:
    font = TTFont(built_site / "assets/fonts/noto-sans-math.woff2")
    assert font.flavor == "woff2" and "MATH" in font
    assert "SIL OPEN FONT LICENSE Version 1.1" in (built_site / "assets/fonts/OFL.txt").read_text()
    css = (built_site / "assets/attnlab.css").read_text(encoding="utf-8")
    assert 'url("fonts/noto-sans-math.woff2")' in css and re.search(r"math \{\s*font-family: \"Attention Lab", css)


# --- offline and self-contained -----------------------------------------------------------------


def test_no_page_or_stylesheet_loads_from_another_host_and_every_local_resource_exists(built_site: Path) -> None:
    loads = [(p, url) for p in pages(built_site) for url in scan(p).loads]
    assert [f"{p.name}: {url}" for p, url in loads if remote(url)] == [], "resources from other hosts"
    assert [f"{p.name}: {url}" for p, url in loads if url and not url.startswith("data:")
            and not local_file(built_site, p, url).is_file()] == [], "local resources missing"
    remote_css = re.compile(r"url\(\s*['\"]?\s*(?:[a-z]+:)?//|@import\s+(?:url\()?\s*['\"]?\s*(?:[a-z]+:)?//", re.I)
    found = [f"{css.relative_to(built_site)}: {m.group(0)}" for css in sorted(built_site.rglob("*.css"))
             for m in remote_css.finditer(css.read_text(encoding="utf-8"))]
    assert found == []


def test_search_works_from_file_urls_its_worker_shim_shipped_and_its_index_inlined(built_site: Path) -> None:
    shim = "assets/vendor/iframe-worker/shim.js"
    assert (built_site / shim).is_file() and (built_site / "assets/vendor/iframe-worker/LICENSE").is_file()
    assert all(any(url.endswith(shim) for url in scan(p).loads) for p in pages(built_site))
    assert (built_site / "search/search_index.js").read_text(encoding="utf-8").startswith("var __index = ")


# --- provenance -------------------------------------------------------------------------------


def test_every_page_names_the_versions_that_computed_it(built_site: Path) -> None:
    line = re.compile(rf'<details class="attn-provenance"><summary>About these numbers</summary><p>Numbers computed by '
                      rf'attnlab {re.escape(attnlab.__version__)} with numpy {re.escape(numpy.__version__)} · '
                      rf'built \d{{4}}-\d{{2}}-\d{{2}} \(UTC\)</p></details>')
    missing = [p.name for p in pages(built_site)
               if p.name != "404.html" and not line.search(p.read_text(encoding="utf-8"))]
    assert missing == []


# --- claims, sources, reference -------------------------------------------------------------------


def test_claims_page_has_a_section_for_every_claim_listing_the_pages_citing_it(built_site: Path) -> None:
    html = (built_site / "claims.html").read_text(encoding="utf-8")
    sections = dict(re.findall(r'<h2 id="([a-z]+-\d{3})">(.*?)(?=<h2 |</article>)', html, re.S))
    assert [c.id for c in registry.claims() if c.id.lower() not in sections] == []
    missing = [f"{claim_id} on {page}"
               for claim_id, cited in citations.cited_on(docs_pages(DOCS)).items()
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
    for page in ("claims.html", "sources.html"):
        html = (built_site / page).read_text(encoding="utf-8")
        assert all(f'<a href="{name}" download>{name}</a>' in html for name in ("claims.json", "sources.bib")), page


INTERNAL_MODULES = {"checks", "cli"}
"""Modules the Reference page describes without members: their functions serve attnlab's own."""


def package_modules() -> list[str]:
    """The short names of attnlab's modules (not ``__main__``, the command line)."""
    return sorted(p.stem for p in (ROOT / "attnlab").glob("*.py") if not p.stem.startswith("_"))


def test_reference_page_documents_every_module_of_the_package() -> None:
    reference = (DOCS / "reference.md").read_text(encoding="utf-8")
    assert [m for m in package_modules() if f"::: attnlab.{m}\n" not in reference] == []


def test_every_public_module_names_its_public_api_in_all() -> None:
    modules = {name: importlib.import_module(f"attnlab.{name}") for name in package_modules()}
    without = [name for name, module in modules.items()
               if name not in INTERNAL_MODULES and not getattr(module, "__all__", None)]
    unknown = [f"attnlab.{name}.{n}" for name, module in modules.items()
               for n in getattr(module, "__all__", ()) if not hasattr(module, n)]
    assert (without, unknown) == ([], [])


def test_reference_page_shows_the_public_api_and_no_helper(built_site: Path) -> None:
    ids = scan(built_site / "reference.html").ids
    shown = {name: {i.split(".")[2] for i in ids if i.startswith(f"attnlab.{name}.") and i.count(".") == 2}
             for name in package_modules()}
    expected = {name: set() if name in INTERNAL_MODULES else set(importlib.import_module(f"attnlab.{name}").__all__)
                for name in package_modules()}
    assert shown == expected


def test_toc_depth_that_is_not_a_heading_level_stops_the_build() -> None:
    page = SimpleNamespace(meta={"toc_depth": 7}, toc=[], file=SimpleNamespace(src_uri="reference.md"))
    with pytest.raises(PluginError, match=r"reference.md: toc_depth must be a heading level 1-6, got 7"):
        plugin.AttnlabPlugin().on_page_content("", page=page, config=SimpleNamespace(docs_dir="docs", nav=[]))


def test_reference_contents_list_modules_not_members(built_site: Path) -> None:
    html = (built_site / "reference.html").read_text(encoding="utf-8")
    contents = set(re.findall(r'<a href="#([^"]*)" class="md-nav__link">', html))
    assert "attnlabattention" in contents and "attnlab.attention.softmax" not in contents
