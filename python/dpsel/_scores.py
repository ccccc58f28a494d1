# SPDX-License-Identifier: ISC
"""Score vectors as the C library reads them: n int64 values at an address.

A numpy int64 array that is C-contiguous and aligned is passed as it is (no
copy, no Python loop); other integer arrays are converted exactly (uint64
above 2^63 - 1 refused); float and object arrays only when every value is
exactly an integer in the int64 range.  A pandas Series gives its values
the same way and keeps its labels.  Any other sequence of integers, or an
iterator (taken in the order it yields), goes through array.array('q')
(C-speed for ints).  numpy and pandas are never imported here: an object
can only be one of theirs if its module is loaded.

Scores come from the data: no message here holds one (a refused score is
named by its position, with its type).  What has no exact meaning as a list
of scores is refused, whatever its values: booleans (True is not a score of 1 here), a masked array (its mask
would be dropped), a dict (its keys would be the scores), a set (no order),
a DataFrame (its column names would be the scores).
"""

from __future__ import annotations

import array
import collections.abc
import ctypes
import math
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple, Optional

from ._native.convert import INT64_MAX, INT64_MIN, integer, is_boolean, is_boolean_type
from ._errors import RangeError

# The address passed for no scores, so that C sees n == 0 (DPSEL_EEMPTY),
# never a NULL pointer.
_NOTHING = ctypes.c_int64(0)
_NOTHING_ADDRESS = ctypes.addressof(_NOTHING)


class Scores(NamedTuple):
    """Scores ready for C: `address` of `n` int64 values inside `keep`."""
    address: int
    n: int
    keep: Any
    labels: Optional[Any]  # a pandas Index, or None

    def label(self, i: int) -> Any:
        """The label of position i (the position itself without labels)."""
        if self.labels is None:
            return i
        return _python_scalar(self.labels[i])


def _python_scalar(value: Any) -> Any:
    """A label as Python's own type (an int, not a numpy.int64)."""
    numpy = sys.modules.get("numpy")
    return value.item() if numpy is not None and isinstance(value, numpy.generic) else value


def as_scores(scores: Any, what: str = "scores") -> Scores:
    """scores (a sequence of integers, a numpy array or a pandas Series) as
    int64 values for C, exactly or not at all."""
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(scores, pandas.Series):
        return _from_numpy(scores.to_numpy(), what)._replace(labels=scores.index)
    if pandas is not None and isinstance(scores, pandas.DataFrame):
        raise TypeError(f"{what} is a pandas DataFrame: give one column, frame[name] (a "
                        "Series, whose index gives the labels)")
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(scores, numpy.ma.MaskedArray):
        raise TypeError(f"{what} is a numpy masked array, whose mask C cannot see: give "
                        f"{what}.compressed() (the unmasked candidates alone, numbered anew) "
                        f"or {what}.filled(value) (a score for the masked ones)")
    if numpy is not None and isinstance(scores, numpy.ndarray):
        return _from_numpy(scores, what)
    return _from_sequence(scores, what)


def as_counts(values: Any, what: str) -> Scores:
    """Non-negative integers for a const uint64_t * argument (the same bits
    as int64 ones: values above 2^63 - 1 are refused with the others)."""
    counts = as_scores(values, what)
    least = min(memoryview(counts.keep)) if counts.n else 0
    if least < 0:
        raise RangeError(f"{what} has a negative count")
    return counts


def _scores_at(buffer: Any, address: int, n: int) -> Scores:
    return Scores(address if n else _NOTHING_ADDRESS, n, buffer, None)


def _from_sequence(scores: Any, what: str) -> Scores:
    if not isinstance(scores, (list, tuple)):
        _check_ordered(scores, what)
        scores = list(scores)  # once: a failed fast path must not lose an iterator's items
    values = None
    if not any(map(is_boolean_type, set(map(type, scores)))):  # array.array takes bools
        try:
            values = array.array("q", scores)
        except (TypeError, OverflowError):
            pass
    if values is None:
        values = array.array("q", [_exact_integer(v, f"{what}[{i}]") for i, v in enumerate(scores)])
    return _scores_at(values, values.buffer_info()[0], len(values))


_SET_ITERATOR: type = type(iter(set()))


