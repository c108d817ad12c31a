"""Input checks shared by every public function.

Each check turns what a reader typed (lists, tuples, arrays) into a float
array, or raises an error that names the argument and what was wrong with it.
Nothing downstream ever has to guess about values that are not numbers, ragged rows or empty input.
"""

from __future__ import annotations

import json
import math
import numbers
from decimal import Decimal
from typing import Any

import numpy as np


def _asarray(name: str, value: Any) -> np.ndarray:
    """``np.asarray(value)``, with numpy's error for ragged nests turned into one that names ``name``."""
    try:
        return np.asarray(value)
    except ValueError as error:  # numpy refuses some ragged nests outright
        raise ValueError(f"{name} is ragged: every row must have the same length") from error


def _from_objects(name: str, raw: np.ndarray) -> np.ndarray:
    """Turn an object array (what numpy makes of odd entries) into floats, or name the first odd entry.

    numpy falls back to objects for ragged rows kept as lists, for non-numbers
    such as None, and for Python integers beyond int64; the last are fine
    unless they are beyond float64 too.
    """
    for where, item in np.ndenumerate(raw):
        if isinstance(item, (list, tuple, np.ndarray)):
            raise ValueError(f"{name} is ragged: every row must have the same length")
        if isinstance(item, (bool, np.bool_)) or not isinstance(item, numbers.Real):
            raise TypeError(f"{name} must hold real numbers, got {shown(item)} at index {where}")
        try:
            float(item)
        except OverflowError:
            raise ValueError(f"{name} has an entry beyond float64 at index {where}: "
                             f"an integer of {len(str(abs(int(item))))} digits") from None
    return raw.astype(np.float64)


def as_array(name: str, value: Any, ndim: int | tuple[int, ...]) -> np.ndarray:
    """Return ``value`` as a finite float64 array with ``ndim`` dimensions.

    Raises ``TypeError`` for booleans, strings or other non-numbers and
    ``ValueError`` for ragged rows, empty input, numbers beyond float64, not-a-number
    or infinity.
    """
    allowed = (ndim,) if isinstance(ndim, int) else ndim
    if isinstance(value, np.ndarray) and value.dtype == bool:
        raise TypeError(f"{name} must hold numbers, got booleans")
    raw = _asarray(name, value)
    if raw.dtype == object:
        raw = _from_objects(name, raw)
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
    mask = _asarray(name, value)
    if mask.dtype != bool:
        raise TypeError(f"{name} must be a boolean array, got dtype {mask.dtype}")
    if mask.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {mask.shape}")
    return mask


def as_vector(name: str, value: Any, width: int, match: str) -> np.ndarray:
    """Return ``value`` as a finite 1-D array of ``width`` entries, one per column of ``match``.

    For a bias or a gain: numpy would broadcast a wrong length, or an n×1
    column, into rows of its own instead of refusing it.
    """
    vector = as_array(name, value, 1)
    if vector.shape != (width,):
        raise ValueError(f"{name} must have shape ({width},) to match {match}, got {vector.shape}")
    return vector


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


def overflow_free(result: np.ndarray, what: str, first: str, a: np.ndarray, second: str,
                  b: np.ndarray) -> np.ndarray:
    """Return ``result``, computed from the finite arrays ``a`` and ``b``, unless it left float64.

    Finite inputs can still multiply or add up past the largest float; then
    the error names both inputs and their largest entries instead of
    returning an infinity or a not-a-number. Compute ``result`` under ``np.errstate(over="ignore",
    invalid="ignore")`` so that numpy does not warn first.
    """
    if not np.isfinite(result).all():
        raise ValueError(
            f"{what} overflow float64: {first} and {second} entries are too large "
            f"(largest |{first}| {np.abs(a).max():g}, largest |{second}| {np.abs(b).max():g})"
        )
    return result


