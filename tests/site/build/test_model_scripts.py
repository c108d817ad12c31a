"""The model files the page loads: the float16 weights exactly, every digest right, the same bytes every time."""

from __future__ import annotations

import hashlib
import io
import json
import re
import zipfile

import numpy as np
import pytest

from attnlab import bert
from attnlab.site.build import model_files
from attnlab.site.build.model_files import FOLDER, checked_revision, files, tensor_names, utf16_literal
from attnlab.site.pages.published import archive_name

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def shipped() -> dict[str, bytes]:
    """Every model file, by its name inside the model's folder."""
    return {path.removeprefix(FOLDER + "/"): data for path, data in files().items()}


def manifest(shipped: dict[str, bytes]) -> dict:
    """The manifest's object, read from its script."""
    text = shipped["manifest.js"].decode("utf-8")
    return json.loads(text[text.index("= ") + 2:].rstrip().removesuffix(";"))


def weights_units(data: bytes) -> np.ndarray:
    """The code units of a weights file's string, decoded here without JavaScript: BOM, UTF-16LE, ``\\uXXXX``."""
    assert data[:2] == b"\xff\xfe"
    text = data[2:].decode("utf-16-le")
    literal = text[text.index('] = "') + 5:text.rindex('";')]
    assert "\\" not in re.sub(r"\\u[0-9a-f]{4}", "", literal), "only \\uXXXX escapes are written"
    parts = re.split(r"(\\u[0-9a-f]{4})", literal)  # odd places: the escapes
    return np.concatenate([np.array([int(part.removeprefix("\\u"), 16)], dtype="<u2") if i % 2 else
                           np.frombuffer(part.encode("utf-16-le"), dtype="<u2") for i, part in enumerate(parts)])


def test_the_weights_files_hold_every_shipped_tensor_in_float16_in_the_manifests_order(
    shipped: dict[str, bytes],
) -> None:
    listed = manifest(shipped)
    stream = np.concatenate([weights_units(shipped[f["name"]]) for f in listed["files"] if f["kind"] == "weights"])
    tensors = bert.read_tensors(bert.model_dir(), "float16")
    assert stream.size == listed["values"]
    for entry in listed["tensors"]:
        expected = tensors[entry["name"]]
        found = stream[entry["offset"]:entry["offset"] + expected.size].view(np.float16).reshape(entry["shape"])
        assert np.array_equal(found.astype(np.float64), expected), entry["name"]


def test_every_file_is_listed_with_its_size_and_the_sha256_of_what_it_holds(shipped: dict[str, bytes]) -> None:
    listed = manifest(shipped)
    for entry in listed["files"]:
        data = shipped[entry["name"]]
        assert entry["bytes"] == len(data)
        if entry["kind"] == "weights":
            held = weights_units(data).astype("<u2").tobytes()
            assert len(held) == 2 * entry["values"]
        else:
            text = data.decode("utf-8")
            held = json.loads(text[text.index('] = ') + 4:].rstrip().removesuffix(";")).encode("utf-8")
        assert hashlib.sha256(held).hexdigest() == entry["sha256"], entry["name"]
    assert listed["bytes"] == sum(entry["bytes"] for entry in listed["files"])
    assert [f["name"] for f in listed["files"]] == ["tokenizer.js", *(f"weights-{i}.js" for i in range(8))]


def test_the_weights_tile_the_stream_in_near_equal_chunks_under_50_mb_near_two_bytes_a_weight_as_stated(
        shipped: dict[str, bytes]) -> None:
    chunks = [f for f in manifest(shipped)["files"] if f["kind"] == "weights"]
    assert [c["first"] for c in chunks] == [0, *np.cumsum([c["values"] for c in chunks[:-1]]).tolist()]
    assert max(c["values"] for c in chunks) - min(c["values"] for c in chunks) < model_files.CHUNKS
    total, values = sum(len(data) for data in shipped.values()), manifest(shipped)["values"]
    assert total <= 50_000_000 and 2 * values < total < 2 * values * 1.02
    weighed = len(shipped["manifest.js"]) + manifest(shipped)["bytes"]  # it and every file it lists
    assert weighed == model_files.DOWNLOAD_BYTES, f"set model_files.DOWNLOAD_BYTES to {weighed}"


def test_a_string_literal_escapes_only_what_it_cannot_hold_as_it_is() -> None:
    units = np.array([0x0041, 0x0022, 0x005C, 0x000A, 0x000D, 0x0000, 0xD800, 0xDFFF, 0x2028, 0x2029, 0xFFFF, 0x3C00])
    expected = '"A\\u0022\\u005c\\u000a\\u000d\\u0000\\ud800\\udfff\\u2028\\u2029\uffff\u3c00"'
    assert utf16_literal(units) == expected.encode("utf-16-le")
    every = utf16_literal(np.arange(0x10000)).decode("utf-16-le")  # strict: a surrogate left as it is fails
    assert every.count("\\u") == len(model_files.ESCAPED) + 0x800
    read_back = json.loads(every, strict=False).encode("utf-16-le", "surrogatepass")  # as JavaScript reads it
    assert read_back == np.arange(0x10000, dtype="<u2").tobytes()


def test_the_tensors_are_all_the_forward_pass_reads_and_no_more() -> None:
    stored = set(bert.read_tensors(bert.model_dir()))
    names = tensor_names(6)
    assert len(names) == len(set(names)) == 5 + 6 * 16
    assert stored - set(names) == {"pooler.dense.weight", "pooler.dense.bias"}


def test_another_safetensors_file_is_refused_naming_its_sha256(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bert, "weights_sha256", lambda model: "0" * 64)
    with pytest.raises(ValueError, match=f"has SHA-256 {'0' * 64}, not {bert.WEIGHTS_SHA256}"):
        checked_revision(bert.model_dir())


def test_the_licence_and_the_readme_travel_with_the_weights(shipped: dict[str, bytes]) -> None:
    licence = shipped["LICENSE.txt"].decode("utf-8")
    assert all(part in licence for part in ("Apache License", "Version 2.0, January 2004", "END OF TERMS"))
    readme, sha256 = shipped["README.txt"].decode("utf-8"), bert.weights_sha256()
    assert model_files.REVISION in readme and sha256 in readme and "Apache-2.0" in readme
    listed = manifest(shipped)
    assert (listed["revision"], listed["safetensorsSha256"], listed["licence"]) == (model_files.REVISION, sha256,
                                                                                    "Apache-2.0")


def test_the_models_archive_drops_its_files_into_the_guides_copy_and_is_the_same_every_time(
        shipped: dict[str, bytes]) -> None:
    data = model_files.archive("2024-05-06")
    assert data == model_files.archive("2024-05-06")
    assert model_files.archive_name() == archive_name().removesuffix(".zip") + "-model.zip"
    with zipfile.ZipFile(io.BytesIO(data)) as zipped:
        folder = archive_name().removesuffix(".zip")
        assert {info.filename: zipped.read(info) for info in zipped.infolist()} == {
            f"{folder}/{FOLDER}/{name}": content for name, content in shipped.items()}
