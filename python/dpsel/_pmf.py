# SPDX-License-Identifier: ISC
"""Exact output distributions: Pmf (dpsel_pmf_*) and TopPmf (dpsel_top_pmf_*)."""

from __future__ import annotations

import ctypes
import weakref
from fractions import Fraction
from typing import Any, Optional, Tuple, Type, TypeVar, Union

from ._native import convert
from ._enums import MechanismArg, mechanism as _mechanism, refuse_rnm, rnm_call
from ._errors import ErrorCode, RangeError, explained
from ._fixes import count_fix, index_fix
from ._native.lib import DECIMAL, RATIONAL, address, lib
from ._params import Params, c_params as _params, scores_for
from ._owned import Owned
from ._progress import Report, call_reporting
from ._scores import Scores, as_counts, as_scores
from ._types import ScoresLike

Probability = Union[Fraction, float, str]


def _take_strings(function: Any, *arguments: Any, count: int = 1) -> Tuple[str, ...]:
    """Calls function(*arguments, &out...) for `count` new strings, and
    returns them, freed."""
    outs = [ctypes.c_void_p() for _ in range(count)]
    function(*arguments, *(ctypes.byref(out) for out in outs))
    try:
        return tuple(ctypes.string_at(address(out)).decode() for out in outs)
    finally:
        for out in outs:
            lib.dpsel_string_free(out)


def _take_pair(function: Any, *arguments: Any) -> Tuple[str, str]:
    """_take_strings for the two ends of an enclosure."""
    low, high = _take_strings(function, *arguments, count=2)
    return low, high


def _form(exact: Union[bool, str]) -> int:
    """The text a getter writes for `exact`: the rational for True, the
    17-digit decimal for False (made a float) and "text" (kept)."""
    if exact is True:
        return RATIONAL
    if exact is False or exact == "text":
        return DECIMAL
    raise TypeError(f"exact must be True, False or 'text', not {exact!r}")


def _value(text: str, exact: Union[bool, str]) -> Probability:
    """A getter's text in the form `exact` asks: "num/den" as a Fraction
    (True), the decimal as the float nearest to it (False), or the decimal
    itself ("text")."""
    if exact is False:
        return float(text)
    if exact is not True:
        return text
    numerator, _, denominator = text.partition("/")
    return Fraction(_integer(numerator), _integer(denominator or "1"))


def _integer(digits: str) -> int:
    """int(digits) for any length: Python refuses to convert texts of more
    than 4300 digits at once (sys.get_int_max_str_digits), and exact
    rationals can have far more.  Halves, joined in O(n^1.6)."""
    if len(digits) <= 4000:
        return int(digits)
    half = len(digits) // 2
    scale: int = 10**half  # int ** int is typed Any (a negative power is a float)
    return _integer(digits[:-half]) * scale + _integer(digits[-half:])


_D = TypeVar("_D", bound="_Distribution")


class _Distribution(Owned):
    """What Pmf and TopPmf share: an object of `size` outcomes and their
    probabilities (its C getters name the class attributes below)."""

    _free: Any
    _probability: Any
    _bounds: Any
    _maker: str  # the function that makes one
    __slots__ = ("_handle", "_size", "__weakref__")
    _handle: int
    _size: int

    def __init__(self, *arguments: object, **options: object):
        raise TypeError(f"a dpsel.{type(self).__name__} is made by dpsel.{self._maker}(...)")

    @classmethod
    def _adopt(cls: Type[_D], handle: int, size: int) -> _D:
        """An object of this class that owns the C object handle."""
        distribution = cls.__new__(cls)
        distribution._handle, distribution._size = handle, size
        weakref.finalize(distribution, cls._free, handle)
        return distribution

    def __len__(self) -> int:
        return self._size

    def _outcome(self, i: int) -> int:
        i = convert.size(i, "outcome")
        fix = index_fix(i, self._size, "outcome")
        if fix:
            raise RangeError("outcome", fix=fix)
        return i

    def probability(self, i: int, exact: Union[bool, str] = True) -> Probability:
        """The probability of outcome i: a fractions.Fraction, exactly; with
        ``exact=False`` a float (the nearest to the 17-digit decimal, for
        plots and arithmetic), with ``exact="text"`` that decimal str
        (:meth:`probability_text`).  TooLargeError where the exact rationals
        are beyond dpsel's limits (the enclosure, :meth:`bounds`, always
        exists); RangeError for i out of range."""
        form = _form(exact)
        with explained(self._diagnose):
            text = _take_strings(type(self)._probability, self._handle, self._outcome(i), form)
        return _value(text[0], exact)

    def _diagnose(self, code: int) -> Optional[str]:
        """The fix for a getter's error (explained): none said here."""
        return None

    def probability_text(self, i: int) -> str:
        """The probability of outcome i as a decimal str of 17 significant
        digits, correctly rounded (never beyond the exact rationals' limits)."""
        return _take_strings(type(self)._probability, self._handle, self._outcome(i),
                             DECIMAL)[0]

    def bounds(self, i: int, digits: int = 36) -> Tuple[str, str]:
        """A rigorous enclosure ``lo <= P <= hi`` of outcome i's probability:
        decimals of ``digits`` (1 to 100) significant digits, rounded down
        and up (relative width below 1e-30 from 34 digits)."""
        return _take_pair(type(self)._bounds, self._handle, self._outcome(i),
                          convert.uint(digits, "digits"))


