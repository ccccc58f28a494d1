# SPDX-License-Identifier: ISC
"""Selections over Dask DataFrames: one release per group, where the data lives.

    >>> import dpsel.dask
    >>> best = dpsel.dask.select(counts, label="page", score="views", epsilon="1",
    ...                          by="day", monotonic=True)          # doctest: +SKIP

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
from typing import Any, Hashable, List, Optional, Sequence, Union

try:
    import dask.dataframe as dd
    import numpy
    import pandas
except ImportError as _missing:  # pragma: no cover - the tests run with dask
    raise ImportError(f"dpsel.dask needs dask.dataframe, numpy and pandas (Debian: python3-dask): "
                      f"{_missing}") from _missing

from ._enums import Mechanism, MechanismArg, mechanism as _mechanism
from ._errors import EmptyError, RangeError
from ._lib import PARTIAL_MEMBER_MAX
from ._params import Number, Params
from ._partial import Partial, _key
from ._scores import as_scores
from ._select import Selector

__all__ = ["select"]

# Columns of the frame the aggregation reads: the labels (the scores are its
# index) and, without `by`, one group holding every row.
_LABEL = "__dpsel_label__"
_ALL = "__dpsel_all__"

# A member is a tag byte and the label: a str's UTF-8 bytes, else its pickle.
_STR, _PICKLE = b"s", b"p"

Columns = Union[Hashable, List[Hashable]]


def _encode(label: Any) -> bytes:
    """The member that names a row's label in the partial states: ``b"s"``
    and the UTF-8 bytes of a str (lone surrogates kept), else ``b"p"`` and
    the label's pickle (protocol 4).  _decode gives the label back, equal
    and of the same type.  Labels are never compared or merged: two rows
    with one label are two candidates."""
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
    raise ValueError(f"not a label encoded by dpsel.dask: {member[:16]!r}")


def select(frame: dd.DataFrame, *, label: Hashable, score: Hashable, epsilon: Number,
           mechanism: MechanismArg = "pf", by: Optional[Columns] = None, sensitivity: int = 1,
           monotonic: bool = False, split_every: Optional[int] = None,
           key: Optional[bytes] = None) -> Any:
    """One epsilon-DP selection among the rows of a Dask DataFrame, or one
    per group: computed (with the current Dask scheduler: a
    ``distributed.Client``'s cluster if one is active) and returned.

    - ``label``, ``score``: columns.  Every row is one candidate: its label
      names it and its score (higher is better) rates it.  Rows are never
      merged: two rows with one label are two candidates, and the label is
      then released with the sum of their probabilities (aggregate the
      scores per label first, e.g. with ``groupby(...).size()``).  A label
      is carried exactly, as the member of its row: a str as its UTF-8
      bytes, any other value (an int, a Timestamp, a tuple) as its pickle,
      at most PARTIAL_MEMBER_MAX bytes; the release is that value again.
    - ``epsilon``, ``sensitivity``, ``monotonic``: as
      :meth:`dpsel.Params.from_epsilon` (the default gap cap).
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
    the scores of its group's rows, whatever the partitions.  Missing
    values are refused rather than dropped (ValueError: a label, score or
    group key that is None, NaN, NaT or NA), as are scores that are not
    integers (TypeError; floats only when each is exactly an integer, as
    for Selector.select) or outside int64 (RangeError), and labels over
    PARTIAL_MEMBER_MAX bytes encoded (RangeError).
    Columns that do not exist are a KeyError, parameters as for Params
    (EpsilonError, RangeError), and EmptyError when there is no row at all
    (without ``by``).  Checks on values run in the workers, and their
    exceptions reach the caller.

    Privacy: the scores must have the sensitivity given (one person changes
    each score by at most ``sensitivity``; monotonic: all in one direction);
    the groups and the labels must not depend on the data (take them from
    public lists).  When one person's data lies in one group only, the
    releases of the groups are epsilon-DP together; otherwise their
    epsilons add up (dpsel.Accountant).
    """
    if not isinstance(frame, dd.DataFrame):
        raise TypeError(f"frame must be a dask.dataframe.DataFrame, not {type(frame).__name__}"
                        " (dask.dataframe.from_pandas makes one from a pandas DataFrame)")
    groups = _by_columns(by)
    _check_columns(frame, [label, score, *groups])
    if _LABEL in groups or _ALL in groups:
        raise ValueError(f"a group column may not be named {_LABEL!r} or {_ALL!r}")
    _check_score_dtype(frame._meta[score].dtype, score)
    params = Params.from_epsilon(epsilon, sensitivity, monotonic)
    chosen = _mechanism(mechanism)
    key = None if key is None else _key(key)

    keys = groups or [_ALL]
    prepare = functools.partial(_prepare, label=label, score=score, groups=groups)
    candidates = frame.map_partitions(prepare, meta=prepare(frame._meta)).clear_divisions()
    released = (candidates.groupby(keys if len(keys) > 1 else keys[0], sort=True, observed=True)
                [_LABEL].agg(_aggregation(params, chosen, key), split_every=split_every)).compute()
    released.name = label
    # A group of no row (an unobserved category, which pandas may still
    # group) releases nothing: None, never a label (missing ones are refused).
    released = released[released.notna()]
    if not groups:
        if len(released) == 0:
            raise EmptyError("dpsel.dask.select: the frame has no rows")
        return released.iloc[0]
    return _as_dtype(released, frame._meta[label].dtype)


def _aggregation(params: Params, mechanism: MechanismArg = "pf",
                 key: Optional[bytes] = None) -> dd.Aggregation:
    """The ``dask.dataframe.Aggregation`` that select runs: for a column of
    labels (object dtype) whose index holds the rows' int64 scores, grouped
    by the group columns, it gives each group's released label.  chunk:
    a state per group of a partition, each row added (its score, and its
    label as _encode's member), as bytes; combine: a group's states
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


# ------------------------------------------------------------- the client


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
    """Integer dtypes (numpy's and pandas' nullable ones), floats and
    objects pass here; their values are checked in the workers."""
    api = pandas.api.types
    if api.is_bool_dtype(dtype):
        raise TypeError(f"the score column {score!r} is of dtype {dtype}: scores must be "
                        "integers (give .astype(int) to mean 1 and 0)")
    if not (api.is_integer_dtype(dtype) or api.is_float_dtype(dtype)
            or api.is_object_dtype(dtype)):
        raise TypeError(f"the score column {score!r} is of dtype {dtype}: scores must be "
                        "integers")


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


def _missing(values: pandas.Series, what: str) -> None:
    missing = values.isna()
    if missing.any():
        raise ValueError(f"{what} has a missing value (None, NaN, NaT or NA) at index "
                         f"{missing.idxmax()!r}: refused rather than dropped")


def _prepare(part: pandas.DataFrame, label: Hashable, score: Hashable,
             groups: List[Hashable]) -> pandas.DataFrame:
    """A partition as the aggregation reads it: the group columns and the
    labels (as Python objects), indexed by the scores (int64)."""
    for group in groups:
        _missing(part[group], f"the group column {group!r}")
    labels = part[label]
    _missing(labels, f"the label column {label!r}")
    scores = part[score]
    _missing(scores, f"the score column {score!r}")
    if isinstance(scores.dtype, pandas.api.extensions.ExtensionDtype) and hasattr(
            scores.dtype, "numpy_dtype"):
        values = scores.to_numpy(dtype=scores.dtype.numpy_dtype)  # no NA left
    else:
        values = scores.to_numpy()
    index = pandas.Index(numpy.asarray(as_scores(values, f"the score column {score!r}").keep,
                                       dtype=numpy.int64), dtype=numpy.int64)
    if groups:
        prepared = part[groups].set_axis(index, axis=0)
    else:
        prepared = pandas.DataFrame({_ALL: numpy.zeros(len(part), dtype=numpy.int8)}, index=index)
    prepared[_LABEL] = labels.astype(object).to_numpy()
    return prepared


def _chunk(labels: Any, params: Params, key: Optional[bytes]) -> pandas.Series:
    """Dask's chunk: a state per group of the partition, as bytes."""
    return labels.agg(functools.partial(_state, params=params, key=key))


def _state(labels: pandas.Series, params: Params, key: Optional[bytes]) -> bytes:
    """One group's rows of one partition: each row a candidate."""
    state = Partial(params)
    for score, label in zip(labels.index.tolist(), labels.tolist()):
        member = _encode(label)
        if len(member) > PARTIAL_MEMBER_MAX:
            raise RangeError(f"the label {str(label)[:40]!r}... takes {len(member)} bytes "
                             f"encoded, more than PARTIAL_MEMBER_MAX ({PARTIAL_MEMBER_MAX})")
        state.add(score, member)
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
