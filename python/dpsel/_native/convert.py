# SPDX-License-Identifier: ISC
"""Python values to the C types, checked before any call: an integer that
does not fit its C type is refused here (ctypes would wrap it silently), and
numbers become the exact decimal texts the library reads."""

from __future__ import annotations

import enum
import math
import operator
import sys
from decimal import Decimal
from fractions import Fraction
from typing import SupportsIndex, TypeVar, cast

from .._errors import DecimalError, EpsilonError, RangeError
from .lib import DECIMAL_TEXT_MAX

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1
UINT_MAX = (1 << 32) - 1
SIZE_MAX = UINT64_MAX

# ---------------------------------------------------------------- integers


def is_boolean_type(kind: type) -> bool:
    """bool or numpy.bool_: never an integer here, though Python and numpy
    would take True and False as 1 and 0."""
    numpy = sys.modules.get("numpy")
    return issubclass(kind, bool) or (numpy is not None and issubclass(kind, numpy.bool_))


def is_boolean(value: object) -> bool:
    return is_boolean_type(type(value))


def is_number(value: object) -> bool:
    """A number by its type alone: an int, float, Decimal or Fraction, or a
    numpy integer or floating scalar.  Not a bool, nor a duration or a date:
    numpy's timedelta64 is an integer to numpy (and has __index__), of a
    unit its type does not show, so taking it as a count of nanoseconds
    would be a silent wrong answer."""
    if is_boolean(value):
        return False
    if isinstance(value, (int, float, Decimal, Fraction)):
        return True
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    return type(value).__module__ == "numpy" and kind in ("i", "u", "f")


def not_a_number(kind: type, what: str) -> TypeError:
    """The TypeError for a value of a type that is not a number, naming the
    argument and the type alone (never the value: it may be a record's) and
    how to convert it."""
    name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
    lowered = kind.__name__.lower()
    if is_boolean_type(kind):
        fix = "give .astype(int) (or int(v)) for 0 and 1"
    elif "timedelta" in lowered:
        fix = ("give numbers in a unit you name: .dt.total_seconds() for a pandas column of "
               "durations, or values / numpy.timedelta64(1, 's') for numpy")
    elif lowered in ("date", "datetime", "datetime64", "timestamp"):
        fix = ("give numbers in a unit you name, such as seconds since an epoch: "
               "(column - epoch).dt.total_seconds() for a pandas column")
    else:
        fix = "give numbers (int, float, Decimal, Fraction or a decimal str)"
    return TypeError(f"{what}: a {name} is not a number: {fix}")


def integer(value: object, what: str) -> int:
    """value as an int: an int, or anything with __index__ (numpy's); not a
    bool (the message holds no value: scores use it too)."""
    if is_boolean(value):
        raise TypeError(f"{what} is a bool, not an integer: give int(b) (or .astype(int) for "
                        "an array) to mean 1 or 0")
    try:
        return operator.index(cast("SupportsIndex", value))  # anything else: TypeError
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None


def in_range(value: object, what: str, low: int, high: int, shown: bool = True) -> int:
    """An integer in [low, high], else RangeError naming the value when it
    is shown (a public argument; shown=False for a score from the data)."""
    number = integer(value, what)
    if not low <= number <= high:
        raise RangeError(f"{what} is {number if shown else 'an integer'}, outside [{low}, {high}]")
    return number


def uint64(value: object, what: str) -> int:
    return in_range(value, what, 0, UINT64_MAX)


def sensitivity(value: object, given: object = None) -> int:
    """A sensitivity as C takes it (a uint64; ``given``: the decimal it was
    in units of): RangeError naming it when negative (0 is the library's
    to refuse, with its fix)."""
    units = integer(value, "sensitivity")
    if units < 0:
        raise RangeError("sensitivity", fix=f"sensitivity {value if given is None else given} "
                         "is negative: give the most one person can move any score (1 for "
                         "counts)")
    return uint64(units, "sensitivity")


def int64(value: object, what: str, shown: bool = True) -> int:
    return in_range(value, what, INT64_MIN, INT64_MAX, shown)


def size(value: object, what: str) -> int:
    return in_range(value, what, 0, SIZE_MAX)


def uint(value: object, what: str) -> int:
    return in_range(value, what, 0, UINT_MAX)


def flag(value: object, what: str) -> int:
    """A yes/no argument: a bool (or the ints 0 and 1) as C's 0 or 1."""
    if isinstance(value, int) and value in (0, 1):
        return int(value)
    raise TypeError(f"{what} must be True or False, not {value!r}")


# ------------------------------------------------------------------ enums

E = TypeVar("E", bound=enum.IntEnum)


