"""Every figure on the built site, found by scanning its pages (``data-figure``, ``data-values``), carries the
numbers attnlab's maths gives: one checker per kind, never the drawing code; a new kind fails until it has one."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pictures import grid_cells
from sites import guide

from attnlab import Head, MultiHeadParams, bert, causal, cross_attention, decoder, encoder_block, feed_forward
from attnlab.attention import attention, project, softmax
from attnlab.cost import cost
from attnlab.lab import MULTIPLIERS, TOKENS, W_K, W_Q, W_V, X, compute
from attnlab.layers import init_encoder_block, layer_norm, multi_head, positional_encoding
from attnlab.site.figures.svg import LAB_COLUMN, MIN_TEXT, PHONE_COLUMN
from attnlab.site.pages.sliders import SLIDER_RANGES

FIGURE = re.compile(r'<figure class="attnlab-figure[^"]*" id="([^"]+)" data-figure="([^"]+)" '
                    r'data-values="([^"]*)">(.*?)</figure>', re.S)


@dataclass(frozen=True)
class Found:
    """One figure on a built page."""

    page: str
    ident: str
    kind: str
    values: Any
    body: str


def scan(site: Path) -> list[Found]:
    """Every figure on every page of ``site``, in page order."""
    return [Found(path.relative_to(site).as_posix(), ident, kind, json.loads(unescape(data)), body)
            for path in sorted(site.rglob("*.html"))
            for ident, kind, data, body in FIGURE.findall(path.read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def found(built_site: Path) -> list[Found]:
    return scan(built_site)


def close(shown: Any, expected: Any, what: str, rtol: float = 1e-9) -> None:
    """``shown`` equals ``expected`` to ``rtol`` (charts carry six significant digits: ``plot.compact``)."""
    assert np.allclose(np.asarray(shown, float), np.asarray(expected, float), rtol=rtol, atol=1e-12), what


def head_flow(v: dict[str, Any]) -> None:
    given = v["inputs"]
    assert (given["x"], given["w_q"], given["w_k"], given["w_v"]) == tuple(
        [list(row) for row in m] for m in (X, W_Q, W_K, W_V)), "the head drawn is the toy's"
    q, k, vals = (project(given["x"], given[name], name) for name in ("w_q", "w_k", "w_v"))
    r = attention(q, k, vals, given["visible"])
    assert v["d_k"] == k.shape[1]
    arrays = {"X": np.array(given["x"]), "Q": q, "K": k, "V": vals, "scores": r.scores, "scaled": r.scaled,
              "weights": r.weights, "output": r.output}
    assert v["shapes"] == {name: list(array.shape) for name, array in arrays.items()}


def masked_scores(v: dict[str, Any]) -> None:
    assert v["tokens"] == list(TOKENS)
    assert v["visible"] == causal(len(TOKENS)).tolist()
    close(v["scaled"], [compute(t).scaled for t in TOKENS], "the scaled scores of every query")
    close(v["weights"], compute().weight_map, "the causal weight map")


def heads_flow(v: dict[str, Any]) -> None:
    assert v["x"] == [list(row) for row in X] and v["tokens"] == list(TOKENS)
    first = v["heads"][0]
    assert (first["w_q"], first["w_k"], first["w_v"]) == tuple([list(r) for r in m] for m in (W_Q, W_K, W_V))
    params = MultiHeadParams(tuple(Head(np.array(h["w_q"]), np.array(h["w_k"]), np.array(h["w_v"]))
                                   for h in v["heads"]), np.array(v["w_o"]))
    run = multi_head(v["x"], v["x"], params, v["visible"])
    for h, (shown, head) in enumerate(zip(v["heads"], run.heads), start=1):
        close(shown["weights"], head.weights, f"head {h}'s weights")
        assert shown["output"] == list(head.output.shape)
    assert v["shapes"] == {"concat": list(run.concat.shape), "output": list(run.output.shape)}
    close(v["heads"][0]["weights"], compute().weight_map, "head 1 is the toy's head")


def run_steps(steps: list[str], x: np.ndarray, seed: int) -> np.ndarray:
    """Execute a block diagram's steps, top to bottom, with attnlab's layers."""
    params = init_encoder_block(seed)
    norms = iter((params.norm1, params.norm2))
    rows, kept = x, x
    for step in steps:
        if step == "branch":
            kept = rows
        elif step == "attention":
            rows = multi_head(rows, rows, params.attention).output
        elif step == "feed-forward":
            rows = feed_forward(rows, params.ffn)
        elif step == "add":
            rows = kept + rows
        elif step == "norm":
            p = next(norms)
            rows = layer_norm(rows, p.gain, p.bias, p.eps)
        else:
            assert step in ("input", "output", "dropout", "final"), step  # dropout: off; final: once per stack
    return rows


def block_flow(v: dict[str, Any]) -> None:
    x = np.random.default_rng(7).standard_normal((3, 4))
    for order, steps in v["orders"].items():
        assert np.allclose(run_steps(steps, x, seed=3), encoder_block(x, init_encoder_block(3), order=order)), order
    assert v["orders"]["pre"][-2] == "final" and "final" not in v["orders"]["post"]  # claim CL-039


TEST_SIZES = {"N": 2, "heads": 2, "d_model": 4, "source": 3, "target": 2, "vocabulary": 5}


def symbolic_run(size: dict[str, int]) -> dict[str, tuple[int, ...]]:
    """Shapes from a small encoder–decoder made of attnlab's functions, at the given sizes."""
    rng = np.random.default_rng(11)
    d, m, n = size["d_model"], size["source"], size["target"]
    blocks = [init_encoder_block(seed, d_model=d, n_heads=size["heads"]) for seed in range(size["N"])]
    source = rng.standard_normal((m, d)) + positional_encoding(m, d)
    memory = source
    for block in blocks:
        memory = encoder_block(memory, block)
    target = rng.standard_normal((n, d)) + positional_encoding(n, d)
    rows = target
    for block in blocks:
        p = block.attention
        rows = layer_norm(rows + multi_head(rows, rows, p, causal(n)).output)
        crossed = cross_attention(rows, memory, p)
        assert crossed.heads[0].weights.shape == (n, m)
        rows = layer_norm(rows + crossed.output)
        rows = layer_norm(rows + feed_forward(rows, block.ffn))
    scores = rows @ rng.standard_normal((d, size["vocabulary"]))
    probabilities = np.array([softmax(row, np.ones(row.shape, bool)) for row in scores])
    assert np.allclose(probabilities.sum(axis=1), 1)
    return {"source rows": source.shape, "encoder output": memory.shape, "target rows": target.shape,
            "decoder output": rows.shape, "scores over the vocabulary": scores.shape,
            "next-token probabilities": probabilities.shape}


