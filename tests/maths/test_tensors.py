"""attnlab.tensors against the safetensors package: what it writes, both models' files, what is not the format."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from safetensors.numpy import load_file, save_file

from attnlab import bert, decoder
from attnlab.tensors import DTYPES, read_safetensors

arrays = st.sampled_from(sorted(DTYPES.values())).flatmap(
    lambda dtype: hnp.arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)))


@settings(max_examples=40)
@given(st.dictionaries(st.text(min_size=1, max_size=8), arrays, max_size=4))
def test_what_the_package_writes_reads_back_bit_for_bit_and_read_only(
        tmp_path_factory: pytest.TempPathFactory, tensors: dict[str, np.ndarray]) -> None:
    save_file(tensors, str(path := tmp_path_factory.mktemp("written") / "t.safetensors"))
    read = read_safetensors(path)
    assert {name: (a.dtype, a.shape, a.tobytes()) for name, a in read.items()} == {
        name: (a.dtype, a.shape, a.tobytes()) for name, a in tensors.items()}
    assert not any(a.flags.writeable for a in read.values())


def test_both_models_files_read_as_the_package_reads_them() -> None:
    for path in (decoder.DIRECTORY / "model.safetensors", bert.model_dir() / "model.safetensors"):
        stored, ours = load_file(str(path)), read_safetensors(path)
        assert sorted(ours) == sorted(stored) and all(np.array_equal(ours[n], a) for n, a in stored.items())


def test_a_file_that_is_not_the_format_or_holds_another_dtype_is_refused_naming_it(tmp_path: Path) -> None:
    def header(dtype: str, end: int) -> bytes:
        text = json.dumps({"x": {"dtype": dtype, "shape": [2], "data_offsets": [0, end]}}).encode()
        return len(text).to_bytes(8, "little") + text
    for content, message in [(b"\2\0\0\0\0\0", "is not a safetensors file: 6 bytes cannot hold a header of 2"),
                             (b"\3" + b"\0" * 7 + b"{x}", "is not a safetensors file: its header is not JSON"),
                             (header("BF16", 4) + b"\0" * 4, "tensor 'x' is BF16, not one of F64, F32, F16, I64"),
                             (header("F32", 8) + b"\0" * 4, r"tensor 'x' \(\[2\] × F32\) does not fit bytes 0 to 8")]:
        (path := tmp_path / "bad.safetensors").write_bytes(content)
        with pytest.raises(ValueError, match=f"bad.safetensors:? {message}"):
            read_safetensors(path)
