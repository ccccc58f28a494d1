# SPDX-License-Identifier: ISC
"""Selections over Dask DataFrames: one release per group, where the data lives.

    >>> import dpsel.dask
    >>> top = dpsel.dask.mode(views, "page", pages, epsilon="1", by="day",
    ...                       groups=days)                            # doctest: +SKIP
    >>> p95 = dpsel.dask.quantile(latencies, "ms", "0.95", 0, 1000, "1",
    ...                           by="day", groups=days)              # doctest: +SKIP
    >>> best = dpsel.dask.select(counts, label="page", score="views", epsilon="1",
    ...                          by="day", monotonic=True)          # doctest: +SKIP

:func:`mode` and :func:`quantile` read raw rows (one per record): each
partition counts its rows per group and candidate (mode) or grid point
(quantile) with pandas, Dask sums the counts, and one task releases each
group from its counts with one C call (counts never reach the driver).
``groups``, the public list of the groups, makes every listed group a
release, one of no row too; a group of no usable value releases as
:func:`dpsel.mode` and :func:`dpsel.quantile` do on no values.

:func:`select` runs as a ``dask.dataframe.Aggregation`` over the partial
states of :class:`dpsel.Partial` (spec/partial.md, "Dask"): each partition
builds a state per group from its rows (the chunk step), states of a group
merge in Dask's reduction tree (the combine step), and the final state of
each group finishes into its released label.  States travel between worker
processes as their checked bytes (:meth:`dpsel.Partial.to_bytes`), never as
random sources: every worker thread draws from its own OS source (the
package's ``rng=None``), so no two processes share a bit.

Each released label has exactly the distribution of
``Selector.select(scores, mechanism)`` (dpsel_select) on all the rows of its
group, whatever the partitioning and the reduction tree.

This module needs dask (Debian's python3-dask; python3-distributed for a
cluster); ``import dpsel`` does not import it.
"""

from __future__ import annotations

import functools
import pickle
from decimal import Decimal
from typing import (TYPE_CHECKING, Any, Hashable, Iterator, List, Optional, Sequence, Tuple,
                    Union)

try:
    import dask
    import dask.dataframe as dd
    import numpy
    import pandas
except ImportError as _missing:  # pragma: no cover - the tests run with dask
    raise ImportError(f"dpsel.dask needs dask.dataframe, numpy and pandas (Debian: python3-dask): "
                      f"{_missing}") from _missing

from ._enums import (RNM_PARTIAL, RNM_QUANTILE, Mechanism, MechanismArg, mechanism as _mechanism,
                     refuse_rnm)
from ._easy import _candidates, _exact_values, _hashable, _missing as _missing_value
from ._errors import RangeError
from ._native.lib import PARTIAL_MEMBER_MAX, QUANTILE_EM_GRID_MAX
from ._native.convert import INT64_MAX, INT64_MIN
from ._params import Number, Params, in_units
from ._partial import Partial, _key
from ._quantile import Grid, quantile_fraction, quantile_select
from ._select import Selector
from ._tasks import task_params, units_to_decimal
from ._types import Labels, Resolution

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["mode", "quantile", "select"]

# Columns of the frame the aggregation reads: the labels (the scores are its
# index) and, without `by`, one group holding every row.
_LABEL = "__dpsel_label__"
_ALL = "__dpsel_all__"
# Columns of mode's and quantile's counts: a row's candidate (its position
# in the candidates, -1 for none of them) or grid point.
_CODE = "__dpsel_code__"
_POINT = "__dpsel_point__"
_ROWS = "__dpsel_rows__"
# 1 for the rows of a value, 0 for those of none (missing): a group of rows
# but no value is still a group (_marked).
_VALUED = "__dpsel_valued__"
# select's labels as members (_encode), to find a label twice in a group.
_MEMBER = "__dpsel_member__"
_RESERVED = (_LABEL, _ALL, _CODE, _POINT, _ROWS, _VALUED, _MEMBER)
# A grid as the workers rebuild it: Grid(lower, upper, resolution), as texts.
GridEnds = Tuple[str, str, str]

# A member is a tag byte and the label: a str's UTF-8 bytes, else its pickle.
_STR, _PICKLE = b"s", b"p"

Columns = Union[Hashable, List[Hashable]]


def _encode(label: Any) -> bytes:
    """The member that names a row's label in the partial states: ``b"s"``
    and the UTF-8 bytes of a str (lone surrogates kept), else ``b"p"`` and
    the label's pickle (protocol 4).  _decode gives the label back, equal
    and of the same type.  Two rows of one member in a group are refused
    (select)."""
    if type(label) is str:
        return _STR + label.encode("utf-8", "surrogatepass")
    return _PICKLE + pickle.dumps(label, protocol=4)


def _decode(member: bytes) -> Any:
    """The label _encode encoded.  The bytes come from this cluster's own
    workers: a pickle is loaded, as Dask loads the tasks it runs."""
    tag, body = member[:1], member[1:]
    if tag == _STR:
        return body.decode("utf-8", "surrogatepass")
    if tag == _PICKLE:
        return pickle.loads(body)
    raise ValueError("a member that is not a label encoded by dpsel.dask (its first byte is "
                     "neither tag)")


