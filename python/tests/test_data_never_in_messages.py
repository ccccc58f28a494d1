# SPDX-License-Identifier: ISC
"""No message carries a value from the data.

Every public call of dpsel and dpsel.dask that takes data (scores, values,
counts, bids, labels of rows, members, grid points, serialised states) is
given records of every odd kind, each holding a sentinel (the digits 7731
or 987654, or the word SENTINEL): numbers that are no integers, huge ones,
Decimal NaNs with a payload, fractions, complex numbers, texts, bytes,
objects whose repr is the sentinel, durations, dates, nested containers,
missing values and booleans among them, as lists, numpy arrays (of every
dtype, masked, two-dimensional), pandas Series (string, categorical,
nullable) and mappings.  Whatever the call does (a release, or an error of
any class), the sentinel must not appear in the exception's message, repr,
args, dpsel fields (detail, fix), notes, nor in any exception of its
__cause__ / __context__ chain, nor in a warning, a log record, or anything
written on stdout or stderr (the C library included).  The public
arguments (epsilon, bounds, q, candidates, k) never hold the sentinel, so
whatever they show is allowed."""

import datetime
import decimal
import fractions
import logging
import warnings

import pytest

import dpsel
import dpsel.dask

np = pytest.importorskip("numpy")
pandas = pytest.importorskip("pandas")

MARKERS = ("7731", "987654", "SENTINEL")
TEXT = "SENTINEL-7731"
HUGE = 987654 * 10 ** 40 + 7731


class Sentinel:
    """A record whose every text form is the sentinel."""

    def __repr__(self):
        return "Sentinel(SENTINEL-7731)"

    __str__ = __repr__

    def __format__(self, spec):
        return repr(self)


class SentinelInt(int):
    """An int subclass whose repr is the sentinel (its value is 3)."""

    def __repr__(self):
        return "SentinelInt(7731)"

    __str__ = __repr__


# Records one by one, for the calls that take one (a stream's score, a
# partial's member, a grid point) and to build the sequences below.
RECORDS = {
    "fraction-float": 987654.321,
    "integral-float": 9876547731.0,
    "huge-float": 9.876547731e300,
    "huge-int": HUGE,
    "huge-negative-int": -HUGE,
    "int64-plus-one": 9876547731 * 10 ** 9,
    "decimal-fraction": decimal.Decimal("987654.7731"),
    "decimal-huge": decimal.Decimal("9876547731E400"),
    "decimal-nan-payload": decimal.Decimal("NaN7731"),
    "decimal-snan-payload": decimal.Decimal("sNaN7731"),
    "fraction": fractions.Fraction(9876547731, 7),
    "complex": complex(987654, 7731),
    "text": TEXT,
    "numeric-text": "987654.7731",
    "text-with-nul": "987654\x007731",
    "lone-surrogate": "SENTINEL\udc807731",
    "bytes": b"SENTINEL-7731",
    "bytearray": bytearray(b"SENTINEL-7731"),
    "object": Sentinel(),
    "int-subclass": SentinelInt(3),
    "timedelta": datetime.timedelta(days=7731),
    "date": datetime.date(7731, 1, 1),
    "datetime": datetime.datetime(7731, 1, 1),
    "numpy-int64": np.int64(9876547731),
    "numpy-uint64": np.uint64(9876547731 * 10 ** 9),
    "numpy-float": np.float64(987654.321),
    "numpy-datetime": np.datetime64("7731-01-01"),
    "numpy-timedelta": np.timedelta64(7731, "D"),
    "numpy-str": np.str_(TEXT),
    "pandas-timedelta": pandas.Timedelta(days=7731),
    "list": [9876547731],
    "dict": {TEXT: 9876547731},
    "set": {9876547731},
    "tuple": (TEXT, 987654),
}