def model_run(sentence: str) -> dict[str, tuple[int, ...]]:
    """Shapes from MiniLM itself, through attnlab.bert."""
    enc = bert.encode(sentence)[0]
    return {"embedded rows": enc.hidden[0].shape, "source rows": enc.hidden[0].shape,
            "encoder output": enc.hidden[-1].shape, "sentence vector": (1, *bert.sentence_vector(enc).shape)}


def model_flow(v: dict[str, Any]) -> None:
    sizes = v["sizes"]
    numbers = {name: size for name, size in sizes.items() if isinstance(size, int)}
    if numbers:  # a real model's sizes: MiniLM's, read from its files through attnlab.bert
        model = bert.load_model()
        assert numbers == {"N": len(model.blocks), "heads": model.n_heads, "d_model": model.embeddings.word.shape[1],
                           "vocabulary": model.embeddings.word.shape[0],
                           "positions": model.embeddings.position.shape[0],
                           "token_types": model.embeddings.token_type.shape[0]}
    binding = {sizes[name]: TEST_SIZES[name] for name in sizes if name not in numbers}
    actual = model_run("The grid load rises every evening.") if not v["decoder"] else symbolic_run(
        {**TEST_SIZES, **numbers})
    if not v["decoder"]:
        binding[sizes["source"]] = actual["source rows"][0]
    shown = {name: tuple(binding.get(size, size) for size in shape) for name, shape in v["shapes"].items()}
    assert shown == {name: actual[name] for name in shown} and set(shown) == set(actual)
    assert v["encoder_block"] == ["self-attention", "add & norm", "feed-forward", "add & norm"]


def shifted_targets(v: dict[str, Any]) -> None:
    target, reads = v["target"], v["reads"]
    assert reads == [v["start"], *target[:-1]]
    visible = causal(len(reads))
    for i, predicted in enumerate(target):  # no position sees the token it must predict
        assert predicted not in [r for r, ok in zip(reads, visible[i]) if ok], (i, predicted)