def select(frame: dd.DataFrame, *, label: Hashable, score: Hashable, epsilon: Number,
           mechanism: MechanismArg = "pf", by: Optional[Columns] = None,
           groups: Optional[Labels] = None, sensitivity: Number = 1,
           monotonic: bool = False, resolution: Resolution = None, floats: str = "repr",
           split_every: Optional[int] = None, key: Optional[bytes] = None) -> Any:
    """One epsilon-DP selection among the rows of a Dask DataFrame, or one
    per group: computed (with the current Dask scheduler: a
    ``distributed.Client``'s cluster if one is active) and returned.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        The rows, one candidate each.
    label, score : hashable
        Columns.  Every row is one candidate: its label
        names it and its score (higher is better) rates it.  A label may
        appear once per group: two rows with one label (equal and of one
        type: their members below are equal) are refused, ValueError naming the label and its group,
        and nothing is released (rows of raw records: :func:`mode` counts
        them; or aggregate the scores per label first).  A label
        is carried exactly, as the member of its row: a str as its UTF-8
        bytes, any other value (an int, a Timestamp, a tuple) as its pickle,
        at most PARTIAL_MEMBER_MAX bytes; the release is that value again.
    epsilon, sensitivity, monotonic, resolution
        As
        :meth:`dpsel.Params.from_epsilon` (the default gap cap).  The scores
        are data in a unit, as SQL's numeric scores: 1, or with
        ``resolution`` or a decimal ``sensitivity`` ("0.5": a unit of 0.1)
        that unit.  Each is taken as ``floor(score / unit)``, exactly,
        clamped into the int64 range (Grid.point over it: infinities to
        their end, a text "NaN" the largest; a float read as its repr, or at
        its exact binary value with ``floats="exact"``), never refused for
        its value (rounding down keeps the sensitivity, a whole number of
        units); the sensitivity, a public parameter, must be a whole
        multiple of the unit (UnitError).
    mechanism : {"pf", "em"}
        Permute-and-flip or the exponential mechanism.
    by : hashable or list of hashable, optional
        None for one selection among all rows; a column or a list of
        columns for one selection per group.
    groups : list, optional
        The public list of groups of ``by`` (a key per group; a tuple of
        keys with several columns), as for :func:`mode`.
    floats : {"repr", "exact"}
        A float score as its repr or at its binary value.
    split_every : int, optional
        How many states Dask's reduction tree merges at once (Dask's
        default, 8, when None).
    key : bytes, optional
        None, or 16 to 64 secret bytes: the states then travel
        between tasks sealed with a MAC keyed with it (``Partial.to_bytes(key=)``)
        instead of a checksum, so that a process without the key cannot forge
        one that a worker would merge.  The key travels to the workers with
        the task graph.

    Returns
    -------
    object or pandas.Series
        Without ``by`` the released label (None when no row is left: no
        candidate, as SQL's NULL); with ``by`` a pandas Series of released
        labels (named as the label column, of its dtype where the labels
        convert back to it) indexed by the groups, a group of no candidate
        left released as None.

    Raises
    ------
    KeyError
        A column that does not exist.
    ValueError
        A label on two rows of one group (naming the label and the group).
    TypeError, DecimalError, RangeError
        A bool score, a score text of no number, a label over
        PARTIAL_MEMBER_MAX bytes encoded.
    EpsilonError, RangeError, UnitError
        Parameters as for Params.

    Notes
    -----
    Each release has exactly the distribution of ``Selector.select`` on
    the scores of its group's rows, whatever the partitions.  A row whose
    label, score or group key is missing for pandas (None, NaN, NaT, NA:
    isna) is skipped, as SQL's aggregates skip NULLs: the row is an absent
    record, and a NaN score is pandas' "no value" (the mean of no rows),
    SQL's NULL.  Only what is not a number at all is refused: a score
    that is a text of no number (DecimalError) or a bool (TypeError), and
    labels over PARTIAL_MEMBER_MAX bytes encoded (RangeError).
    Columns that do not exist are a KeyError, parameters as for Params
    (EpsilonError, RangeError).  Column names and dtypes are
    checked on the driver; values are read in the workers, and their
    exceptions reach the caller.

    Privacy: the scores must have the sensitivity given (one person changes
    each score by at most ``sensitivity``; monotonic: all in one direction);
    the groups and the labels must not depend on the data (take them from
    public lists: ``groups``).  When one person's data lies in one group only, the
    releases of the groups are epsilon-DP together; otherwise their
    epsilons add up (dpsel.Accountant).

    Examples
    --------
    At epsilon 50 the best page's lead of 80 views leaves any other
    release a chance below 10^-800: the output is certain.

    >>> import pandas, dask.dataframe as dd, dpsel.dask
    >>> counts = pandas.DataFrame({"page": ["home", "about", "blog"], "views": [120, 15, 40]})
    >>> dpsel.dask.select(dd.from_pandas(counts, npartitions=2), label="page", score="views",
    ...                   epsilon=50)
    'home'
    """
    keys = _checked_groups(frame, by, [label, score])
    listed = _listed_groups(frame, keys, groups)
    decimals = Params.from_epsilon(epsilon, sensitivity, monotonic, resolution)
    _check_score_dtype(frame._meta[score].dtype, score)
    _exact_values([], floats)  # on the driver: floats other than "repr" or "exact" refused
    params, chosen = in_units(decimals), refuse_rnm(mechanism, RNM_PARTIAL)
    key = None if key is None else _key(key)

    columns = keys or [_ALL]
    prepare = functools.partial(_prepare, label=label, score=score, keys=keys, listed=listed,
                                unit=decimals.resolution, floats=floats)
    candidates = frame.map_partitions(prepare, meta=prepare(frame._meta)).clear_divisions()
    released = (candidates.groupby(columns if len(columns) > 1 else columns[0], sort=True,
                                   observed=True)
                [_LABEL].agg(_aggregation(params, chosen, key), split_every=split_every))
    # Rows per group and label, computed with the releases (one pass over
    # the partitions): a label twice in a group refuses the whole call.
    repeated = candidates.groupby([*columns, _MEMBER], sort=False, observed=True).size(
        split_every=split_every)
    released, repeated = dask.compute(released, repeated[repeated > 1])
    _refuse_repeated_labels(repeated, label, keys)
    # A group of no row (an unobserved category, which pandas may still
    # group) is no group of the data: its release is None, where a group of
    # rows gets a 1-tuple (_finalize).  Of object dtype, so that None stays
    # None (pandas would make it NaT beside Timestamps).
    observed = released[released.map(lambda release: isinstance(release, tuple))]
    released = pandas.Series([release for release, in observed.tolist()], index=observed.index,
                             name=label, dtype=object)
    if not keys:
        return released.iloc[0] if len(released) else None
    if listed is not None:
        released = released.reindex(listed)
        released = released.where(released.notna(), None)  # a listed group of no row
    return _as_dtype(released, frame._meta[label].dtype)


