"""Double brackets in prose are a claim citation or a number binding; anything else is named."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from attnlab.site.pages.bindings import BINDING, malformed
from attnlab.site.pages.claims import CITATION

MALFORMED = ["[[CL-05]]", "[[ CL-005 ]]", "[[CL-0005]]", "[[+3 = 1 + 2]]", "[[.9 = 0.9]]", "[[cl-005]]",
             "[[S1]]", "[[1e-3 = 0.001]]", "[[0.5 = 1 / 2]"]
"""Forms an author might type that are neither a registered-looking citation nor a binding."""
WELL_FORMED = ["[[CL-005]]", "[[LAB-001]]", "[[CL-001, CL-007]]", "[[0.576 = 1 / 3]]", "[[-0.5 = -1 / 2]]",
               "[[57.6% = 57.6]]", "[[ 0.5 = 1 / 2 ]]", "[[[0.860 = 0.86]], [[1.432 = 1.432]]]",
               "`[[CL-05]]`.\n\n```python\nrows = [[1, 0], [0, 1]]\n```\n"]


def test_a_malformed_form_is_named_with_its_page_and_line_counting_the_front_matter_and_no_other_is() -> None:
    for form in MALFORMED + WELL_FORMED:
        problems = malformed(f"---\nliterals: [1]\n---\n\nThe value {form} here.\n", "docs/p.md")
        assert len(problems) == (form in MALFORMED), form
        assert all(p.startswith("docs/p.md:5: '[[") and form.split("]]")[0] in p
                   and "is neither a claim citation nor a number binding" in p for p in problems)


@given(st.text(alphabet="CLWEAB-0123456789 .+=%", max_size=12))
def test_anything_in_double_brackets_is_either_valid_or_named(inner: str) -> None:
    text = f"[[{inner}]]"
    valid = bool(CITATION.fullmatch(text) or BINDING.fullmatch(text))
    assert (malformed(text, "p.md") == []) == valid
