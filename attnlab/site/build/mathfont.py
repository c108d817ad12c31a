"""The math font (Noto Sans Math, with its MATH table) cut to the characters the built pages' formulas draw.

Their text, the italic a one-letter ``<mi>`` is drawn in (MathML Core's
automatic italic) and the radical of a root; fontTools keeps what the MATH
table and layout features reach from those. Timestamps are kept, so the same
pages give the same bytes.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from html import unescape
from pathlib import Path

FONT = "assets/fonts/noto-sans-math.woff2"
MATH = re.compile(r"<math\b.*?</math\s*>", re.S)
TAG = re.compile(r"<[^>]+>")
ONE_LETTER = re.compile(r"<mi>\s*([^<\s])\s*</mi>")
"""A one-letter identifier with no ``mathvariant``: the browser draws it in italic."""
ROOT = re.compile(r"<m(?:sqrt|root)\b")
GLYPH_TABLES = {"glyf", "loca"}
"""The tables WOFF2 can transform (rebuilding them takes fontTools most of the time of reading a font)."""


def italic_letters() -> dict[str, str]:
    """Letter → its mathematical italic (Unicode's Mathematical Alphanumeric Symbols: Latin from U+1D434, Greek
    from U+1D6E2, its symbols after the small letters; italic h is U+210E; U+03A2 is unassigned)."""
    latin = {chr(0x41 + i): chr(0x1D434 + i) for i in range(26)} | {
        chr(0x61 + i): chr(0x1D44E + i) for i in range(26) if i != 7}
    greek = {chr(0x391 + i): chr(0x1D6E2 + i) for i in range(25) if i != 17} | {
        chr(0x3B1 + i): chr(0x1D6FC + i) for i in range(25)}
    symbols = dict(zip("ϴ∇∂ϵϑϰϕϱϖ", map(chr, (0x1D6F3, 0x1D6FB, *range(0x1D715, 0x1D71C)))))
    return latin | {"h": "\u210e", "ı": "\U0001d6a4", "ȷ": "\U0001d6a5"} | greek | symbols


ITALIC = italic_letters()


def formula_characters(pages: Iterable[str]) -> set[str]:
    """Every character the browser draws for the ``<math>`` elements of the HTML ``pages``."""
    found: set[str] = set()
    for html in pages:
        for formula in MATH.findall(html):
            found |= set(unescape(TAG.sub("", formula)))
            found |= {ITALIC[letter] for letter in map(unescape, ONE_LETTER.findall(formula)) if letter in ITALIC}
            if ROOT.search(formula):
                found.add("√")
    return found - {"\n", "\t", "\r"}


def subset(font: bytes, characters: Iterable[str]) -> bytes:
    """``font`` (WOFF2) holding only ``characters``, with the MATH table and every layout feature, its glyph
    tables transformed."""
    from fontTools import subset as fonttools_subset  # the docs extra; only the build cuts fonts
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.woff2 import WOFF2FlavorData

    options = fonttools_subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    loaded = TTFont(io.BytesIO(font), recalcTimestamp=False)
    cutter = fonttools_subset.Subsetter(options)
    cutter.populate(unicodes=sorted(ord(c) for c in characters))
    cutter.subset(loaded)
    out = io.BytesIO()
    loaded.flavor = "woff2"
    # the source keeps its glyphs untransformed, which spares reading them half the cut's time; the cut
    # transforms them as WOFF2 usually does, which makes it smaller
    loaded.flavorData = WOFF2FlavorData(data=loaded.flavorData, transformedTables=GLYPH_TABLES)
    loaded.save(out)
    return out.getvalue()


def write(site: Path) -> None:
    """Cut the built ``site``'s math font to the characters its pages' formulas use (no font, no change)."""
    target = site / FONT
    if not target.is_file():
        return
    characters = formula_characters(path.read_text(encoding="utf-8") for path in sorted(site.rglob("*.html")))
    target.write_bytes(subset(target.read_bytes(), characters))