def choice(kind: type[E], value: object, what: str) -> E:
    """An enum argument: a member, its value, or its name in any case."""
    if isinstance(value, str):
        member = kind.__members__.get(value.upper())
        if member is not None:
            return member
    elif isinstance(value, int) and not isinstance(value, bool):
        try:
            return kind(value)
        except ValueError:
            pass
    names = " or ".join(repr(name.lower()) for name in kind.__members__)
    raise RangeError(f"{what} must be {names}, not {value!r}")


# ------------------------------------------------------------------- texts


def c_text(text: str, what: str) -> bytes:
    """A str for a const char * argument (a NUL would cut it short)."""
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str, not {type(text).__name__}")
    if "\0" in text:
        raise ValueError(f"{what} contains a NUL character")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        pass  # raised below, outside the handler: its context holds the text
    raise ValueError(f"{what} holds a lone surrogate, which UTF-8 cannot encode: "
                     "pass text that str.encode('utf-8') accepts")


def byte_string(value: object, what: str) -> bytes:
    """Bytes (bytes, bytearray, memoryview), not an int or a str."""
    if not isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"{what} must be bytes, not {type(value).__name__}")
    return bytes(value)


def _decimal_digits(value: Fraction) -> tuple[int, int] | None:
    """(N, m) with value = N / 10^m, m as small as possible; None when the
    value has no finite decimal expansion (a denominator with a prime other
    than 2 and 5)."""
    denominator, twos, fives = value.denominator, 0, 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator != 1:
        return None
    m = max(twos, fives)
    return value.numerator * 10**m // value.denominator, m


def epsilon_text(value: object, what: str = "epsilon") -> str:
    """An epsilon (or delta) as the decimal text dpsel reads, exactly.

    A str is passed as it is; an int, Decimal or Fraction is written out
    exactly; a float is taken at its exact binary value (0.1 is
    0.1000000000000000055511151231257827...).  A Fraction without a finite
    decimal expansion (1/3) is refused rather than rounded."""
    if isinstance(value, str):
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise EpsilonError(f"{what} is {value}")
        sign, figures, exponent = value.as_tuple()
        return f"{'-' if sign else ''}{''.join(map(str, figures))}e{exponent}"
    fraction = _exact_fraction(value, what, EpsilonError)
    parts = _decimal_digits(fraction)
    if parts is None:
        raise EpsilonError(f"{what} {fraction} has no finite decimal expansion: give a decimal")
    digits, m = parts
    return f"{digits}e-{m}" if m else str(digits)


def decimal_text(value: object, what: str, shown: bool = True) -> str:
    """A decimal score, unit, grid end, value or quantile as the plain
    decimal text dpsel reads ([+-]digits[.digits], no exponent), exactly.

    A str is passed as it is; an int, Decimal or Fraction is written out
    exactly; a float only when it is exactly the decimal it prints as (0.5,
    0.25, 37.0: not 0.1, whose binary value is another number) -- give a str
    or a Decimal for the others.  A refusal names value when it is shown (a
    public argument); shown=False, for a score from the data, names what
    and the value's type alone."""
    if isinstance(value, str):
        return value
    name = f"{what} {value!r}" if shown else f"{what} (a {type(value).__name__})"
    if isinstance(value, Decimal):
        return _plain_decimal(value, name)
    fraction = _exact_fraction(value, what, DecimalError, shown)
    if isinstance(value, float) and fraction != Fraction(repr(value)):
        printed = repr(value) if shown else "the decimal it prints as"
        raise DecimalError(f"{name} is not exactly {printed} in binary: give a str or a Decimal")
    parts = _decimal_digits(fraction)
    if parts is None:
        raise DecimalError(f"{name} has no finite decimal expansion")
    digits, m = parts
    text = str(abs(digits)).rjust(m + 1, "0")
    return ("-" if digits < 0 else "") + (f"{text[:-m]}.{text[-m:]}" if m else text)


def _plain_decimal(value: Decimal, name: str) -> str:
    # A huge exponent would make a huge text: refuse here what dpsel refuses.
    exponent = value.as_tuple().exponent
    if not isinstance(exponent, int):  # 'n', 'N' or 'F': a NaN or an infinity
        raise DecimalError(f"{name} is not finite")
    if abs(exponent) > DECIMAL_TEXT_MAX:
        raise DecimalError(f"{name} has an exponent beyond {DECIMAL_TEXT_MAX} in magnitude")
    return format(value, "f")


def _exact_fraction(value: object, what: str, error: type[Exception],
                    shown: bool = True) -> Fraction:
    """An int, float or Fraction (or a numpy number) as an exact Fraction;
    an infinity or NaN refused, named when shown."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be a number, not bool")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise error(f"{what} is {value}" if shown else f"{what} is a float that is not finite")
        return Fraction(value)
    if isinstance(value, Fraction):
        return value
    try:
        return Fraction(operator.index(cast("SupportsIndex", value)))  # else TypeError
    except TypeError:
        raise TypeError(f"{what} must be a str, int, Decimal, Fraction or float, "
                        f"not {type(value).__name__}") from None
