"""What the page's tokenizer is given: tokenizer.json's settings, checked, and the library's own character classes."""

from __future__ import annotations

import importlib.util
import json
import shutil
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from tokenizers import Tokenizer

from attnlab import bert
from attnlab.site.build import tokenizer_file
from attnlab.site.build.tokenizer_file import character_classes, settings

PROBE = importlib.util.spec_from_file_location("probe", Path(__file__).parents[3] / "scripts" / "character_classes.py")
probe = importlib.util.module_from_spec(PROBE)
PROBE.loader.exec_module(probe)


def inside(flat: list[int], point: int) -> bool:
    """Whether ``point`` lies in the flat inclusive ranges."""
    return any(first <= point <= last for first, last in zip(flat[::2], flat[1::2], strict=True))


def changed_copy(tmp_path: Path, where: tuple[str | int, ...], **changes: Any) -> Path:
    """A model folder whose tokenizer.json is the real one with ``changes`` made to the object at ``where``."""
    document = json.loads((bert.model_dir() / "tokenizer.json").read_text(encoding="utf-8"))
    target = document
    for key in where:
        target = target[key]
    target.update(changes)
    (tmp_path / "tokenizer.json").write_text(json.dumps(document), encoding="utf-8")
    shutil.copy(bert.model_dir() / "sentence_bert_config.json", tmp_path / "sentence_bert_config.json")
    return tmp_path


def test_the_vocabulary_in_id_order_the_markers_and_the_limit_come_from_tokenizer_json_and_the_pipeline_alone(
        tmp_path: Path) -> None:
    found = settings(bert.model_dir())
    tokenizer = Tokenizer.from_file(str(bert.model_dir() / "tokenizer.json"))
    assert len(found["vocab"]) == tokenizer.get_vocab_size()
    assert all(found["vocab"][i] == tokenizer.id_to_token(i) for i in range(0, len(found["vocab"]), 97))
    document = json.loads((bert.model_dir() / "tokenizer.json").read_text(encoding="utf-8"))
    assert (found["cls"], found["sep"]) == ("[CLS]", "[SEP]")
    assert found["limit"] == bert.max_pieces() != document["truncation"]["max_length"]  # the pipeline's, not 128
    assert found["added"] == [t["content"] for t in document["added_tokens"]]
    assert settings(changed_copy(tmp_path, ())) == found


def test_strip_accents_unset_follows_lowercase(tmp_path: Path) -> None:
    for strip, lowercase, expected in ((None, True, True), (None, False, False), (False, True, False),
                                       (True, False, True)):
        found = settings(changed_copy(tmp_path, ("normalizer",), strip_accents=strip, lowercase=lowercase))
        assert found["stripAccents"] is expected, (strip, lowercase)


def test_a_component_or_an_added_token_the_page_does_not_implement_is_refused_naming_it(tmp_path: Path) -> None:
    for part, kind in (("normalizer", "NFKC"), ("pre_tokenizer", "Whitespace"), ("model", "BPE")):
        with pytest.raises(ValueError, match=f"tokenizer.json has {part} '{kind}'"):
            settings(changed_copy(tmp_path, (part,), type=kind))
    with pytest.raises(ValueError, match=r"added token '\[CLS\]'"):
        settings(changed_copy(tmp_path, ("added_tokens", 2), normalized=True))


CLASS_OF = {
    "removed": ["\u0000", "\u0007", "\u001f", "\u007f", "\u0085", "\u00ad", "\u200b", "\ufeff", "\ufffd", "\ue000",
                "\U0010fffd"],
    "whitespace": [" ", "\t", "\n", "\r", "\u00a0", "\u2003", "\u3000"],
    "chinese": ["\u4e00", "\u9fff", "\u3400", "\uf900", "\ufa6e", "\U00020000", "\U0002fa1f"],
    "punctuation": ["!", "$", "+", "^", "`", "~", "\u00a1", "\u2014", "\u3002", "\uff01"],
    "nonspacing": ["\u0301", "\u0308", "\u0328", "\u0591", "\u302a"],
}
"""A few code points of each class, from what BERT's basic tokenizer is documented to do (symbols such as $ and ^
are ASCII punctuation to it; U+FA6E, unassigned, lies in a CJK block)."""


def test_each_class_holds_what_bert_tokenizers_treat_so_and_letters_digits_and_emoji_have_none() -> None:
    classes = character_classes()
    found = {name: [[n for n, flat in classes.items() if inside(flat, ord(point))] for point in points]
             for name, points in CLASS_OF.items()}
    assert found == {name: [[name]] * len(points) for name, points in CLASS_OF.items()}
    for point in "aZé9\u0416\U0001f600\u3042\uac00":
        assert not any(inside(flat, ord(point)) for flat in classes.values()), hex(ord(point))
    # U+2E43 is punctuation since Unicode 9.0 (unicodedata says Po) but not to tokenizers: why the classes are probed
    assert unicodedata.category("\u2e43") == "Po"
    assert not inside(classes["punctuation"], 0x2E43)


@pytest.mark.slow
def test_no_unassigned_code_point_is_removed_whitespace_punctuation_or_a_mark() -> None:
    # what character_classes assumes when it asks only the assigned code points about these four classes
    everything = probe.every_code_point()
    known = set(probe.assigned(everything))
    unassigned = [c for c in everything if c not in known]
    cleaned = probe._normalised(unassigned, clean_text=True)
    stripped = probe._normalised(unassigned, strip_accents=True)
    assert all(out == c for c, out in zip(unassigned, cleaned, strict=True))
    assert "" not in stripped
    assert probe._punctuation(unassigned) == set()


def test_the_committed_classes_are_what_the_installed_tokenizers_answers() -> None:
    # a tokenizers release that splits differently turns this red: run python scripts/character_classes.py
    committed = (Path(tokenizer_file.__file__).parent / tokenizer_file.CLASSES_FILE).read_text(encoding="utf-8")
    assert committed == probe.classes_text(probe.probed_classes())
    assert json.loads(committed) == character_classes()


def test_the_probe_refuses_a_character_that_becomes_the_separator() -> None:
    with pytest.raises(ValueError, match="became the separator"):
        probe._after_each("aaaa", ["x"])
