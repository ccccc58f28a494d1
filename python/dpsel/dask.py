# SPDX-License-Identifier: ISC
"""Selections over Dask DataFrames: one release per group, where the data lives.

    >>> import dpsel.dask
    >>> top = dpsel.dask.mode(views, "page", pages, epsilon="1", by="day")   # doctest: +SKIP
    >>> p95 = dpsel.dask.quantile(latencies, "ms", "0.95", 0, 1000, "1",
    ...                           by="day")                           # doctest: +SKIP
    >>> best = dpsel.dask.select(counts, label="page", score="views", epsilon="1",
    ...                          by="day", monotonic=True)          # doctest: +SKIP

:func:`mode` and :func:`quantile` read raw rows (one per record): each
partition counts its rows per group and candidate (mode) or grid point
(quantile) with pandas, Dask sums the counts, and one task releases each
group from its counts with one C call (counts never reach the driver).

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
from typing import Any, Hashable, List, Optional, Sequence, Union

try:
    import dask
    import dask.dataframe as dd
    import numpy
    import pandas
except ImportError as _missing:  # pragma: no cover - the tests run with dask
    raise ImportError(f"dpsel.dask needs dask.dataframe, numpy and pandas (Debian: python3-dask): "
                      f"{_missing}") from _missing

from ._enums import Mechanism, MechanismArg, mechanism as _mechanism
from ._easy import _candidates, _exact_values, _hashable, _missing as _missing_value
from ._errors import EmptyError, RangeError
from ._lib import PARTIAL_MEMBER_MAX, QUANTILE_EM_GRID_MAX
from ._convert import INT64_MAX, INT64_MIN
from ._params import Number, Params, in_units
from ._partial import Partial, _key
from ._quantile import Grid, quantile_fraction, quantile_select
from ._select import Selector
from ._tasks import task_params, units_to_decimal

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
# select's labels as members (_encode), to find a label twice in a group.
_MEMBER = "__dpsel_member__"
_RESERVED = (_LABEL, _ALL, _CODE, _POINT, _ROWS, _MEMBER)

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
           mechanism: MechanismArg = "pf", by: Optional[Columns] = None, sensitivity: Number = 1,
           monotonic: bool = False, resolution: Any = None, floats: str = "repr",
           split_every: Optional[int] = None, key: Optional[bytes] = None) -> Any:
    """One epsilon-DP selection among the rows of a Dask DataFrame, or one
    per group: computed (with the current Dask scheduler: a
    ``distributed.Client``'s cluster if one is active) and returned.

    - ``label``, ``score``: columns.  Every row is one candidate: its label
      names it and its score (higher is better) rates it.  A label may
      appear once per group: two rows with one label (equal and of one
      type: their members below are equal) are refused, ValueError naming the label and its group,
      and nothing is released (rows of raw records: :func:`mode` counts
      them; or aggregate the scores per label first).  A label
      is carried exactly, as the member of its row: a str as its UTF-8
      bytes, any other value (an int, a Timestamp, a tuple) as its pickle,
      at most PARTIAL_MEMBER_MAX bytes; the release is that value again.
    - ``epsilon``, ``sensitivity``, ``monotonic``, ``resolution``: as
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
    - ``mechanism``: "pf" (permute-and-flip) or "em" (the exponential
      mechanism).
    - ``by``: None for one selection among all rows, returning the released
      label; a column or a list of columns for one selection per group,
      returning a pandas Series of released labels (named as the label
      column, of its dtype where the labels convert back to it) indexed by
      the groups, in sorted order.  Only groups with rows are released.
    - ``split_every``: how many states Dask's reduction tree merges at
      once (Dask's default, 8, when None).
    - ``key``: None, or 16 to 64 secret bytes: the states then travel
      between tasks sealed with a MAC keyed with it (``Partial.to_bytes(key=)``)
      instead of a checksum, so that a process without the key cannot forge
      one that a worker would merge.  The key travels to the workers with
      the task graph.

    Each release has exactly the distribution of ``Selector.select`` on
    the scores of its group's rows, whatever the partitions.  A row whose
    label, score or group key is missing for pandas (None, NaN, NaT, NA:
    isna) is skipped, as SQL's aggregates skip NULLs: the row is an absent
    record, and a NaN score is pandas' "no value" (the mean of no rows),
    SQL's NULL.  Only what is not a number at all is refused: a score
    that is a text of no number (DecimalError) or a bool (TypeError), and
    labels over PARTIAL_MEMBER_MAX bytes encoded (RangeError).
    Columns that do not exist are a KeyError, parameters as for Params
    (EpsilonError, RangeError), and EmptyError when no row is left
    (without ``by``; SQL returns NULL).  Column names and dtypes are
    checked on the driver; values are read in the workers, and their
    exceptions reach the caller.

    Privacy: the scores must have the sensitivity given (one person changes
    each score by at most ``sensitivity``; monotonic: all in one direction);
    the groups and the labels must not depend on the data (take them from
    public lists).  When one person's data lies in one group only, the
    releases of the groups are epsilon-DP together; otherwise their
    epsilons add up (dpsel.Accountant).
    """
    groups = _checked_groups(frame, by, [label, score])
    decimals = Params.from_epsilon(epsilon, sensitivity, monotonic, resolution)
    _check_score_dtype(frame._meta[score].dtype, score)
    _exact_values([], floats)  # on the driver: floats other than "repr" or "exact" refused
    params, chosen = in_units(decimals), _mechanism(mechanism)
    key = None if key is None else _key(key)

    keys = groups or [_ALL]
    prepare = functools.partial(_prepare, label=label, score=score, groups=groups,
                                unit=decimals.resolution, floats=floats)
    candidates = frame.map_partitions(prepare, meta=prepare(frame._meta)).clear_divisions()
    released = (candidates.groupby(keys if len(keys) > 1 else keys[0], sort=True, observed=True)
                [_LABEL].agg(_aggregation(params, chosen, key), split_every=split_every))
    # Rows per group and label, computed with the releases (one pass over
    # the partitions): a label twice in a group refuses the whole call.
    repeated = candidates.groupby([*keys, _MEMBER], sort=False, observed=True).size(
        split_every=split_every)
    released, repeated = dask.compute(released, repeated[repeated > 1])
    _refuse_repeated_labels(repeated, label, groups)
    released.name = label
    # A group of no row (an unobserved category, which pandas may still
    # group) releases nothing: None, never a label (missing ones are skipped).
    released = released[released.notna()]
    if not groups:
        if len(released) == 0:
            raise EmptyError("dpsel.dask.select: the frame has no rows with a label and a "
                             "score")
        return released.iloc[0]
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


def mode(frame: dd.DataFrame, column: Hashable, candidates: Sequence[Any], epsilon: Number,
         by: Optional[Columns] = None, mechanism: MechanismArg = "pf",
         split_every: Optional[int] = None) -> Any:
    """The most common of the public ``candidates`` among the values of
    ``column`` (one row per record), epsilon-DP, per group of ``by`` (as
    :func:`select`: a pandas Series indexed by the groups with rows, or one
    value without ``by``).  Each candidate's score is its number of rows in
    the group (0 for none; sensitivity 1, monotonic: task_params("mode")),
    and the release has exactly the distribution of
    ``Selector.select(counts, mechanism)``, as :func:`dpsel.mode`.

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
    and the groups must not depend on the data (public lists)."""
    groups = _checked_groups(frame, by, [column])
    labels = _candidates(candidates)
    typed = _candidates_of_dtype(labels, frame._meta[column].dtype, column)
    params = Params.from_epsilon(epsilon, *task_params("mode"))
    chosen = _mechanism(mechanism)
    code = functools.partial(_candidate_codes, column=column, candidates=typed, groups=groups)
    counts = _counts(frame.map_partitions(code, meta=code(frame._meta)).clear_divisions(),
                     groups, _CODE, split_every)
    release = functools.partial(_release_modes, keys=groups or [_ALL], params=params,
                                mechanism=chosen, candidates=len(labels))
    positions = counts.map_partitions(release, meta=release(counts._meta)).compute()
    released = pandas.Series([labels[i] for i in positions], index=positions.index,
                             name=column, dtype=object)
    return _one_or_series(released, groups, "mode", frame._meta[column].dtype)


def quantile(frame: dd.DataFrame, column: Hashable, q: Any, lower: Any, upper: Any,
             epsilon: Number, by: Optional[Columns] = None, resolution: Any = None,
             mechanism: MechanismArg = "em", floats: str = "repr",
             split_every: Optional[int] = None) -> Any:
    """The q-quantile (0 < q < 1, a decimal: "0.95") of the values of
    ``column`` (one row per record), epsilon-DP, per group of ``by`` (as
    :func:`select`): a point of the grid ``lower, lower + resolution, ...,
    upper`` in the values' own unit (resolution None: 10^-d, d the larger
    number of fraction digits of the ends), chosen with the score of
    ``dpsel quantile`` (sensitivity max(a, b - a) for q = a / b), as an
    exact Decimal; the same release as :func:`dpsel.quantile` on the
    group's values.

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
    QUANTILE_EM_GRID_MAX points: use "pf" for finer ones)."""
    groups = _checked_groups(frame, by, [column])
    _check_value_dtype(frame._meta[column].dtype, column)
    grid = Grid(lower, upper, resolution)
    fraction = quantile_fraction(q)
    params = Params.from_epsilon(epsilon, fraction.sensitivity)
    chosen = _mechanism(mechanism)
    if chosen == Mechanism.EM and grid.upper - grid.lower + 1 > QUANTILE_EM_GRID_MAX:
        raise RangeError("mechanism", fix=(
            f"EM takes grids of at most 2^42 - 1 points, not {grid.upper - grid.lower + 1}: "
            "give mechanism='pf' or a coarser resolution"))
    ends = (grid.value(grid.lower), grid.value(grid.upper), grid.resolution)
    _exact_values([], floats)  # on the driver: floats other than "repr" or "exact" refused
    point = functools.partial(_grid_points, column=column, ends=ends, floats=floats,
                              groups=groups)
    counts = _counts(frame.map_partitions(point, meta=point(frame._meta)).clear_divisions(),
                     groups, _POINT, split_every)
    release = functools.partial(_release_quantiles, keys=groups or [_ALL], params=params,
                                mechanism=chosen, fraction=fraction, ends=ends)
    points = counts.map_partitions(release, meta=release(counts._meta)).compute()
    released = pandas.Series([Decimal(grid.value(p)) for p in points], index=points.index,
                             name=column, dtype=object)
    return _one_or_series(released, groups, "quantile", None)


# ------------------------------------------------------------- the client


def _checked_groups(frame: dd.DataFrame, by: Optional[Columns],
                    columns: List[Hashable]) -> List[Hashable]:
    """The group columns of by, after the frame and every column named
    (columns and the groups) are checked."""
    if not isinstance(frame, dd.DataFrame):
        raise TypeError(f"frame must be a dask.dataframe.DataFrame, not {type(frame).__name__}"
                        " (dask.dataframe.from_pandas makes one from a pandas DataFrame)")
    groups = _by_columns(by)
    _check_columns(frame, [*columns, *groups])
    reserved = [name for name in groups if name in _RESERVED]
    if reserved:
        raise ValueError(f"a group column may not be named {reserved[0]!r} (dpsel.dask's own "
                         "columns: rename it)")
    return groups


def _counts(tallies: dd.DataFrame, groups: List[Hashable], column: str,
            split_every: Optional[int]) -> dd.Series:
    """The partitions' tallies (_tallied) summed: the rows per group and
    value of column, in one partition (split_out=1: each group's counts in
    one task), sorted."""
    return tallies.groupby([*(groups or [_ALL]), column], sort=True, observed=True)[_ROWS].sum(
        split_every=split_every, split_out=1)


def _one_or_series(released: pandas.Series, groups: List[Hashable], what: str,
                   dtype: Any) -> Any:
    """The releases indexed by the groups, or the one release without by."""
    if not groups:
        if len(released) == 0:
            raise EmptyError(f"dpsel.dask.{what}: the frame has no rows")
        return released.iloc[0]
    return released if dtype is None else _as_dtype(released, dtype)


def _refuse_repeated_labels(repeated: pandas.Series, label: Hashable,
                            groups: List[Hashable]) -> None:
    """ValueError when a label is found on several rows of one group
    (repeated: rows per group and member, those above 1), naming the
    column alone: the label, its rows and its group are the data's."""
    if len(repeated) == 0:
        return
    columns = [*groups, label]
    raise ValueError(
        f"the label column {label!r} holds a label on more than one row"
        f"{' of a group' if groups else ''} (not shown: a message never holds a value; "
        f"frame.groupby({columns!r}).size() lists the rows per label): each row is one "
        "candidate, whose label must be distinct; for rows of raw records use "
        "dpsel.dask.mode, which counts them, or sum the scores per label first")