def softmax_steps(v: dict[str, Any]) -> None:
    assert len(v["rows"]) >= 2
    for row in v["rows"]:
        r = compute(row["controls"])
        close(row["scaled"], r.scaled, "scaled scores")
        close(row["exp"], np.exp(r.scaled), "their exponentials")
        close(row["weights"], softmax(np.array(r.scaled), np.array(r.visible)), "weights")
        close(np.array(row["exp"]) / np.sum(row["exp"]), row["weights"], "weights are exp / sum")


def saturation(v: dict[str, Any]) -> None:
    drawn = v["drawn"]
    for d_k, unscaled, scaled in zip(v["widths"], v["unscaled"], v["scaled"], strict=True):
        rng = np.random.default_rng([drawn["seed"], d_k])
        q, k = rng.standard_normal((drawn["queries"], d_k)), rng.standard_normal((drawn["keys"], d_k))
        tops = [np.median(softmax(s, np.ones(s.shape, bool)).max(axis=1)) for s in (q @ k.T, q @ k.T / np.sqrt(d_k))]
        close([unscaled, scaled], tops, f"median top weights at d_k = {d_k}")


def weights_and_sizes(v: dict[str, Any]) -> None:
    r = compute(v["controls"])
    values = np.array(r.values)
    close(v["weights"], r.weights, "weights")
    close(v["value_lengths"], np.linalg.norm(values, axis=1), "value lengths")
    close(v["contribution_lengths"], np.linalg.norm(np.array(r.weights)[:, None] * values, axis=1), "contributions")


def value_plane(v: dict[str, Any]) -> None:
    for panel in v["panels"]:
        r = compute(panel["controls"]).to_dict()
        assert (panel["values"], panel["weights"], panel["visible"], panel["output"]) == (
            r["values"], r["weights"], r["visible"], r["output"]), panel["heading"]


def concentration(v: dict[str, Any]) -> None:
    token, causal_on = v["inputs"]["token"], v["inputs"]["causal"]
    for j, line in enumerate(v["lines"].values()):
        assert (line["x"][0], line["x"][-1]) == SLIDER_RANGES["query_scale"][:2]
        assert set(MULTIPLIERS) <= set(line["x"])
        close(line["y"], [compute(token, query_scale=s, causal=causal_on).weights[j] for s in line["x"]],
              f"weights on {TOKENS[j]}", rtol=1e-5)


def score_spread(v: dict[str, Any]) -> None:
    drawn = v["inputs"]
    raw, scaled = v["bands"].values()
    for i, d_k in enumerate(raw["x"]):
        rng = np.random.default_rng([drawn["seed"], int(d_k)])
        dots = np.einsum("ij,ij->i", rng.standard_normal((drawn["pairs"], int(d_k))),
                         rng.standard_normal((drawn["pairs"], int(d_k))))
        for band, s in ((raw, dots), (scaled, dots / np.sqrt(d_k))):
            close([band["low"][i], band["high"][i]], [s.mean() - s.std(), s.mean() + s.std()], f"d_k = {d_k}",
                  rtol=1e-5)


def position_encoding(v: dict[str, Any]) -> None:
    values = np.array(v["values"])
    assert np.allclose(values, positional_encoding(v["rows"], v["columns"]), atol=5e-5)
    row, column, rows, columns = v["marked"]
    assert np.allclose(values[row:row + rows, column:column + columns], positional_encoding(2, 2), atol=5e-5)


def cost_growth(v: dict[str, Any]) -> None:
    given = v["inputs"]
    madds, naive, streaming = v["lines"].values()
    counts = [cost(int(t), d_k=given["d_k"], bytes_per_number=given["bytes_per_number"]) for t in naive["x"]]
    assert naive["y"] == [c.score_bytes for c in counts] and madds["y"] == [c.madds for c in counts]
    assert streaming["y"] == [c.block_bytes(given["block"]) for c in counts]


def head_grid(v: dict[str, Any], body: str) -> None:
    """The grid's cells read off its paths (one per shade step), each in the step of its weight."""
    enc = bert.encode(v["sentence"])[0]
    weights = np.stack([[head.weights for head in layer.heads] for layer in enc.layers])
    assert (v["layers"], v["heads"], v["tokens"]) == weights.shape[:3]
    drawn = grid_cells(body, v["grid"], v["tokens"])
    steps = np.rint(np.clip(weights, 0, 1) * v["levels"]).astype(int)
    assert drawn == {tuple(int(i) for i in at): str(steps[tuple(at)]) for at in np.argwhere(steps > 0)}
    assert all(0 <= layer < v["layers"] and 0 <= head < v["heads"] for layer, head in v["outlined"])