# Sequences of records: a sentinel record after a good one, among missing
# values and booleans, and containers of every kind.
SEQUENCES = {f"list-{name}": [1, record] for name, record in RECORDS.items()}
SEQUENCES.update({
    "sentinel-first": [987654.321, 1, None, True, float("nan")],
    "missing-and-bools": [9876547731, None, True, False, float("nan"), pandas.NA],
    "tuple": (1, 987654.321),
    "generator": (x for x in [1, TEXT]),
    "set-of-records": {1, 987654.321},
    "dict-values": {"a": 1, TEXT: 987654.321},
    "dict-text-values": {"a": 1, "b": TEXT},
    "whole-text": TEXT,
    "whole-bytes": b"SENTINEL-7731",
    "whole-number": 987654.321,
    "whole-object": Sentinel(),
    "numpy-float": np.array([1.0, 987654.321]),
    "numpy-int": np.array([1, 9876547731]),
    "numpy-uint64": np.array([1, 9876547731 * 10 ** 9], dtype=np.uint64),
    "numpy-bool": np.array([True, False]),
    "numpy-str": np.array(["1", TEXT]),
    "numpy-bytes": np.array([b"1", b"SENTINEL-7731"]),
    "numpy-object": np.array([1, Sentinel(), HUGE], dtype=object),
    "numpy-complex": np.array([1, complex(987654, 7731)]),
    "numpy-datetime": np.array(["2001-01-01", "7731-01-01"], dtype="datetime64[D]"),
    "numpy-timedelta": np.array([1, 7731], dtype="timedelta64[D]"),
    "numpy-2d": np.array([[1, 9876547731], [2, 3]]),
    "numpy-masked": np.ma.masked_array([1, 9876547731], mask=[False, True]),
    "numpy-nan": np.array([1.0, np.nan, 987654.321]),
    "series-float": pandas.Series([1.0, 987654.321]),
    "series-int-labels": pandas.Series([1, 9876547731], index=["a", TEXT]),
    "series-sentinel-index": pandas.Series([1, 2], index=[TEXT, "SENTINEL-other"]),
    "series-string": pandas.Series(["1", TEXT], dtype="string"),
    "series-category": pandas.Series([TEXT, "a"], dtype="category"),
    "series-nullable": pandas.Series([1, None, 9876547731], dtype="Int64"),
    "series-object": pandas.Series([1, Sentinel(), decimal.Decimal("NaN7731")], dtype=object),
    "series-timedelta": pandas.Series([pandas.Timedelta(days=7731)]),
    "series-datetime": pandas.Series([pandas.Timestamp("2001-01-01"),
                                      pandas.Timestamp("2261-01-01")]),
    "series-bool": pandas.Series([True, False, None], dtype="boolean"),
    "frame": pandas.DataFrame({"a": [1, 9876547731]}),
})

P = dpsel.Params.from_epsilon("1")
P_UNITS = dpsel.Params.from_epsilon("1", sensitivity="0.25", resolution="0.25")
SELECTOR = dpsel.Selector(P)
SELECTOR_UNITS = dpsel.Selector(P_UNITS)
FRACTIONS = [(1, 4), (3, 4)]


def _partial_of(scores, members):
    partial = dpsel.Partial(P)
    partial.add_many(scores, members)
    return partial


def _stream_of(best, scores):
    stream = SELECTOR.stream(best)
    stream.add_many(scores)
    return stream.finish()


def _stream_one_by_one(scores, selector=SELECTOR, best=3):
    stream = selector.stream(best)
    for score in scores:
        stream.add(score)
    return stream.finish()


def _runs(points):
    return dpsel.QuantileRuns(1, 2, points, 0, 10)


