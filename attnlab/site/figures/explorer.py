"""The explorer of all-MiniLM-L6-v2: its prepared sentences, their data files and the page's markup.

Every layer and head of the model on a few prepared sentences, each chosen to
show something. The build runs :mod:`attnlab.bert` once per sentence and
writes one small file for it, ``assets/explorer/<key>.js``: a classic script
that adds the sentence to ``globalThis.ATTNLAB_EXPLORER[key]``. The page
(``docs/assets/explorer.js``) inserts a sentence's script only when the reader
picks it; a ``<script>`` element loads from disk (``file://``) and from a
server alike, where ``fetch()`` and modules do not.

Each file holds the tokens, which are real (not padding), and for every
layer and head (layer-major, 6 × 12) two flat row-major n × n lists: the
weights and the contribution sizes ‖α_ij f(x_j)‖ (:mod:`attnlab.contributions`),
as whole numbers of 1/``SCALES[measure]``: weights in thousandths, as the
guide's maps show them, sizes (up to about 5) in hundredths, which keeps the
default sentence's file small enough for the page's first load. A number the
page shows is within half a step of attnlab's float64 value.

A page shows the explorer by writing the line ``MARKER``, which the
extension replaces by :func:`widget`; the post-build pass writes the data
files (:func:`published`) when a built page holds the explorer, so a site
without it (a test's one-page site) does no model work for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from html import escape
from typing import Any

import numpy as np

from attnlab import bert

MARKER = "<!-- attnlab:explorer -->"
"""The line a page writes where the explorer goes."""
FOLDER = "assets/explorer"
"""Where the data files go, inside the site."""
DECIMALS = {"weights": 3, "sizes": 2}
"""Decimals the explorer shows of each measure."""
SCALES = {measure: 10**places for measure, places in DECIMALS.items()}
"""Each measure is stored in whole multiples of 1/SCALES[measure], so the shown decimals are exact."""
GLOBAL = "ATTNLAB_EXPLORER"
CLASS = "attnlab-explorer"
"""The class of the explorer's region in the page, by which the post-build pass knows a page shows it."""


@dataclass(frozen=True)
class Prepared:
    """One prepared sentence: its key (file name), label, what to look for, and the batch it runs in.

    ``batch[0]`` is the sentence shown; more sentences in ``batch`` are run
    with it, so it is padded to the longest of them.
    """

    key: str
    label: str
    look_for: str
    batch: tuple[str, ...]


PREPARED: tuple[Prepared, ...] = (
    Prepared("toy-words", "The toy's words in a sentence",
             "The toy's three words, grid, load and rises, in the sentence the chapter “A real head” uses.",
             ("The grid load rises every evening.",)),
    Prepared("pronoun", "A pronoun and its referent",
             "Which keys does the query “it” weigh, and is “pump” among them?",
             ("The engineer checked the pump because it was leaking.",)),
    Prepared("repeated", "A repeated word",
             "“load” comes three times: do the three queries look at the same keys, or at each other?",
             ("The load rose, then the load fell, then the load rose again.",)),
    Prepared("punctuation", "Punctuation everywhere",
             "Dots, brackets and marks are tokens too: how much weight goes to them, and how much do they add?",
             ("Wait... the grid (yes, the grid!) failed?",)),
    Prepared("padded", "A padded pair in one batch",
             "“grid load rises” ran in one batch with “The grid load rises every evening.”, so it is "
             "padded with [PAD] to that sentence's length. No query gives a [PAD] key any weight, and "
             "the real tokens get the numbers they get alone; the [PAD] rows are computed but never read.",
             ("grid load rises", "The grid load rises every evening.")),
    Prepared("word-pieces", "A word cut into pieces",
             "“Tokenisation” is not in the vocabulary: it becomes “token” and “##isation”. Do the pieces "
             "look at each other?",
             ("Tokenisation splits unfamiliar words.",)),
)
"""The sentences the explorer offers, in the order of its menu; the first is shown on opening."""


def prepared(key: str) -> Prepared:
    """The prepared sentence with ``key``; KeyError naming it and the keys there are."""
    for p in PREPARED:
        if p.key == key:
            return p
    raise KeyError(f"no prepared sentence {key!r}; there are {', '.join(p.key for p in PREPARED)}")


def encoding(p: Prepared) -> bert.Encoding:
    """The shown sentence run through the model in its batch (cached by ``bert.encode``)."""
    return bert.encode(list(p.batch))[0]


def weights(p: Prepared) -> np.ndarray:
    """Every head's weights: layers × heads × n × n."""
    enc = encoding(p)
    return np.stack([np.stack([h.weights for h in layer.heads]) for layer in enc.layers])


def sizes(p: Prepared) -> np.ndarray:
    """Every head's contribution sizes ‖α_ij f(x_j)‖: layers × heads × n × n."""
    enc = encoding(p)
    return np.stack([bert.contributions(enc, layer) for layer in range(len(enc.layers))])


def quantised(values: np.ndarray, scale: int) -> list[list[int]]:
    """Layers × heads × n × n values as one flat row-major list of whole 1/scale steps per head, layer-major."""
    counts = np.rint(np.asarray(values) * scale).astype(np.int64)
    return [head.ravel().tolist() for layer in counts for head in layer]


