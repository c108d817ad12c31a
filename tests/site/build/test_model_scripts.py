"""The model files the page loads; ``tests/node/test_model_js_node.py`` loads them through minilm.js, which checks
every digest, and compares the numbers with Python's."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from test_wheel import entries

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


def test_the_weights_tile_the_stream_in_near_equal_chunks_under_50_mb_near_two_bytes_a_weight_each_size_as_stated(
        shipped: dict[str, bytes]) -> None:
    listed = manifest(shipped)
    assert [f["name"] for f in listed["files"]] == ["tokenizer.js", *(f"weights-{i}.js" for i in range(8))]
    assert [f["bytes"] for f in listed["files"]] == [len(shipped[f["name"]]) for f in listed["files"]]
    assert listed["bytes"] == sum(f["bytes"] for f in listed["files"])
    chunks = [f for f in listed["files"] if f["kind"] == "weights"]
    assert [c["first"] for c in chunks] == [0, *np.cumsum([c["values"] for c in chunks[:-1]]).tolist()]
    assert max(c["values"] for c in chunks) - min(c["values"] for c in chunks) < model_files.CHUNKS
    total, values = sum(len(data) for data in shipped.values()), listed["values"]
    assert total <= 50_000_000 and 2 * values < total < 2 * values * 1.02
    weighed = len(shipped["manifest.js"]) + listed["bytes"]  # it and every file it lists
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
    for into in (data := io.BytesIO(), again := io.BytesIO()):
        model_files.archive(into, "2024-05-06")
    assert data.getvalue() == again.getvalue()
    assert model_files.archive_name() == archive_name().removesuffix(".zip") + "-model.zip"
    folder = archive_name().removesuffix(".zip")
    assert entries(data.getvalue()) == {f"{folder}/{FOLDER}/{name}": content for name, content in shipped.items()}
