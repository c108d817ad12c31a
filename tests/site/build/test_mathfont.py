"""The math font is cut to the characters the built pages' formulas use, and keeps every one of them."""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

from fontTools.ttLib import TTFont
from sites import DOCS

from attnlab.site.build.mathfont import FONT, GLYPH_TABLES, ITALIC, formula_characters, subset

SOURCE = DOCS / FONT
"""The font as the repository holds it, before the build cuts it."""


def font_characters(font: bytes) -> set[str]:
    """The characters ``font`` (a WOFF2 file) maps to a glyph."""
    return {chr(code) for code in TTFont(io.BytesIO(font)).getBestCmap()}


def test_formula_characters_are_the_text_in_math_elements_the_italic_of_a_one_letter_mi_and_a_roots_sign() -> None:
    html = '<p>x</p><math display="block"><mi>ab</mi><mo>&lt;</mo>\n<mn>2</mn></math><p>y</p><math><mn>3</mn></math>'
    assert formula_characters([html]) == {"a", "b", "<", "2", "3"}
    html = '<math><mi>h</mi><mi>Q</mi><mi>σ</mi><mi>max</mi><mi mathvariant="normal">V</mi></math>'
    assert formula_characters([html]) - set("hQσmaxV") == {"\u210e", "\U0001d444", "\U0001d70e"}
    assert "√" in formula_characters(["<math><msqrt><mn>2</mn></msqrt></math>"])
    assert formula_characters(["<p>no formula</p>"]) == set()


def test_every_italic_is_the_mathematical_italic_of_its_letter() -> None:
    for letter, italic in ITALIC.items():
        assert unicodedata.name(italic).startswith("MATHEMATICAL ITALIC") or italic == "\u210e"
        assert unicodedata.name(letter).split()[-1] == unicodedata.name(italic).split()[-1] or letter == "h"


def test_the_cut_font_maps_exactly_the_characters_asked_for_keeps_its_math_table_transforms_its_glyphs_alike() -> None:
    asked = {"a", "√", "∑", "(", ")"}
    cut = subset(SOURCE.read_bytes(), asked)
    assert font_characters(cut) == asked and cut == subset(SOURCE.read_bytes(), asked)
    font = TTFont(io.BytesIO(cut))
    assert "MATH" in font and font["MATH"].table.MathVariants.VertGlyphCount > 0, "it stretches brackets"
    assert TTFont(io.BytesIO(SOURCE.read_bytes())).flavorData.transformedTables == set(), "the source: untransformed"
    assert font.flavorData.transformedTables == GLYPH_TABLES


def test_the_built_font_holds_every_character_of_every_formula_is_smaller_and_ships_with_its_licence_and_css(
        built_site: Path) -> None:
    used = formula_characters(page.read_text(encoding="utf-8") for page in built_site.rglob("*.html"))
    built = (built_site / FONT).read_bytes()
    assert len(used) > 20
    assert used - font_characters(built) == set()
    assert len(built) < SOURCE.stat().st_size
    assert "SIL OPEN FONT LICENSE Version 1.1" in (built_site / "assets/fonts/OFL.txt").read_text()
    css = (built_site / "assets/attnlab.css").read_text(encoding="utf-8")
    assert 'url("fonts/noto-sans-math.woff2")' in css and re.search(r"math \{\s*font-family: \"Attention Lab", css)
