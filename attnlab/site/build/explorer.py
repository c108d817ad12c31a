"""The explorer of all-MiniLM-L6-v2 (a page's line ``MARKER``): its prepared sentences' answers, their data files
(classic scripts adding to a global, so ``file://`` loads them: ``assets/explorer/<key>.js``, each head's weights
and sizes in whole 1/``SCALES`` steps; ``<key>-layer-<l>.js``, the neuron view's vectors) and the page's markup."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import cache
from html import escape
from typing import Any

import numpy as np

from attnlab import bert
from attnlab.cost import readable_bytes
from attnlab.site.build import data_text, model_files
from attnlab.text import fmt, significant

MARKER = "<!-- attnlab:explorer -->"
FOLDER = "assets/explorer"
DECIMALS = {"weights": 3, "sizes": 2}
"""Decimals the explorer shows of each measure: each is stored in whole 1/SCALES[measure] steps."""
SCALES = {measure: 10**places for measure, places in DECIMALS.items()}
GLOBAL = "ATTNLAB_EXPLORER"
CLASS = "attnlab-explorer"
"""The class of the explorer's region, by which the post-build pass knows a page shows it."""
VECTORS_GLOBAL = "ATTNLAB_EXPLORER_VECTORS"
VECTOR_SCALE = 10**4
"""The neuron view's numbers in whole ten-thousandths (it shows three decimals)."""


@dataclass(frozen=True)
class Prepared:
    """A prepared sentence of ``data/explorer.toml`` (which says what each field is)."""

    key: str
    label: str
    look_for: str
    batch: tuple[str, ...]
    hint: str


PREPARED = tuple(Prepared(**{**entry, "batch": tuple(entry["batch"])})
                 for entry in tomllib.loads(data_text("data/explorer.toml"))["sentence"])
"""The sentences the explorer offers, in the order of its menu; the first is shown on opening."""


def prepared(key: str) -> Prepared:
    """The prepared sentence with ``key``; KeyError naming the keys there are."""
    for p in PREPARED:
        if p.key == key:
            return p
    raise KeyError(f"no prepared sentence {key!r}; there are {', '.join(p.key for p in PREPARED)}")


def encoding(p: Prepared) -> bert.Encoding:
    """The shown sentence run in its batch (``bert.encode`` caches it)."""
    return bert.encode(list(p.batch))[0]


def weights(p: Prepared) -> np.ndarray:
    """Every head's weights: layers × heads × n × n."""
    return np.stack([np.stack([h.weights for h in layer.heads]) for layer in encoding(p).layers])


def sizes(p: Prepared) -> np.ndarray:
    """Every head's contribution sizes ‖α_ij f(x_j)‖: layers × heads × n × n."""
    enc = encoding(p)
    return np.stack([bert.contributions(enc, layer) for layer in range(len(enc.layers))])


def _pair_answer(p: Prepared, query: str, key: str) -> str:
    """Which head weighs the pair most, and how much, in words."""
    layer, head = bert.strongest_head(encoding(p), query, key)
    pair = bert.pair_weights(encoding(p), query, key)
    return (f"layer {layer + 1}, head {head + 1} gives {fmt(float(pair[layer, head]))} of the weight of “{query}” "
            f"to “{key}”, the most of the {pair.size} heads")


def _toy_words(p: Prepared) -> str:
    first = _pair_answer(p, "rises", "load")
    return f"{first[0].upper()}{first[1:]}; and {_pair_answer(p, 'load', 'grid')}."


def _pronoun(p: Prepared) -> str:
    tokens = encoding(p).tokens
    it = tokens.index("it")
    w = weights(p)[:, :, it]
    more = int((w[..., tokens.index("pump")] > w[..., tokens.index("engineer")]).sum())
    near = int(np.isin(w.argmax(axis=-1), [0, len(tokens) - 1, it - 1, it, it + 1]).sum())
    count = w.shape[0] * w.shape[1]
    return (f"Yes, in some heads: {_pair_answer(p, 'it', 'pump')}; {more} of the {count} heads give “pump” more "
            f"of it than “engineer”. But {near} of the {count} give their largest weight to [CLS], [SEP], “it” "
            "itself or a word beside it.")


