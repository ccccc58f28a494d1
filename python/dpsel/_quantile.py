# SPDX-License-Identifier: ISC
"""Quantiles of raw values (dpsel_grid_*, dpsel_quantile_*;
spec/quantiles.md): a private q-quantile released as a point of a public
grid A, A + R, ..., B fixed before the data is read.  In units of the
resolution R the grid is the integers lower = A / R .. upper = B / R."""

from __future__ import annotations

import array
import ctypes
import math
import weakref
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterator, List, NamedTuple, Optional, Sequence

from . import _convert
from ._enums import MechanismArg, mechanism as _mechanism
from ._errors import Error
from ._lib import CGrid, lib
from ._owned import Owned
from ._params import Params, c_params
from ._pmf import Pmf
from ._rng import Rng, resolve
from ._scores import as_scores
from ._select import Selector
from ._tasks import units_to_decimal


def _text(value: Any, what: str) -> bytes:
    return _convert.c_text(_convert.decimal_text(value, what), what)


# A value this far from 0 lies beyond every grid's ends (below 10^147 in
# magnitude: 2^63 units of a resolution below 10^128): it is written as a
# short number of its sign (never as str(int), which Python refuses past
# 4300 digits).
_BEYOND = 10 ** 148


def _is_numpy(value: Any, kind: str) -> bool:
    """A numpy scalar of the dtype kind ("f" floating, "b" boolean)."""
    return (type(value).__module__ == "numpy"
            and getattr(getattr(value, "dtype", None), "kind", None) == kind)


def _value_text(value: Any, what: str, fraction_digits: int) -> bytes:
    """A record's value as a text dpsel_grid_point takes, with the same
    grid point: a record never decides whether a release happens, so no
    number is refused, whatever its size, digits, infinity or NaN
    (spec/quantiles.md §6).  A str is passed as it is; an int or Decimal
    exactly, in an exponent form; a float as the decimal it prints as (its
    repr, as PostgreSQL's float8-to-numeric cast and CSV files write it);
    a Fraction as floor(value 10^f) / 10^f, f the resolution's fraction
    digits, which has the same grid point.  Booleans and other types are not
    numbers (TypeError)."""
    if isinstance(value, bool) or _is_numpy(value, "b"):
        raise TypeError(f"{what} must be a number, not a bool: give int({what}) for 0 or 1")
    if isinstance(value, str):
        text = value
    elif isinstance(value, Decimal):
        text = _decimal_value_text(value)
    elif isinstance(value, float):
        text = repr(float(value))
    elif _is_numpy(value, "f"):
        text = str(value)  # numpy's shortest text of its own precision
    elif isinstance(value, (int, Fraction)) or hasattr(value, "__index__"):
        number = value if isinstance(value, Fraction) else _convert.integer(value, what)
        if abs(number) >= _BEYOND:
            text = "-1e200" if number < 0 else "1e200"
        elif isinstance(number, Fraction):
            text = f"{math.floor(number * 10 ** fraction_digits)}e-{fraction_digits}"
        else:
            text = str(number)
    else:
        raise TypeError(f"{what} must be a number (an int, float, Decimal, Fraction or str), "
                        f"not {type(value).__name__}")
    return _convert.c_text(text, what)


def _decimal_value_text(value: Decimal) -> str:
    if value.is_nan():
        return "nan"
    if value.is_infinite():
        return "-inf" if value < 0 else "inf"
    sign, digits, exponent = value.as_tuple()
    return f"{'-' if sign else ''}{''.join(map(str, digits))}e{exponent}"


class Grid:
    """The grid ``A = lower, ..., B = upper`` in steps of ``resolution``
    (decimals; resolution None: ``10^-d``, d the larger number of fraction
    digits of A and B), dpsel_grid_init.  UnitError when A or B is not a
    whole multiple of R, RangeError when R <= 0 or A > B."""

    __slots__ = ("_c",)

    def __init__(self, lower: Any, upper: Any, resolution: Optional[Any] = None):
        self._c = CGrid()
        lib.dpsel_grid_init(ctypes.byref(self._c), _text(lower, "lower"), _text(upper, "upper"),
                            None if resolution is None else _text(resolution, "resolution"))

    @property
    def lower(self) -> int:
        """A / R."""
        return self._c.lower

    @property
    def upper(self) -> int:
        """B / R."""
        return self._c.upper

    @property
    def resolution(self) -> str:
        """R, as written."""
        return self._c.resolution.decode()

    def point(self, value: Any) -> int:
        """A raw value's grid point, ``floor(clamp(value, A, B) / R)``,
        exactly (dpsel_grid_point).  Every number is taken, of any size:
        infinities go to the end of their sign, NaN to the upper end; a str
        that is not a number is a DecimalError, a bool or another type a
        TypeError."""
        point = ctypes.c_int64()
        lib.dpsel_grid_point(ctypes.byref(self._c), self._value(value, "value"),
                             ctypes.byref(point))
        return point.value

    def _value(self, value: Any, what: str) -> bytes:
        resolution = self.resolution
        fraction_digits = len(resolution) - resolution.index(".") - 1 if "." in resolution else 0
        return _value_text(value, what, fraction_digits)

    def points(self, values: Sequence[Any]) -> List[int]:
        """The grid points of many values (dpsel_grid_points), each as for
        point(); an error names the value that failed."""
        texts = [self._value(value, f"values[{i}]") for i, value in enumerate(values)]
        c_texts = (ctypes.c_char_p * max(1, len(texts)))(*texts)
        points = array.array("q", bytes(8 * max(1, len(texts))))
        failed = ctypes.c_size_t()
        try:
            lib.dpsel_grid_points(ctypes.byref(self._c), c_texts, len(texts),
                                  points.buffer_info()[0], ctypes.byref(failed))
        except Error as error:
            raise type(error)(f"values[{failed.value}] = {values[failed.value]!r}",
                              error.code) from None
        return points[:len(texts)].tolist()

    def value(self, point: int) -> str:
        """A grid point as its decimal, with the resolution's digits."""
        return units_to_decimal(point, self.resolution)

    def __repr__(self) -> str:
        return (f"Grid({self.value(self.lower)!r}, {self.value(self.upper)!r}, "
                f"{self.resolution!r})")


