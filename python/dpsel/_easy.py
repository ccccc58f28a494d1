# SPDX-License-Identifier: ISC
"""One call per task, on raw data: the most common category (mode), a
quantile or several (quantile, quantiles, median), the best of labelled
scores (select, top_k) and the best price (best_price).  Each builds the
scores, makes the Params for the task's sensitivity and releases through
the C library; nothing here samples.

Rules shared by every call (docs/python.md, "One call per task"):
- ``epsilon`` is what the call spends in all: a call of several releases
  (quantiles, top_k) gives each an equal share, rounded down, so that their
  sum is at most epsilon; ``accountant`` (an Accountant) is told of each.
- A record never decides whether a release happens: values are counted,
  clamped or dropped, never refused (but for mode's unknown="error", a
  debugging aid, and a text that is not a number).  Missing values (None,
  pandas.NA, NaT) are skipped, as SQL skips NULLs.
- A float is read through its shortest repr (0.3 is 0.3, as printed and as
  CSV files and PostgreSQL's float8-to-numeric cast write it), or with
  ``floats="exact"`` at its exact binary value (0.3 is
  0.299999999999999988897769753748...).
"""

from __future__ import annotations

import bisect
import collections
import collections.abc
import itertools
import string
import sys
from decimal import ROUND_FLOOR, Decimal, InvalidOperation, localcontext
from fractions import Fraction
from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple, TypeVar

from ._native import convert
from ._account import Accountant
from ._enums import RNM_QUANTILE, Mechanism, MechanismArg, mechanism as _mechanism, refuse_rnm
from ._errors import DecimalError, EpsilonError, RangeError
from ._joint import joint_sensitivity, quantiles_joint_select, require_em
from ._params import Params, units_of
from ._progress import Report
from ._quantile import Grid, quantile_fraction, quantile_select
from ._rng import Rng
from ._rnm import rnm_select, rnm_select_top
from ._select import Selector
from ._tasks import task_params
from ._units import scores_in_units, to_units, unit_of
from ._types import Labels, Number, Records, Resolution, ScoresLike

FLOATS = ("repr", "exact")
UNKNOWN = ("drop", "error")
_F = TypeVar("_F", bound=Callable[..., Any])


# Docstring sections that several one-call functions share word for word,
# filled into their $name fields by _shared_sections.
_SECTIONS = {
    "release_parameters": """\
    rng : Rng, optional
        The random source; None: this thread's OS source.
    accountant : Accountant, optional
        Records the release when given.""",
    "grid_parameters": """\
    lower, upper : str, int, Decimal, Fraction or float
        The grid's ends, public.
    epsilon : str, int, Decimal, Fraction or float
        The privacy parameter, taken exactly.
    resolution : decimal, optional
        The grid's step; None: 10^-d, d the ends' larger number of
        fraction digits.
    mechanism : {"em", "pf"}
        The exponential mechanism or permute-and-flip (not "rnm").
    floats : {"repr", "exact"}
        A float value as its repr (0.3 is 0.3) or at its binary value.""",
    "quantile_raises": """\
    Raises
    ------
    RangeError
        A q not strictly between 0 and 1 (quantile, quantiles), ends not
        in order or not on the grid, a grid beyond the mechanism's
        limits, or mechanism "rnm".
    TypeError
        A value that is not a number (a bool, None, a str, a date).
    EpsilonError
        An epsilon that is not positive or not a number.""",
    "scores_parameters": """\
    scores : mapping, pandas Series, sequence or numpy array
        Integer scores, or decimals in units of ``resolution``; a mapping's
        or a Series' labels are the candidates, else their positions.
    epsilon : str, int, Decimal, Fraction or float
        The privacy parameter, taken exactly.
    sensitivity : int or decimal
        One person moves any score by at most this.
    monotonic : bool
        Adding a person never lowers a score (epsilon is halved).
    mechanism : {"pf", "em", "rnm"}
        Permute-and-flip, the exponential mechanism or report noisy max.
    resolution : decimal, optional
        The unit of decimal scores and sensitivity (or a decimal
        sensitivity's last digit).
    rng : Rng, optional
        The random source; None: this thread's OS source.
    accountant : Accountant, optional
        Records the releases when given.""",
    "scores_raises": """\
    Raises
    ------
    TypeError
        Scores that are no integers (without a resolution), booleans,
        a DataFrame or a set.
    RangeError
        No scores, or a score out of the range of 64-bit integers.
    EpsilonError
        An epsilon that is not positive or not a number.""",
}


