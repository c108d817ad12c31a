"""TeX in the pages converted to MathML at build time (``attnlab.site.pages.mathml``), or refused naming why."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from attnlab.site.pages.mathml import FormulaError, plain_statement, plain_text, to_mathml

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


def test_plain_text_writes_scripts_as_unicode_where_it_has_them() -> None:
    assert plain_text(r"\mathrm{softmax}(Q K^\top / \sqrt{d_k})") == "softmax(QKᵀ/√dₖ)"
    assert plain_text(r"d_{\text{model}} = 512") == "d_model = 512"  # the mark of a script Unicode lacks
    assert plain_statement(r"divided by $\sqrt{d_k}$, then $-\infty$ blocks") == "divided by √dₖ, then −∞ blocks"