# Calls that take a sequence of records (the data), every other argument
# public.
SEQUENCE_CALLS = {
    "mode": lambda d: dpsel.mode(d, ["a", "b"], "1"),
    "mode-em": lambda d: dpsel.mode(d, [1, 2], "1", mechanism="em"),
    "mode-unknown-error": lambda d: dpsel.mode(d, ["a", 1], "1", unknown="error"),
    "quantile": lambda d: dpsel.quantile(d, "0.5", 0, 10, "1"),
    "quantile-pf": lambda d: dpsel.quantile(d, "0.5", 0, 10, "1", mechanism="pf"),
    "quantile-exact-floats": lambda d: dpsel.quantile(d, "0.5", 0, 10, "1", floats="exact"),
    "quantile-resolution": lambda d: dpsel.quantile(d, "0.5", "0", "10", "1", resolution="0.5"),
    "median": lambda d: dpsel.median(d, 0, 10, "1"),
    "quantiles": lambda d: dpsel.quantiles(d, ["0.25", "0.75"], 0, 10, "1"),
    "quantiles-joint": lambda d: dpsel.quantiles(d, ["0.25", "0.75"], 0, 10, "1", joint=True),
    "select": lambda d: dpsel.select(d, "1"),
    "select-em": lambda d: dpsel.select(d, "1", mechanism="em"),
    "select-rnm": lambda d: dpsel.select(d, "1", mechanism="rnm"),
    "select-resolution": lambda d: dpsel.select(d, "1", sensitivity="0.25", resolution="0.25"),
    "select-decimal-sensitivity": lambda d: dpsel.select(d, "1", sensitivity="0.5"),
    "top-k": lambda d: dpsel.top_k(d, 2, "1"),
    "best-price": lambda d: dpsel.best_price(d, ["1", "2.5"], "1"),
    "best-price-rnm": lambda d: dpsel.best_price(d, ["1", "2.5"], "1", mechanism="rnm"),
    "best-price-exact-floats": lambda d: dpsel.best_price(d, ["1", "2.5"], "1", floats="exact"),
    "Selector.select": lambda d: SELECTOR.select(d),
    "Selector.select-em": lambda d: SELECTOR.select(d, "em"),
    "Selector.select-units": lambda d: SELECTOR_UNITS.select(d),
    "Selector.select_hardened": lambda d: SELECTOR.select_hardened(d),
    "Selector.select_top": lambda d: SELECTOR.select_top(d, 1),
    "PfStream.add_many": lambda d: _stream_of(3, d),
    "PfStream.add": lambda d: _stream_one_by_one(d),
    "PfStream.add-units": lambda d: _stream_one_by_one(d, SELECTOR_UNITS, "0.75"),
    "Partial.add_many": lambda d: _partial_of(d, [b"m"] * 2),
    "Partial.add_many-members": lambda d: _partial_of([1, 2], d),
    "pmf": lambda d: dpsel.pmf(P, d),
    "pmf-em": lambda d: dpsel.pmf(P, d, "em"),
    "pmf-grouped": lambda d: dpsel.pmf_grouped(P, d, [1, 1]),
    "pmf-grouped-multiplicity": lambda d: dpsel.pmf_grouped(P, [1, 2], d),
    "top-pmf": lambda d: dpsel.top_pmf(P, d, 1),
    "rnm-select": lambda d: dpsel.rnm_select(d, "1"),
    "rnm-select-top": lambda d: dpsel.rnm_select_top(d, 1, "1"),
    "rnm-pmf": lambda d: dpsel.rnm_pmf(d, "1"),
    "rnm-audit": lambda d: dpsel.rnm_audit(d, [1, 2], "1"),
    "rnm-audit-b": lambda d: dpsel.rnm_audit([1, 2], d, "1"),
    "audit": lambda d: dpsel.audit(P, d, [1, 2]),
    "audit-b": lambda d: dpsel.audit(P, [1, 2], d),
    "task-scores-mode": lambda d: dpsel.task_scores("mode", d),
    "task-scores-median": lambda d: dpsel.task_scores("median", d),
    "Grid.points": lambda d: dpsel.Grid("0", "10").points(d),
    "QuantileRuns": _runs,
    "quantile-select": lambda d: dpsel.quantile_select(SELECTOR, 1, 2, d, 0, 10),
    "quantile-select-grid": lambda d: dpsel.quantile_select(SELECTOR, 1, 2, d,
                                                            dpsel.Grid("0", "10")),
    "Selector.select_quantile": lambda d: SELECTOR.select_quantile(_runs(d)),
    "quantile-pmf": lambda d: dpsel.quantile_pmf(P, _runs(d)),
    "quantiles-joint-select": lambda d: dpsel.quantiles_joint_select(
        dpsel.Selector(dpsel.Params.from_epsilon("1", 3)), FRACTIONS, d, 0, 10),
    "quantiles-joint-select-many": lambda d: dpsel.quantiles_joint_select_many(
        dpsel.Selector(dpsel.Params.from_epsilon("1", 3)), FRACTIONS, d, 0, 10, 2),
    "quantiles-joint-pmf": lambda d: dpsel.quantiles_joint_pmf(
        dpsel.Params.from_epsilon("1", 3), FRACTIONS, d, 0, 10),
}

# Calls that take one record.
RECORD_CALLS = {
    "PfStream.add": lambda r: _stream_one_by_one([1, r]),
    "PfStream-best": lambda r: _stream_one_by_one([1], best=r),
    "Partial.add": lambda r: dpsel.Partial(P).add(r),
    "Partial.add-member": lambda r: dpsel.Partial(P).add(1, r),
    "Partial.from_bytes": lambda r: dpsel.Partial.from_bytes(P, r),
    "Partial.from_bytes-keyed": lambda r: dpsel.Partial.from_bytes(P, r, key=b"k" * 32),
    "decimal-to-units": lambda r: dpsel.decimal_to_units(r, "0.001"),
    "units-to-decimal": lambda r: dpsel.units_to_decimal(r, "0.25"),
    "Grid.point": lambda r: dpsel.Grid("0", "10").point(r),
    "Grid.point-units": lambda r: dpsel.Grid("0", "10", "0.25").point(r),
    "select-mapping-label": lambda r: dpsel.select({"a": 1, _hashable(r): 2}, "1"),
}