def attention_lines(v: dict[str, Any], body: str) -> None:
    """Each sentence's head is the one the stated search finds; its weights, and the lines drawn, are that head's."""
    for k, shown in enumerate(v["sentences"]):
        enc = bert.encode(shown["text"])[0]
        tokens = list(enc.tokens)
        query, key = tokens[shown["query"]], tokens[shown["key"]]
        assert shown["tokens"] == tokens and (shown["layer"], shown["head"]) == bert.strongest_head(enc, query, key)
        weights = enc.layers[shown["layer"]].heads[shown["head"]].weights
        close(shown["weights"], weights, f"sentence {k}'s weights")
        panel = body.split(f'data-sentence="{k}"')[-1]
        drawn = [float(w) for w in re.findall(r'<line [^>]*data-weight="([^"]+)"', panel.split("</svg>")[0])]
        close(drawn, weights[shown["query"]], f"sentence {k}'s lines, from “{query}”")


def trained_step(v: dict[str, Any]) -> None:
    """One step of Home's head for its pronoun, recomputed from the model's queries, keys and values."""
    enc = bert.encode(v["sentence"])[0]
    assert (v["layer"], v["head"]) == bert.strongest_head(enc, "it", "pump") and enc.tokens[v["query"]] == "it"
    q, k, vals = bert.head_inputs(enc, v["layer"], v["head"])
    visible = causal(len(enc.tokens)) if v["step"] == "masked" else np.ones((len(enc.tokens),) * 2, bool)
    r = attention(q, k, vals, visible)
    i = v["query"]
    assert v["visible"] == visible[i].tolist()
    expected = {"scores": r.scaled[i], "weights": r.weights[i], "masked": r.weights[i],
                "mixing": np.linalg.norm(r.weights[i][:, None] * vals, axis=1)}[v["step"]]
    close(v["values"], expected, f"the {v['step']} of “it”", rtol=1e-6)


def dot_plane(v: dict[str, Any]) -> None:
    """The toy's `rises` query and keys; scores, cosines and the feet of the projections from numpy."""
    r = compute("rises")
    assert (v["query"], v["keys"], v["tokens"]) == (list(r.query), [list(k) for k in r.keys], list(TOKENS))
    q, keys = np.array(r.query), np.array(r.keys)
    close(v["scores"], r.scores, "the scores")
    close(v["cosines"], [k @ q / np.hypot(*k) / np.hypot(*q) for k in keys], "the cosines")
    feet = np.array(v["feet"])
    close(feet[:, 0] * q[1] - feet[:, 1] * q[0], np.zeros(len(keys)), "each foot on the query's line")
    close((keys - feet) @ q, np.zeros(len(keys)), "each drop at a right angle to the query")


def decoder_map(v: dict[str, Any]) -> None:
    values = np.array(v["values"])
    assert np.array_equal(np.triu(values, 1), np.zeros_like(values)), "a key after its query has weight"
    maps = decoder.load().forward("kqzvwkqzv").attentions   # the chapter's prompt
    assert any(np.allclose(values, head, atol=5e-5) for layer in maps for head in layer)


def decoder_training(v: dict[str, Any]) -> None:
    """The committed run's held-out accuracy at each checkpoint, and a guess's 1 in 26."""
    accuracy, guess = v["lines"].values()
    steps, shares = zip(*decoder.training_log()["accuracy"])
    assert accuracy["x"] == list(steps)
    close(accuracy["y"], shares, "the held-out accuracy", rtol=1e-5)
    close(guess["y"], [1 / 26, 1 / 26], "a guess", rtol=1e-5)


CHECKERS: dict[str, Callable[..., None]] = {check.__name__.replace("_", "-"): check for check in (
    head_flow, masked_scores, heads_flow, block_flow, model_flow, shifted_targets, softmax_steps, saturation,
    weights_and_sizes, value_plane, concentration, score_spread, position_encoding, cost_growth, head_grid,
    attention_lines, trained_step, dot_plane, decoder_map, decoder_training)}
