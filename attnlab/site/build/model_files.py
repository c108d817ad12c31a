"""The model's files (``assets/model/``) that ``docs/assets/minilm.js`` loads as scripts (so ``file://`` works): the
float16 weights as UTF-16LE strings, the tokenizer, a manifest of digests, the licence and a README; :func:`archive`
zips them apart from the offline copy."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from attnlab import __version__, bert
from attnlab.cost import readable_bytes
from attnlab.site.build import data_text, offline, tokenizer_file
from attnlab.site.pages import published

FOLDER = offline.MODEL_FOLDER
FILES_GLOBAL = "ATTNLAB_MODEL_FILES"
MANIFEST_GLOBAL = "ATTNLAB_MODEL_MANIFEST"
PRECISION = "float16"
CHUNKS = 8
"""How many files the weights are cut into (about 5.4 MiB each)."""
ESCAPED = (0x0000, 0x000A, 0x000D, 0x0022, 0x005C, 0x2028, 0x2029)
"""Code units written as ``\\uXXXX`` besides the surrogates: NUL, line terminators, the quote, the backslash."""
SPECIAL = np.isin(np.arange(0x10000), [*ESCAPED, *range(0xD800, 0xE000)])  # whether a unit is escaped, by value
REVISION = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41"
"""The upstream commit whose ``model.safetensors`` has ``bert.WEIGHTS_SHA256``."""
LICENCE = "Apache-2.0"
DOWNLOAD_BYTES = 45_535_914
"""What the page loads for the model (manifest.js and the files it lists), which a test weighs."""
LAYER_TENSORS = tuple(f"{part}.{kind}" for part in (
    "attention.self.query", "attention.self.key", "attention.self.value", "attention.output.dense",
    "attention.output.LayerNorm", "intermediate.dense", "output.dense", "output.LayerNorm")
    for kind in ("weight", "bias"))
"""Each encoder layer's tensors the forward pass reads, by their names in model.safetensors."""
EMBEDDING_TENSORS = (*(f"embeddings.{name}_embeddings.weight" for name in ("word", "position", "token_type")),
                     "embeddings.LayerNorm.weight", "embeddings.LayerNorm.bias")


def tensor_names(layers: int) -> list[str]:
    """The tensors the page's forward pass reads, in the order they are stored (the pooler is not among them)."""
    return [*EMBEDDING_TENSORS, *(f"encoder.layer.{layer}.{name}" for layer in range(layers) for name in LAYER_TENSORS)]


def checked_revision(directory: Path) -> str:
    """The installed model.safetensors' SHA-256, refused unless it is the file of ``REVISION``."""
    found = bert.weights_sha256(bert.load_model(directory))
    if found != bert.WEIGHTS_SHA256:
        raise ValueError(f"{directory / 'model.safetensors'} has SHA-256 {found}, not {bert.WEIGHTS_SHA256} "
                         f"(the file of {bert.UPSTREAM} at revision {REVISION}): say which revision it is in "
                         "attnlab.site.build.model_files before shipping it")
    return found


def weight_stream(directory: Path, config: dict[str, Any]) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """The shipped tensors' float16 bits end to end (uint16, little-endian) and where each tensor starts."""
    tensors, names = bert.read_tensors(directory, PRECISION), tensor_names(config["num_hidden_layers"])
    if missing := [name for name in names if name not in tensors]:
        raise ValueError(f"model.safetensors has no tensor {missing[0]!r}")
    parts = [np.asarray(tensors[name], "<f2").view("<u2").ravel() for name in names]
    offsets = np.cumsum([0, *(part.size for part in parts)]).tolist()
    return np.concatenate(parts), [{"name": name, "shape": list(tensors[name].shape), "offset": offset}
                                   for name, offset in zip(names, offsets, strict=False)]


def utf16_literal(units: np.ndarray) -> bytes:
    """A JavaScript string literal, as UTF-16LE bytes, whose code units are ``units`` (escapes where needed)."""
    units = np.asarray(units, dtype="<u2")
    special = SPECIAL[units]
    pieces: list[bytes | memoryview] = ['"'.encode("utf-16-le")]
    start = 0
    for at in np.flatnonzero(special).tolist():
        pieces += [units[start:at].data, f"\\u{int(units[at]):04x}".encode("utf-16-le")]  # .data: no copy
        start = at + 1
    pieces += [units[start:].data, '"'.encode("utf-16-le")]
    return b"".join(pieces)


