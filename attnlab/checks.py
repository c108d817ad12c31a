"""Input checks shared by every public function.

Each check turns what a reader typed (lists, tuples, arrays) into a float
array, or raises an error that names the argument and what was wrong with it.
Nothing downstream ever has to guess about ``nan``, ragged rows or empty input.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np


def as_array(name: str, value: Any, ndim: int | tuple[int, ...]) -> np.ndarray:
    """Return ``value`` as a finite float64 array with ``ndim`` dimensions.

    Raises ``TypeError`` for booleans, strings or other non-numbers and
    ``ValueError`` for ragged rows, empty input, ``nan`` or infinity.
    """
    allowed = (ndim,) if isinstance(ndim, int) else ndim
    if isinstance(value, np.ndarray) and value.dtype == bool:
        raise TypeError(f"{name} must hold numbers, got booleans")
    try:
        raw = np.asarray(value)
    except ValueError as error:  # numpy refuses some ragged nests outright
        raise ValueError(f"{name} is ragged: every row must have the same length") from error
    if raw.dtype == object:
        raise ValueError(f"{name} is ragged or holds non-numbers: every row must have the same length")
    if raw.dtype == bool or not np.issubdtype(raw.dtype, np.number) or np.iscomplexobj(raw):
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
    """Return ``value`` as a boolean array of exactly ``shape``.

    Masks must be genuinely boolean: a 0/1 float array is refused, because
    "0" could mean "blocked" or "score zero", and those differ.
    """
    mask = np.asarray(value)
    if mask.dtype != bool:
        raise TypeError(f"{name} must be a boolean array, got dtype {mask.dtype}")
    if mask.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {mask.shape}")
    return mask


def same_width(first: str, a: np.ndarray, second: str, b: np.ndarray) -> None:
    """Raise unless ``a`` and ``b`` have the same number of columns."""
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            f"{first} has width {a.shape[-1]} but {second} has width {b.shape[-1]}: "
            f"they must match (shapes {a.shape} and {b.shape})"
        )


def same_rows(first: str, a: np.ndarray, second: str, b: np.ndarray) -> None:
    """Raise unless ``a`` and ``b`` have the same number of rows."""
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"{first} has {a.shape[0]} rows but {second} has {b.shape[0]}: "
            f"they must match (shapes {a.shape} and {b.shape})"
        )


def finite_number(name: str, value: Any) -> float:
    """Return ``value`` as a finite float; refuse booleans, strings, ``nan`` and infinity."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {type(value).__name__} {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {number}")
    return number


def integer(name: str, value: Any) -> int:
    """Return ``value`` as an int of any sign; refuse booleans, floats and strings."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    return int(value)


def positive_int(name: str, value: Any) -> int:
    """Return ``value`` as an int of at least 1; refuse booleans and floats."""
    number = integer(name, value)
    if number < 1:
        raise ValueError(f"{name} must be at least 1, got {number}")
    return number


def index(name: str, value: Any, count: int) -> int:
    """Return ``value`` as a position from 0 to ``count`` − 1.

    Refuses booleans, floats and negative positions (Python would silently
    count those from the end, which no caller here means).
    """
    position = integer(name, value)
    if not 0 <= position < count:
        raise ValueError(f"{name} must be from 0 to {count - 1}, got {position}")
    return position