def _aggregation(params: Params, mechanism: MechanismArg = "pf",
                 key: Optional[bytes] = None) -> dd.Aggregation:
    """The ``dask.dataframe.Aggregation`` that select runs: for a column of
    labels (object dtype) whose index holds the rows' int64 scores, grouped
    by the group columns, it gives each group's released label.  chunk:
    a state per group of a partition, each row added (its score, and its
    label as _member), as bytes; combine: a group's states
    merged; finalize: each group's state finished with a Selector for
    params.  params, the mechanism and the states' key (None: unkeyed)
    travel to the workers; random bits never do."""
    if not isinstance(params, Params):
        raise TypeError(f"params must be a dpsel.Params, not {type(params).__name__}")
    params, chosen = params.copy(), _mechanism(mechanism)
    return dd.Aggregation(
        name=f"dpsel-{chosen.name.lower()}",
        chunk=functools.partial(_chunk, params=params, key=key),
        agg=functools.partial(_combine, params=params, key=key),
        finalize=functools.partial(_finalize, params=params, mechanism=chosen, key=key))


def mode(frame: dd.DataFrame, column: Hashable, candidates: Labels, epsilon: Number,
         by: Optional[Columns] = None, mechanism: MechanismArg = "pf",
         split_every: Optional[int] = None, groups: Optional[Labels] = None) -> Any:
    """The most common of the public ``candidates`` among the values of
    ``column`` (one row per record), epsilon-DP, per group of ``by``: one
    value without ``by``, else a pandas Series indexed by the groups.  Each
    candidate's score is its number of rows in the group (0 for none;
    sensitivity 1, monotonic: task_params("mode")), and the release has
    exactly the distribution of ``Selector.select(counts, mechanism)``, as
    :func:`dpsel.mode`: with no row left (no rows, or none of a candidate)
    it is a release on all-zero counts, never an error.

    ``groups``: None, or the public list of the groups of ``by`` (distinct
    keys, each a value of its column's dtype; a tuple of keys per group
    with several columns), released in its order: a listed group of no row
    is released on zero counts, and rows of a group not listed are dropped.
    Without it the groups released are the data's own, those with a row
    whose key is present (sorted), as SQL's ``GROUP BY`` gives them: which
    groups exist is then data, shown by the release (one person's row can
    add a group), so give the list for groups that must stay private.

    ``candidates``: distinct values (a repeated one is refused, naming it),
    compared with the column's values as pandas compares them (a
    ``Categorical``'s categories); on a numeric or datetime column each
    must be a value of the column's dtype (TypeError on the driver naming
    the column, its dtype and the candidate: "3" is not a candidate of an
    int64 column).  Rows whose value is none of the candidates (a value
    that cannot be hashed, such as a list, is none), or missing, and rows
    of a missing group key, are dropped: whether a row is dropped depends
    on that row alone, so the release stays epsilon-DP.

    Privacy: one person adds or removes one row (their data in one group
    only makes the groups' releases epsilon-DP together); the candidates
    and the groups must not depend on the data (public lists: ``groups``).

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        The rows, one per record.
    column : hashable
        The column of the values.
    candidates : list, tuple or pandas Index of hashable
        The public candidates (see above).
    epsilon : str, int, Decimal, Fraction or float
        The privacy parameter, taken exactly.
    by : hashable or list of hashable, optional
        The group columns; None: one release of all rows.
    mechanism : {"pf", "em"}
        Permute-and-flip or the exponential mechanism.
    split_every : int, optional
        How many partitions' counts Dask sums at once.
    groups : list, optional
        The public list of the groups (see above).

    Returns
    -------
    object or pandas.Series
        A candidate, or with ``by`` a Series of them indexed by the groups.

    Raises
    ------
    TypeError
        A candidate not of the column's dtype, or candidates that are a str.
    RangeError
        Empty or repeated candidates or groups, a reserved column name.
    KeyError
        A column that does not exist.
    EpsilonError
        An epsilon that is not positive or not a number.

    Examples
    --------
    At epsilon 50 a lead of 3 rows or more leaves another candidate a
    chance below 10^-30: the outputs are certain.

    >>> import pandas, dask.dataframe as dd, dpsel.dask
    >>> rows = pandas.DataFrame({"day": ["mon"] * 6 + ["tue"] * 6,
    ...                          "page": ["home"] * 4 + ["about", "blog"] + ["blog"] * 5 + ["home"],
    ...                          "ms": [120, 80, 95, 300, 110, 90, 70, 60, 65, 500, 75, 80]})
    >>> views = dd.from_pandas(rows, npartitions=2)
    >>> dpsel.dask.mode(views, "page", ["home", "about", "blog"], epsilon=50, by="day").to_dict()
    {'mon': 'home', 'tue': 'blog'}
    """
    keys = _checked_groups(frame, by, [column])
    listed = _listed_groups(frame, keys, groups)
    labels = _candidates(candidates)
    typed = _values_of_dtype(labels, frame._meta[column].dtype, column, "candidate")
    params = Params.from_epsilon(epsilon, *task_params("mode"))
    chosen = refuse_rnm(mechanism, RNM_PARTIAL)
    code = functools.partial(_candidate_codes, column=column, candidates=typed, keys=keys,
                             listed=listed)
    counts = _counts(frame.map_partitions(code, meta=code(frame._meta)).clear_divisions(),
                     keys, _CODE, split_every)
    release = functools.partial(_release_mode, mechanism=chosen, candidates=len(labels))
    positions = _releases(counts, keys, listed, params, release)
    released = pandas.Series([labels[i] for i in positions], index=positions.index,
                             name=column, dtype=object)
    return _one_or_series(released, keys, frame._meta[column].dtype)


