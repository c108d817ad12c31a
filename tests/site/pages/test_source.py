"""Telling prose from code: what the citation and prose-number hooks may touch."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from attnlab.site.pages.source import chunks

PAGE = """---
literals: [1]
---
Prose 1 with `code 2` inside.

```python exec="on"
print(3)
```

::: attnlab.lab
    options:
      heading_level: 4

!!! note
    ```py
    x = 7
    ```
More prose 5.
"""


def test_front_matter_fences_inline_code_and_directives_are_not_prose_and_offsets_point_at_each_piece() -> None:
    assert all(PAGE[offset:offset + len(text)] == text for _, offset, text in chunks(PAGE))
    text = "".join(text for prose, _, text in chunks(PAGE) if prose)
    assert [code for code in ("literals", "code 2", "print(3)", "heading_level", "x = 7") if code in text] == []
    assert "Prose 1 with" in text and "!!! note" in text and "More prose 5." in text  # a fence indented in a note


@given(st.text(alphabet="ab `~:\n-#", max_size=80))
def test_any_text_splits_into_pieces_that_concatenate_back(markdown: str) -> None:
    assert "".join(text for _, _, text in chunks(markdown)) == markdown