def _check_ordered(scores: Any, what: str) -> None:
    """Scores are a sequence or an iterator, whose order numbers the
    candidates; a mapping, a set or a text is refused, as is any other
    iterable (whose order may not be defined)."""
    kind = type(scores).__name__
    if isinstance(scores, (str, bytes, bytearray)) or scores is None:
        raise TypeError(f"{what} must be a sequence of integers, not {kind}")
    if isinstance(scores, (collections.abc.Mapping, collections.abc.MappingView)):
        raise TypeError(f"{what} is a {kind}, a mapping or its view: give pandas.Series(d) "
                        "to score its values and release its keys, or list(d.values()) to "
                        "release positions")
    if isinstance(scores, (collections.abc.Set, _SET_ITERATOR)):
        raise TypeError(f"{what} is a {kind}, which has no order: give a list in the "
                        "candidates' order (sorted(...) for one)")
    pandas = sys.modules.get("pandas")
    ordered = (collections.abc.Sequence, collections.abc.Iterator) + (
        (pandas.Index, pandas.api.extensions.ExtensionArray) if pandas is not None else ())
    if not isinstance(scores, ordered):
        fix = (": give list(...) if its order is the candidates' order"
               if isinstance(scores, collections.abc.Iterable) else "")
        raise TypeError(f"{what} must be a sequence of integers, not {kind}{fix}")


def _exact_integer(value: Any, what: str) -> int:
    """An integer in the int64 range: an int (or numpy integer), or a number
    that is exactly one (2.0, Fraction(4, 2), Decimal('3')); 2.5 is refused."""
    if is_boolean(value) or hasattr(type(value), "__index__"):
        number = integer(value, what)  # a bool is refused there, with its fix
    else:
        number = _whole_number(value, what)
    if not INT64_MIN <= number <= INT64_MAX:
        raise RangeError(f"{what} is outside the int64 range")
    return number


def _whole_number(value: Any, what: str) -> int:
    if isinstance(value, str):  # Fraction would parse it
        raise TypeError(f"{what} is a str, not an integer: give int(text)")
    if isinstance(value, Decimal):
        return _whole_decimal(value, what)
    try:
        fraction = Fraction(value)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"{what} is a {type(value).__name__}, not an integer"
                        f"{_missing_hint(value)}") from None
    if fraction.denominator != 1:
        raise TypeError(f"{what} is a {type(value).__name__} with a fraction, not an integer")
    return fraction.numerator


def _whole_decimal(value: Decimal, what: str) -> int:
    """A Decimal that is an integer, decided from its exponent first:
    Fraction(Decimal('1e999999999')) would write out a billion digits."""
    if not value.is_finite():
        raise TypeError(f"{what} is a Decimal infinity or NaN, not an integer"
                        f"{_missing_hint(value)}")
    if value.adjusted() > 18:  # at least 10^19: beyond int64, whatever the digits
        raise RangeError(f"{what} is outside the int64 range")
    if value != value.to_integral_value():
        raise TypeError(f"{what} is a Decimal with a fraction, not an integer")
    return int(value)


def _missing_hint(value: Any) -> str:
    """For a missing value (None, NaN, pandas' NA): how to say what it means."""
    if (value is None or type(value).__name__ in ("NAType", "NaTType")
            or (isinstance(value, float) and math.isnan(value))
            or (isinstance(value, Decimal) and value.is_nan())):
        return ": a missing score, which dpsel will not guess (drop it or fill it in first)"
    return ""


def _from_numpy(values: Any, what: str) -> Scores:
    numpy = sys.modules["numpy"]
    if values.ndim != 1:
        raise ValueError(f"{what} must be one-dimensional, not of shape {values.shape}")
    if values.dtype.kind == "O":
        return _from_sequence(values.tolist(), what)
    flags = values.flags
    if not (values.dtype == numpy.int64 and flags.c_contiguous and flags.aligned):
        values = _int64_copy(values, what)
    # (Else the array itself: zero-copy.)
    return _scores_at(values, values.ctypes.data, len(values))


def _int64_copy(values: Any, what: str) -> Any:
    """A numpy array of another dtype or layout as a new aligned, contiguous
    int64 array, exactly or not at all."""
    numpy = sys.modules["numpy"]
    kind = values.dtype.kind
    # int(): numpy would compare a uint64 with a Python int in doubles.
    if kind == "u" and values.size and int(values.max()) > INT64_MAX:
        raise RangeError(f"{what} has a value outside the int64 range")
    if kind == "f":
        _check_whole(values, what)
    elif kind == "b":
        raise TypeError(f"{what} must be integers, not of dtype bool: give "
                        f"{what}.astype(int) to mean 1 and 0")
    elif kind not in "iu":
        raise TypeError(f"{what} must be integers, not of dtype {values.dtype}")
    return numpy.require(values, dtype=numpy.int64, requirements=["C", "A"])


def _check_whole(values: Any, what: str) -> None:
    """Floats are scores only when each is exactly an int64 integer."""
    numpy = sys.modules["numpy"]
    whole = numpy.isfinite(values)
    whole[whole] = values[whole] == numpy.trunc(values[whole])
    # -2^63 and 2^63 are exact floats: the int64 range is [-2^63, 2^63).
    whole &= (values >= -2.0**63) & (values < 2.0**63)
    if not whole.all():
        i = int(numpy.argmin(whole))
        raise TypeError(f"{what}[{i}] is a float that is not an integer in the int64 range"
                        f"{_missing_hint(float(values[i]))}")