def quantile(frame: dd.DataFrame, column: Hashable, q: Number, lower: Number, upper: Number,
             epsilon: Number, by: Optional[Columns] = None, resolution: Resolution = None,
             mechanism: MechanismArg = "em", floats: str = "repr",
             split_every: Optional[int] = None, groups: Optional[Labels] = None) -> Any:
    """The q-quantile (0 < q < 1, a decimal: "0.95") of the values of
    ``column`` (one row per record), epsilon-DP, per group of ``by`` (one
    value without ``by``, else a pandas Series indexed by the groups; the
    groups, listed in ``groups`` or the data's own, as for :func:`mode`):
    a point of the grid ``lower, lower + resolution, ...,
    upper`` in the values' own unit (resolution None: 10^-d, d the larger
    number of fraction digits of the ends), chosen with the score of
    ``dpsel quantile`` (sensitivity max(a, b - a) for q = a / b), as an
    exact Decimal; the same release as :func:`dpsel.quantile` on the
    group's values: with no value left (no rows, or every value missing)
    a release on no values, never an error.

    Every value is taken, as a grid point (Grid.point): clamped into the
    grid, infinities to the end of their sign, NaN to the upper end;
    missing values (None, NA, NaT; NaN of a float column is a value) and
    rows of a missing group key are skipped, as SQL skips NULLs.  An int,
    Decimal, Fraction or decimal str is exact; a float is read as the
    decimal it prints as (its shortest repr: 0.1 is 0.1), or with
    ``floats="exact"`` at its exact binary value
    (0.1000000000000000055511151231257827...), as :func:`dpsel.quantile`.
    The column must be of an integer, float, object or string dtype
    (TypeError on the driver naming the column and its dtype); object
    values are checked in the workers (a bool, or a str that is not a
    number, is refused naming it).  The grid, q, epsilon and the
    mechanism are checked on the driver (EM takes grids of at most
    QUANTILE_EM_GRID_MAX points: use "pf" for finer ones).

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        The rows, one per record, each with a number or a missing value.
    column : hashable
        The column of the numbers.
    q : str, int, Decimal, Fraction or float
        The quantile, 0 < q < 1.
    lower, upper : str, int, Decimal, Fraction or float
        The grid's ends, public.
    epsilon : str, int, Decimal, Fraction or float
        The privacy parameter, taken exactly.
    by : hashable or list of hashable, optional
        The group columns; None: one release of all rows.
    resolution : decimal, optional
        The grid's step (see above).
    mechanism : {"em", "pf"}
        The exponential mechanism or permute-and-flip.
    floats : {"repr", "exact"}
        A float value as its repr or at its binary value.
    split_every : int, optional
        How many partitions' counts Dask sums at once.
    groups : list, optional
        The public list of the groups, as for :func:`mode`.

    Returns
    -------
    Decimal or pandas.Series
        A grid point, or with ``by`` a Series of them indexed by the groups.

    Raises
    ------
    TypeError
        A column of a dtype that holds no numbers (bool, dates), or an
        object value that is a bool or a str of no number.
    RangeError
        A q not strictly between 0 and 1, a grid beyond the mechanism's
        limits, a reserved column name.
    KeyError
        A ``column`` or ``by`` column that the frame lacks.
    EpsilonError
        An epsilon that is not positive or not a number.

    Examples
    --------
    A release is random among the grid points of one interval of ranks:
    at epsilon 200 each day's median lies between its two middle values,
    any other point having a chance below 10^-38.

    >>> import pandas, dask.dataframe as dd, dpsel.dask
    >>> latencies = pandas.DataFrame({"day": ["mon"] * 4 + ["tue"] * 4,
    ...                               "ms": [120, 80, 95, 300, 70, 60, 65, 500]})
    >>> medians = dpsel.dask.quantile(dd.from_pandas(latencies, npartitions=2), "ms", "0.5",
    ...                               0, 1000, 200, by="day")
    >>> bool(95 <= medians["mon"] <= 120), bool(65 <= medians["tue"] <= 70)
    (True, True)
    """
    keys = _checked_groups(frame, by, [column])
    listed = _listed_groups(frame, keys, groups)
    _check_value_dtype(frame._meta[column].dtype, column)
    grid = Grid(lower, upper, resolution)
    fraction = quantile_fraction(q)
    params = Params.from_epsilon(epsilon, fraction.sensitivity)
    chosen = refuse_rnm(mechanism, RNM_QUANTILE)
    if chosen == Mechanism.EM and grid.upper - grid.lower + 1 > QUANTILE_EM_GRID_MAX:
        raise RangeError("mechanism", fix=(
            f"EM takes grids of at most 2^42 - 1 points, not {grid.upper - grid.lower + 1}: "
            "give mechanism='pf' or a coarser resolution"))
    ends = (grid.value(grid.lower), grid.value(grid.upper), grid.resolution)
    _exact_values([], floats)  # on the driver: floats other than "repr" or "exact" refused
    point = functools.partial(_grid_points, column=column, ends=ends, floats=floats,
                              keys=keys, listed=listed)
    counts = _counts(frame.map_partitions(point, meta=point(frame._meta)).clear_divisions(),
                     keys, _POINT, split_every)
    release = functools.partial(_release_quantile, mechanism=chosen, fraction=fraction,
                                ends=ends)
    points = _releases(counts, keys, listed, params, release)
    released = pandas.Series([Decimal(grid.value(p)) for p in points], index=points.index,
                             name=column, dtype=object)
    return _one_or_series(released, keys, None)