def _hashable(record):
    try:
        hash(record)
    except TypeError:
        return repr(record)  # still the sentinel
    return record


def texts_of(error, seen=None):
    """Every text an exception shows, with its cause and context chain."""
    seen = set() if seen is None else seen
    if error is None or id(error) in seen:
        return []
    seen.add(id(error))
    texts = [str(error), repr(error), *map(repr, error.args)]
    texts += [str(getattr(error, name, "")) for name in ("detail", "fix", "message")]
    texts += [str(note) for note in getattr(error, "__notes__", [])]
    return texts + texts_of(error.__cause__, seen) + texts_of(error.__context__, seen)


def leaks(texts):
    return [text for text in texts if any(marker in text for marker in MARKERS)]


def run_and_collect(call, data, caplog, capfd):
    """Runs call(data) and returns every text it showed (an exception,
    warnings, log records, stdout and stderr)."""
    texts = []
    caplog.set_level(logging.DEBUG)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            call(data)
        except Exception as error:  # noqa: BLE001 - any class, its text is what matters
            texts += texts_of(error)
    texts += [str(w.message) for w in caught]
    texts += [record.getMessage() for record in caplog.records]
    out, err = capfd.readouterr()
    return texts + [out, err]


def fresh(data):
    """A generator can be read once: each case gets its own."""
    return (x for x in [1, TEXT]) if isinstance(data, type(x for x in ())) else data


@pytest.mark.parametrize("data", list(SEQUENCES), ids=str)
@pytest.mark.parametrize("call", list(SEQUENCE_CALLS), ids=str)
def test_sequences_of_records_never_shown(call, data, caplog, capfd):
    texts = run_and_collect(SEQUENCE_CALLS[call], fresh(SEQUENCES[data]), caplog, capfd)
    assert not leaks(texts), f"{call}({data}) showed the data: {leaks(texts)}"


@pytest.mark.parametrize("record", list(RECORDS), ids=str)
@pytest.mark.parametrize("call", list(RECORD_CALLS), ids=str)
def test_one_record_never_shown(call, record, caplog, capfd):
    texts = run_and_collect(RECORD_CALLS[call], RECORDS[record], caplog, capfd)
    assert not leaks(texts), f"{call}({record}) showed the data: {leaks(texts)}"