def _shared_sections(function: _F) -> _F:
    """function, its docstring's $name fields filled from _SECTIONS."""
    function.__doc__ = string.Template(function.__doc__ or "").substitute(
        {name: text.lstrip() for name, text in _SECTIONS.items()})
    return function


# ------------------------------------------------------------------ mode


@_shared_sections
def mode(values: Records, candidates: Labels, epsilon: Number, mechanism: MechanismArg = "pf",
         unknown: str = "drop", rng: Optional[Rng] = None,
         accountant: Optional[Accountant] = None) -> Any:
    """The most common of the public ``candidates`` among ``values``, epsilon-DP.

    Each candidate's score is its number of rows (0 for none; sensitivity
    1, monotonic: ``task_params("mode")``), and the chosen candidate is
    returned.

    A value that is none of the candidates (compared with ==) is dropped
    with ``unknown="drop"``, the default: whether a row is dropped depends on
    that row alone, so the release stays epsilon-DP.  ``unknown="error"``
    raises RangeError naming such a value instead: that refusal is decided
    by one record and reveals it, so use it only to catch bugs in trusted
    data, never for a release from data you must protect; its message
    holds no value either.

    The values' dtype (a numpy array's, a pandas Series' or Index's) and
    the candidates are public: a candidate of a kind no value of that
    dtype can equal (a str for an integer column, a number for a text
    column) is a TypeError naming both, before any row is counted, since
    its count would be 0 whatever the data.  A str candidate of another
    case than the values' ("Married" for "married") is a candidate like any
    other: it is counted, and such values are unknown.

    Parameters
    ----------
    values : list, numpy array, pandas Series or Index, or iterable
        One value per record.
    candidates : list, tuple or pandas Index of hashable
        The public candidates, distinct.
    epsilon : str, int, Decimal, Fraction or float
        The privacy parameter, taken exactly (a float at its binary value).
    mechanism : {"pf", "em", "rnm"}
        Permute-and-flip, the exponential mechanism or report noisy max.
    unknown : {"drop", "error"}
        What a value that is no candidate does (see above).
    $release_parameters

    Returns
    -------
    object
        One of ``candidates``, as given.

    Raises
    ------
    TypeError
        A candidate no value of the values' dtype can equal, or candidates
        that are a str or not iterable.
    RangeError
        Empty or repeated candidates, an ``unknown`` other than "drop" and
        "error" (and with "error", a value that is no candidate).
    EpsilonError
        An epsilon that is not positive or not a number.

    Examples
    --------
    >>> import dpsel
    >>> colours = ["red", "blue", "red", "green", "red", "blue"]
    >>> dpsel.mode(colours, ["red", "blue", "green"], 1, rng=dpsel.Rng.seeded(b"docs"))
    'red'
    """
    labels = _candidates(candidates)
    if unknown not in UNKNOWN:
        raise RangeError("unknown", fix=f"unknown must be 'drop' or 'error', not {unknown!r}")
    _check_candidate_kinds(getattr(values, "dtype", None), labels)
    counts = _row_counts(values, labels, unknown == "error")
    sensitivity, monotonic = task_params("mode")
    if _mechanism(mechanism) == Mechanism.RNM:
        return labels[_rnm_top(counts, 1, epsilon, sensitivity, monotonic, None, rng,
                               accountant)[0]]
    params = Params.from_epsilon(epsilon, sensitivity, monotonic)
    chosen = Selector(params).select(counts, mechanism, rng)
    _account(accountant, mechanism, params, 1)
    return labels[chosen]


