"""Every formula becomes MathML while the site is built (no math JavaScript): :func:`mathml` replaces arithmatex's
spans and divs with latex2mathml's ``<math>``, checked (``FormulaError``)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from functools import lru_cache
from html import escape, unescape

from latex2mathml.converter import convert

ARITHMATEX = re.compile(r'<(span|div) class="arithmatex">(.*?)</\1>', re.DOTALL)
DELIMITERS = re.compile(r"\A\s*\\[(\[](.*)\\[)\]]\s*\Z", re.DOTALL)
UNSUPPORTED = {
    r"\begin{aligned}": "the aligned environment (latex2mathml misplaces its columns); use separate display formulas",
    r"\operatorname*": r"\operatorname* (latex2mathml drops the operator); use \operatorname or \mathop",
}
MATHML = "http://www.w3.org/1998/Math/MathML"
ET.register_namespace("", MATHML)
SIGNS = {"\u2212", "+", "\u00b1"}
CLOSING = {")", "]", "}", "|", "\u2016", "\u27e9"}
ARITY = {"mfrac": 2, "msub": 2, "msup": 2, "msubsup": 3, "mroot": 2, "munder": 2, "mover": 2, "munderover": 3}
"""How many children each MathML layout element must have (a missing argument shows here)."""


class FormulaError(ValueError):
    """A formula that cannot be turned into correct MathML."""


def unbalanced(latex: str) -> str | None:
    """What is unbalanced in ``latex`` (a brace group), or None; escaped braces ``\\{ \\}`` do not count."""
    depth = 0
    for brace in re.findall(r"\\.|[{}]", latex):
        if brace in "{}":
            depth += 1 if brace == "{" else -1
            if depth < 0:
                return "a closing brace } has no opening {"
    return f"{depth} brace group(s) opened with {{ are never closed" if depth else None


@lru_cache(maxsize=4096)
def to_mathml(latex: str, display: bool = False) -> str:
    """Convert one LaTeX formula (no delimiters) to a ``<math>`` element."""
    problem = next((f"unsupported {why}" for construct, why in UNSUPPORTED.items() if construct in latex),
                   None) or unbalanced(latex)
    if problem:
        raise FormulaError(problem)
    try:
        mathml = convert(latex, display="block" if display else "inline")
    except Exception as error:  # latex2mathml signals bad input with many exception types
        raise FormulaError(f"latex2mathml cannot convert it ({type(error).__name__}: {error})") from error
    try:
        root = ET.fromstring(mathml)
    except ET.ParseError as error:
        raise FormulaError(f"latex2mathml produced malformed MathML ({error})") from error
    for element in root.iter():
        tag = element.tag.rpartition("}")[2]
        if (element.text or "").startswith("\\"):
            raise FormulaError(f"unknown command {element.text}")
        if tag in ARITY and len(element) != ARITY[tag]:
            raise FormulaError(f"<{tag}> has {len(element)} arguments, expected {ARITY[tag]}")
    polish(root)
    return ET.tostring(root, encoding="unicode")


def polish(root: ET.Element) -> None:
    """Fix two slips of latex2mathml in place: ∞ is an identifier, and a sign that starts a group or follows an
    operator or opening bracket is ``form="prefix"`` ("[−3, 5]", not "[ − 3, 5]")."""
    mo, mi = f"{{{MATHML}}}mo", f"{{{MATHML}}}mi"
    for element in root.iter(mo):
        if element.text == "\u221e":
            element.tag = mi
    for parent in root.iter():
        for before, child in zip([None, *parent], parent):
            if child.tag == mo and child.text in SIGNS and (
                    before is None or (before.tag == mo and before.text not in CLOSING)):
                child.set("form", "prefix")


SUBSCRIPTS = dict(zip("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
SUPERSCRIPTS = dict(zip("0123456789+-−=()⊤TOin", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵀᵀᴼⁱⁿ"))
SPACED = {"=", "+", "\u2212", "\u2248", "\u2264", "\u2265"}
"""Operators written with a space either side in plain text (a prefix sign is not)."""


def _scripted(text: str, table: dict[str, str], mark: str) -> str:
    """``text`` as Unicode sub- or superscript characters, or after ``mark`` where some have none."""
    if text and all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    bare = len(text) == 1 or text.isalnum() or (text.startswith("(") and text.endswith(")"))
    return f"{mark}{text}" if bare else f"{mark}({text})"


def _plain(element: ET.Element) -> str:
    """The text a reader would type for one MathML element."""
    tag = element.tag.rpartition("}")[2]
    parts = [_plain(child) for child in element]
    if tag == "msub":
        return parts[0] + _scripted(parts[1], SUBSCRIPTS, "_")
    if tag == "msup":
        return parts[0] + _scripted(parts[1], SUPERSCRIPTS, "^")
    if tag == "msqrt":
        inner = "".join(parts)
        return "√" + (inner if (len(element) == 1 and len(inner) <= 2) or inner.isalnum() else f"({inner})")
    if tag == "mfrac":
        return "/".join(parts)
    if tag == "mspace":
        return " "
    if tag == "mo":
        text = element.text or ""
        if text == ",":
            return ", "
        return f" {text} " if text in SPACED and element.get("form") != "prefix" else text
    return (element.text or "") + "".join(parts)


def plain_text(latex: str) -> str:
    """One formula as plain Unicode text, for where MathML cannot go (a tooltip, a JSON field)."""
    root = ET.fromstring(to_mathml(latex))
    return re.sub(r" {2,}", " ", _plain(root)).strip()


INLINE_MATH = re.compile(r"\$([^$\n]+)\$")


def plain_statement(text: str) -> str:
    """``text`` with each ``$…$`` formula written out as plain Unicode text."""
    return INLINE_MATH.sub(lambda m: plain_text(m.group(1)), text)


def with_math(text: str, formula: Callable[[str], str] = to_mathml, words: Callable[[str], str] = escape) -> str:
    """``text`` as HTML: its words escaped, each ``$…$`` formula as MathML (or as ``words`` and ``formula`` say)."""
    parts = INLINE_MATH.split(text)  # words, formula, words, … (the group keeps each formula)
    return "".join(formula(part) if i % 2 else words(part) for i, part in enumerate(parts))


def mathml(html: str, page: str) -> str:
    """``html`` with every arithmatex span and div replaced by MathML."""
    def replace(match: re.Match[str]) -> str:
        source = unescape(match.group(2))
        inner = DELIMITERS.match(source)
        latex = inner.group(1) if inner else source
        try:
            return to_mathml(latex.strip(), display=match.group(1) == "div")
        except FormulaError as error:
            raise FormulaError(f"{page}: formula {latex.strip()!r}: {error}") from error

    return ARITHMATEX.sub(replace, html)