def test_serialised_states_never_shown(caplog, capfd):
    """A state is data: one cut, one with a byte changed, one of other
    params, and one keyed read without the key, each refused without it."""
    partial = dpsel.Partial(P)
    partial.add(9876547731, b"SENTINEL-7731")
    state = partial.to_bytes()
    keyed = partial.to_bytes(key=b"k" * 32)
    states = [state[:len(state) // 2], state[:-1] + bytes([state[-1] ^ 1]), keyed,
              state + b"SENTINEL-7731"]
    calls = [lambda s: dpsel.Partial.from_bytes(P, s),
             lambda s: dpsel.Partial.from_bytes(dpsel.Params.from_base(1, 1), s),
             lambda s: dpsel.Partial.from_bytes(P, s, key=b"j" * 32)]
    for call in calls:
        for s in states:
            texts = run_and_collect(call, s, caplog, capfd)
            assert not leaks(texts), leaks(texts)


def test_the_sentinels_reach_the_error_paths(caplog, capfd):
    """The test can fail: a message that shows its record is caught (so
    the sentinels are where the records are)."""
    def showing(data):
        raise dpsel.RangeError("values", fix=f"values holds {list(data)[-1]!r}")
    for name in ("list-text", "list-huge-int", "list-object", "list-decimal-nan-payload",
                 "list-timedelta", "list-bytes"):
        assert leaks(run_and_collect(showing, SEQUENCES[name], caplog, capfd)), name
    def cause(data):
        try:
            int(data[1])
        except Exception as error:  # noqa: BLE001
            raise dpsel.RangeError("values") from error
    assert leaks(run_and_collect(cause, [1, TEXT], caplog, capfd))


# ---------------------------------------------------------------- dask

dd = pytest.importorskip("dask.dataframe")

DASK_COLUMNS = {
    # column name: its values (two partitions), one record holding the sentinel
    "float": [1.0, 2.0, 987654.321, 3.0],
    "huge-int": [1, 2, 9876547731 * 10 ** 9, 3],
    "text": ["a", "b", TEXT, "987654.7731"],
    "bytes": [b"a", b"b", b"SENTINEL-7731", b"c"],
    "object": [1, "a", Sentinel(), decimal.Decimal("NaN7731")],
    "decimal": [decimal.Decimal(1), decimal.Decimal("9876547731E400"),
                decimal.Decimal("987654.7731"), decimal.Decimal("sNaN7731")],
    "timedelta": [pandas.Timedelta(days=1)] * 3 + [pandas.Timedelta(days=7731)],
    "datetime": [pandas.Timestamp("2001-01-01")] * 3 + [pandas.Timestamp("2261-07-31")],
    "bool": [True, False, True, False],
    "missing": [1.0, None, float("nan"), 9876547731.0],
    "long-label": ["a", "b", "SENTINEL-7731" * 6000, "c"],
    "category": pandas.Categorical(["a", "b", TEXT, "a"]),
    "string": pandas.array(["a", None, TEXT, "b"], dtype="string"),
    "nullable-int": pandas.array([1, None, 9876547731, 2], dtype="Int64"),
}


def dask_frame(values, labels=("a", "b", "c", "d"), groups=("g", "g", "h", "h")):
    frame = pandas.DataFrame({"label": list(labels), "group": list(groups)})
    frame["data"] = pandas.Series(values)
    frame["score"] = frame["data"]
    return dd.from_pandas(frame, npartitions=2)


DASK_CALLS = {
    "select-scores": lambda f: dpsel.dask.select(f, label="label", score="data", epsilon="1"),
    "select-scores-by": lambda f: dpsel.dask.select(f, label="label", score="data",
                                                    epsilon="1", by="group"),
    "select-units": lambda f: dpsel.dask.select(f, label="label", score="data", epsilon="1",
                                                sensitivity="0.25", resolution="0.25"),
    "select-exact-floats": lambda f: dpsel.dask.select(f, label="label", score="data",
                                                       epsilon="1", floats="exact",
                                                       sensitivity="0.25", resolution="0.25"),
    "select-labels": lambda f: dpsel.dask.select(f, label="data", score="score2", epsilon="1"),
    "select-repeated-label": lambda f: dpsel.dask.select(f, label="data", score="score2",
                                                         epsilon="1", by="same"),
    "mode": lambda f: dpsel.dask.mode(f, "data", ["a", "b"], "1"),
    "mode-by": lambda f: dpsel.dask.mode(f, "data", [1, 2], "1", by="group", mechanism="em"),
    "quantile": lambda f: dpsel.dask.quantile(f, "data", "0.5", 0, 10, "1"),
    "quantile-by-pf": lambda f: dpsel.dask.quantile(f, "data", "0.5", 0, 10, "1", by="group",
                                                    mechanism="pf"),
    "quantile-exact-floats": lambda f: dpsel.dask.quantile(f, "data", "0.5", 0, 10, "1",
                                                           floats="exact", resolution="0.5"),
}


def _with_extra_columns(frame):
    frame = frame.assign(score2=1, same="s")
    return frame


@pytest.mark.parametrize("column", list(DASK_COLUMNS), ids=str)
@pytest.mark.parametrize("call", list(DASK_CALLS), ids=str)
def test_dask_records_never_shown(call, column, caplog, capfd):
    import dask
    values = DASK_COLUMNS[column]
    frame = _with_extra_columns(dask_frame(values))
    with dask.config.set(scheduler="synchronous"):
        texts = run_and_collect(DASK_CALLS[call], frame, caplog, capfd)
    assert not leaks(texts), f"dask.{call}({column}) showed the data: {leaks(texts)}"


def test_dask_a_label_twice_never_shown(caplog, capfd):
    """The label of a repeated row is data: the refusal does not show it."""
    import dask
    frame = dd.from_pandas(pandas.DataFrame({"label": [TEXT, "b", TEXT, "c"],
                                             "score": [1, 2, 3, 4], "group": ["g"] * 4}),
                           npartitions=2)
    with dask.config.set(scheduler="synchronous"):
        for by in (None, "group"):
            texts = run_and_collect(lambda f: dpsel.dask.select(f, label="label", score="score",
                                                                epsilon="1", by=by),
                                    frame, caplog, capfd)
            assert not leaks(texts), leaks(texts)