class Pmf(_Distribution):
    """The exact output distribution of a mechanism on a score vector
    (dpsel_pmf): ``len(pmf)`` candidates, each with its probability, and the
    expected error ``sum_r P(r) g_r``.  Positions, not labels, index it.
    The getters may be called from several threads at once."""

    _free = lib.dpsel_pmf_free
    _maker = "pmf"
    _probability = lib.dpsel_pmf_probability
    _bounds = lib.dpsel_pmf_probability_bounds
    __slots__ = ("_exact_size",)
    _exact_size: Tuple[int, int]

    def exact_size(self) -> Tuple[int, int]:
        """``(work, limit)``: the bits of weight arithmetic the exact
        rationals take and the most dpsel computes (dpsel_pmf_exact_work),
        known before any is asked for: exact values (``exact=True``) are
        refused with TooLargeError, at once, exactly when work > limit."""
        return self._exact_size

    def _diagnose(self, code: int) -> Optional[str]:
        work, limit = self._exact_size
        if code != ErrorCode.TOOLARGE or work <= limit:
            return None
        need = "2^64 or more" if work == 2**64 - 1 else str(work)
        return (f"the exact rationals need {need} bits of weight arithmetic, beyond the "
                f"limit of {limit}: ask exact=False (a float) or exact='text' (the "
                f"17-digit decimal), or bounds()")

    def expected_error(self, exact: Union[bool, str] = True,
                       unit: Optional[Any] = None) -> Probability:
        """The expected error ``sum_r P(r) g_r`` (unclamped gaps), in score
        units: a Fraction, exactly; with ``exact=False`` a float (the
        nearest to the correctly rounded 17-digit decimal), with
        ``exact="text"`` that decimal str.  With ``unit`` (a decimal: the
        unit scores were converted with, see decimal_to_units; a Params'
        resolution) it is ``E x unit``, in the decimals' own unit."""
        form = _form(exact)
        with explained(self._diagnose):
            if unit is None:
                text = _take_strings(lib.dpsel_pmf_expected_error, self._handle, form)[0]
            else:
                text = _take_strings(lib.dpsel_pmf_expected_error_in_units, self._handle,
                                     _unit(unit), form)[0]
        return _value(text, exact)

    def expected_error_bounds(self, digits: int = 36,
                              unit: Optional[Any] = None) -> Tuple[str, str]:
        """A rigorous enclosure of the expected error (``E x unit`` with a
        unit), as :meth:`bounds`."""
        digits = convert.uint(digits, "digits")
        if unit is None:
            return _take_pair(lib.dpsel_pmf_expected_error_bounds, self._handle, digits)
        return _take_pair(lib.dpsel_pmf_expected_error_bounds_in_units, self._handle,
                          _unit(unit), digits)

    def __repr__(self) -> str:
        return f"<dpsel.Pmf of {len(self)} candidates>"


def _unit(unit: Any) -> bytes:
    return convert.c_text(convert.decimal_text(unit, "unit"), "unit")


def _new_pmf(params: Params, mechanism: MechanismArg, s: Scores, m: Optional[Scores],
             progress: Optional[Report]) -> Pmf:
    """The pmf of scores s (groups of multiplicities m, or None), reporting
    to progress (dpsel_pmf_new_progress) when it is given."""
    refuse_rnm(mechanism, rnm_call("rnm_pmf(scores, epsilon, sensitivity, monotonic)"))
    handle = ctypes.c_void_p()
    call_reporting(lib.dpsel_pmf_new_progress, progress, ctypes.byref(handle), _params(params),
                   _mechanism(mechanism), s.address, m.address if m is not None else None, s.n)
    made = Pmf._adopt(address(handle), s.n)  # owned before anything else can raise
    made._exact_size = _exact_size(params, mechanism, s, m)
    return made


