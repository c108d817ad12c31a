"""Input checks shared by every public function.

Each check turns what a reader typed (lists, tuples, arrays) into a float
array, or raises an error that names the argument and what was wrong with it.
Nothing downstream ever has to guess about values that are not numbers, ragged rows or empty input.
"""

from __future__ import annotations

import math
import numbers
import reprlib
from typing import Any

import numpy as np


def _asarray(name: str, value: Any) -> np.ndarray:
    """``np.asarray(value)``, with numpy's error for ragged nests turned into one that names ``name``.

    A masked array is refused: ``np.asarray`` would drop its mask and hand
    on the very entries it hides.
    """
    if isinstance(value, np.ma.MaskedArray):
        raise TypeError(f"{name} is a masked array, whose mask attnlab would ignore: pass {name}.filled(...) "
                        f"or {name}.compressed() instead (shape {value.shape})")
    try:
        return np.asarray(value)
    except ValueError as error:  # numpy refuses some ragged nests outright
        raise ValueError(f"{name} is ragged: every row must have the same length") from error


def digits(n: int) -> int:
    """How many decimal digits ``abs(n)`` has, without writing it out (Python refuses to for 4,300 digits and more)."""
    size = abs(n)
    guess = max(int(size.bit_length() * math.log10(2)), 1)  # the count, or one less
    return guess + 1 if size >= 10**guess else guess


def _from_objects(name: str, raw: np.ndarray) -> np.ndarray:
    """Turn an object array (what numpy makes of odd entries) into floats, or name the first odd entry.

    numpy falls back to objects for ragged rows kept as lists, for non-numbers
    such as None, and for Python integers beyond int64; the last are fine
    unless they are beyond float64 too.
    """
    for where, item in np.ndenumerate(raw):
        if isinstance(item, (list, tuple, np.ndarray)):
            raise ValueError(f"{name} is ragged: every row must have the same length")
        if isinstance(item, NOT_NUMBERS) or not isinstance(item, numbers.Real):
            raise TypeError(f"{name} must hold real numbers, got {shown(item)} at index {where}")
        try:
            float(item)
        except OverflowError:
            raise ValueError(f"{name} has an entry beyond float64 at index {where}: {shown(item)}") from None
    return raw.astype(np.float64)


def _refuse_booleans(name: str, value: Any) -> None:
    """Raise if the nested lists ``value`` hold a boolean among numbers (numpy would read True as 1)."""
    entries = np.array(value, dtype=object)
    flags = np.frompyfunc(lambda item: isinstance(item, (bool, np.bool_)), 1, 1)(entries)
    if np.any(flags):
        where = tuple(int(i) for i in np.argwhere(np.asarray(flags, dtype=bool))[0]) if entries.ndim else ()
        raise TypeError(f"{name} must hold real numbers, got the boolean {entries[where]!r} at index {where} "
                        "among numbers")


def as_array(name: str, value: Any, ndim: int | tuple[int, ...]) -> np.ndarray:
    """Return ``value`` as a finite float64 array with ``ndim`` dimensions.

    Raises ``TypeError`` for booleans (alone or among numbers), durations,
    dates, masked arrays, strings or other non-numbers and ``ValueError`` for
    ragged rows, empty input, numbers beyond float64, not-a-number or
    infinity.
    """
    allowed = (ndim,) if isinstance(ndim, int) else ndim
    raw = _asarray(name, value)
    if raw.dtype == object:
        raw = _from_objects(name, raw)
    elif raw.dtype.kind in "iufc" and not isinstance(value, np.ndarray):  # what True among numbers becomes
        _refuse_booleans(name, value)
    if raw.dtype.kind in "mM":
        what = "durations" if raw.dtype.kind == "m" else "dates"
        raise TypeError(f"{name} must hold real numbers, got {what} (dtype {raw.dtype})")
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


SHOWN_LIMIT = 200
"""The most characters an error message gives to a value someone passed (a million-entry list included)."""


def brief_repr() -> reprlib.Repr:
    """``repr`` with bounded work: a long list is written as its first entries and ``...``."""
    brief = reprlib.Repr()  # keyword settings need Python 3.12
    brief.maxlevel, brief.maxstring, brief.maxlong, brief.maxother = 3, 120, 60, 160
    brief.maxtuple = brief.maxlist = brief.maxarray = 10
    brief.maxdict = brief.maxset = brief.maxfrozenset = brief.maxdeque = 6
    return brief


_BRIEF = brief_repr()


def size_of(value: Any) -> str | None:
    """An array's shape or a container's length, in words, or None for what has neither."""
    shape = getattr(value, "shape", None)
    if isinstance(shape, tuple):
        return f"{type(value).__name__} of shape {shape}"
    try:
        return f"{type(value).__name__} of length {len(value)}"
    except TypeError:  # no len(): a number, None, an object
        return None


def shown(value: Any) -> str:
    """How an error message shows a value someone passed: its ``repr``, at most ``SHOWN_LIMIT`` characters.

    A value written in part (a long list, string or array) says what it is
    and how big, ``[0.0, 0.0, ...] (list of length 1000000)``, so that a hostile
    input cannot make the message itself huge.
    """
    if isinstance(value, (np.integer, np.floating)) and not isinstance(value, NOT_NUMBERS):
        value = value.item()  # 2.5, not np.float64(2.5)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value).bit_length() > 200:
        return f"an integer of {digits(value)} digits"  # Python will not even write one of 4,300 digits
    text = _BRIEF.repr(value)
    if isinstance(value, np.ndarray):
        text = " ".join(text.split())  # one line: numpy writes each row of a matrix on its own
    if len(text) > SHOWN_LIMIT:
        text = text[:SHOWN_LIMIT - 1] + "…"
    size = size_of(value) if ("..." in text or text.endswith("…")) else None
    return f"{text} ({size})" if size else text


NOT_NUMBERS = (bool, np.bool_, np.timedelta64, np.datetime64)
"""Scalars Python or numpy count as integers that attnlab refuses: a boolean, a duration, a date."""


def instance(name: str, value: Any, kind: type) -> Any:
    """Return ``value`` if it is a ``kind`` (a parameter bundle, a random generator); else refuse it naming ``name``."""
    if not isinstance(value, kind):
        raise TypeError(f"{name} must be a {kind.__name__}, got {shown(value)}")
    return value


def real_number(name: str, value: Any) -> float:
    """Return ``value`` as a float, not-a-number and infinity included; refuse booleans, durations, strings and
    integers beyond float64."""
    if isinstance(value, NOT_NUMBERS) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a real number, got {shown(value)}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{name} must be finite in float64, got {shown(value)}") from None


def finite_number(name: str, value: Any) -> float:
    """Return ``value`` as a finite float; refuse booleans, strings, not-a-number, infinity and integers beyond
    float64."""
    number = real_number(name, value)
    if not math.isfinite(number):
        raise ValueError(f"{name} must be finite, got {shown(number)}")
    return number


def integer(name: str, value: Any) -> int:
    """Return ``value`` as an int of any sign; refuse booleans, durations, floats and strings."""
    if isinstance(value, NOT_NUMBERS) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {shown(value)}")
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
