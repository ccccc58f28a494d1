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
from typing import Any, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from ._native import convert
from ._enums import RNM_QUANTILE, MechanismArg, mechanism as _mechanism, refuse_rnm
from ._errors import Error, ErrorCode, explained, refuses
from ._fixes import decimal, positive_fix
from ._native.lib import (CGrid, GRID_POINTS_MAX, QUANTILE_DENOMINATOR_MAX, QUANTILE_EM_GRID_MAX,
                          address, lib)
from ._owned import Owned
from ._params import Params, c_params
from ._pmf import Pmf
from ._progress import Report, call_reporting
from ._rng import Rng, resolve
from ._scores import as_scores
from ._select import Selector
from ._tasks import units_to_decimal


def _text(value: Any, what: str) -> bytes:
    return convert.c_text(convert.decimal_text(value, what), what)


# A value this far from 0 lies beyond every grid's ends (below 10^147 in
# magnitude: 2^63 units of a resolution below 10^128): it is written as a
# short number of its sign (never as str(int), which Python refuses past
# 4300 digits).
_BEYOND: int = 10 ** 148


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
    digits, which has the same grid point.  Booleans, durations, dates and
    other types are not numbers (TypeError naming the type, never the value:
    convert.is_number)."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, Decimal):
        text = _decimal_value_text(value)
    elif isinstance(value, float):
        text = repr(float(value))
    elif _is_numpy(value, "f"):
        text = str(value)  # numpy's shortest text of its own precision
    elif convert.is_number(value):  # an int, a Fraction or a numpy integer
        number: Union[Fraction, int] = (value if isinstance(value, Fraction)
                                        else convert.integer(value, what))
        if not -_BEYOND < number < _BEYOND:
            text = "-1e200" if number < 0 else "1e200"
        elif isinstance(number, Fraction):
            text = f"{math.floor(number * 10 ** fraction_digits)}e-{fraction_digits}"
        else:
            text = str(number)
    else:
        raise convert.not_a_number(type(value), what)
    return convert.c_text(text, what)


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
        texts = (_text(lower, "lower"), _text(upper, "upper"),
                 None if resolution is None else _text(resolution, "resolution"))
        with explained(lambda code: _grid_fix(code, *texts)):
            lib.dpsel_grid_init(ctypes.byref(self._c), *texts)

    @property
    def lower(self) -> int:
        """A / R."""
        return int(self._c.lower)

    @property
    def upper(self) -> int:
        """B / R."""
        return int(self._c.upper)

    @property
    def resolution(self) -> str:
        """R, as written."""
        return str(self._c.resolution.decode())

    def point(self, value: Any) -> int:
        """A raw value's grid point, ``floor(clamp(value, A, B) / R)``,
        exactly (dpsel_grid_point).  Every number is taken, of any size:
        infinities go to the end of their sign, NaN to the upper end; a str
        that is not a number is a DecimalError, a bool, a duration or
        another type a TypeError; neither message holds the value."""
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
        point(); an error names the position of the value that failed,
        never the value (a record's)."""
        texts = [self._value(value, f"values[{i}]") for i, value in enumerate(values)]
        c_texts = (ctypes.c_char_p * max(1, len(texts)))(*texts)
        points = array.array("q", bytes(8 * max(1, len(texts))))
        failed = ctypes.c_size_t()
        try:
            lib.dpsel_grid_points(ctypes.byref(self._c), c_texts, len(texts),
                                  points.buffer_info()[0], ctypes.byref(failed))
        except Error as error:
            raise type(error)(f"values[{failed.value}]", error.code) from None
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
    text = _text(q, "q")
    with explained(lambda code: _fraction_fix(code, text.decode())):
        lib.dpsel_quantile_fraction(text, ctypes.byref(a), ctypes.byref(b),
                                    ctypes.byref(sensitivity))
    return QuantileFraction(a.value, b.value, sensitivity.value)


def _grid_fix(code: int, lower: bytes, upper: bytes, resolution: Optional[bytes]) -> Optional[str]:
    """What a refused grid needs: decimal ends and resolution, ends on the
    grid, A <= B, R > 0."""
    named = (("lower", lower), ("upper", upper), ("resolution", resolution))
    if code == ErrorCode.DECIMAL:
        return next((f"{name} {text.decode()!r} is not a decimal number: give one such as "
                     "'0', '100' or '0.5'" for name, text in named
                     if text is not None and _grid_refuses(text, text, None, ErrorCode.DECIMAL)),
                    None)
    if code == ErrorCode.UNIT and resolution is not None:
        off = [f"{name} {text.decode()}" for name, text in named[:2]
               if _grid_refuses(text, text, resolution, ErrorCode.UNIT)]
        multiple = "is not a whole multiple" if len(off) == 1 else "are not whole multiples"
        return (f"{' and '.join(off)} {multiple} of the resolution {resolution.decode()}: give "
                "ends on the grid") if off else None
    if code != ErrorCode.RANGE:
        return None
    low, high = decimal(lower.decode()), decimal(upper.decode())
    if low is not None and high is not None and low > high:
        return f"lower {lower.decode()} is above upper {upper.decode()}: swap them"
    refused = None if resolution is None else positive_fix(resolution.decode(), "resolution")
    return refused or (f"lower {lower.decode()} and upper {upper.decode()} must lie within "
                       "2^63 - 1 steps of the resolution from 0: give a coarser resolution")


def _grid_refuses(lower: bytes, upper: bytes, resolution: Optional[bytes], code: int) -> bool:
    """dpsel_grid_init refuses this grid with code: a probe of one end, as
    the C grammar reads it."""
    return refuses(code, lib.dpsel_grid_init, ctypes.byref(CGrid()), lower, upper, resolution)


def _fraction_fix(code: int, q: str) -> Optional[str]:
    """What a refused quantile needs: 0 < q < 1, b <= 10^18."""
    if code == ErrorCode.DECIMAL:
        return f"q {q!r} is not a decimal number: give a quantile such as '0.5' or '0.95'"
    value = decimal(q)
    if code != ErrorCode.RANGE or value is None:
        return None
    if not 0 < value < 1:
        return f"q {q} is not strictly between 0 and 1: give a quantile such as '0.5' or '0.95'"
    return (f"q {q} is a / b with b above 10^18 (QUANTILE_DENOMINATOR_MAX): give it with at "
            "most 18 fraction digits")


class _Quantile(NamedTuple):
    """A quantile a / b on the grid lower .. upper (in units), as the C
    calls take it, to say what is wrong when they refuse it."""
    a: int
    b: int
    lower: int
    upper: int

    def fix(self, params: Optional[Params], mechanism: Optional[int], code: int) -> Optional[str]:
        """The argument a DPSEL_ERANGE of a call on this quantile (with
        params, and mechanism, when given) is about, the value it needs
        and how to get it; None for another code or no finding."""
        if code != ErrorCode.RANGE:
            return None
        a, b = self.a, self.b
        if not 0 < a < b <= QUANTILE_DENOMINATOR_MAX or math.gcd(a, b) != 1:
            return (f"a / b = {a}/{b} is not a quantile in lowest terms with 0 < a < b <= "
                    "10^18: take a and b from quantile_fraction(q)")
        bounds = grid_bounds_fix(self.lower, self.upper)
        if bounds:
            return bounds
        needed = max(a, b - a)
        if params is not None and params.sensitivity < needed:
            return (f"sensitivity {params.sensitivity} is below {needed}, the quantile {a}/{b}'s: "
                    f"make the Params with sensitivity={needed} "
                    "(quantile_fraction(q).sensitivity) and monotonic=False")
        if params is not None and params.monotonic:
            return ("the Params are monotonic and a quantile's score is not: make them with "
                    "monotonic=False")
        points = self.upper - self.lower + 1
        if mechanism == _mechanism("em") and points > QUANTILE_EM_GRID_MAX:
            return (f"EM takes grids of at most 2^42 - 1 points, not {points}: "
                    "use mechanism='pf' or a coarser resolution")
        return None


def grid_bounds_fix(lower: int, upper: int) -> Optional[str]:
    """What a grid lower .. upper (grid points) needs: lower <= upper and
    at most 2^62 points; None when it has them."""
    if lower > upper:
        return f"lower {lower} is above upper {upper}: swap them"
    points = upper - lower + 1
    if points > GRID_POINTS_MAX:
        return (f"the grid has {points} points (lower {lower} to upper {upper}, in units of the "
                "resolution), more than 2^62: give a coarser resolution or nearer ends")
    return None


GridArg = Union["Grid", int]


def _grid_bounds(lower: GridArg, upper: Optional[int]) -> Tuple[int, int]:
    """The grid's ends in units of its resolution: a Grid's own, or the
    integers lower and upper."""
    if isinstance(lower, Grid):
        if upper is not None:
            raise TypeError(f"upper is {upper!r} with a Grid: the Grid gives both ends, "
                            "leave upper out")
        return lower.lower, lower.upper
    if upper is None:
        raise TypeError("upper is missing: give a Grid (its ends are taken), or both ends as "
                        "grid points")
    return convert.int64(lower, "lower"), convert.int64(upper, "upper")


class Run(NamedTuple):
    """A run of the score: its first grid point, its number of points and
    its score."""
    first: int
    points: int
    score: int


class QuantileRuns(Owned):
    """The runs of the quantile a / b's score on data (grid points of the
    Grid ``lower``, or of the grid ``lower .. upper`` in its units: a point
    outside is clamped into the ends, as C does, since a record never
    decides whether a release happens): the grid cut where the score changes,
    built once for any number of releases and for the exact distribution
    (dpsel_quantile_runs_*).  Immutable; len() runs, runs[i] a Run."""

    __slots__ = ("_handle", "_quantile", "_values", "__weakref__")

    def __init__(self, a: int, b: int, points: Any, lower: GridArg,
                 upper: Optional[int] = None):
        values = as_scores(points, "points")
        handle = ctypes.c_void_p()
        quantile = _Quantile(convert.uint64(a, "a"), convert.uint64(b, "b"),
                             *_grid_bounds(lower, upper))
        with explained(lambda code: quantile.fix(None, None, code)):
            lib.dpsel_quantile_runs_new(ctypes.byref(handle), quantile.a, quantile.b,
                                        values.address, values.n, quantile.lower,
                                        quantile.upper)
        self._handle = handle.value
        self._quantile = quantile
        self._values = values.n
        weakref.finalize(self, lib.dpsel_quantile_runs_free, self._handle)

    def _pmf_fix(self, code: int) -> Optional[str]:
        """Why a pmf of these runs is refused when b m passes 2^63 - 1 (a
        release works: the scores are then relative, spec/quantiles.md §2)."""
        b = self._quantile.b
        if code == ErrorCode.RANGE and self._values * b > 2 ** 63 - 1:
            return (f"the pmf's scores pass the int64 range: b m = {b} * {self._values} >= 2^63; "
                    "a release of these runs works, their pmf does not")
        return None

    def __len__(self) -> int:
        return int(lib.dpsel_quantile_runs_count(self._handle))

    def __getitem__(self, i: int) -> Run:
        first, points, score = ctypes.c_int64(), ctypes.c_uint64(), ctypes.c_int64()
        lib.dpsel_quantile_runs_get(self._handle, convert.size(i, "run"), ctypes.byref(first),
                                    ctypes.byref(points), ctypes.byref(score))
        return Run(first.value, points.value, score.value)

    def __iter__(self) -> Iterator[Run]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"<dpsel.QuantileRuns: {len(self)} runs>"


def quantile_select(selector: Selector, a: int, b: int, points: Any, lower: GridArg,
                    upper: Optional[int] = None, mechanism: MechanismArg = "em",
                    rng: Optional[Rng] = None) -> int:
    """One release of the quantile a / b of points (grid.points(values)) on
    the Grid ``lower`` (or on lower .. upper, grid points), a grid point
    (dpsel_quantile_select: the runs built and freed in one call); a point
    outside the ends is clamped into them, as C does: pass the Grid, whose
    ends are in the points' units (ends given as values for a finer grid
    would clamp every point to them).
    Selector.select_quantile releases from runs built once; dpsel.quantile
    takes raw values and returns a Decimal."""
    if not isinstance(selector, Selector):
        raise TypeError(f"selector must be a dpsel.Selector, not {type(selector).__name__}")
    values = as_scores(points, "points")
    value, m = ctypes.c_int64(), refuse_rnm(mechanism, RNM_QUANTILE)
    quantile = _Quantile(convert.uint64(a, "a"), convert.uint64(b, "b"),
                         *_grid_bounds(lower, upper))
    with resolve(rng)._use as c_rng, \
            explained(lambda code: quantile.fix(selector.params, m, code)):
        lib.dpsel_quantile_select(selector._handle, m, quantile.a, quantile.b, values.address,
                                  values.n, quantile.lower, quantile.upper, c_rng,
                                  ctypes.byref(value))
    return value.value


def quantile_pmf(params: Params, runs: QuantileRuns, mechanism: MechanismArg = "em",
                 progress: Optional[Report] = None) -> Pmf:
    """The exact distribution of the release over the runs
    (dpsel_quantile_pmf_new): candidate i is run i, on any grid.  progress
    as pmf's (dpsel_quantile_pmf_new_progress)."""
    if not isinstance(runs, QuantileRuns):
        raise TypeError(f"runs must be dpsel.QuantileRuns, not {type(runs).__name__}")
    handle, m = ctypes.c_void_p(), refuse_rnm(mechanism, RNM_QUANTILE)
    work, limit = ctypes.c_uint64(), ctypes.c_uint64()
    with explained(lambda code: runs._quantile.fix(params, m, code) or runs._pmf_fix(code)):
        call_reporting(lib.dpsel_quantile_pmf_new_progress, progress, ctypes.byref(handle),
                       c_params(params), m, runs._handle)
    made = Pmf._adopt(address(handle), len(runs))  # owned before anything else can raise
    lib.dpsel_quantile_pmf_exact_work(c_params(params), m, runs._handle, ctypes.byref(work),
                                      ctypes.byref(limit))
    made._exact_size = (work.value, limit.value)
    return made
