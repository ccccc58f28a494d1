# SPDX-License-Identifier: ISC
"""Quantiles of raw values (dpsel_grid_*, dpsel_quantile_*;
spec/quantiles.md): a private q-quantile released as a point of a public
grid A, A + R, ..., B fixed before the data is read.  In units of the
resolution R the grid is the integers lower = A / R .. upper = B / R."""

from __future__ import annotations

import array
import ctypes
import weakref
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
        exactly (dpsel_grid_point)."""
        point = ctypes.c_int64()
        lib.dpsel_grid_point(ctypes.byref(self._c), _text(value, "value"), ctypes.byref(point))
        return point.value

    def points(self, values: Sequence[Any]) -> List[int]:
        """The grid points of many values (dpsel_grid_points); an error
        names the value that failed."""
        texts = [_text(value, f"values[{i}]") for i, value in enumerate(values)]
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
