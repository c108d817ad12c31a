"""The math font (Noto Sans Math, with its MATH table) cut to the characters the built pages' formulas draw: their
text, the italic of a one-letter ``<mi>`` (MathML Core's automatic italic), a root's radical (timestamps kept: the same
pages, the same bytes). The guide's cut is committed: ``CUT``, its characters beside it (``.txt``)."""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Iterable
from html import unescape
from pathlib import Path

FONT = "assets/fonts/noto-sans-math.woff2"
CUT = Path(__file__).parent / "data" / "math-font.woff2"  # written by scripts/math_font.py
MATH = re.compile(r"<math\b.*?</math\s*>", re.S)
TAG = re.compile(r"<[^>]+>")
ONE_LETTER = re.compile(r"<mi>\s*([^<\s])\s*</mi>")
"""A one-letter identifier with no ``mathvariant``: the browser draws it in italic."""
ROOT = re.compile(r"<m(?:sqrt|root)\b")
GLYPH_TABLES = {"glyf", "loca"}
"""The tables WOFF2 can transform (rebuilding them takes fontTools most of the time of reading a font)."""
ITALIC = {chr(int(unicodedata.decomposition(c).split()[1], 16)): c
          for c in map(chr, (*range(0x1D400, 0x1D800), 0x210E))
          if unicodedata.name(c, "").startswith("MATHEMATICAL ITALIC ") or c == "\u210e"}
"""Letter → its mathematical italic, by Unicode's font decompositions (italic h is U+210E, the Planck constant)."""


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
    """``font`` (WOFF2) cut to ``characters``, keeping the MATH table and every layout feature."""
    from fontTools import subset as fonttools_subset  # the docs extra; only the build cuts fonts
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.woff2 import WOFF2FlavorData

    loaded = TTFont(io.BytesIO(font), recalcTimestamp=False)
    cutter = fonttools_subset.Subsetter(fonttools_subset.Options(layout_features=["*"]))
    cutter.populate(unicodes=sorted(ord(c) for c in characters))
    cutter.subset(loaded)
    out = io.BytesIO()
    # the source's glyphs are untransformed (half the time to read them); the cut's transformed, as is usual (smaller)
    loaded.flavorData = WOFF2FlavorData(data=loaded.flavorData, transformedTables=GLYPH_TABLES)
    loaded.save(out)
    return out.getvalue()


def write(site: Path) -> None:
    """Cut the built ``site``'s math font to what its pages' formulas draw (no font, no change): ``CUT`` if it can."""
    target = site / FONT
    if not target.is_file():
        return
    characters = formula_characters(path.read_text(encoding="utf-8") for path in sorted(site.rglob("*.html")))
    committed = characters <= set(CUT.with_suffix(".txt").read_text(encoding="utf-8"))
    target.write_bytes(CUT.read_bytes() if committed else subset(target.read_bytes(), characters))
