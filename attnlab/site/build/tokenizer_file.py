"""What ``docs/assets/wordpiece.js`` needs: tokenizer.json's settings, checked, and the character classes of the
Rust library's (older) Unicode tables, committed as ``CLASSES_FILE`` by ``scripts/character_classes.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from attnlab import bert
from attnlab.site.build import data_text

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


def character_classes() -> dict[str, list[int]]:
    """``probed_classes`` as committed in ``CLASSES_FILE``."""
    return dict(json.loads(data_text(CLASSES_FILE)))
