"""A model's weights from its ``.safetensors`` file, read with numpy alone.

The format: 8 bytes holding the header's length N (little-endian), N bytes
of JSON giving each tensor's dtype, shape and byte range in the data that
follows (and an optional ``__metadata__``), then the data, little-endian.
The file is memory-mapped, so a tensor is a read-only view of its bytes:
nothing is copied until a caller converts it (MiniLM's 90 MB are read
from the page cache, not duplicated in memory).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

__all__ = ["DTYPES", "read_safetensors"]

DTYPES = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I64": "<i8"}
"""The format's dtype names this reader takes → numpy's."""


def read_safetensors(path: Path) -> dict[str, np.ndarray]:
    """Every tensor in the file at ``path``, by name, as stored (read-only views of the mapped file).

    ``ValueError`` names the file and what in it is not the format or a dtype outside ``DTYPES``.
    """
    size = path.stat().st_size
    data = np.asarray(np.memmap(path, dtype=np.uint8, mode="r")) if size else np.zeros(0, np.uint8)
    length = int.from_bytes(data[:8].tobytes(), "little")
    if size < 8 or 8 + length > size:
        raise ValueError(f"{path} is not a safetensors file: {size} bytes cannot hold a header of {length}")
    try:
        header = json.loads(data[8:8 + length].tobytes())
    except ValueError:
        raise ValueError(f"{path} is not a safetensors file: its header is not JSON") from None
    header.pop("__metadata__", None)
    tensors = {}
    for name, entry in header.items():
        if entry["dtype"] not in DTYPES:
            raise ValueError(f"{path}: tensor {name!r} is {entry['dtype']}, not one of {', '.join(DTYPES)}")
        dtype, (start, end) = np.dtype(DTYPES[entry["dtype"]]), entry["data_offsets"]
        if end - start != math.prod(entry["shape"]) * dtype.itemsize or 8 + length + end > size:
            raise ValueError(f"{path}: tensor {name!r} ({entry['shape']} × {entry['dtype']}) does not fit bytes "
                             f"{start} to {end} of the data")
        tensors[name] = data[8 + length + start:8 + length + end].view(dtype).reshape(entry["shape"])
    return tensors
