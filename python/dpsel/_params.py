# SPDX-License-Identifier: ISC
"""Privacy parameters (dpsel_params)."""

from __future__ import annotations

import ctypes
from decimal import Decimal
from fractions import Fraction
from typing import Any, Optional, Tuple, Union

from ._native import convert
from ._errors import ErrorCode, explained
from ._fixes import base_fix, epsilon_fix, sensitivity_fix
from ._native.lib import GAP_CAP_MAX, CParams, lib
from ._units import scores_in_units, to_units, unit_of

Number = Union[str, int, Fraction, Decimal, float]


class Params:
    """The privacy parameters of a selection: the decay ``beta = x / 2^y``
    per score unit, the sensitivity ``D``, monotonicity and the gap cap ``C``.

    Make them with :meth:`from_epsilon` or :meth:`from_base`.  Both
    mechanisms are epsilon-DP with ``epsilon = 2 D ln(2^y / x)``, or
    ``D ln(2^y / x)`` for monotonic scores; :attr:`epsilon` is that value
    rounded up.  A Selector, pmf or audit copies the parameters when it is
    made: changing the gap cap afterwards does not change them.
    """

    __slots__ = ("_c", "_resolution")

    def __init__(self, *, _c: Optional[CParams] = None, _resolution: Optional[str] = None):
        if _c is None:
            raise TypeError("make Params with Params.from_epsilon(...) or Params.from_base(...)")
        self._c = _c
        self._resolution = _resolution

    @classmethod
    def from_epsilon(cls, epsilon: Number, sensitivity: Number = 1, monotonic: bool = False,
                     resolution: Optional[Number] = None) -> Params:
        """The base whose realised epsilon is the largest not above
        ``epsilon`` (among ``x / 2^y``, ``y <= 64``), certified with directed
        rounding.

        ``epsilon`` is taken exactly: a decimal str ("1", "0.25", "5e-3"),
        an int, a Decimal, a Fraction with a finite decimal expansion, or a
        float at its exact binary value.  EpsilonError when it is not a
        positive decimal or is too small for any base; RangeError for a
        sensitivity below 1.

        Decimal scores, as the command line's --resolution and decimal
        --sensitivity: with ``resolution`` (a positive decimal) the scores
        a Selector is given are decimals in whole units of it, and so is
        ``sensitivity``; a decimal ``sensitivity`` alone ("10.00") sets the
        resolution to its last digit (0.01).  :attr:`sensitivity` is then
        in units of :attr:`resolution`.  UnitError when the sensitivity is
        not a whole multiple of the resolution.
        """
        c, text = CParams(), convert.epsilon_text(epsilon)
        unit, d = units_of(sensitivity, resolution)
        m = convert.flag(monotonic, "monotonic")
        with explained(lambda code: sensitivity_fix(d) if code == ErrorCode.RANGE
                       else epsilon_fix(text, d, m) if code == ErrorCode.EPSILON else None):
            lib.dpsel_params_from_epsilon(ctypes.byref(c), convert.c_text(text, "epsilon"), d, m)
        return cls(_c=c, _resolution=unit)

    @classmethod
    def from_base(cls, x: int, y: int, sensitivity: Number = 1, monotonic: bool = False,
                  resolution: Optional[Number] = None) -> Params:
        """The explicit base ``beta = x / 2^y`` (``1 <= y <= 64``,
        ``0 < x < 2^y``), kept in lowest terms, with the default gap cap;
        decimal scores as for :meth:`from_epsilon`."""
        c, x, y = CParams(), convert.uint64(x, "x"), convert.uint(y, "y")
        unit, d = units_of(sensitivity, resolution)
        with explained(lambda code: base_fix(x, y) or sensitivity_fix(d)
                       if code == ErrorCode.RANGE else None):
            lib.dpsel_params_from_base(ctypes.byref(c), x, y, d,
                                       convert.flag(monotonic, "monotonic"))
        return cls(_c=c, _resolution=unit)

    @property
    def x(self) -> int:
        """The numerator of the base (odd)."""
        return int(self._c.x)

    @property
    def y(self) -> int:
        """The base's denominator is ``2^y``."""
        return int(self._c.y)

    @property
    def sensitivity(self) -> int:
        """``D``: one person moves any score by at most D."""
        return int(self._c.sensitivity)

    @property
    def resolution(self) -> Optional[str]:
        """The unit of decimal scores and of the sensitivity (a decimal
        str), or None for integer scores."""
        return self._resolution

    @property
    def monotonic(self) -> bool:
        """Adding a person never lowers a score (epsilon is halved)."""
        return bool(self._c.monotonic)

    @property
    def gap_cap(self) -> int:
        """The gap cap ``C`` (1 to GAP_CAP_MAX): gaps are clamped at C.  The
        default is the least C with ``beta^C <= 2^-64``; setting it is
        RangeError outside 1..GAP_CAP_MAX."""
        return int(self._c.gap_cap)

    @gap_cap.setter
    def gap_cap(self, value: int) -> None:
        cap = convert.uint64(value, "gap_cap")
        with explained(lambda code: f"gap_cap {cap} is not 1 to GAP_CAP_MAX ({GAP_CAP_MAX})"
                       if code == ErrorCode.RANGE else None):
            lib.dpsel_params_set_gap_cap(ctypes.byref(self._c), cap)

    @property
    def epsilon(self) -> str:
        """The realised epsilon, 17 significant digits rounded up: a
        rigorous upper bound."""
        return self.epsilon_text(17)

    def epsilon_text(self, digits: int) -> str:
        """The realised epsilon with ``digits`` (1 to 100) significant
        digits, rounded up."""
        digits = convert.uint(digits, "digits")
        buffer = ctypes.create_string_buffer(min(digits, 100) + 16)
        lib.dpsel_params_epsilon(ctypes.byref(self._c), digits, buffer, len(buffer))
        return buffer.value.decode()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Params):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # unhashable: mutable (the gap cap)

    def _fields(self) -> Tuple[int, int, int, bool, int, Optional[str]]:
        return (self.x, self.y, self.sensitivity, self.monotonic, self.gap_cap, self.resolution)

    def copy(self) -> Params:
        """An independent copy."""
        return Params(_c=CParams.from_buffer_copy(self._c), _resolution=self._resolution)

    def __repr__(self) -> str:
        return (f"Params(base={self.x}/2^{self.y}, epsilon<={self.epsilon}, "
                f"sensitivity={self.sensitivity}, monotonic={self.monotonic}, "
                f"gap_cap={self.gap_cap}"
                + (")" if self._resolution is None else f", resolution={self._resolution!r})"))


