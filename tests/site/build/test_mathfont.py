"""The math font is cut to the characters the built pages' formulas use, and keeps every one of them."""

from __future__ import annotations

import io
import unicodedata
from pathlib import Path

from fontTools.ttLib import TTFont

from attnlab.site.build.mathfont import FONT, ITALIC, formula_characters, subset

SOURCE = Path(__file__).parents[3] / "docs" / FONT
"""The font as the repository holds it, before the build cuts it."""


def font_characters(font: bytes) -> set[str]:
    """The characters ``font`` (a WOFF2 file) maps to a glyph."""
    return {chr(code) for code in TTFont(io.BytesIO(font)).getBestCmap()}


def test_formula_characters_are_the_text_inside_math_elements_unescaped() -> None:
    html = '<p>x</p><math display="block"><mi>ab</mi><mo>&lt;</mo>\n<mn>2</mn></math><p>y</p><math><mn>3</mn></math>'
    assert formula_characters([html]) == {"a", "b", "<", "2", "3"}


def test_a_one_letter_identifier_also_asks_for_the_italic_the_browser_draws_it_in() -> None:
    html = '<math><mi>h</mi><mi>Q</mi><mi>σ</mi><mi>max</mi><mi mathvariant="normal">V</mi></math>'
    assert formula_characters([html]) - set("hQσmaxV") == {"\u210e", "\U0001d444", "\U0001d70e"}


def test_a_square_root_asks_for_the_radical_sign_it_is_drawn_with() -> None:
    assert "√" in formula_characters(["<math><msqrt><mn>2</mn></msqrt></math>"])


def test_every_italic_is_the_mathematical_italic_of_its_letter() -> None:
    for letter, italic in ITALIC.items():
        assert unicodedata.name(italic).startswith("MATHEMATICAL ITALIC") or italic == "\u210e"
        assert unicodedata.name(letter).split()[-1] == unicodedata.name(italic).split()[-1] or letter == "h"


def test_a_page_without_formulas_asks_for_no_characters() -> None:
    assert formula_characters(["<p>no formula</p>"]) == set()


def test_the_cut_font_maps_exactly_the_characters_asked_for() -> None:
    asked = {"a", "√", "∑", "(", ")"}
    assert font_characters(subset(SOURCE.read_bytes(), asked)) == asked


def test_the_cut_keeps_the_math_table_that_stretches_brackets() -> None:
    cut = TTFont(io.BytesIO(subset(SOURCE.read_bytes(), {"(", ")", "√"})))
    assert "MATH" in cut and cut["MATH"].table.MathVariants.VertGlyphCount > 0


def test_the_same_characters_give_the_same_bytes() -> None:
    asked = {"x", "=", "√"}
    assert subset(SOURCE.read_bytes(), asked) == subset(SOURCE.read_bytes(), asked)


def test_the_built_font_holds_every_character_of_every_formula_and_is_smaller(built_site: Path) -> None:
    used = formula_characters(page.read_text(encoding="utf-8") for page in built_site.rglob("*.html"))
    built = (built_site / FONT).read_bytes()
    assert len(used) > 20
    assert used - font_characters(built) == set()
    assert len(built) < SOURCE.stat().st_size
