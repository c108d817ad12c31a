"""The math font is cut to the characters the built pages' formulas use, and keeps every one of them."""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path

from fontTools.ttLib import TTFont
from sites import DOCS

from attnlab.site.build.mathfont import CUT, FONT, GLYPH_TABLES, ITALIC, formula_characters, subset, write

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
    assert formula_characters(["<p>no formula</p>"]) == set()
    for letter, italic in ITALIC.items():  # every italic is the mathematical italic of its letter
        assert unicodedata.name(italic).startswith("MATHEMATICAL ITALIC") or italic == "\u210e"
        assert unicodedata.name(letter).split()[-1] == unicodedata.name(italic).split()[-1] or letter == "h"


def test_pages_drawing_a_character_the_committed_cut_lacks_get_a_cut_of_exactly_theirs_keeping_its_math_table(
        tmp_path: Path) -> None:
    (tmp_path / FONT).parent.mkdir(parents=True)
    (tmp_path / FONT).write_bytes(SOURCE.read_bytes())
    (tmp_path / "page.html").write_text("<math><msqrt><mn>2</mn></msqrt><mo>(</mo><mo>∫</mo><mo>)</mo></math>", "utf-8")
    write(tmp_path)
    cut = (tmp_path / FONT).read_bytes()
    assert font_characters(cut) == set("2√(∫)") and cut == subset(SOURCE.read_bytes(), "2√(∫)")
    font = TTFont(io.BytesIO(cut))
    assert "MATH" in font and font["MATH"].table.MathVariants.VertGlyphCount > 0, "it stretches brackets"
    assert TTFont(io.BytesIO(SOURCE.read_bytes())).flavorData.transformedTables == set(), "the source: untransformed"
    assert font.flavorData.transformedTables == GLYPH_TABLES


def test_the_built_font_is_the_committed_cut_to_every_character_of_every_formula_ships_with_licence_and_css(
        built_site: Path) -> None:
    used = formula_characters(page.read_text(encoding="utf-8") for page in built_site.rglob("*.html"))
    listed = CUT.with_suffix(".txt").read_text("utf-8")
    assert used == set(listed) and len(used) > 20, "a stale cut: make build, then python scripts/math_font.py"
    assert (built_site / FONT).read_bytes() == CUT.read_bytes() == subset(SOURCE.read_bytes(), listed)
    assert CUT.stat().st_size < SOURCE.stat().st_size, "the cut is smaller than the font it is cut from"
    assert "SIL OPEN FONT LICENSE Version 1.1" in (built_site / "assets/fonts/OFL.txt").read_text()
    css = (built_site / "assets/attnlab.css").read_text(encoding="utf-8")
    assert 'url("fonts/noto-sans-math.woff2")' in css and re.search(r"math \{\s*font-family: \"Attention Lab", css)