def _candidates(candidates: Any, what: str = "candidates", items: str = "labels") -> List[Any]:
    """The candidates as a list of distinct labels (public: a duplicate is
    refused, naming it); what names the argument and items its elements in
    the messages (dpsel.dask's groups: "groups")."""
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, collections.abc.Iterable):
        raise TypeError(f"{what} must be a list of {items}, not {type(candidates).__name__}")
    labels = _python_list(candidates)
    if not labels:
        raise RangeError(what, fix=f"{what} is empty: give one or more {items}")
    seen = set()
    for label in labels:
        if label in seen:
            raise RangeError(what, fix=f"{what} holds {label!r} twice: give each one once")
        seen.add(label)
    return labels


def _dtype_kind(dtype: Any) -> Optional[str]:
    """What a dtype's values are, "number", "text" or "bytes" (a bool is a
    number: True == 1), or None when the dtype does not say (object,
    dates and the like)."""
    categories = getattr(dtype, "categories", None)  # a pandas CategoricalDtype
    if categories is not None:
        return _dtype_kind(categories.dtype)
    if getattr(dtype, "name", None) == "string":  # pandas' StringDtype
        return "text"
    return {"b": "number", "i": "number", "u": "number", "f": "number", "c": "number",
            "U": "text", "S": "bytes"}.get(str(getattr(dtype, "kind", "")))


def _label_kind(label: Any) -> Optional[str]:
    """What a candidate is, as _dtype_kind says of a dtype."""
    if isinstance(label, str):
        return "text"
    if isinstance(label, bytes):
        return "bytes"
    if convert.is_boolean(label) or convert.is_number(label) or isinstance(label, complex):
        return "number"
    return None


_CANDIDATES_OF_KIND = {
    "number": "numbers ([int(c) for c in candidates]), or values.astype(str) for text ones",
    "text": "text ([str(c) for c in candidates]), or the values as numbers for numbers",
    "bytes": "bytes, as the values are",
}


def _check_candidate_kinds(dtype: Any, labels: List[Any]) -> None:
    """TypeError for a candidate that no value of the dtype can equal: it
    would count 0 whatever the data.  Public facts only: the dtype and the
    candidates, never a row."""
    column = _dtype_kind(dtype)
    for i, label in enumerate(labels):
        kind = _label_kind(label)
        if column is not None and kind is not None and kind != column:
            fix = _CANDIDATES_OF_KIND[column]
            raise TypeError(f"values are of dtype {dtype} and candidates[{i}] = {label!r} is "
                            f"of type {type(label).__name__}: no value can equal it, so its "
                            f"count would be 0 whatever the data; give {fix}")


def _row_counts(values: Any, labels: List[Any], refuse_unknown: bool) -> List[int]:
    records = _python_list(values)
    try:
        counts = collections.Counter(records)
    except TypeError:  # a value that cannot be hashed: a list, a signaling NaN
        counts = collections.Counter(_Unhashable.wrap(value) for value in records)
    if refuse_unknown:
        known = set(labels)
        if any(value not in known for value in counts):
            raise RangeError("values", fix=(
                "values holds a value that is none of the candidates (not shown: a message "
                "never holds a value; set(values) - set(candidates) lists them): add it to "
                "the candidates, or give unknown='drop' (DP-safe) to drop such rows"))
    return [counts.get(label, 0) for label in labels]


class _Unhashable:
    """A value of mode that cannot be hashed, and so is none of the
    candidates (a set holds them: each is hashable): counted apart, by
    identity, never refused for itself (unknown="drop" drops it)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    @classmethod
    def wrap(cls, value: Any) -> Any:
        return value if _hashable(value) else cls(value)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _python_list(values: Any) -> List[Any]:
    """An array, Series or other iterable as a list of Python values."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"values must be a sequence of records, not a {type(values).__name__}")
    records: List[Any] = values.tolist() if hasattr(values, "tolist") else list(values)
    return records


# ------------------------------------------------------------- quantiles


