"""Probe the installed ``tokenizers`` for the character classes the page's tokenizer needs, and commit them.

    python scripts/character_classes.py

BERT's normaliser and pre-tokeniser (Rust) use older Unicode tables than Python's ``unicodedata``, so the
classes are asked of the library itself, every code point once, and written to
``attnlab/site/build/data/character-classes.json``, which the build reads
(``tokenizer_file.character_classes``). A ``tokenizers`` release that splits differently turns
``tests/site/build/test_tokenizer_file.py`` red: run this again.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from attnlab.site.build import tokenizer_file

SEPARATOR = "a"
"""Put between the probed code points: no step changes it."""


def ranges(points: Iterable[int]) -> list[int]:
    """Code points as sorted inclusive ranges, flat: {1, 2, 3, 7} gives [1, 3, 7, 7]."""
    flat: list[int] = []
    for point in sorted(set(points)):
        if flat and point == flat[-1] + 1:
            flat[-1] = point
        else:
            flat += [point, point]
    return flat


def every_code_point() -> list[str]:
    """Every code point but the surrogates and the separator, as characters."""
    return [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF and chr(c) != SEPARATOR]


def assigned(chars: list[str]) -> list[str]:
    """Those of ``chars`` Python's ``unicodedata`` assigns (the library's older tables assign no more)."""
    return [c for c in chars if unicodedata.category(c) != "Cn"]


def _after_each(output: str, chars: list[str]) -> list[str]:
    """What a step made of each of ``chars``, from its ``output`` on them joined and framed by ``SEPARATOR``."""
    pieces = output.split(SEPARATOR)
    if len(pieces) != len(chars) + 2:
        raise ValueError("a probed character became the separator: the probe cannot tell them apart")
    return pieces[1:-1]


def _normalised(chars: list[str], **options: bool) -> list[str]:
    """What BERT's normaliser, with only the named steps on, makes of each character alone."""
    from tokenizers import normalizers

    steps = {"clean_text": False, "handle_chinese_chars": False, "strip_accents": False, "lowercase": False}
    normalizer = normalizers.BertNormalizer(**{**steps, **options})
    return _after_each(normalizer.normalize_str(SEPARATOR + SEPARATOR.join(chars) + SEPARATOR), chars)


def _punctuation(chars: list[str]) -> set[int]:
    """The characters BERT's pre-tokeniser splits off on their own (a word of one character between separators)."""
    from tokenizers import pre_tokenizers

    words = pre_tokenizers.BertPreTokenizer().pre_tokenize_str(SEPARATOR + SEPARATOR.join(chars) + SEPARATOR)
    return {ord(word) for word, (start, end) in words if end - start == 1 and word != SEPARATOR}


def probed_classes() -> dict[str, list[int]]:
    """The installed ``tokenizers``' class of every code point, as ranges (``chinese`` asked of every code point,
    ``nonspacing`` of those NFD leaves as they are)."""
    chars = assigned(everything := every_code_point())
    cleaned = _normalised(chars, clean_text=True)
    spaced = _normalised(everything, handle_chinese_chars=True)
    stable = [c for c in chars if unicodedata.normalize("NFD", c) == c]
    stripped = _normalised(stable, strip_accents=True)
    return {
        "removed": ranges(ord(c) for c, out in zip(chars, cleaned, strict=True) if out == ""),
        "whitespace": ranges(ord(c) for c, out in zip(chars, cleaned, strict=True) if out == " "),
        "chinese": ranges(ord(c) for c, out in zip(everything, spaced, strict=True) if out == f" {c} "),
        "punctuation": ranges(_punctuation(chars)),
        "nonspacing": ranges(ord(c) for c, out in zip(stable, stripped, strict=True) if out == ""),
    }


def classes_text(classes: dict[str, list[int]]) -> str:
    """``tokenizer_file.CLASSES_FILE``'s text for ``classes``: one class a line."""
    lines = (f"  {json.dumps(name)}: {json.dumps(flat, separators=(',', ':'))}" for name, flat in classes.items())
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> None:
    """Probe the installed ``tokenizers`` and write its classes to ``tokenizer_file.CLASSES_FILE``."""
    target = Path(tokenizer_file.__file__).parent / tokenizer_file.CLASSES_FILE
    target.write_text(classes_text(probed_classes()), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
