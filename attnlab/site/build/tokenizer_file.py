"""What the page's WordPiece tokenizer needs: the model's tokenizer.json, and the character classes of ``tokenizers``.

``docs/assets/wordpiece.js`` splits a reader's sentence as Python's
``tokenizers`` splits it with the model's ``tokenizer.json``: the added
(special) tokens cut out of the raw text, BERT's normaliser (control
characters dropped, whitespace made a space, a space on each side of a CJK
ideograph, accents stripped, lower case), BERT's pre-tokeniser (split on
whitespace and around each punctuation mark), then greedy longest-match word
pieces, and ``[CLS]`` … ``[SEP]`` around. ``settings`` reads what
tokenizer.json says and refuses a file that asks for anything else.

Which characters are "control", "whitespace", "punctuation", "CJK" or
"non-spacing mark" is not in tokenizer.json: it is in the Rust library, whose
Unicode tables are older than the browser's (``\\p{P}`` in JavaScript is not
the set the library splits on: U+2E43 … U+2E4F, punctuation since Unicode
9.0, are not split by ``tokenizers`` 0.23). ``probed_classes`` therefore
asks the installed library itself: it runs the normaliser and the
pre-tokeniser over the code points (separated by ``a``, which no step
changes) and reads off what each step did to each one. The classes go to the
page as sorted inclusive ranges, ``[first, last, first, last, …]``.

Asking about 1.1 million code points takes seconds, so the answer is asked
once and committed (``data/character-classes.json``, which
``character_classes`` reads); a test compares it with what the installed
library answers, so a ``tokenizers`` that splits differently fails the
suite. ``python -m attnlab.site.build.tokenizer_file`` writes it again.
"""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from attnlab import bert

SEPARATOR = "a"
"""Put between the probed code points: no step of the normaliser or the pre-tokeniser changes it."""
SUPPORTED = {
    "normalizer": "BertNormalizer",
    "pre_tokenizer": "BertPreTokenizer",
    "model": "WordPiece",
    "post_processor": "TemplateProcessing",
}
"""The one component of each kind that wordpiece.js implements."""
CLASSES_FILE = "data/character-classes.json"
"""The committed answer of ``probed_classes``, inside this package."""


def read_json(directory: Path) -> dict[str, Any]:
    """tokenizer.json of the model folder, as a dict."""
    loaded: dict[str, Any] = json.loads((directory / "tokenizer.json").read_text(encoding="utf-8"))
    return loaded


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
    """What tokenizer.json asks of the tokenizer, checked, in the names wordpiece.js reads.

    ``vocab`` lists the word pieces in id order; ``limit`` is
    :func:`attnlab.bert.max_pieces`, the most tokens ([CLS] and [SEP]
    included) the page accepts, as Python does.
    """
    document = read_json(directory)
    _checked_kinds(document)
    normalizer, model = document["normalizer"], document["model"]
    by_id = sorted(model["vocab"].items(), key=lambda item: item[1])
    if [i for _, i in by_id] != list(range(len(by_id))):
        raise ValueError("tokenizer.json: the vocabulary's ids are not 0, 1, 2 … without a gap")
    cls, sep = _specials(document["post_processor"])
    strip = normalizer["strip_accents"]
    return {
        "cleanText": normalizer["clean_text"],
        "chineseChars": normalizer["handle_chinese_chars"],
        "stripAccents": normalizer["lowercase"] if strip is None else strip,  # None: as lowercase says
        "lowercase": normalizer["lowercase"],
        "unk": model["unk_token"],
        "prefix": model["continuing_subword_prefix"],
        "maxWordChars": model["max_input_chars_per_word"],
        "added": [token["content"] for token in document["added_tokens"]],
        "cls": cls,
        "sep": sep,
        "limit": bert.pieces_limit(directory),
        "vocab": [token for token, _ in by_id],
    }


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
    """Those of ``chars`` that Python's Unicode (``unicodedata``) assigns, private use included.

    The library's category tables are older than Python's, and a code point
    once assigned stays assigned, so a code point unassigned here has no
    category there either: asking only these is a quarter of the work.
    """
    return [c for c in chars if unicodedata.category(c) != "Cn"]


def _after_each(output: str, chars: list[str]) -> list[str]:
    """What a step made of each character of ``SEPARATOR + SEPARATOR.join(chars) + SEPARATOR``.

    ``output`` is the step's result; each character became a run of
    characters none of which is the separator (possibly none).
    """
    pieces = output.split(SEPARATOR)
    if len(pieces) != len(chars) + 2:
        raise ValueError("a probed character became the separator: the probe cannot tell them apart")
    return pieces[1:-1]


def _normalised(chars: list[str], **options: bool) -> list[str]:
    """What BERT's normaliser, with only the named steps on, makes of each character alone."""
    from tokenizers import normalizers

    steps = {"clean_text": False, "handle_chinese_chars": False, "strip_accents": False, "lowercase": False}
    normalizer = normalizers.BertNormalizer(**{**steps, **options})
    joined = SEPARATOR + SEPARATOR.join(chars) + SEPARATOR
    return _after_each(normalizer.normalize_str(joined), chars)


def _punctuation(chars: list[str]) -> set[int]:
    """The characters BERT's pre-tokeniser splits off on their own (a word of one character between separators)."""
    from tokenizers import pre_tokenizers

    joined = SEPARATOR + SEPARATOR.join(chars) + SEPARATOR
    words = pre_tokenizers.BertPreTokenizer().pre_tokenize_str(joined)
    return {ord(word) for word, (start, end) in words if end - start == 1 and word != SEPARATOR}


def probed_classes() -> dict[str, list[int]]:
    """The installed ``tokenizers``' own class of every code point, as ranges (seconds: ask ``character_classes``).

    ``removed``: dropped by clean_text (controls, formats, private use, U+0000,
    U+FFFD); ``whitespace``: made a space by clean_text (and split on by the
    pre-tokeniser); ``punctuation``: split off as a word of its own;
    ``nonspacing``: dropped after the decomposition that strips accents (only
    characters that decomposition leaves as they are can come out of it, so
    only those are asked). These four are categories of assigned characters.
    ``chinese``, given a space on each side, is a list of blocks in the
    library, unassigned code points included, so every code point is asked.
    """
    everything = every_code_point()
    chars = assigned(everything)
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
    classes: dict[str, list[int]] = json.loads(
        resources.files("attnlab.site.build").joinpath(CLASSES_FILE).read_text(encoding="utf-8"))
    return classes


def classes_text(classes: dict[str, list[int]]) -> str:
    """``CLASSES_FILE``'s text for ``classes``: one class a line."""
    lines = (f"  {json.dumps(name)}: {json.dumps(flat, separators=(',', ':'))}" for name, flat in classes.items())
    return "{\n" + ",\n".join(lines) + "\n}\n"


def tokenizer_data(directory: Path) -> dict[str, Any]:
    """Everything wordpiece.js needs for the model in ``directory``: its settings and the character classes."""
    return {**settings(directory), "classes": character_classes()}


def main() -> None:
    """Probe the installed ``tokenizers`` and write its classes to ``CLASSES_FILE``."""
    target = Path(__file__).parent / CLASSES_FILE
    target.write_text(classes_text(probed_classes()), encoding="utf-8")
    print(f"wrote {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