@_shared_sections
def quantile(values: Records, q: Number, lower: Number, upper: Number, epsilon: Number,
             resolution: Resolution = None, mechanism: MechanismArg = "em", floats: str = "repr",
             rng: Optional[Rng] = None, accountant: Optional[Accountant] = None) -> Decimal:
    """The q-quantile of ``values``, epsilon-DP, as an exact Decimal.

    A point of the grid lower, lower + resolution, ..., upper (in the
    values' own unit), chosen with the score of ``dpsel quantile``
    (sensitivity max(a, b - a) for q = a / b).  Every value is taken: each
    is clamped into the grid (infinities to the end of their sign, NaN to
    the upper end).

    Parameters
    ----------
    values : list, numpy array, pandas Series or Index, or iterable
        One number per record.
    q : str, int, Decimal, Fraction or float
        The quantile, 0 < q < 1, a decimal such as "0.95".
    $grid_parameters
    $release_parameters

    Returns
    -------
    Decimal
        A point of the grid.

    $quantile_raises

    Examples
    --------
    >>> import dpsel
    >>> ages = [34, 41, 29, 52, 41, 38, 45, 41, 60, 33]
    >>> dpsel.quantile(ages, "0.5", 0, 100, 1, rng=dpsel.Rng.seeded(b"docs"))
    Decimal('41')
    """
    return quantiles(values, [q], lower, upper, epsilon, resolution, mechanism, floats, rng,
                     accountant)[0]


@_shared_sections
def median(values: Records, lower: Number, upper: Number, epsilon: Number,
           resolution: Resolution = None,
           mechanism: MechanismArg = "em", floats: str = "repr", rng: Optional[Rng] = None,
           accountant: Optional[Accountant] = None) -> Decimal:
    """The median of ``values``, epsilon-DP: ``quantile(values, "0.5", ...)``.

    Parameters
    ----------
    values : list, numpy array, pandas Series or Index, or iterable
        One number per record.
    $grid_parameters
    $release_parameters

    Returns
    -------
    Decimal
        The median's release, a point of the grid.

    $quantile_raises

    Examples
    --------
    >>> import dpsel
    >>> dpsel.median([3, 1, 4, 1, 5, 9, 2, 6], 0, 10, 1, rng=dpsel.Rng.seeded(b"docs"))
    Decimal('4')
    """
    return quantile(values, "0.5", lower, upper, epsilon, resolution, mechanism, floats, rng,
                    accountant)


@_shared_sections
def quantiles(values: Records, qs: Sequence[Number], lower: Number, upper: Number,
              epsilon: Number, resolution: Resolution = None, mechanism: MechanismArg = "em",
              floats: str = "repr", rng: Optional[Rng] = None,
              accountant: Optional[Accountant] = None, joint: bool = False,
              progress: Optional[Report] = None) -> List[Decimal]:
    """Several quantiles of ``values``, as quantile; epsilon is their total.

    By default one release each, at epsilon / len(qs) rounded down; with
    ``joint=True`` one JointExp release of them all at epsilon (qs
    increasing, each once; EM only): its expected errors against separate
    releases are in docs/python.md.

    Parameters
    ----------
    values : list, numpy array, pandas Series or Index, or iterable
        One number per record.
    qs : sequence of str, int, Decimal, Fraction or float
        The quantiles, each 0 < q < 1.
    $grid_parameters
    $release_parameters
    joint : bool
        One JointExp release of them all (EM only).
    progress : callable, optional
        JointExp's O(m^2 n) tables reported as quantiles_joint_select's
        (its cost: quantiles_joint_cost); separate releases, O(n log n)
        each, report nothing.

    Returns
    -------
    list of Decimal
        A point of the grid per quantile, in the order of ``qs``.

    $quantile_raises

    Examples
    --------
    >>> import dpsel
    >>> ages = [34, 41, 29, 52, 41, 38, 45, 41, 60, 33]
    >>> dpsel.quantiles(ages, ["0.25", "0.75"], 0, 100, 2, rng=dpsel.Rng.seeded(b"docs"))
    [Decimal('15'), Decimal('90')]
    """
    refuse_rnm(mechanism, RNM_QUANTILE)
    qs = _python_list(qs)
    if not qs:
        raise RangeError("qs", fix="qs is empty: give one quantile or more, such as ['0.5']")
    if joint:
        require_em(mechanism)
    grid = Grid(lower, upper, resolution)
    fractions = [quantile_fraction(q) for q in qs]  # all checked before any release
    if joint:
        params = Params.from_epsilon(convert.epsilon_text(epsilon),
                                     _joint_sensitivity_of(qs, fractions))
    points = grid.points(_exact_values(values, floats))
    if joint:
        joint_points = quantiles_joint_select(Selector(params), fractions, points, grid,
                                              rng=rng, progress=progress)
        _account(accountant, mechanism, params, 1)
        return [Decimal(grid.value(point)) for point in joint_points]
    share = _share(epsilon, len(qs))
    released: List[Decimal] = []
    for fraction in fractions:
        params = Params.from_epsilon(share, fraction.sensitivity)
        point = quantile_select(Selector(params), fraction.a, fraction.b, points, grid,
                                mechanism=mechanism, rng=rng)
        _account(accountant, mechanism, params, 1)
        released.append(Decimal(grid.value(point)))
    return released