def adding(variable: str, key: str) -> str:
    """The start of a classic script adding a value to ``globalThis[variable][key]`` (the explorer's data too)."""
    return f"globalThis.{variable} = globalThis.{variable} || {{}};\nglobalThis.{variable}[{json.dumps(key)}] = "


def weights_script(name: str, units: np.ndarray, first: int) -> bytes:
    """A weights file: UTF-16LE with its byte-order mark, one string literal of float16 bits."""
    head = (f"/* all-MiniLM-L6-v2 ({bert.UPSTREAM} at {REVISION[:12]}), Apache-2.0: LICENSE.txt beside this file. "
            f"Weights {first} to {first + units.size - 1} of the stream manifest.js describes, as float16: "
            "each UTF-16 code unit of the string is one weight's 16 bits. Generated by "
            f"attnlab.site.build.model_files; do not edit. */\n{adding(FILES_GLOBAL, name)}")
    return b"".join((b"\xff\xfe" + head.encode("utf-16-le"), utf16_literal(units), ";\n".encode("utf-16-le")))


SHAPE = {"layers": "num_hidden_layers", "heads": "num_attention_heads", "hidden": "hidden_size",
         "intermediate": "intermediate_size", "eps": "layer_norm_eps", "positions": "max_position_embeddings"}
"""The model's shape in the names minilm.js reads, from config.json's."""


def archive_name(version: str = __version__) -> str:
    """The model's download: ``attention-lab-0.1.0-model.zip``."""
    return published.archive_name(version).removesuffix(".zip") + "-model.zip"


def archive(into: BinaryIO, date: str) -> None:
    """Write to ``into`` the model's files, stored (deflating saves <10 %), in the copy's folder, dated ``date``."""
    offline.zipped(into, files(), published.archive_name(), date, compress=False)


@cache
def files() -> dict[str, bytes]:
    """Every model file by its path inside the site (made once: do not change the dict)."""
    directory = bert.model_dir()
    weights_sha256 = checked_revision(directory)
    config = bert.read_config(directory)
    stream, table = weight_stream(directory, config)
    tokenizer = {**tokenizer_file.settings(directory), "classes": tokenizer_file.character_classes()}
    tokens = json.dumps(tokenizer, ensure_ascii=False, separators=(",", ":"))
    out = {"tokenizer.js": (f"/* The model's WordPiece tokenizer, as JSON text. Generated by "
                            f"attnlab.site.build.model_files; do not edit. */\n{adding(FILES_GLOBAL, 'tokenizer.js')}"
                            f"{json.dumps(tokens, ensure_ascii=False)};\n").encode()}
    listed: list[dict[str, Any]] = [{"name": "tokenizer.js", "kind": "tokenizer", "bytes": len(out["tokenizer.js"]),
                                     "sha256": hashlib.sha256(tokens.encode("utf-8")).hexdigest()}]
    size = -(-stream.size // CHUNKS)
    for i in range(CHUNKS):
        name, units = f"weights-{i}.js", stream[i * size:(i + 1) * size]
        out[name] = weights_script(name, units, i * size)
        listed.append({"name": name, "kind": "weights", "bytes": len(out[name]), "first": i * size,
                       "values": int(units.size), "sha256": hashlib.sha256(units.data).hexdigest()})
    total = sum(entry["bytes"] for entry in listed)
    manifest = {"model": bert.UPSTREAM, "revision": REVISION, "safetensorsSha256": weights_sha256,
                "licence": LICENCE, "licenceFile": "LICENSE.txt", "precision": PRECISION,
                "config": {name: config[key] for name, key in SHAPE.items()}, "values": int(stream.size),
                "tensors": table, "files": listed, "bytes": total}
    out["manifest.js"] = ("/* all-MiniLM-L6-v2 for the explorer: what each model file holds and its SHA-256. Generated "
                          "by attnlab.site.build.model_files; do not edit. */\n"
                          f"globalThis.{MANIFEST_GLOBAL} = {json.dumps(manifest, separators=(',', ':'))};\n").encode()
    out["LICENSE.txt"] = resources.files("attnlab.site.pages").joinpath("data/apache-2.0.txt").read_bytes()
    out["README.txt"] = data_text("data/model-readme.txt").format(
        size=readable_bytes(total), upstream=bert.UPSTREAM, licence=LICENCE, revision=REVISION, sha256=weights_sha256,
        precision=PRECISION, version=__version__).encode("utf-8")
    return {f"{FOLDER}/{name}": data for name, data in out.items()}
