"""Where the exponential overflows in reduced precision, and why the stable softmax never does.

A naive softmax exponentiates the scores as they are. In IEEE binary16
(numpy's float16) the largest finite number is 65504, and rounding to
nearest turns everything from 65520 (halfway to the next power of two) into
infinity, so exp(s) overflows once s passes ln 65520 ≈ 11.09; binary32 and
bfloat16 share an exponent range and overflow past about 88.7, binary64 past
about 709.8 (claim CL-037).
Subtracting the row maximum first makes every exponent at most 0, so no
visible weight can overflow in any of them (claim CL-020). numpy has no
bfloat16, so its largest number is written out from its format: 8 bits of
precision (7 stored) and the exponent range of float32.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from attnlab.checks import as_array

__all__ = ["BFLOAT16_MAX", "FORMATS", "exp_limit", "largest", "naive_exp_overflows", "stable_exp_overflows"]

BFLOAT16_MAX = (2 - 2**-7) * 2.0**127
"""The largest finite bfloat16: the largest float32 exponent, with 7 stored bits of fraction."""

FORMATS: tuple[str, ...] = ("float16", "bfloat16", "float32", "float64")
"""The floating formats this module knows, narrowest exponent range first."""

_NUMPY: dict[str, type[np.floating[Any]]] = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


def largest(format: str) -> float:
    """The largest finite number of ``format``, one of ``FORMATS``."""
    if format == "bfloat16":
        return BFLOAT16_MAX
    if format not in _NUMPY:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, got {format!r}")
    return float(np.finfo(_NUMPY[format]).max)


def exp_limit(format: str) -> float:
    """Past this argument exp(s) rounds to infinity in ``format`` (rounding to nearest).

    The threshold is halfway between the largest finite number and the next power of two
    (65520 in binary16): from there on, rounding goes up to infinity.
    """
    fraction, exponent = math.frexp(largest(format))  # largest = fraction · 2^exponent, fraction just below 1
    return exponent * math.log(2) + math.log((fraction + 1) / 2)  # in logs: 2^1024 is beyond float64 itself


def _computed(scores: Any, format: str) -> np.ndarray:
    """``scores`` as ``format`` (numpy's own formats only: bfloat16 has no numpy type)."""
    if format not in _NUMPY:
        raise ValueError(f"format must be one of {', '.join(_NUMPY)} (numpy has no bfloat16), got {format!r}")
    return as_array("scores", scores, (1, 2)).astype(_NUMPY[format])


def naive_exp_overflows(scores: Any, format: str) -> bool:
    """Whether exp of any score, computed in ``format`` as a naive softmax would, comes out infinite."""
    with np.errstate(over="ignore"):
        return bool(np.isinf(np.exp(_computed(scores, format))).any())


def stable_exp_overflows(scores: Any, format: str) -> bool:
    """Whether exp(s − row maximum), computed in ``format``, comes out infinite for any score (it never does)."""
    values = _computed(scores, format)
    with np.errstate(over="ignore"):
        return bool(np.isinf(np.exp(values - values.max(axis=-1, keepdims=True))).any())