def _candidates_of_dtype(labels: List[Any], dtype: Any, column: Hashable) -> Any:
    """The candidates as values of the column's dtype (for an object,
    string or categorical column, as they are); TypeError naming the first
    that is not one, exactly."""
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
            raise TypeError(f"the column {column!r} is of dtype {dtype}, and the candidate "
                            f"{label!r} ({type(label).__name__}) is not a value of it: give "
                            f"candidates of the column's dtype, or .astype(str) the column "
                            "for text candidates")
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
    (they are that column's values); object otherwise."""
    if pandas.api.types.is_object_dtype(dtype):
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


def _prepare(part: pandas.DataFrame, label: Hashable, score: Hashable,
             groups: List[Hashable], unit: Optional[str] = None,
             floats: str = "repr") -> pandas.DataFrame:
    """A partition as the aggregation reads it: the group columns, the
    labels (as Python objects) and their members (_member: bytes, which
    group and sort as one type, for the check of repeated labels), indexed
    by the scores (int64, in units of unit: _score_units).  A row whose
    group key, label or score is missing is skipped (_present)."""
    present = _present(part, [*groups, label, score])
    part = part if present.all() else part[present]
    labels, scores = part[label], part[score]
    index = pandas.Index(_score_units(scores, f"the score column {score!r}", unit, floats),
                         dtype=numpy.int64)
    if groups:
        prepared = part[groups].set_axis(index, axis=0)
    else:
        prepared = pandas.DataFrame({_ALL: numpy.zeros(len(part), dtype=numpy.int8)}, index=index)
    prepared[_LABEL] = labels.astype(object).to_numpy()
    prepared[_MEMBER] = [_member(label) for label in prepared[_LABEL].tolist()]
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


def _state(labels: pandas.Series, params: Params, key: Optional[bytes]) -> bytes:
    """One group's rows of one partition: each row a candidate, all added
    with one C call."""
    state = Partial(params)
    state.add_many(labels.index.to_numpy(dtype=numpy.int64),
                   [_member(label) for label in labels.tolist()])
    return state.to_bytes(key)


def _combine(states: Any, params: Params, key: Optional[bytes]) -> pandas.Series:
    """Dask's agg (combine): the states of each group merged."""
    return states.agg(functools.partial(_merged, params=params, key=key))


def _merged(states: pandas.Series, params: Params, key: Optional[bytes]) -> bytes:
    # NaN for a group of no row: pandas' groupby may list unobserved
    # categories (with several keys, their product) even with observed=True.
    parts = [data for data in states.tolist() if isinstance(data, bytes)]
    if len(parts) == 1:
        return parts[0]
    merged = Partial.from_bytes(params, parts[0], key) if parts else Partial(params)
    for data in parts[1:]:
        merged.merge(Partial.from_bytes(params, data, key))
    return merged.to_bytes(key)


def _finalize(states: pandas.Series, params: Params, mechanism: Mechanism,
              key: Optional[bytes]) -> pandas.Series:
    """Dask's finalize: each group's state finished into its label (None
    for a group of no row: an unobserved category)."""
    selector = Selector(params)

    def release(data: Any) -> Any:
        if not isinstance(data, bytes):
            return None
        state = Partial.from_bytes(params, data, key)
        return _decode(state.finish(selector, mechanism)) if len(state) else None
    return states.map(release)


def _candidate_codes(part: pandas.DataFrame, column: Hashable, candidates: pandas.Index,
                     groups: List[Hashable]) -> pandas.DataFrame:
    """A partition's rows per group and candidate, named by its position
    in candidates (-1: none of them).  The raw values are tallied first
    (as value_counts does), then each distinct value looked up once;
    missing values, values that cannot be hashed (none of the candidates,
    which are: a list, a signaling NaN) and rows of a missing group key are
    dropped.  The values are first tallied as they are; only a partition
    where that fails (TypeError: a value that cannot be hashed) is checked
    value by value, a Python call per row that would otherwise cost mode
    several times value_counts' time."""
    present = _present(part, groups)
    if not present.all():  # a copy of the partition only when a key is missing
        part = part[present]
    values = part[column]
    try:
        tallies = _tallied(part, groups, values, _CODE)
    except TypeError:
        values = values.where(values.map(_hashable, na_action=None).astype(bool), None)
        tallies = _tallied(part, groups, values, _CODE)
    tallies[_CODE] = candidates.get_indexer(tallies[_CODE]).astype(numpy.int64)
    return tallies


def _grid_points(part: pandas.DataFrame, column: Hashable, ends: tuple, floats: str,
                 groups: List[Hashable]) -> pandas.DataFrame:
    """A partition's rows per group and grid point (one C call for the
    partition's values, read as dpsel.quantile reads them), rows of a
    missing value or group key skipped."""
    kept = part[_present(part, groups) & ~_absent(part[column])]
    values = _exact_values(kept[column], floats)
    points = Grid(*ends).points(values) if values else []
    return _tallied(kept, groups, numpy.asarray(points, dtype=numpy.int64), _POINT)


def _tallied(part: pandas.DataFrame, groups: List[Hashable], values: Any,
             column: str) -> pandas.DataFrame:
    """The partition's rows per group (no key missing) and value (named
    column; missing values not counted), in _ROWS; without groups, the one
    group _ALL."""
    if groups:
        keyed = part[groups].reset_index(drop=True)
        keyed[column] = numpy.asarray(values)
        counts = keyed.groupby([*groups, column], sort=False, observed=True).size()
    else:
        counts = pandas.Series(values).value_counts(sort=False)
        counts.index = pandas.MultiIndex.from_arrays(
            [numpy.zeros(len(counts), dtype=numpy.int8), counts.index], names=[_ALL, column])
    return counts.rename(_ROWS).reset_index()


def _each_group(counts: pandas.Series, keys: List[Hashable]):
    """(group key, values, rows) for each group of counts, the rows per
    group and value that _counts made, in the groups' order."""
    index = counts.index
    group_of = index.droplevel(-1) if len(keys) > 1 else index.get_level_values(0)
    values = index.get_level_values(-1).to_numpy(dtype=numpy.int64)
    rows = counts.to_numpy(dtype=numpy.int64)
    starts = numpy.flatnonzero(numpy.r_[True, group_of[1:] != group_of[:-1]]) \
        if len(index) else numpy.zeros(0, dtype=numpy.int64)
    ends = numpy.r_[starts[1:], len(index)]
    for start, end in zip(starts.tolist(), ends.tolist()):
        yield group_of[start], values[start:end], rows[start:end]


def _group_index(keys: List[Hashable], groups: List[Any]) -> pandas.Index:
    if len(keys) > 1:
        return pandas.MultiIndex.from_tuples(groups, names=keys)
    return pandas.Index(groups, name=keys[0])


def _release_modes(counts: pandas.Series, keys: List[Hashable], params: Params,
                   mechanism: Mechanism, candidates: int) -> pandas.Series:
    """Each group's released candidate (its position) from its rows per
    candidate: one C call per group."""
    selector, groups, released = Selector(params), [], []
    for group, codes, rows in _each_group(counts, keys):
        known = codes >= 0
        scores = numpy.zeros(candidates, dtype=numpy.int64)
        scores[codes[known]] = rows[known]
        groups.append(group)
        released.append(selector.select(scores, mechanism))
    return pandas.Series(released, index=_group_index(keys, groups), dtype=numpy.int64)


def _release_quantiles(counts: pandas.Series, keys: List[Hashable], params: Params,
                       mechanism: Mechanism, fraction: Any, ends: tuple) -> pandas.Series:
    """Each group's released grid point from its rows per point: one C
    call per group."""
    selector, grid, groups, released = Selector(params), Grid(*ends), [], []
    for group, points, rows in _each_group(counts, keys):
        groups.append(group)
        released.append(quantile_select(selector, fraction.a, fraction.b,
                                        numpy.repeat(points, rows), grid, mechanism=mechanism))
    return pandas.Series(released, index=_group_index(keys, groups), dtype=numpy.int64)