@cache
def sentence_data(key: str) -> dict[str, Any]:
    """What a sentence's data file holds, as a JSON-ready dict."""
    p = prepared(key)
    enc = encoding(p)
    w = weights(p)
    return {
        "key": p.key,
        "label": p.label,
        "lookFor": p.look_for,
        "batch": list(p.batch),
        "tokens": list(enc.tokens),
        "real": [int(r) for r in enc.real],
        "layers": w.shape[0],
        "heads": w.shape[1],
        "scales": SCALES,
        "weights": quantised(w, SCALES["weights"]),
        "sizes": quantised(sizes(p), SCALES["sizes"]),
    }


def data_script(key: str) -> str:
    """A sentence's data file: one classic script adding it to ``globalThis.ATTNLAB_EXPLORER``."""
    data = json.dumps(sentence_data(key), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (f"/* Generated by attnlab.site.figures.explorer from attnlab.bert; do not edit. Weights and sizes are "
            f"whole multiples of 1/scales. */\nglobalThis.{GLOBAL} = globalThis.{GLOBAL} || {{}};\n"
            f"globalThis.{GLOBAL}[{json.dumps(key)}] = {data};\n")


def published() -> dict[str, str]:
    """Each data file's path inside the site and its text."""
    return {f"{FOLDER}/{p.key}.js": data_script(p.key) for p in PREPARED}


def _options(pairs: list[tuple[str, str]]) -> str:
    """``<option>`` elements from (value, text) pairs, the first selected."""
    return "".join(f'<option value="{escape(v)}"{" selected" if i == 0 else ""}>{escape(t)}</option>'
                   for i, (v, t) in enumerate(pairs))


def _radios(name: str, legend: str, pairs: list[tuple[str, str]]) -> str:
    """A fieldset of radio buttons from (value, label) pairs, the first checked."""
    items = "".join(
        f'<label class="explorer-choice"><input type="radio" name="explorer-{name}" value="{escape(v)}"'
        f' data-testid="{name}-{escape(v)}"{" checked" if i == 0 else ""}> {escape(t)}</label>'
        for i, (v, t) in enumerate(pairs))
    return f'<fieldset class="explorer-choices" data-choice="{name}"><legend>{escape(legend)}</legend>{items}</fieldset>'


def widget(page: str) -> str:
    """The explorer's markup for ``page`` (a path inside docs), on one line of HTML.

    The controls are plain form elements; ``explorer.js`` (loaded here, after
    them) fills in the views. Without JavaScript the reader is told so.
    """
    up = "../" * page.count("/")
    config = bert.read_config(bert.model_dir())  # the shape alone: no weights are read for the markup
    layers, heads = config["num_hidden_layers"], config["num_attention_heads"]
    controls = (
        '<div class="explorer-controls">'
        '<p class="explorer-field"><label for="explorer-sentence">Sentence</label>'
        f'<select id="explorer-sentence" data-testid="sentence">'
        f'{_options([(p.key, p.label) for p in PREPARED])}</select></p>'
        '<p class="explorer-field"><label for="explorer-layer">Layer</label>'
        f'<select id="explorer-layer" data-testid="layer">'
        f'{_options([(str(i), str(i + 1)) for i in range(layers)])}</select></p>'
        '<p class="explorer-field"><label for="explorer-head">Head</label>'
        f'<select id="explorer-head" data-testid="head">'
        f'{_options([(str(i), str(i + 1)) for i in range(heads)])}</select></p>'
        + _radios("measure", "Show", [("weights", "weights"), ("sizes", "contribution sizes")])
        + _radios("view", "Draw as", [("map", "heat map"), ("lines", "lines")])
        + "</div>"
    )
    return (
        f'<div class="{CLASS}" role="region" aria-label="Explorer of all-MiniLM-L6-v2" '
        f'data-data="{up}{FOLDER}/" data-layers="{layers}" data-heads="{heads}">'
        "<noscript><p>The explorer needs JavaScript. The chapter “A real head” shows three of its "
        "heads as tables computed when the site was built.</p></noscript>"
        f"{controls}"
        '<p class="explorer-look-for" data-testid="look-for"></p>'
        '<p class="explorer-status" role="status" data-testid="status">Loading…</p>'
        '<div class="explorer-view" data-testid="view"></div>'
        '<p class="explorer-readout" aria-live="polite" data-testid="readout"></p>'
        '<div class="explorer-legend" data-testid="legend"></div>'
        '<h3 class="explorer-model-title" id="explorer-model-title">Every head at once</h3>'
        '<p class="explorer-model-hint">Each square is one head’s map, the darker the larger: a row of '
        f"squares per layer, 1 to {layers} from the top, and a column per head, 1 to {heads} from the left. "
        "Choose one to show it above; the arrow keys move between heads.</p>"
        '<div class="explorer-model" role="radiogroup" aria-labelledby="explorer-model-title" '
        'data-testid="model-view"></div>'
        '<div class="explorer-legend explorer-model-legend" data-testid="model-legend"></div>'
        "</div>"
        f'<link rel="stylesheet" href="{up}assets/explorer.css">'
        f'<script src="{up}assets/palette.js"></script><script src="{up}assets/explorer.js"></script>\n'
    )