# ------------------------------------------------------------- the client


def _checked_groups(frame: dd.DataFrame, by: Optional[Columns],
                    columns: List[Hashable]) -> List[Hashable]:
    """The group columns of by, after the frame and every column named
    (columns and the group columns) are checked."""
    if not isinstance(frame, dd.DataFrame):
        raise TypeError(f"frame must be a dask.dataframe.DataFrame, not {type(frame).__name__}"
                        " (dask.dataframe.from_pandas makes one from a pandas DataFrame)")
    keys = _by_columns(by)
    _check_columns(frame, [*columns, *keys])
    reserved = [name for name in keys if name in _RESERVED]
    if reserved:
        raise ValueError(f"a group column may not be named {reserved[0]!r} (dpsel.dask's own "
                         "columns: rename it)")
    return keys


def _counts(tallies: dd.DataFrame, keys: List[Hashable], column: str,
            split_every: Optional[int]) -> dd.Series:
    """The partitions' tallies (_tallied) summed: the rows per group and
    value of column (rows of no value apart: _marked), in one partition
    (split_out=1: each group's counts in one task), sorted."""
    return tallies.groupby([*(keys or [_ALL]), _VALUED, column], sort=True,
                           observed=True)[_ROWS].sum(split_every=split_every, split_out=1)


def _listed_groups(frame: dd.DataFrame, keys: List[Hashable],
                   groups: Optional[Labels]) -> Optional[pandas.Index]:
    """The public list of groups as an Index of the group columns' dtypes
    (a MultiIndex for several columns), checked on the driver as mode's
    candidates are; None without a list."""
    if groups is None:
        return None
    if not keys:
        raise ValueError("groups lists the groups of by: give by too (groups=None for one "
                         "release among all rows)")
    listed = _candidates(groups, "groups", "groups")
    if len(keys) == 1:
        return _values_of_dtype(listed, frame._meta[keys[0]].dtype, keys[0],
                                "group").rename(keys[0])
    for group in listed:
        if not isinstance(group, tuple) or len(group) != len(keys):
            raise TypeError(f"by names {len(keys)} columns, so each group is a tuple of "
                            f"{len(keys)} keys, not {group!r}")
    return pandas.MultiIndex.from_arrays(
        [_values_of_dtype([group[i] for group in listed], frame._meta[name].dtype, name,
                          "group") for i, name in enumerate(keys)], names=keys)


def _releases(counts: dd.Series, keys: List[Hashable], listed: Optional[pandas.Index],
              params: Params, release: Any) -> pandas.Series:
    """The releases of release (_release_mode, _release_quantile) from
    counts (_counts), computed in the one task that holds them: one per
    listed group, else one per group of the data (without by, the one
    group _ALL, listed)."""
    if not keys:
        listed = pandas.Index(numpy.zeros(1, dtype=numpy.int8), name=_ALL)
    run = functools.partial(_release_each, keys=keys or [_ALL], listed=listed, params=params,
                            release=release)
    meta = functools.partial(run, listed=None if listed is None else listed[:0])
    return counts.map_partitions(run, meta=meta(counts._meta)).compute()


def _one_or_series(released: pandas.Series, keys: List[Hashable], dtype: Any) -> Any:
    """The releases indexed by the groups, or the one release without by."""
    if not keys:
        return released.iloc[0]
    return released if dtype is None else _as_dtype(released, dtype)


def _refuse_repeated_labels(repeated: pandas.Series, label: Hashable,
                            keys: List[Hashable]) -> None:
    """ValueError when a label is found on several rows of one group
    (repeated: rows per group and member, those above 1), naming the
    column alone: the label, its rows and its group are the data's."""
    if len(repeated) == 0:
        return
    columns = [*keys, label]
    raise ValueError(
        f"the label column {label!r} holds a label on more than one row"
        f"{' of a group' if keys else ''} (not shown: a message never holds a value; "
        f"frame.groupby({columns!r}).size() lists the rows per label): each row is one "
        "candidate, whose label must be distinct; for rows of raw records use "
        "dpsel.dask.mode, which counts them, or sum the scores per label first")


def _values_of_dtype(labels: List[Any], dtype: Any, column: Hashable, what: str) -> Any:
    """Public values (mode's candidates, the listed groups: what names one)
    as values of the column's dtype (for an object, string or categorical
    column, as they are); TypeError naming the first that is not one,
    exactly."""
    api = pandas.api.types
    if api.is_object_dtype(dtype) or api.is_string_dtype(dtype) or \
            isinstance(dtype, pandas.CategoricalDtype):
        return pandas.Index(labels, dtype=object)
    for label in labels:
        try:
            typed = pandas.array([label], dtype=dtype)[0]
            exact = not isinstance(label, str) and bool(typed == label)
        except (TypeError, ValueError, OverflowError):
            exact = False
        if not exact:
            raise TypeError(f"the column {column!r} is of dtype {dtype}, and the {what} "
                            f"{label!r} ({type(label).__name__}) is not a value of it: give "
                            f"{what}s of the column's dtype, or .astype(str) the column "
                            f"for text {what}s")
    return pandas.Index(pandas.array(labels, dtype=dtype))