def _repeated(p: Prepared) -> str:
    places = [i for i, t in enumerate(encoding(p).tokens) if t == "load"]
    w = weights(p)
    others = np.mean([w[:, :, q, [k for k in places if k != q]].sum(axis=-1) for q in places], axis=0)
    layer, head = np.unravel_index(int(np.argmax(others)), others.shape)
    return (f"Some heads link them: in layer {layer + 1}, head {head + 1} each “load” gives the two others "
            f"{fmt(others[layer, head])} of its weight together, on average; over all the heads, "
            f"{fmt(others.mean())}.")


def _punctuation(p: Prepared) -> str:
    marks = [i for i, t in enumerate(encoding(p).tokens) if not t.isalnum() and t not in ("[CLS]", "[SEP]")]
    w, size = weights(p), sizes(p)
    by_weight = w[..., marks].sum(axis=-1).mean()
    by_size = (size[..., marks].sum(axis=-1) / size.sum(axis=-1)).mean()
    return (f"Over every head and query, the {len(marks)} marks get {fmt(100 * by_weight, 0)}% of the weight "
            f"and supply {fmt(100 * by_size, 0)}% of the summed contribution sizes.")


def _padded(p: Prepared) -> str:
    enc = encoding(p)
    w = weights(p)
    alone = bert.encode(p.batch[0])[0]
    real = np.flatnonzero(enc.real)
    apart = max(float(np.abs(w[layer, head][np.ix_(real, real)] - alone.layers[layer].heads[head].weights).max())
                for layer in range(w.shape[0]) for head in range(w.shape[1]))
    return (f"Every [PAD] key gets weight {fmt(float(w[..., ~enc.real].max()), 0)} from every query, and the real "
            f"tokens' weights differ from the sentence run alone by at most {significant(apart, 2)}: "
            "rounding, no more.")


ANSWERS = {"toy-words": _toy_words, "pronoun": _pronoun, "repeated": _repeated, "punctuation": _punctuation,
           "padded": _padded, "word-pieces": lambda p: (f"Yes: {_pair_answer(p, 'token', '##isation')}; the other "
                                                         f"way round, {_pair_answer(p, '##isation', 'token')}.")}


def answer(p: Prepared) -> str:
    """The answer the explorer folds under ``p``'s question, computed from its numbers when the site is built."""
    return ANSWERS[p.key](p)


def steps(values: np.ndarray, scale: int) -> list[int]:
    """An array as one flat row-major list of whole 1/scale steps."""
    return np.rint(np.asarray(values) * scale).astype(np.int64).ravel().tolist()


def quantised(values: np.ndarray, scale: int) -> list[list[int]]:
    """Layers × heads × n × n values as one list of :func:`steps` per head, layer-major."""
    return [steps(head, scale) for layer in values for head in layer]


def sentence_data(key: str) -> dict[str, Any]:
    """What a sentence's data file holds, as a JSON-ready dict."""
    p = prepared(key)
    enc = encoding(p)
    w = weights(p)
    return {"key": p.key, "label": p.label, "lookFor": p.look_for, "hint": p.hint, "answer": answer(p),
            "batch": list(p.batch), "tokens": list(enc.tokens), "real": [int(r) for r in enc.real],
            "layers": w.shape[0], "heads": w.shape[1], "scales": SCALES,
            "weights": quantised(w, SCALES["weights"]), "sizes": quantised(sizes(p), SCALES["sizes"])}


def script(variable: str, key: str, data: dict[str, Any], note: str) -> str:
    """A classic script adding ``data`` to ``globalThis[variable][key]``."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (f"/* Generated by attnlab.site.build.explorer from attnlab.bert; do not edit. {note} */\n"
            f"{model_files.adding(variable, key)}{text};\n")


def data_script(key: str) -> str:
    """A sentence's data file, adding it to ``globalThis.ATTNLAB_EXPLORER``."""
    return script(GLOBAL, key, sentence_data(key), "Weights and sizes are whole multiples of 1/scales.")