def added(first: str, a: np.ndarray, second: str, b: np.ndarray) -> np.ndarray:
    """``a + b`` (a bias, a residual path), refused naming both if the sum leaves float64."""
    with np.errstate(over="ignore", invalid="ignore"):  # refused just below, without a warning
        return overflow_free(a + b, f"{first} + {second}", first, a, second, b)


def js_number(x: float) -> str:
    """``x`` written as JavaScript's ``String(x)`` writes it.

    The shortest digits that read back as ``x`` (Python's ``repr`` finds the
    same ones), laid out by JavaScript's rules: plain digits from 1e-6 up to
    1e21, an exponent outside that, ``NaN`` and ``Infinity`` by name.
    """
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    _, digits, exponent = Decimal(repr(abs(float(x)))).normalize().as_tuple()
    text, point = "".join(map(str, digits)), len(digits) + int(exponent)  # x = 0.text × 10^point
    if len(text) <= point <= 21:
        body = text + "0" * (point - len(text))
    elif 0 < point <= 21:
        body = f"{text[:point]}.{text[point:]}"
    elif -6 < point <= 0:
        body = "0." + "0" * -point + text
    else:
        body = text[0] + (f".{text[1:]}" if len(text) > 1 else "") + f"e{point - 1:+d}"
    return ("-" if x < 0 else "") + body


def _json(value: Any) -> str | None:
    """``value`` as JavaScript's ``JSON.stringify`` writes it, or None if it is not JSON data."""
    if value is None:
        return "null"
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return js_number(float(value)) if math.isfinite(value) else "null"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        items = [_json(item) for item in value]
        return None if None in items else "[" + ",".join(items) + "]"
    if isinstance(value, dict) and all(isinstance(key, str) for key in value):
        items = [_json(item) for item in value.values()]
        return None if None in items else "{" + ",".join(
            f"{json.dumps(key, ensure_ascii=False)}:{item}" for key, item in zip(value, items)) + "}"
    return None


def shown(value: Any) -> str:
    """How an error message shows a value someone passed: as JSON, numbers as JavaScript writes them.

    The browser lab (``docs/assets/attnlab.js``) repeats the lab's checks and
    must print the very same message, and JSON is what both languages write
    alike. A lone number is written as ``String(x)`` would (``NaN``,
    ``Infinity``); anything that is not JSON data by its type and ``repr``.
    """
    if isinstance(value, (float, np.floating)):
        return js_number(float(value))
    text = _json(value)
    return f"{type(value).__name__} {value!r}" if text is None else text


def real_number(name: str, value: Any) -> float:
    """Return ``value`` as a float, not-a-number and infinity included; refuse booleans, strings and integers beyond float64."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {shown(value)}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be finite in float64, got an integer of {len(str(abs(value)))} digits") from None


def finite_number(name: str, value: Any) -> float:
    """Return ``value`` as a finite float; refuse booleans, strings, not-a-number, infinity and integers beyond float64."""
    number = real_number(name, value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {shown(number)}")
    return number


def integer(name: str, value: Any) -> int:
    """Return ``value`` as an int of any sign; refuse booleans, floats and strings."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}")
    return int(value)


def at_least(name: str, value: Any, least: int) -> int:
    """Return ``value`` as an int of at least ``least``; refuse booleans and floats."""
    number = integer(name, value)
    if number < least:
        raise ValueError(f"{name} must be at least {least}, got {number}")
    return number


def positive_int(name: str, value: Any) -> int:
    """Return ``value`` as an int of at least 1; refuse booleans and floats."""
    return at_least(name, value, 1)


def index(name: str, value: Any, count: int) -> int:
    """Return ``value`` as a position from 0 to ``count`` − 1.

    Refuses booleans, floats and negative positions (Python would silently
    count those from the end, which no caller here means).
    """
    position = integer(name, value)
    if not 0 <= position < count:
        raise ValueError(f"{name} must be from 0 to {count - 1}, got {position}")
    return position