def units_of(sensitivity: Any, resolution: Any) -> Tuple[Optional[str], int]:
    """(resolution, D in its units): (None, D) for an integer sensitivity
    without a resolution."""
    if resolution is None and (convert.is_boolean(sensitivity)
                               or hasattr(sensitivity, "__index__")):
        return None, convert.sensitivity(sensitivity)
    if resolution is None:
        unit = unit_of(sensitivity, "sensitivity")
    else:
        unit = convert.decimal_text(resolution, "resolution")
    return unit, convert.sensitivity(to_units(sensitivity, unit, "sensitivity"), sensitivity)



def in_units(params: Params) -> Params:
    """params for scores already in whole units of its resolution: the same
    base, sensitivity and gap cap, taking integers."""
    return Params(_c=CParams.from_buffer_copy(params._c))


def scores_for(params: Any, scores: Any, what: str = "scores") -> Any:
    """scores as params read them: decimals in units of its resolution, if
    it has one (scores_in_units); otherwise unchanged."""
    unit = params.resolution if isinstance(params, Params) else None
    return scores_in_units(scores, unit, what)


def c_params(params: Params) -> Any:
    """params for a const dpsel_params * argument."""
    if not isinstance(params, Params):
        raise TypeError(f"params must be a dpsel.Params, not {type(params).__name__}")
    return ctypes.byref(params._c)