def _joint_sensitivity_of(qs: List[Any], fractions: List[Any]) -> int:
    """joint_sensitivity(fractions), a refusal naming the q's as given."""
    for i in range(1, len(fractions)):
        before, after = fractions[i - 1], fractions[i]
        if after.a * before.b <= before.a * after.b:
            raise RangeError("qs", fix=f"joint=True takes the quantiles in increasing order, "
                             f"each once: qs[{i}] = {qs[i]!r} comes after qs[{i - 1}] = "
                             f"{qs[i - 1]!r}")
    return joint_sensitivity(fractions)


def _exact_values(values: Any, floats: str, what: str = "values",
                  numbered: bool = True) -> List[Any]:
    """Records as exact Decimals, missing ones skipped; a text that is not
    a number is a DecimalError naming its position (what[i]; what alone
    when not numbered), never its value nor its row's label (a record's)."""
    if floats not in FLOATS:
        raise RangeError("floats", fix=f"floats must be 'repr' or 'exact', not {floats!r}")
    exact = floats == "exact"
    names = (f"{what}[{i}]" if numbered else what for i in itertools.count())
    return [_exact(value, exact, name) for name, value in zip(names, _records(values, what))
            if not _missing(value)]


def _records(values: Any, what: str) -> List[Any]:
    """Records as Python values, but numpy floats kept as numpy scalars:
    their repr is the shortest of their own precision (float32's 0.1 is
    0.1).  A column of durations or dates is refused by its dtype, before
    any record is read (tolist() would give a timedelta64[ns]'s
    nanoseconds as ints)."""
    numpy = sys.modules.get("numpy")
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(values, (pandas.Series, pandas.Index)):
        values = values.to_numpy()
    if numpy is not None and isinstance(values, numpy.ndarray) and values.dtype.kind in "mM":
        raise convert.not_a_number(values.dtype.type, what)
    if numpy is not None and isinstance(values, numpy.ndarray) and values.dtype.kind == "f":
        return list(values.ravel())
    return _python_list(values)


def _missing(value: Any) -> bool:
    """None, pandas' NA and NaT, and numpy's NaT: an absent record."""
    pandas, numpy = sys.modules.get("pandas"), sys.modules.get("numpy")
    return value is None or (pandas is not None and (value is pandas.NA or value is pandas.NaT)) \
        or (numpy is not None and isinstance(value, (numpy.datetime64, numpy.timedelta64))
            and bool(numpy.isnat(value)))


def _exact(value: Any, exact_floats: bool, what: str) -> Any:
    """A record as an exact number: an int, Decimal or Fraction as it is, a
    float or text as a Decimal.  A value that is not a number by its type
    (convert.is_number: a bool, a duration, a date) is a TypeError (a
    column of the wrong type).  Neither error holds the value."""
    if isinstance(value, str):
        try:
            return Decimal(value)
        except InvalidOperation:
            raise DecimalError(what) from None
    if not convert.is_number(value):
        raise convert.not_a_number(type(value), what)
    if isinstance(value, float) or getattr(value, "dtype", None) is not None and \
            value.dtype.kind == "f":
        return Decimal(float(value)) if exact_floats else Decimal(str(value))
    return value