def _check_value_dtype(dtype: Any, column: Hashable) -> None:
    """Numbers: integer, float, object or string dtypes (not bool, not
    dates)."""
    api = pandas.api.types
    if api.is_bool_dtype(dtype) or not (api.is_integer_dtype(dtype) or api.is_float_dtype(dtype)
                                        or api.is_object_dtype(dtype)
                                        or api.is_string_dtype(dtype)):
        raise TypeError(f"the column {column!r} is of dtype {dtype}: a quantile takes numbers "
                        "(an integer, float, object column of Decimals, or decimal strings)"
                        f"{'; give .astype(int) for 0 and 1' if api.is_bool_dtype(dtype) else ''}")


def _by_columns(by: Optional[Columns]) -> List[Hashable]:
    if by is None:
        return []
    # A list names several columns; anything else (a tuple too: a column of
    # MultiIndex columns) one, as for pandas' groupby.
    columns = list(by) if isinstance(by, list) else [by]
    if not columns:
        raise ValueError("by is an empty list: give None for one selection among all rows")
    return columns


def _check_columns(frame: dd.DataFrame, names: Sequence[Hashable]) -> None:
    for name in names:
        try:
            present = name in frame.columns
        except TypeError:  # not hashable
            raise TypeError(f"a column name must be hashable, not {type(name).__name__}") from None
        if not present:
            raise KeyError(f"no column {name!r} in the frame (its columns: "
                           f"{', '.join(map(repr, frame.columns))})")


def _check_score_dtype(dtype: Any, score: Hashable) -> None:
    """Integer dtypes (numpy's and pandas' nullable ones), floats, objects
    and strings (decimal texts) pass here; their values are read in the
    workers."""
    api = pandas.api.types
    if api.is_bool_dtype(dtype):
        raise TypeError(f"the score column {score!r} is of dtype {dtype}: scores must be "
                        "numbers (give .astype(int) to mean 1 and 0)")
    if not (api.is_integer_dtype(dtype) or api.is_float_dtype(dtype)
            or api.is_object_dtype(dtype) or api.is_string_dtype(dtype)):
        raise TypeError(f"the score column {score!r} is of dtype {dtype}: scores must be "
                        "numbers")


def _as_dtype(released: pandas.Series, dtype: Any) -> pandas.Series:
    """The released labels in their column's dtype when they convert back
    (they are that column's values); object otherwise, and when a group
    released None (select: no candidate), which stays None rather than
    its dtype's NaN, NaT or NA (a released label is never missing: rows of
    a missing label are skipped)."""
    if pandas.api.types.is_object_dtype(dtype) or released.isna().any():
        return released
    try:
        return released.astype(dtype)
    except (TypeError, ValueError):
        return released


# ------------------------------------------------------------ the workers


def _present(part: pandas.DataFrame, columns: List[Hashable]) -> Any:
    """The rows (a bool array) with a value in every one of columns: a row
    where one is missing for pandas (None, NaN, NaT, NA: isna) is an absent
    record, skipped as pandas' groupby skips missing keys and idxmax NaN,
    and as SQL's aggregates skip NULLs."""
    present = numpy.ones(len(part), dtype=bool)
    for column in columns:
        present &= part[column].notna().to_numpy(dtype=bool)
    return present


def _absent(values: pandas.Series) -> Any:
    """The values (a bool array) that are absent records: None, NA or NaT.
    A float's NaN is a value (Grid.point: the upper end), as in SQL."""
    dtype = values.dtype
    if dtype.kind in "iuf" and not isinstance(dtype, pandas.api.extensions.ExtensionDtype):
        return numpy.zeros(len(values), dtype=bool)
    return values.map(_missing_value, na_action=None).to_numpy(dtype=bool)


def _rows_of(part: pandas.DataFrame, keys: List[Hashable],
             listed: Optional[pandas.Index]) -> Any:
    """The rows (a bool array) of a group: every key present (_present)
    and, with a public list of groups, a listed group."""
    kept = _present(part, keys)
    if listed is not None:
        inside = part[keys[0]].isin(listed) if len(keys) == 1 else \
            pandas.MultiIndex.from_frame(part[keys]).isin(listed)
        kept &= numpy.asarray(inside, dtype=bool)
    return kept


def _prepare(part: pandas.DataFrame, label: Hashable, score: Hashable,
             keys: List[Hashable], listed: Optional[pandas.Index] = None,
             unit: Optional[str] = None, floats: str = "repr") -> pandas.DataFrame:
    """A partition as the aggregation reads it: the group columns, the
    labels (as Python objects) and their members (_member: bytes, which
    group and sort as one type, for the check of repeated labels), indexed
    by the scores (int64, in units of unit: _score_units).  A row not of a
    group (_rows_of) is skipped; a row whose label or score is missing
    stays a row of its group with no candidate (label and member None,
    score 0), so that its group is a group of the data, as in SQL."""
    kept = _rows_of(part, keys, listed)
    part = part if kept.all() else part[kept]
    usable = _present(part, [label, score])
    every = usable.all()
    scores = numpy.zeros(len(part), dtype=numpy.int64)
    scores[usable] = _score_units(part[score] if every else part[score][usable],
                                  f"the score column {score!r}", unit, floats)
    index = pandas.Index(scores, dtype=numpy.int64)
    if keys:
        prepared = part[keys].set_axis(index, axis=0)
    else:
        prepared = pandas.DataFrame({_ALL: numpy.zeros(len(part), dtype=numpy.int8)}, index=index)
    labels = part[label].astype(object).to_numpy()
    if not every:
        labels[~usable] = None
    prepared[_LABEL] = labels
    prepared[_MEMBER] = [None if value is None else _member(value) for value in labels.tolist()]
    return prepared


