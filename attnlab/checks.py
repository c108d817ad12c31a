"""Input checks shared by every public function: each returns a float array or a number, or raises naming the
argument and what was wrong (a wrong shape, not numeric, empty, or not finite)."""

from __future__ import annotations

import math
import reprlib
from typing import Any

import numpy as np


def shown(value: Any) -> str:
    """How an error message writes a value someone passed: its repr, a long one shortened by ``reprlib``."""
    return reprlib.repr(value.item() if isinstance(value, np.generic) else value)


def _asarray(name: str, value: Any) -> np.ndarray:
    """``np.asarray(value)``, with numpy's error for ragged rows turned into one naming ``name``."""
    try:
        return np.asarray(value)
    except ValueError:
        raise ValueError(f"{name} is ragged: every row must have the same length") from None


def as_array(name: str, value: Any, ndim: int | tuple[int, ...]) -> np.ndarray:
    """Return ``value`` as a finite float64 array with ``ndim`` dimensions (one count or a tuple of them).

    ``TypeError`` for entries that are not real numbers (booleans included),
    ``ValueError`` for ragged rows, another ``ndim``, empty input, NaN or infinity.
    """
    allowed = (ndim,) if isinstance(ndim, int) else ndim
    raw = _asarray(name, value)
    if raw.dtype == object:  # None among numbers, or integers beyond int64
        if not all(isinstance(item, int | float | np.number) for item in raw.flat):
            raise TypeError(f"{name} must hold real numbers, got {shown(value)}")
        raw = raw.astype(np.float64)
    if raw.dtype.kind not in "iuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {raw.dtype}")
    if raw.ndim not in allowed:
        wanted = " or ".join(f"{d}-D" for d in allowed)
        raise ValueError(f"{name} must be {wanted}, got shape {raw.shape}")
    if raw.size == 0:
        raise ValueError(f"{name} is empty (shape {raw.shape})")
    array = raw.astype(np.float64)
    bad = ~np.isfinite(array)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} has a non-finite entry {array[where]} at index {where}")
    return array


def as_matrix(name: str, value: Any) -> np.ndarray:
    """Return ``value`` as a finite 2-D float array (rows are tokens)."""
    return as_array(name, value, 2)


def as_rows(name: str, value: Any) -> tuple[np.ndarray, bool]:
    """Return ``value`` as a 2-D array and whether it was a single 1-D row."""
    array = as_array(name, value, (1, 2))
    return (array[None, :], True) if array.ndim == 1 else (array, False)


def as_mask(name: str, value: Any, shape: tuple[int, ...]) -> np.ndarray:
    """Return ``value`` as a boolean array of exactly ``shape``; a 0/1 array is refused ("0": blocked, or score 0?)."""
    mask = _asarray(name, value)
    if mask.dtype != bool:
        raise TypeError(f"{name} must be a boolean array, got dtype {mask.dtype}")
    if mask.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {mask.shape}")
    return mask


def as_vector(name: str, value: Any, width: int, match: str) -> np.ndarray:
    """Return ``value`` as a finite 1-D array of ``width`` entries, one per column of ``match`` (no broadcasting)."""
    vector = as_array(name, value, 1)
    if vector.shape != (width,):
        raise ValueError(f"{name} must have shape ({width},) to match {match}, got {vector.shape}")
    return vector


def same_width(first: str, a: np.ndarray, second: str, b: np.ndarray) -> None:
    """Raise unless ``a`` and ``b`` have the same number of columns."""
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"{first} has width {a.shape[-1]} but {second} has width {b.shape[-1]}: "
                         f"they must match (shapes {a.shape} and {b.shape})")


def same_rows(first: str, a: np.ndarray, second: str, b: np.ndarray) -> None:
    """Raise unless ``a`` and ``b`` have the same number of rows."""
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"{first} has {a.shape[0]} rows but {second} has {b.shape[0]}: "
                         f"they must match (shapes {a.shape} and {b.shape})")


def overflow_free(result: np.ndarray, what: str, first: str, a: np.ndarray, second: str,
                  b: np.ndarray) -> np.ndarray:
    """Return ``result`` (computed from ``a`` and ``b`` with warnings off) unless it left float64; then raise naming
    both inputs and their largest entries."""
    if not np.isfinite(result).all():
        raise ValueError(f"{what} overflow float64: {first} and {second} entries are too large "
                         f"(largest |{first}| {np.abs(a).max():g}, largest |{second}| {np.abs(b).max():g})")
    return result


def added(first: str, a: np.ndarray, second: str, b: np.ndarray) -> np.ndarray:
    """``a + b`` (a bias, a residual path), refused naming both if the sum leaves float64."""
    with np.errstate(over="ignore", invalid="ignore"):
        return overflow_free(a + b, f"{first} + {second}", first, a, second, b)


def instance(name: str, value: Any, kind: type) -> Any:
    """Return ``value`` if it is a ``kind`` (a parameter bundle, a random generator); else refuse it naming ``name``."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a {kind.__name__}, got {shown(value)}")
    return value


def finite_number(name: str, value: Any) -> float:
    """Return ``value`` as a finite float; refuse booleans, text and other non-numbers, NaN and infinity."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.integer | np.floating):
        raise TypeError(f"{name} must be a real number, got {shown(value)}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {number}")
    return number


def integer(name: str, value: Any) -> int:
    """Return ``value`` as an int of any sign; refuse booleans, floats and text."""
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {shown(value)}")
    return int(value)


def at_least(name: str, value: Any, least: int) -> int:
    """Return ``value`` as an int of at least ``least``."""
    number = integer(name, value)
    if number < least:
        raise ValueError(f"{name} must be at least {least}, got {number}")
    return number


def positive_int(name: str, value: Any) -> int:
    """Return ``value`` as an int of at least 1."""
    return at_least(name, value, 1)


def index(name: str, value: Any, count: int) -> int:
    """Return ``value`` as a position from 0 to ``count`` − 1 (a negative one is refused, not counted from the end)."""
    position = integer(name, value)
    if not 0 <= position < count:
        raise ValueError(f"{name} must be from 0 to {count - 1}, got {position}")
    return position