# ------------------------------------------------------ labelled scores


@_shared_sections
def select(scores: ScoresLike, epsilon: Number, sensitivity: Number = 1,
           monotonic: bool = False, mechanism: MechanismArg = "pf", resolution: Resolution = None,
           rng: Optional[Rng] = None, accountant: Optional[Accountant] = None) -> Any:
    """The best of labelled scores, epsilon-DP.

    Decimal scores and sensitivity in units of ``resolution`` (or of a
    decimal sensitivity's last digit), as Params.from_epsilon takes them.

    Parameters
    ----------
    $scores_parameters

    Returns
    -------
    object
        The label released (a mapping or pandas Series), or the position
        (a sequence or an array).

    $scores_raises

    Examples
    --------
    >>> import dpsel
    >>> dpsel.select({"a": 10, "b": 3, "c": 7}, 1, rng=dpsel.Rng.seeded(b"docs"))
    'a'
    >>> dpsel.select([10, 3, 7], 1, rng=dpsel.Rng.seeded(b"docs"))
    0
    """
    return top_k(scores, 1, epsilon, sensitivity, monotonic, mechanism, resolution, rng,
                 accountant)[0]


@_shared_sections
def top_k(scores: ScoresLike, k: int, epsilon: Number, sensitivity: Number = 1,
          monotonic: bool = False, mechanism: MechanismArg = "pf", resolution: Resolution = None,
          rng: Optional[Rng] = None, accountant: Optional[Accountant] = None) -> List[Any]:
    """The k best of labelled scores, in the order chosen, epsilon-DP.

    By peeling (Selector.select_top): k releases, each at epsilon / k
    rounded down.

    Parameters
    ----------
    $scores_parameters
    k : int
        How many to release, at most the number of scores.

    Returns
    -------
    list
        k labels (or positions), the first chosen first.

    $scores_raises

    Examples
    --------
    >>> import dpsel
    >>> dpsel.top_k({"a": 10, "b": 3, "c": 7}, 2, 2, rng=dpsel.Rng.seeded(b"docs"))
    ['a', 'c']
    """
    k = convert.size(k, "k")
    if k == 0:
        raise RangeError("k", fix="k is 0: ask for one candidate or more")
    values, labels = _labelled(scores)
    share = _share(epsilon, k)
    if _mechanism(mechanism) == Mechanism.RNM:
        chosen = _rnm_top(values, k, share, sensitivity, monotonic, resolution, rng, accountant)
    else:
        params = Params.from_epsilon(share, sensitivity, monotonic, resolution)
        chosen = Selector(params).select_top(values, k, mechanism, rng)
        _account(accountant, mechanism, params, k)
    return chosen if labels is None else [labels[i] for i in chosen]


def _rnm_top(scores: Any, k: int, epsilon: Any, sensitivity: Any, monotonic: bool,
             resolution: Any, rng: Optional[Rng], accountant: Optional[Accountant]) -> List[Any]:
    """The k best of scores by report noisy max (rnm_select_top, as ``dpsel
    select --mechanism rnm``), each round at the decimal epsilon realised
    exactly; decimal scores and sensitivity as Params.from_epsilon takes
    them."""
    unit, units = units_of(sensitivity, resolution)
    chosen = rnm_select_top(scores_in_units(scores, unit), k, epsilon, units, monotonic, rng)
    if accountant is not None:
        accountant.add("rnm", epsilon, k)
    return chosen


def _labelled(scores: Any) -> Tuple[Any, Optional[List[Any]]]:
    """(scores for Selector, the labels of their positions or None: a
    Series labels itself)."""
    if isinstance(scores, collections.abc.Mapping):
        return list(scores.values()), list(scores.keys())
    return scores, None


