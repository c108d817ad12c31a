"""What the page's WordPiece tokenizer (``docs/assets/wordpiece.js``) needs: tokenizer.json's settings, checked,
and the character classes of the Rust library's (older) Unicode tables, which ``python -m
attnlab.site.build.tokenizer_file`` probes and commits as ``CLASSES_FILE``."""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from attnlab import bert
from attnlab.site.build import data_text

SEPARATOR = "a"
"""Put between the probed code points: no step changes it."""
SUPPORTED = {"normalizer": "BertNormalizer", "pre_tokenizer": "BertPreTokenizer", "model": "WordPiece",
             "post_processor": "TemplateProcessing"}
"""The one component of each kind that wordpiece.js implements."""
CLASSES_FILE = "data/character-classes.json"


def _checked_kinds(document: dict[str, Any]) -> None:
    """Refuse a tokenizer.json whose components are not the ones wordpiece.js implements."""
    for part, kind in SUPPORTED.items():
        found = (document.get(part) or {}).get("type")
        if found != kind:
            raise ValueError(f"tokenizer.json has {part} {found!r}; the page's tokenizer implements only {kind!r}")
    for token in document["added_tokens"]:
        if token["normalized"] or token["lstrip"] or token["rstrip"] or token["single_word"]:
            raise ValueError(f"tokenizer.json: added token {token['content']!r} asks for normalized, lstrip, "
                             "rstrip or single_word matching, which the page's tokenizer does not implement")


def _specials(post: dict[str, Any]) -> tuple[str, str]:
    """The tokens a single sentence is wrapped in, from the post-processor's template: ([CLS], [SEP])."""
    single = post["single"]
    shape = [next(iter(step)) for step in single]
    if shape != ["SpecialToken", "Sequence", "SpecialToken"]:
        raise ValueError(f"tokenizer.json: post_processor.single is {shape}; the page's tokenizer needs "
                         "one special token, the sentence, one special token")
    return single[0]["SpecialToken"]["id"], single[2]["SpecialToken"]["id"]


def settings(directory: Path) -> dict[str, Any]:
    """What tokenizer.json asks, checked, in the names wordpiece.js reads (``vocab`` in id order)."""
    document = json.loads((directory / "tokenizer.json").read_text(encoding="utf-8"))
    _checked_kinds(document)
    normalizer, model = document["normalizer"], document["model"]
    by_id = sorted(model["vocab"].items(), key=lambda item: item[1])
    if [i for _, i in by_id] != list(range(len(by_id))):
        raise ValueError("tokenizer.json: the vocabulary's ids are not 0, 1, 2 … without a gap")
    cls, sep = _specials(document["post_processor"])
    strip = normalizer["strip_accents"]
    return {"cleanText": normalizer["clean_text"], "chineseChars": normalizer["handle_chinese_chars"],
            "stripAccents": normalizer["lowercase"] if strip is None else strip,  # None: as lowercase says
            "lowercase": normalizer["lowercase"], "unk": model["unk_token"],
            "prefix": model["continuing_subword_prefix"], "maxWordChars": model["max_input_chars_per_word"],
            "added": [token["content"] for token in document["added_tokens"]], "cls": cls, "sep": sep,
            "limit": bert.pieces_limit(directory), "vocab": [token for token, _ in by_id]}


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


@cache
def character_classes() -> dict[str, list[int]]:
    """``probed_classes`` as committed in ``CLASSES_FILE``."""
    return dict(json.loads(data_text(CLASSES_FILE)))


def classes_text(classes: dict[str, list[int]]) -> str:
    """``CLASSES_FILE``'s text for ``classes``: one class a line."""
    lines = (f"  {json.dumps(name)}: {json.dumps(flat, separators=(',', ':'))}" for name, flat in classes.items())
    return "{\n" + ",\n".join(lines) + "\n}\n"


def main() -> None:
    """Probe the installed ``tokenizers`` and write its classes to ``CLASSES_FILE``."""
    target = Path(__file__).parent / CLASSES_FILE
    target.write_text(classes_text(probed_classes()), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