def _exact_size(params: Params, mechanism: MechanismArg, s: Scores,
                m: Optional[Scores]) -> Tuple[int, int]:
    """The exact rationals' work and limit (dpsel_pmf_exact_work)."""
    work, limit = ctypes.c_uint64(), ctypes.c_uint64()
    lib.dpsel_pmf_exact_work(_params(params), _mechanism(mechanism), s.address,
                             m.address if m is not None else None, s.n, ctypes.byref(work),
                             ctypes.byref(limit))
    return work.value, limit.value


def pmf(params: Params, scores: ScoresLike, mechanism: MechanismArg = "pf",
        progress: Optional[Report] = None) -> Pmf:
    """The exact output distribution of the mechanism with params on scores
    (dpsel_pmf_new).  Its enclosure is computed now (PF: by quadrature,
    O(levels) per piece, at any size; EM: linear); the exact rationals
    on the first request that needs them, within limits known now
    (:meth:`Pmf.exact_size`).  With Params made with a resolution, decimal
    scores in its units, as Selector takes them.  progress, a callable,
    gets the fraction done as the work goes (a float, 1.0 at the end):
    returning False cancels (CanceledError), raising cancels with its
    exception."""
    return _new_pmf(params, mechanism, as_scores(scores_for(params, scores)), None, progress)


def pmf_grouped(params: Params, scores: ScoresLike, multiplicity: ScoresLike,
                mechanism: MechanismArg = "pf", progress: Optional[Report] = None) -> Pmf:
    """The pmf of groups of alike candidates (dpsel_pmf_new_grouped):
    candidate r stands for multiplicity[r] >= 1 candidates of score
    scores[r], and its probability is the chance one of them is released.
    Decimal scores with a resolution, and progress, as pmf."""
    s, m = as_scores(scores_for(params, scores)), as_counts(multiplicity, "multiplicity")
    if m.n != s.n:
        raise ValueError(f"{s.n} scores but {m.n} multiplicities")
    return _new_pmf(params, mechanism, s, m, progress)


class TopPmf(_Distribution):
    """The exact distribution of select_top's ordered k-tuples
    (dpsel_top_pmf): ``len(top)`` tuples in lexicographic order of their
    indices; :meth:`tuple` gives tuple t's candidates in the order chosen
    (labels for a pandas Series)."""

    _free = lib.dpsel_top_pmf_free
    _maker = "top_pmf"
    _probability = lib.dpsel_top_pmf_probability
    _bounds = lib.dpsel_top_pmf_probability_bounds
    __slots__ = ("_k", "_scores")
    _k: int
    _scores: Scores

    @classmethod
    def _adopt_top(cls, handle: int, scores: Scores, k: int) -> TopPmf:
        top = cls._adopt(handle, int(lib.dpsel_top_pmf_count(handle)))
        top._k = k
        top._scores = scores._replace(keep=None)  # the labels only
        return top

    def tuple(self, t: int) -> Tuple[Any, ...]:
        """Tuple t's k candidates, in the order chosen."""
        indices = (ctypes.c_size_t * self._k)()
        lib.dpsel_top_pmf_tuple(self._handle, self._outcome(t), indices)
        return tuple(self._scores.label(i) for i in indices)

    def exact_size(self) -> Tuple[int, int]:
        """(work, bits) of the exact rationals, known before any is computed
        (dpsel_top_pmf_exact_size): the prefixes' pmfs' work and an upper
        bound of the bits of every tuple's rational.  Exact probabilities
        raise TooLargeError at once when work > 2**32 or bits > 2**28."""
        work, bits = ctypes.c_uint64(), ctypes.c_uint64()
        lib.dpsel_top_pmf_exact_size(self._handle, ctypes.byref(work), ctypes.byref(bits))
        return work.value, bits.value

    def __repr__(self) -> str:
        return f"<dpsel.TopPmf of {len(self)} {self._k}-tuples>"


def top_pmf(params: Params, scores: ScoresLike, k: int, mechanism: MechanismArg = "pf") -> TopPmf:
    """The distribution of Selector.select_top(scores, k) (dpsel_top_pmf_new):
    for small n, at most 65536 tuples (else TooLargeError).  Decimal scores
    with a resolution, as pmf."""
    s = as_scores(scores_for(params, scores))
    k = convert.size(k, "k")
    chosen = refuse_rnm(mechanism, "mechanism 'rnm' has no top-k pmf: give mechanism='pf' "
                        "or 'em' (dpsel.rnm_pmf gives report noisy max's for one selection)")
    handle = ctypes.c_void_p()
    with explained(lambda code: count_fix(k, s.n) if code == ErrorCode.RANGE else None):
        lib.dpsel_top_pmf_new(ctypes.byref(handle), _params(params), chosen,
                              s.address, s.n, k)
    return TopPmf._adopt_top(address(handle), s, k)