# --------------------------------------------------------------- pricing


@_shared_sections
def best_price(bids: Records, prices: Iterable[Number], epsilon: Number,
               mechanism: MechanismArg = "pf", floats: str = "repr", rng: Optional[Rng] = None,
               accountant: Optional[Accountant] = None) -> Any:
    """The price of the most revenue ``p * #{bids >= p}``, epsilon-DP.

    Among the public ``prices`` (distinct positive decimals): one bidder
    more moves each revenue by at most its price and never lowers it
    (sensitivity max(prices), monotonic).  Revenues are exact in units of
    the prices' finest digit; bids are compared exactly (floats as for
    quantile; NaN and missing bids buy at no price).

    Parameters
    ----------
    bids : list, numpy array, pandas Series or Index, or iterable
        One bid per bidder.
    prices : iterable of str, int, Decimal, Fraction or float
        The public prices, distinct and positive.
    epsilon : str, int, Decimal, Fraction or float
        The privacy parameter, taken exactly.
    mechanism : {"pf", "em", "rnm"}
        Permute-and-flip, the exponential mechanism, or report noisy max
        (rnm_select, its decimal epsilon realised exactly).
    floats : {"repr", "exact"}
        A float bid as its repr or at its binary value.
    $release_parameters

    Returns
    -------
    object
        One of ``prices``, as given.

    Raises
    ------
    RangeError
        Empty, repeated or non-positive prices.
    TypeError
        A bid that is not a number.
    EpsilonError
        An epsilon that is not positive or not a number.

    Examples
    --------
    >>> import dpsel
    >>> bids = [1.5, 2, 3.25, 4, 2.5]
    >>> dpsel.best_price(bids, ["1", "2", "3"], 1, rng=dpsel.Rng.seeded(b"docs"))
    '1'
    """
    labels = _candidates(prices)
    unit = min((unit_of(price, "prices") for price in labels), key=Decimal)
    price_units = [to_units(price, unit, f"prices[{i}]") for i, price in enumerate(labels)]
    if min(price_units) <= 0:
        raise RangeError("prices", fix="prices must be positive")
    buyers = _buyers(bids, floats, [Decimal(unit) * units for units in price_units])
    revenues = [units * count for units, count in zip(price_units, buyers)]
    if _mechanism(mechanism) == Mechanism.RNM:   # its epsilon a decimal, realised exactly
        chosen = rnm_select(revenues, epsilon, max(price_units), monotonic=True, rng=rng)
        if accountant is not None:
            accountant.add("rnm", epsilon, 1)
        return labels[chosen]
    params = Params.from_epsilon(epsilon, max(price_units), monotonic=True)
    chosen = Selector(params).select(revenues, mechanism, rng)
    _account(accountant, mechanism, params, 1)
    return labels[chosen]


def _buyers(bids: Any, floats: str, prices: List[Decimal]) -> List[int]:
    """#{bids >= p} for each price p, exactly."""
    exact = sorted(bid for bid in _exact_values(bids, floats) if not _is_nan(bid))
    return [len(exact) - bisect.bisect_left(exact, price) for price in prices]


def _is_nan(value: Any) -> bool:
    return isinstance(value, Decimal) and value.is_nan()


# ---------------------------------------------------------------- shared


def _share(epsilon: Any, parts: int) -> str:
    """epsilon / parts (1 or more), rounded down to 34 significant digits, as an
    epsilon text (epsilon itself for one part)."""
    text = convert.epsilon_text(epsilon)
    if parts == 1:
        return text
    try:
        total = Decimal(text)
    except InvalidOperation:
        raise EpsilonError(f"epsilon {text!r}",
                           fix="not a decimal number: give one such as '1' or '0.25'") from None
    with localcontext() as context:
        context.prec, context.rounding = 34, ROUND_FLOOR
        return convert.epsilon_text(total / parts)


def _account(accountant: Optional[Accountant], mechanism: MechanismArg, params: Params,
             count: int) -> None:
    if accountant is not None:
        accountant.add_params(mechanism, params, count)