class QuantileFraction(NamedTuple):
    """A quantile as a / b in lowest terms, and its score's sensitivity
    max(a, b - a): make the Params with it, not monotonic."""
    a: int
    b: int
    sensitivity: int


def quantile_fraction(q: Any) -> QuantileFraction:
    """The quantile q, a decimal strictly between 0 and 1 ("0.5", "0.95"),
    exactly as a / b (dpsel_quantile_fraction).  RangeError outside (0, 1)
    or for b above QUANTILE_DENOMINATOR_MAX."""
    a, b, sensitivity = ctypes.c_uint64(), ctypes.c_uint64(), ctypes.c_uint64()
    lib.dpsel_quantile_fraction(_text(q, "q"), ctypes.byref(a), ctypes.byref(b),
                                ctypes.byref(sensitivity))
    return QuantileFraction(a.value, b.value, sensitivity.value)


class Run(NamedTuple):
    """A run of the score: its first grid point, its number of points and
    its score."""
    first: int
    points: int
    score: int


class QuantileRuns(Owned):
    """The runs of the quantile a / b's score on data (grid points, each
    clamped into [lower, upper]): the grid cut where the score changes,
    built once for any number of releases and for the exact distribution
    (dpsel_quantile_runs_*).  Immutable; len() runs, runs[i] a Run."""

    __slots__ = ("_handle", "__weakref__")

    def __init__(self, a: int, b: int, points: Any, lower: int, upper: int):
        values = as_scores(points, "points")
        handle = ctypes.c_void_p()
        lib.dpsel_quantile_runs_new(ctypes.byref(handle), _convert.uint64(a, "a"),
                                    _convert.uint64(b, "b"), values.address, values.n,
                                    _convert.int64(lower, "lower"), _convert.int64(upper, "upper"))
        self._handle = handle.value
        weakref.finalize(self, lib.dpsel_quantile_runs_free, self._handle)

    def __len__(self) -> int:
        return lib.dpsel_quantile_runs_count(self._handle)

    def __getitem__(self, i: int) -> Run:
        first, points, score = ctypes.c_int64(), ctypes.c_uint64(), ctypes.c_int64()
        lib.dpsel_quantile_runs_get(self._handle, _convert.size(i, "run"), ctypes.byref(first),
                                    ctypes.byref(points), ctypes.byref(score))
        return Run(first.value, points.value, score.value)

    def __iter__(self) -> Iterator[Run]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"<dpsel.QuantileRuns: {len(self)} runs>"


def quantile_select(selector: Selector, a: int, b: int, points: Any, lower: int, upper: int,
                    mechanism: MechanismArg = "em", rng: Optional[Rng] = None) -> int:
    """One release of the quantile a / b of points on the grid lower ..
    upper (dpsel_quantile_select: the runs built and freed in one call);
    Selector.select_quantile releases from runs built once."""
    if not isinstance(selector, Selector):
        raise TypeError(f"selector must be a dpsel.Selector, not {type(selector).__name__}")
    values = as_scores(points, "points")
    value = ctypes.c_int64()
    with resolve(rng)._use as c_rng:
        lib.dpsel_quantile_select(selector._handle, _mechanism(mechanism),
                                  _convert.uint64(a, "a"), _convert.uint64(b, "b"),
                                  values.address, values.n, _convert.int64(lower, "lower"),
                                  _convert.int64(upper, "upper"), c_rng, ctypes.byref(value))
    return value.value


def quantile_pmf(params: Params, runs: QuantileRuns, mechanism: MechanismArg = "em") -> Pmf:
    """The exact distribution of the release over the runs
    (dpsel_quantile_pmf_new): candidate i is run i.  PF's is computed for
    grids of at most 32768 points (else TooLargeError)."""
    if not isinstance(runs, QuantileRuns):
        raise TypeError(f"runs must be dpsel.QuantileRuns, not {type(runs).__name__}")
    handle = ctypes.c_void_p()
    lib.dpsel_quantile_pmf_new(ctypes.byref(handle), c_params(params), _mechanism(mechanism),
                               runs._handle)
    return Pmf._adopt(handle.value, len(runs))
