# SPDX-License-Identifier: ISC
"""What a refused argument needs: the fixes dpsel._errors.explained adds to
the library's bare codes ("argument out of range"), each naming the
argument, its value and the value or call that would be taken.  Each
returns None when it finds nothing wrong, so that the library's own
message stands."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Optional

# A decimal as dpsel writes them ("1", "0.25", "5e-3", "-2").
_DECIMAL = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?")


def decimal(text: str) -> Optional[Decimal]:
    """text's value when it has the form above, else None."""
    if not _DECIMAL.fullmatch(text):
        return None
    try:
        return Decimal(text)
    except InvalidOperation:  # an exponent beyond Decimal's range
        return None


def sensitivity_fix(sensitivity: int) -> Optional[str]:
    if sensitivity < 1:
        return (f"sensitivity {sensitivity} is below 1: give the most one person can move any "
                "score (1 for counts)")
    return None


def base_fix(x: int, y: int) -> Optional[str]:
    if not 1 <= y <= 64:
        return f"y {y} is not 1 to 64: the base is x / 2^y"
    if not 0 < x < 1 << y:
        return f"x {x} is not 1 to 2^{y} - 1: the base x / 2^{y} must lie strictly between 0 and 1"
    return None


def epsilon_fix(text: str, sensitivity: int, monotonic: int) -> Optional[str]:
    """Tells a malformed epsilon from one that is not positive or too small
    for any base."""
    value = decimal(text)
    if value is None:
        return f"epsilon {text!r} is not a decimal number: give one such as '1', '0.25' or '5e-3'"
    if value <= 0:
        return f"epsilon {text} is not positive"
    units = sensitivity if monotonic else 2 * sensitivity
    # The least realised epsilon, units x ln(2^64 / (2^64 - 1)): units x 2^-64 to 19 digits.
    least = Decimal(units) / Decimal(1 << 64)
    if value < 2 * least:
        return (f"epsilon {text} is below what any base x / 2^y with y <= 64 realises for "
                f"sensitivity {sensitivity}{' (monotonic)' if monotonic else ''}: the least is "
                f"about {least:.2e} ({units} x 2^-64)")
    return None


def positive_fix(text: str, what: str) -> Optional[str]:
    value = decimal(text)
    if value is not None and value <= 0:
        return f"{what} {text} is not positive"
    return None


def index_fix(index: int, count: int, what: str) -> Optional[str]:
    """index must be 0 to count - 1."""
    if not 0 <= index < count:
        return f"{what} {index} is not 0 to {count - 1}: there are {count}"
    return None


def count_fix(k: int, n: int) -> Optional[str]:
    """k of n candidates: 1 to n."""
    if not 1 <= k <= n:
        return f"k {k} is not 1 to the number of candidates, {n}"
    return None