def vectors(key: str, layer: int) -> dict[str, Any]:
    """The neuron view of one layer, in 1/``VECTOR_SCALE`` steps: ``queries`` and ``keys`` n × (heads · d)
    (head h's columns h·d …), each head's raw ``scores`` (n × n) and ``lengths`` ‖v_j W_O^h‖."""
    enc = encoding(prepared(key))
    q, k, _ = bert.layer_inputs(enc, layer)
    return {"scale": VECTOR_SCALE, "queries": steps(q, VECTOR_SCALE), "keys": steps(k, VECTOR_SCALE),
            "scores": [steps(head.scores, VECTOR_SCALE) for head in enc.layers[layer].heads],
            "lengths": [steps(length, VECTOR_SCALE) for length in bert.value_lengths(enc, layer)]}


@cache
def published() -> dict[str, str]:
    """Each sentence's data file and its vectors' file per layer, by path in the site (made once: do not change it)."""
    layers = bert.read_config(bert.model_dir())["num_hidden_layers"]
    files = {f"{FOLDER}/{p.key}.js": data_script(p.key) for p in PREPARED}
    for p in PREPARED:
        for layer in range(layers):
            files[f"{FOLDER}/{p.key}-layer-{layer}.js"] = script(VECTORS_GLOBAL, f"{p.key}/{layer}",
                                                                 vectors(p.key, layer), "Whole multiples of 1/scale.")
    return files


def _select(name: str, label: str, pairs: list[tuple[str, str]]) -> str:
    """A labelled ``<select>`` of (value, text) pairs, the first selected."""
    options = "".join(f'<option value="{escape(v)}"{" selected" if i == 0 else ""}>{escape(t)}</option>'
                      for i, (v, t) in enumerate(pairs))
    return (f'<p class="explorer-field"><label for="explorer-{name}">{label}</label>'
            f'<select id="explorer-{name}" data-testid="{name}">{options}</select></p>')


def _radios(name: str, legend: str, pairs: list[tuple[str, str]]) -> str:
    """A fieldset of radio buttons from (value, label) pairs, the first checked."""
    items = "".join(f'<label class="explorer-choice"><input type="radio" name="explorer-{name}" value="{escape(v)}"'
                    f' data-testid="{name}-{escape(v)}"{" checked" if i == 0 else ""}> {escape(t)}</label>'
                    for i, (v, t) in enumerate(pairs))
    return (f'<fieldset class="explorer-choices" data-choice="{name}"><legend>{escape(legend)}</legend>'
            f'{items}</fieldset>')


MARKUP = "".join(data_text("data/explorer.html").splitlines())
"""The explorer's markup (``data/explorer.html``, its lines joined into one) with ``{names}`` to fill in."""


def widget(page: str) -> str:
    """The explorer's markup (:data:`MARKUP`) for ``page`` (a path inside docs), on one line, its names filled in."""
    config = bert.read_config(bert.model_dir())  # the shape alone: no weights are read for the markup
    layers, heads = config["num_hidden_layers"], config["num_attention_heads"]
    controls = (_select("sentence", "Sentence", [(p.key, p.label) for p in PREPARED])
                + _select("layer", "Layer", [(str(i), str(i + 1)) for i in range(layers)])
                + _select("head", "Head", [(str(i), str(i + 1)) for i in range(heads)])
                + _radios("measure", "Show", [("weights", "weights"), ("sizes", "contribution sizes")])
                + _radios("view", "Draw as", [("map", "coloured squares"), ("numbers", "numbers"), ("lines", "lines")]))
    return MARKUP.format(up="../" * page.count("/"), cls=CLASS, folder=FOLDER, layers=layers, heads=heads,
                         scales=json.dumps(SCALES), controls=controls, model=model_files.FOLDER,
                         archive=model_files.archive_name(), size=readable_bytes(model_files.DOWNLOAD_BYTES)) + "\n"
