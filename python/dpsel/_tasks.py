# SPDX-License-Identifier: ISC
"""Histogram tasks (dpsel_task_*) and decimal scores (dpsel_decimal_to_units,
dpsel_units_to_decimal)."""

from __future__ import annotations

import array
import ctypes
import sys
from typing import Any, NamedTuple, Optional, Union

from ._native import convert
from ._enums import Task
from ._errors import ErrorCode, explained
from ._fixes import positive_fix
from ._native.lib import UNITS_TEXT_MAX, lib
from ._scores import as_scores
from ._types import Number, ScoresLike

TaskArg = Union[Task, str]


class TaskParams(NamedTuple):
    """The sensitivity and monotonicity of a task's scores: unpack them
    into Params.from_epsilon(epsilon, *task_params(task))."""
    sensitivity: int
    monotonic: bool


def task_params(task: TaskArg) -> TaskParams:
    """dpsel_task_params: (1, True) for "mode", (1, False) for "median"."""
    sensitivity, monotonic = ctypes.c_uint64(), ctypes.c_int()
    lib.dpsel_task_params(convert.choice(Task, task, "task"), ctypes.byref(sensitivity),
                          ctypes.byref(monotonic))
    return TaskParams(sensitivity.value, bool(monotonic.value))


def task_scores(task: TaskArg, counts: ScoresLike) -> Any:
    """The task's scores of a histogram (dpsel_task_scores): counts[r]
    records in bin r (counts >= 0).  "mode": the count; "median": minus
    the least number of records to add or remove for bin r to hold the
    median.  The result has the kind of counts: a list, a numpy array, or a
    pandas Series with the same labels."""
    task = convert.choice(Task, task, "task")
    c = as_scores(counts, "counts")
    out = array.array("q", bytes(8 * max(c.n, 1)))  # never a NULL buffer: n = 0 is EmptyError
    lib.dpsel_task_scores(task, c.address, c.n, out.buffer_info()[0])
    return _like(counts, c.labels, out[:c.n])


def _like(counts: Any, labels: Any, out: array.array[int]) -> Any:
    """out in the kind of counts: a Series with its labels, a numpy array,
    or a list."""
    numpy = sys.modules.get("numpy")
    if labels is not None:  # labels come from a pandas Series, so numpy is loaded
        numpy = sys.modules["numpy"]
        return sys.modules["pandas"].Series(numpy.frombuffer(out, dtype=numpy.int64),
                                            index=labels, name=counts.name)
    if numpy is not None and isinstance(counts, numpy.ndarray):
        return numpy.frombuffer(out, dtype=numpy.int64)
    return out.tolist()


def decimal_to_units(text: Number, unit: Number) -> int:
    """A decimal score (or sensitivity) in whole units of a public unit,
    exactly (dpsel_decimal_to_units): "0.8731" in units of "0.0001" is
    8731.  UnitError when it is not a whole multiple (nothing is rounded);
    DecimalError when malformed.  Decimals as str (or exact Decimal, int,
    Fraction)."""
    out, unit_text = ctypes.c_int64(), _text(unit, "unit")
    with explained(lambda code: _unit_fix(code, unit_text)):
        lib.dpsel_decimal_to_units(_text(text, "text", shown=False), unit_text,
                                   ctypes.byref(out))
    return out.value


def units_to_decimal(units: int, unit: Number) -> str:
    """units x unit as a decimal with the unit's fraction digits
    (dpsel_units_to_decimal): "0.75" for 3 units of "0.25"."""
    buffer, unit_text = ctypes.create_string_buffer(UNITS_TEXT_MAX), _text(unit, "unit")
    with explained(lambda code: _unit_fix(code, unit_text)):
        lib.dpsel_units_to_decimal(convert.int64(units, "units", shown=False), unit_text,
                                   buffer, len(buffer))
    return buffer.value.decode()


def _unit_fix(code: int, unit: bytes) -> Optional[str]:
    return positive_fix(unit.decode(), "unit") if code == ErrorCode.RANGE else None


def _text(value: Any, what: str, shown: bool = True) -> bytes:
    """A decimal as the text dpsel reads, named in a refusal when shown (a
    unit; a score converted is data, named by what alone)."""
    return convert.c_text(convert.decimal_text(value, what, shown), what)