def _score_units(scores: pandas.Series, what: str, unit: Optional[str], floats: str) -> Any:
    """The scores (none missing) as int64 in whole units of unit (1 when
    None): every number rounded down to whole units and clamped into int64
    (the points of the grid of every int64 unit: a NaN that isna does not
    see, a text, the largest), as SQL's numeric scores; without a unit,
    scores whose points numpy computes exactly (_whole_units) are taken
    without the conversion of each value."""
    if unit is None:
        whole = _whole_units(scores)
        if whole is not None:
            return whole
        unit = "1"
    grid = Grid(units_to_decimal(INT64_MIN, unit), units_to_decimal(INT64_MAX, unit), unit)
    return numpy.asarray(grid.points(_exact_values(scores, floats, what, numbered=False)),
                         dtype=numpy.int64)


def _whole_units(scores: pandas.Series) -> Any:
    """floor(score) of each score as int64 when numpy gives it exactly and
    as the grid does (none missing), else None: integers of a dtype inside
    int64, Python ints inside it, and floats below 2^p in magnitude (p the
    float's precision: there a float's repr and its binary value have one
    floor, and floor is exact)."""
    dtype = getattr(scores.dtype, "numpy_dtype", scores.dtype)
    if dtype.kind in "iu":
        values = scores.to_numpy(dtype=dtype)
        inside = dtype.kind == "i" or values.max(initial=0) <= INT64_MAX
        return values.astype(numpy.int64) if inside else None
    if dtype.kind == "f":
        values = scores.to_numpy(dtype=dtype)
        exact = numpy.abs(values) < 2.0 ** (numpy.finfo(dtype).nmant + 1)  # False for inf
        return numpy.floor(values).astype(numpy.int64) if exact.all() else None
    if dtype.kind != "O":
        return None
    values = scores.tolist()
    if not all(type(value) is int for value in values):  # a bool is no int here
        return None
    try:
        return numpy.array(values, dtype=numpy.int64)
    except OverflowError:  # beyond int64: clamped by the grid
        return None


def _member(label: Any) -> bytes:
    """The label's member (_encode), at most PARTIAL_MEMBER_MAX bytes."""
    member = _encode(label)
    if len(member) > PARTIAL_MEMBER_MAX:
        raise RangeError(f"a label (not shown: a message never holds a value) takes more than "
                         f"PARTIAL_MEMBER_MAX ({PARTIAL_MEMBER_MAX}) bytes encoded")
    return member


def _chunk(labels: Any, params: Params, key: Optional[bytes]) -> pandas.Series:
    """Dask's chunk: a state per group of the partition, as bytes."""
    return labels.agg(functools.partial(_state, params=params, key=key))


def _state(labels: pandas.Series, params: Params, key: Optional[bytes]) -> Optional[bytes]:
    """One group's rows of one partition: each row of a label a candidate,
    all added with one C call (_prepare's rows of no candidate, of the
    label None, are not); None for a group of no row (an unobserved
    category, which the chunk's groupby lists)."""
    if len(labels) == 0:
        return None
    state = Partial(params)
    labels = labels[labels.notna()]
    state.add_many(labels.index.to_numpy(dtype=numpy.int64),
                   [_member(label) for label in labels.tolist()])
    return state.to_bytes(key)


def _combine(states: Any, params: Params, key: Optional[bytes]) -> pandas.Series:
    """Dask's agg (combine): the states of each group merged."""
    return states.agg(functools.partial(_merged, params=params, key=key))


def _merged(states: pandas.Series, params: Params, key: Optional[bytes]) -> Optional[bytes]:
    # NaN for a group of no row: pandas' groupby may list unobserved
    # categories (with several keys, their product) even with observed=True;
    # such a group stays one of no state (None), no group of the data.
    parts = [data for data in states.tolist() if isinstance(data, bytes)]
    if len(parts) <= 1:
        return parts[0] if parts else None
    merged = Partial.from_bytes(params, parts[0], key)
    for data in parts[1:]:
        merged.merge(Partial.from_bytes(params, data, key))
    return merged.to_bytes(key)


def _finalize(states: pandas.Series, params: Params, mechanism: Mechanism,
              key: Optional[bytes]) -> pandas.Series:
    """Dask's finalize: each group's state finished into its label, as a
    1-tuple, (None,) for a group of rows but no candidate; None for a group
    of no row (an unobserved category)."""
    selector = Selector(params)

    def release(data: Any) -> Any:
        if not isinstance(data, bytes):
            return None
        state = Partial.from_bytes(params, data, key)
        return (_decode(state.finish(selector, mechanism)) if len(state) else None,)
    return states.map(release)


def _candidate_codes(part: pandas.DataFrame, column: Hashable, candidates: pandas.Index,
                     keys: List[Hashable],
                     listed: Optional[pandas.Index] = None) -> pandas.DataFrame:
    """A partition's rows per group and candidate, named by its position
    in candidates (-1: none of them).  The raw values are tallied first
    (as value_counts does), then each distinct value looked up once;
    missing values and values that cannot be hashed (none of the
    candidates, which are: a list, a signaling NaN) are counted as no
    value (_marked), and rows not of a group (_rows_of) are skipped.  The
    values are first tallied as they are; only a partition where that fails
    (TypeError: a value that cannot be hashed) is checked value by value, a
    Python call per row that would otherwise cost mode several times
    value_counts' time."""
    kept = _rows_of(part, keys, listed)
    if not kept.all():  # a copy of the partition only when a row is skipped
        part = part[kept]
    values = part[column]
    try:
        tallies = _tallied(part, keys, values, _CODE)
    except TypeError:
        values = values.where(values.map(_hashable, na_action=None).astype(bool), None)
        tallies = _tallied(part, keys, values, _CODE)
    tallies[_CODE] = candidates.get_indexer(tallies[_CODE]).astype(numpy.int64)
    return _marked(tallies, part[values.isna().to_numpy(dtype=bool)] if keys else None, keys,
                   _CODE)


