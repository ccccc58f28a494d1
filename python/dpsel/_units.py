# SPDX-License-Identifier: ISC
"""Decimal scores and sensitivities in whole units of a public resolution,
as the command line's --resolution and decimal --sensitivity take them
(dpsel_decimal_to_units): exactly, or refused, never rounded."""

from __future__ import annotations

import ctypes
import sys
from typing import Any, List, Optional

from ._native import convert
from ._errors import ErrorCode, explained, refuses
from ._fixes import positive_fix
from ._native.lib import lib


def text_of(value: Any, what: str, shown: bool = True) -> bytes:
    """A decimal (str, int, Decimal, Fraction, or a float that prints as
    its exact value) as the text dpsel reads; a refusal names value when
    it is shown (convert.decimal_text)."""
    return convert.c_text(convert.decimal_text(value, what, shown), what)


def unit_of(value: Any, what: str) -> str:
    """The unit 10^-d of a decimal written with d fraction digits, as the
    command line takes a decimal --sensitivity: "10.00" gives "0.01"."""
    text = text_of(value, what).decode()
    digits = len(text) - text.index(".") - 1 if "." in text else 0
    return f"0.{'0' * (digits - 1)}1" if digits else "1"


def to_units(value: Any, unit: str, what: str, shown: bool = True) -> int:
    """value / unit, exactly: UnitError when it is not a whole multiple of
    unit (a finer resolution reads it), DecimalError when it is not a
    decimal, naming value when it is shown (a public argument; shown=False
    for a score from the data, named by what alone)."""
    out, unit_text = ctypes.c_int64(), text_of(unit, "resolution")
    value_text = text_of(value, what, shown)
    name = f"{what} {value_text.decode()}" if shown else what
    with explained(lambda code: _fix(code, name, unit_text)):
        lib.dpsel_decimal_to_units(value_text, unit_text, ctypes.byref(out))
    return out.value


def _fix(code: int, name: str, unit: bytes) -> Optional[str]:
    """name: the argument, with its value when it is shown."""
    if code == ErrorCode.RANGE:
        return positive_fix(unit.decode(), "resolution")
    if code == ErrorCode.UNIT:
        return (f"{name} is not a whole multiple of the resolution {unit.decode()}: give a "
                "finer resolution")
    if code == ErrorCode.DECIMAL and _malformed(unit):
        return f"resolution {unit.decode()!r} is not a decimal number: give one such as '0.01'"
    if code == ErrorCode.DECIMAL:
        return f"{name} is not a decimal number"
    return None


def _malformed(text: bytes) -> bool:
    """dpsel_decimal_to_units refuses text as a decimal (DPSEL_EDECIMAL)."""
    return refuses(ErrorCode.DECIMAL, lib.dpsel_decimal_to_units, text, text,
                   ctypes.byref(ctypes.c_int64()))


def scores_in_units(scores: Any, unit: Optional[str], what: str = "scores") -> Any:
    """Decimal scores as integers of unit (unit None: scores unchanged); a
    pandas Series keeps its labels.  The first score that is not a whole
    multiple is named with its position."""
    if unit is None:
        return scores
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(scores, pandas.Series):
        return pandas.Series(_each_in_units(scores.tolist(), unit, what), index=scores.index,
                             dtype="int64", name=scores.name)
    if hasattr(scores, "tolist"):  # a numpy array: its values as Python numbers
        scores = scores.tolist()
    if isinstance(scores, (str, bytes)):
        raise TypeError(f"{what} must be a sequence of scores, not a {type(scores).__name__}")
    return _each_in_units(scores, unit, what)


def score_in_units(score: Any, unit: Optional[str], what: str = "score") -> int:
    """One score as scores_in_units takes each: an int64 integer without a
    unit, else a decimal in whole units of it."""
    if unit is None:
        return convert.int64(score, what, shown=False)
    return to_units(score, unit, what, shown=False)


def _each_in_units(scores: Any, unit: str, what: str) -> List[int]:
    return [to_units(score, unit, f"{what}[{i}]", shown=False) for i, score in enumerate(scores)]
