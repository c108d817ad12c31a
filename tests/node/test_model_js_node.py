"""The page's own model under Node (``tests/model_js.py``): wordpiece.js against Python's ``tokenizers``, minilm.js
against ``attnlab.bert`` on the same float16 weights, and what it refuses."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from model_js import changed_weight, encode_in_node, generated_sentences, node_runner, reference, write_model_files
from tokenizers import Tokenizer

from attnlab import bert
from attnlab.site.build.explorer import PREPARED

STRINGS_FILE = Path(__file__).resolve().parents[1] / "data" / "wordpiece_strings.json"
GROUPS: dict[str, list[str]] = json.loads(STRINGS_FILE.read_text(encoding="utf-8"))
STRINGS = [text for group in GROUPS.values() for text in group]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The model's files as the site holds them, in a folder of their own."""
    return write_model_files(tmp_path_factory.mktemp("model-site"))


def python_tokenizer() -> Any:
    """The model's tokenizer.json as Python's ``tokenizers`` reads it, one sentence at a time: no padding, no cut."""
    tokenizer = Tokenizer.from_file(str(bert.model_dir() / "tokenizer.json"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


TOKENIZE = """
runClassicScript(path.join(modelDir, "manifest.js"));
runClassicScript(path.join(modelDir, "tokenizer.js"));
const entry = globalThis.ATTNLAB_MODEL_MANIFEST.files.find(f => f.kind === "tokenizer");
minilm.checkFile(entry, globalThis.ATTNLAB_MODEL_FILES[entry.name]).then(data => {
  const tokenizer = wordpiece.tokenizer(data);
  process.stdout.write(JSON.stringify(stdin().map(text => tokenizer.tokenize(text))));
}, fail);
"""


def tokenize_in_node(texts: list[str], model_dir: Path) -> list[dict[str, Any]]:
    """wordpiece.js's tokens and ids of each text."""
    answer = json.loads(node_runner(TOKENIZE, model_dir, stdin=json.dumps(texts)))  # \uXXXX: a lone surrogate survives
    assert not isinstance(answer, dict), answer
    return answer


def mismatches(texts: list[str], model_dir: Path) -> list[tuple[str, list[str], list[str]]]:
    """(text, Python's tokens, wordpiece.js's tokens) wherever tokens or ids differ."""
    ours = tokenize_in_node(texts, model_dir)
    theirs = python_tokenizer().encode_batch(texts)
    return [(text, e.tokens, o["tokens"]) for text, e, o in zip(texts, theirs, ours, strict=True)
            if (e.tokens, e.ids) != (o["tokens"], o["ids"])]


def test_wordpiece_js_gives_pythons_tokens_and_ids_for_over_200_strings_of_every_kind(model_dir: Path) -> None:
    assert len(STRINGS) >= 200 and len(set(STRINGS)) == len(STRINGS)
    assert all(kind in " ".join(GROUPS) for kind in ("accents", "case", "punctuation", "numbers", "CJK", "U+FFFF",
                                                     "emoji", "long", "whitespace", "control")), list(GROUPS)
    assert "" in STRINGS and any(t and not t.strip() for t in STRINGS)
    assert any(len(word) > 100 for t in STRINGS for word in t.split())
    assert any(ord(c) > 0xFFFF for t in STRINGS for c in t)
    assert mismatches(STRINGS, model_dir) == []


def test_every_code_point_between_two_letters_splits_as_in_python(model_dir: Path) -> None:
    # each code point alone between letters, 2000 to a text: the character classes, NFD and lower case, everywhere
    points = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    texts = [" ".join(f"x{c}q" for c in points[i:i + 2000]) for i in range(0, len(points), 2000)]
    found = mismatches(texts, model_dir)
    assert not found, [(text[:40], ours[:8]) for text, _, ours in found[:3]]


def test_a_lone_surrogate_counts_as_the_replacement_character_which_is_dropped(model_dir: Path) -> None:
    [alone, replaced] = tokenize_in_node(["grid\ud800load", "grid\ufffdload"], model_dir)
    assert alone == replaced
    assert alone["tokens"] == python_tokenizer().encode("gridload").tokens


PARITY_SENTENCES = [p.batch[0] for p in PREPARED] + generated_sentences()


def test_minilm_js_gives_pythons_numbers_on_the_same_float16_weights_identically_on_both_kernel_paths_in_reused_memory(
        model_dir: Path, tmp_path: Path) -> None:
    simd, plain = (encode_in_node(PARITY_SENTENCES, model_dir, tmp_path / f"{kernel}.f64", kernel)
                   for kernel in ("simd", "plain"))
    assert [r["simd"] for r in simd + plain] == [True] * len(simd) + [False] * len(plain)  # the path asked for ran
    lengths = [len(r["tokens"]) for r in simd]
    assert len(set(PARITY_SENTENCES)) == len(lengths) and min(lengths) < 10 and 40 < max(lengths) <= 128
    fits = [i > 0 and n <= max(lengths[:i]) for i, n in enumerate(lengths)]  # the memory of every sentence before
    assert [r["reused"] for r in simd] == [r["reused"] for r in plain] == fits and 0 < sum(fits) < len(fits) - 1
    for sentence, ours, other in zip(PARITY_SENTENCES, simd, plain, strict=True):
        theirs = reference(sentence)
        assert ours["tokens"] == theirs.tokens, sentence
        assert np.abs(ours["weights"] - theirs.weights).max() <= 1e-5, sentence
        assert np.abs(ours["weights"].sum(axis=-1) - 1).max() < 1e-12, sentence
        np.testing.assert_allclose(ours["sizes"], theirs.sizes, rtol=1e-4, atol=0, err_msg=sentence)
        np.testing.assert_allclose(ours["outputs"], theirs.outputs, rtol=0, atol=1e-5, err_msg=sentence)
        # q and k come out of kernel.js's float32 products: raw scores q·k (up to about 135) within 1e-4
        np.testing.assert_allclose(ours["scores"], theirs.scores, rtol=0, atol=1e-4, err_msg=sentence)
        assert all(np.array_equal(ours[name], other[name]) for name in ("weights", "sizes", "outputs", "scores"))


LOAD = """
loadModel().then(model => {
  try { minilm.encode(model, stdin()); process.stdout.write(JSON.stringify({ loaded: true })); }
  catch (error) { fail(error); }
}, fail);
"""


def load_in_node(model_dir: Path, text: str = "The grid load rises.") -> dict[str, Any]:
    """What loading ``model_dir`` and encoding ``text`` gave: {loaded: true} or {error: "Name: message"}."""
    return json.loads(node_runner(LOAD, model_dir, stdin=json.dumps(text)))


def damaged_copy(model_dir: Path, tmp_path: Path, name: str, change: Any) -> Path:
    """A copy of the model folder in which file ``name``'s bytes are ``change(bytes)`` (None: the file removed)."""
    copy = Path(shutil.copytree(model_dir, tmp_path / "model"))
    data = change((copy / name).read_bytes())
    (copy / name).write_bytes(data) if data is not None else (copy / name).unlink()
    return copy


def closed_early(data: bytes) -> bytes:
    """A weights file whose string ends after half its weights, still a script that runs."""
    middle = len(data) // 2 & ~1
    return data[:middle] + '";\n'.encode("utf-16-le")


DAMAGES = {
    "a missing weights file": ("weights-3.js", lambda data: None, "weights-3.js did not deliver its data"),
    "a truncated weights file": ("weights-3.js", lambda data: data[:len(data) // 2], "weights-3.js did not deliver"),
    "a weights file cut and closed": ("weights-5.js", closed_early, "weights-5.js holds"),
    "one weight changed": ("weights-0.js", changed_weight, "weights-0.js is not the file the manifest lists"),
    "the tokenizer changed": ("tokenizer.js", lambda data: data.replace(b'\\"grid\\"', b'\\"grip\\"'),
                              "tokenizer.js is not the file the manifest lists"),
    "the manifest missing": ("manifest.js", lambda data: None, "the model's manifest.js did not load"),
}


def test_a_missing_truncated_or_changed_file_is_refused_naming_it_and_the_undamaged_files_run(
        model_dir: Path, tmp_path: Path) -> None:
    assert load_in_node(model_dir) == {"loaded": True}
    for why, (name, change, message) in DAMAGES.items():
        answer = load_in_node(damaged_copy(model_dir, tmp_path / why, name, change))
        assert answer.get("error", "").startswith("ModelFileError: " + message), (why, answer)


PIECES = """
loadModel().then(model => {
  const answer = stdin().map(text => {
    try { return minilm.pieces(model, text).tokens.length; } catch (e) { return e.name + ": " + e.message; }
  });
  process.stdout.write(JSON.stringify(answer));
}, fail);
"""


def test_one_piece_past_pythons_limit_or_a_text_without_word_pieces_gets_a_message_and_the_limit_is_taken(
        model_dir: Path) -> None:
    limit, empty = bert.max_pieces(), ["", "   ", "\t\n", "\u0000\u200b", "\ufffd"]
    texts = ["grid " * (limit - 2), "grid " * (limit - 1), "grid " * 400, *empty]  # [CLS] and [SEP] around them
    taken, over, far, *nothing = json.loads(node_runner(PIECES, model_dir, stdin=json.dumps(texts)))
    assert taken == limit
    assert over == (f"InputError: This text gives {limit + 1} word pieces ([CLS] and [SEP] included), and the model "
                    f"here takes at most {limit}: shorten it by 1.")
    assert "402 word pieces" in far and f"shorten it by {402 - limit}" in far
    assert nothing == ["InputError: There is nothing to split into word pieces: type a sentence."] * len(empty)


def test_erf_is_within_1e_15_of_math_erf_across_its_range_and_at_2000_random_points_out_to_50() -> None:
    points = [i / 1000 for i in range(-7000, 7001)] + np.random.default_rng(5).uniform(-50, 50, 2000).tolist()
    ours = json.loads(node_runner("process.stdout.write(JSON.stringify(stdin().map(minilm.erf)));", Path("."),
                                 stdin=json.dumps(points)))
    assert max(abs(a - math.erf(x)) for a, x in zip(ours, points, strict=True)) <= 1e-15
    assert ours[points.index(0.0)] == 0.0 and ours[0] == -1.0 and ours[14000] == 1.0


HALVES = """
const values = [];
for (let h = 0; h < 65536; h += 1) { values.push(minilm.halfValue(h)); }
const named = v => Number.isNaN(v) ? "NaN" : v === Infinity ? "inf" : v === -Infinity ? "-inf"
  : Object.is(v, -0) ? "-0" : v;
process.stdout.write(JSON.stringify(values.map(named)));
"""


def test_every_float16_bit_pattern_decodes_to_numpys_value() -> None:
    ours = json.loads(node_runner(HALVES, Path(".")))
    theirs = np.arange(65536, dtype=np.uint16).view(np.float16).astype(np.float64)
    decoded = np.array([{"NaN": np.nan, "inf": np.inf, "-inf": -np.inf, "-0": -0.0}.get(v, v) if isinstance(v, str)
                        else v for v in ours])
    np.testing.assert_array_equal(decoded, theirs)
    numbers = ~np.isnan(theirs)  # a NaN's sign means nothing
    assert np.array_equal(np.signbit(decoded[numbers]), np.signbit(theirs[numbers]))  # -0 is -0