def _grid_points(part: pandas.DataFrame, column: Hashable, ends: GridEnds, floats: str,
                 keys: List[Hashable],
                 listed: Optional[pandas.Index] = None) -> pandas.DataFrame:
    """A partition's rows per group and grid point (one C call for the
    partition's values, read as dpsel.quantile reads them); missing values
    are counted as no value (_marked), and rows not of a group (_rows_of)
    skipped."""
    part = part[_rows_of(part, keys, listed)]
    absent = _absent(part[column])
    kept = part[~absent]
    values = _exact_values(kept[column], floats)
    points = Grid(*ends).points(values) if values else []
    tallies = _tallied(kept, keys, numpy.asarray(points, dtype=numpy.int64), _POINT)
    return _marked(tallies, part[absent] if keys else None, keys, _POINT)


def _marked(tallies: pandas.DataFrame, dropped: Optional[pandas.DataFrame],
            keys: List[Hashable], column: str) -> pandas.DataFrame:
    """tallies (_tallied: rows of a value, _VALUED 1) and the rows dropped
    (of a group, but of no value: missing; None without by) counted per
    group, _VALUED 0: they count for no value, but a group of rows and no
    value stays a group of the data (as SQL's GROUP BY keeps it), released
    on no value, where a group that Dask lists with no rows (an unobserved
    category) is none."""
    tallies[_VALUED] = numpy.ones(len(tallies), dtype=numpy.int8)
    if dropped is None or len(dropped) == 0:
        return tallies
    rows = dropped.groupby(keys, sort=False, observed=True).size().rename(_ROWS).reset_index()
    rows[column] = numpy.zeros(len(rows), dtype=numpy.int64)
    rows[_VALUED] = numpy.zeros(len(rows), dtype=numpy.int8)
    return pandas.concat([tallies, rows], ignore_index=True)


def _tallied(part: pandas.DataFrame, keys: List[Hashable], values: Any,
             column: str) -> pandas.DataFrame:
    """The partition's rows per group (no key missing) and value (named
    column; missing values not counted), in _ROWS; without keys, the one
    group _ALL."""
    if keys:
        keyed = part[keys].reset_index(drop=True)
        keyed[column] = numpy.asarray(values)
        counts = keyed.groupby([*keys, column], sort=False, observed=True).size()
    else:
        counts = pandas.Series(values).value_counts(sort=False)
        counts.index = pandas.MultiIndex.from_arrays(
            [numpy.zeros(len(counts), dtype=numpy.int8), counts.index], names=[_ALL, column])
    return counts.rename(_ROWS).reset_index()


def _each_group(counts: pandas.Series, keys: List[Hashable]
                ) -> Iterator[Tuple[Hashable, NDArray[numpy.int64], NDArray[numpy.int64]]]:
    """(group key, values, rows) for each group of rows in counts (the
    rows per group and value that _counts made, in the groups' order):
    its values and their rows, those of no value left out."""
    index = counts.index
    group_of = index.droplevel([-2, -1]) if len(keys) > 1 else index.get_level_values(0)
    valued = index.get_level_values(-2).to_numpy() == 1
    values = index.get_level_values(-1).to_numpy(dtype=numpy.int64)
    rows = counts.to_numpy(dtype=numpy.int64)
    starts = numpy.flatnonzero(numpy.r_[True, group_of[1:] != group_of[:-1]]) \
        if len(index) else numpy.zeros(0, dtype=numpy.int64)
    ends = numpy.r_[starts[1:], len(index)]
    for start, end in zip(starts.tolist(), ends.tolist()):
        if rows[start:end].any():
            kept = valued[start:end]
            yield group_of[start], values[start:end][kept], rows[start:end][kept]


def _group_index(keys: List[Hashable], groups: List[Any]) -> pandas.Index:
    if len(keys) > 1:
        return pandas.MultiIndex.from_tuples(groups, names=keys)
    return pandas.Index(groups, name=keys[0])


def _release_each(counts: pandas.Series, keys: List[Hashable], listed: Optional[pandas.Index],
                  params: Params, release: Any) -> pandas.Series:
    """release(selector, values, rows) of each group, from its rows per
    value (_each_group), with one Selector for params: of each listed
    group in the list's order, one of no row with no values; without a
    list, of each group of rows."""
    selector, present = Selector(params), list(_each_group(counts, keys))
    if listed is None:
        index = _group_index(keys, [group for group, _, _ in present])
        return pandas.Series([release(selector, values, rows) for _, values, rows in present],
                             index=index, dtype=numpy.int64)
    at = _group_index(keys, [group for group, _, _ in present]).get_indexer(listed) \
        if present else numpy.full(len(listed), -1)
    none = numpy.zeros(0, dtype=numpy.int64)
    released = [release(selector, *present[i][1:]) if i >= 0 else release(selector, none, none)
                for i in at.tolist()]
    return pandas.Series(released, index=listed, dtype=numpy.int64)


def _release_mode(selector: Selector, codes: Any, rows: Any, mechanism: Mechanism,
                  candidates: int) -> int:
    """A group's released candidate (its position) from its rows per
    candidate (codes: positions, -1 for none): one C call."""
    known = codes >= 0
    scores = numpy.zeros(candidates, dtype=numpy.int64)
    scores[codes[known]] = rows[known]
    return int(selector.select(scores, mechanism))  # a position: scores are an array


def _release_quantile(selector: Selector, points: Any, rows: Any, mechanism: Mechanism,
                      fraction: Any, ends: GridEnds) -> int:
    """A group's released grid point from its rows per point: one C
    call."""
    return quantile_select(selector, fraction.a, fraction.b, numpy.repeat(points, rows),
                           Grid(*ends), mechanism=mechanism)