"""What each kind of figure must agree with (the checker of kind ``a-b`` is ``a_b``); a checker that reads the
picture itself also takes its markup."""
READS_THE_PICTURE = {"head-grid", "attention-lines"}
INTERACTIVE = {"attention-lines"}
"""Kinds whose pictures hold controls (the lines view's words): a group, since an image's parts are not controls."""
CHARTS = {"concentration", "score-spread", "cost-growth", "decoder-training"}
"""Kinds drawn by ``plot``, read in a box as narrow as the lab's column on a phone."""


def test_every_kind_of_figure_on_the_site_has_a_checker_and_every_checker_a_figure(found: list[Found]) -> None:
    assert sorted({f.kind for f in found}) == sorted(CHECKERS)


@pytest.mark.parametrize("kind", CHECKERS)
def test_each_figure_carries_the_numbers_attnlab_gives(found: list[Found], kind: str) -> None:
    for f in (f for f in found if f.kind == kind):
        CHECKERS[kind](f.values, *([f.body] if kind in READS_THE_PICTURE else []))


def test_a_checker_sees_a_number_moved(found: list[Found]) -> None:
    # mutation check: the softmax figure's middle weight of its first row, nudged, is caught
    figure = next(f for f in found if f.kind == "softmax-steps")
    moved = json.loads(json.dumps(figure.values))
    moved["rows"][0]["weights"][1] += 1e-3
    with pytest.raises(AssertionError, match="weights"):
        softmax_steps(moved)


def test_every_picture_is_in_a_figure_and_every_figure_is_found(built_site: Path, found: list[Found]) -> None:
    for path in sorted(built_site.rglob("*.html")):
        article = re.search(r"<article\b.*?</article>", path.read_text(encoding="utf-8"), re.S)
        # the theme's icons are outside the article; the lab's live plane waits in a <template> for its script
        html = re.sub(r"<template\b.*?</template>", "", article.group(0) if article else "", flags=re.S)
        page = path.relative_to(built_site).as_posix()
        inside = sum(f.body.count("<svg") for f in found if f.page == page)
        assert (html.count('class="attnlab-figure'), html.count("<svg")) == (
            sum(f.page == page for f in found), inside), page


def test_every_picture_is_an_image_named_and_described_by_elements_it_holds(found: list[Found]) -> None:
    for f in found:
        role = "group" if f.kind in INTERACTIVE else "img"
        pictures = re.findall(f'<svg [^>]*role="{role}" aria-labelledby="([^"]+)" aria-describedby="([^"]+)"', f.body)
        assert pictures and len(pictures) == f.body.count("<svg"), f.ident
        for title, desc in pictures:
            assert re.search(f'<title id="{title}">[^<]+</title><desc id="{desc}">[^<]+</desc>', f.body), f.ident
        # every hatching, gradient and arrow head a picture refers to is defined in it
        assert set(re.findall(r"url\(#([^)]+)\)", f.body)) <= set(re.findall(r' id="([^"]+)"', f.body)), f.ident
        assert "<figcaption>" in f.body


def test_every_pictures_text_reads_at_11_px_once_shrunk_to_a_phones_column(found: list[Found]) -> None:
    for f in found:
        column = LAB_COLUMN if f.kind in CHARTS else PHONE_COLUMN
        pictures = re.findall(r'<svg [^>]*? width="([\d.]+)"[^>]*>(.*?)</svg>', f.body, re.S)
        assert len(pictures) == f.body.count("<svg"), f.ident
        for width, body in pictures:
            sizes = [float(size) for size in re.findall(r'<text [^>]*font-size="([\d.]+)"', body)]
            assert min(sizes) * min(1.0, column / float(width)) >= MIN_TEXT, f.ident


def test_home_and_every_chapter_show_a_figure_and_the_diagrams_are_where_the_chapters_need_them(
        found: list[Found]) -> None:
    assert {"index.html", *(path.replace(".md", ".html") for path in guide().chapters)} <= {f.page for f in found}
    kinds = {(f.page, f.kind) for f in found}
    assert {("heads.html", "heads-flow"), ("decoder.html", "model-flow"), ("decoder.html", "shifted-targets"),
            ("block.html", "model-flow"), ("real-model.html", "model-flow"),
            ("index.html", "attention-lines"), ("rows.html", "attention-lines")} <= kinds

