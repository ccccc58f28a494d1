# SPDX-License-Identifier: ISC
"""dpsel.dask on a real distributed.LocalCluster of two worker processes:
releases of select, mode and quantile fitted to the exact pmf with every
group's rows spread over several partitions (thousands of groups of the same
rows: thousands of independent releases), the chunks seen running in both
workers, groups kept apart, labels of every kind carried exactly, a label
twice in a group refused, and bad input refused (column dtypes on the driver,
before any task runs).  The
releases draw from the workers' OS sources, not a seed: each fit is a
false alarm with probability 1e-6."""

import collections
import contextlib
import decimal
import logging
import os
import signal
import subprocess
import sys
import time

import pandas
import pytest

import dask
import dask.dataframe as dd
import distributed
from distributed.utils import key_split

import dpsel
import dpsel.dask

from conftest import REPO, chi_square_fits

# Tornado, under distributed's client, on Python 3.11.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

GROUPS = 10_000  # releases per fit
PARTITIONS = 8
LABELS = ["a", "b", "c", "f", "d", "e"]
SCORES = [6, 5, 5, 4, 2, 0]


@contextlib.contextmanager
def deadline(seconds, what):
    """A TimeoutError in the main thread after `seconds`: the tests fail
    rather than hang on a cluster that does not answer."""
    def expire(signum, frame):
        raise TimeoutError(f"{what}: more than {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="module")
def client():
    """The module's cluster: two worker processes of one thread each, which
    load the library this process loaded; closed at the end, its worker
    processes gone."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DPSEL_LIBRARY", os.path.abspath(dpsel._native.lib.lib._name))
        cluster = connection = None
        try:
            with deadline(60, "starting a LocalCluster of 2 worker processes"):
                cluster = distributed.LocalCluster(
                    n_workers=2, processes=True, threads_per_worker=1, host="127.0.0.1",
                    dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)
                connection = distributed.Client(cluster)
                connection.wait_for_workers(2, timeout=50)
                pids = connection.run(os.getpid)
        except Exception as error:  # noqa: BLE001 - any failure to start is the message
            with contextlib.suppress(Exception), deadline(60, "closing the LocalCluster"):
                if connection is not None:
                    connection.close()
                if cluster is not None:
                    cluster.close()
            pytest.fail(f"the Dask LocalCluster did not start: {error!r}")
        try:
            yield connection
        finally:
            with deadline(60, "closing the LocalCluster"):
                connection.close()
                cluster.close()
            left = [pid for pid in pids.values() if alive_after(pid, 10)]
            for pid in left:
                os.kill(pid, signal.SIGKILL)
            assert not left, f"worker processes {left} outlived the cluster (killed)"


def alive_after(pid, seconds):
    """Whether process pid still runs after up to `seconds`."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture(autouse=True)
def no_hang(request):
    with deadline(120, request.node.name):
        yield


def groups_frame(groups, labels, scores, partitions):
    """`groups` groups of the same candidates, rows in candidate order, so
    that each group's rows lie in several partitions."""
    rows = [(group, label, score) for label, score in zip(labels, scores)
            for group in range(groups)]
    frame = pandas.DataFrame(rows, columns=["group", "label", "score"])
    return dd.from_pandas(frame, npartitions=partitions, sort=True)


def partitions_per_group(frame):
    """The number of partitions each group's rows lie in."""
    parts = dask.compute(*frame.to_delayed())
    return pandas.concat([part.assign(part=number) for number, part in enumerate(parts)]
                         ).groupby("group")["part"].nunique()


def label_pmf(params, mechanism, labels=LABELS, scores=SCORES):
    """The exact probability of each label: a label of two candidates gets
    the sum of theirs."""
    pmf, exact = dpsel.pmf(params, scores, mechanism), collections.Counter()
    for i, label in enumerate(labels):
        exact[label] += pmf.probability(i)
    return exact


def test_the_workers_are_processes(client):
    pids = client.run(os.getpid)
    assert len(pids) == 2 and len(set(pids.values())) == 2 and os.getpid() not in pids.values()
    assert sorted(client.nthreads().values()) == [1, 1]
    # Each loads the package and the library this process loaded.
    library = os.path.abspath(dpsel._native.lib.lib._name)
    assert set(client.run(lambda: dpsel._native.lib.lib._name).values()) == {library}


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_releases_over_partitions_fit_the_pmf(client, mechanism):
    frame = groups_frame(GROUPS, LABELS, SCORES, PARTITIONS)
    assert frame.npartitions == PARTITIONS
    spread = partitions_per_group(frame)
    assert len(spread) == GROUPS and spread.min() >= 4, spread.describe()
    params = dpsel.Params.from_epsilon("1")
    with distributed.get_task_stream(client) as stream:
        released = dpsel.dask.select(frame, label="label", score="score", epsilon="1",
                                     by="group", mechanism=mechanism, split_every=2)
    assert list(released.index) == list(range(GROUPS)) and released.name == "label"
    # Dask's chunk ran once per partition, in both worker processes, and
    # states were merged in combine tasks before the final one.
    tasks = collections.Counter(key_split(task["key"]) for task in stream.data)
    chunk_workers = {task["worker"] for task in stream.data
                     if key_split(task["key"]) == "aggregate-chunk"}
    assert tasks["aggregate-chunk"] == PARTITIONS and tasks["aggregate-combine"] >= 2, tasks
    assert chunk_workers == set(client.nthreads()), chunk_workers
    counts = collections.Counter(released)
    assert set(counts) <= set(LABELS)
    exact = label_pmf(params, mechanism)
    order = sorted(exact)
    fits, statistic, dof = chi_square_fits([counts[label] for label in order],
                                           [exact[label] for label in order], GROUPS)
    print(f"dask {mechanism}: chi-square {statistic:.2f} with {dof} degrees of freedom "
          f"over {GROUPS} groups")
    assert fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"


def test_decimal_scores_rounded_down_fit_the_pmf(client):
    # The scores / 4 less 2.1, decimals in units of 0.25 (a sensitivity of
    # 0.5: 2 units): 2 of the 6 below 0 and none on the grid; rounded down
    # (floor, not towards 0) they are the scores less 9, the same gaps.
    decimals = [str(decimal.Decimal(score) / 4 - decimal.Decimal("2.1")) for score in SCORES]
    frame = groups_frame(GROUPS, LABELS, decimals, PARTITIONS)
    released = dpsel.dask.select(frame, label="label", score="score", epsilon="1",
                                 sensitivity="0.5", resolution="0.25", by="group",
                                 mechanism="em")
    counts = collections.Counter(released)
    exact = label_pmf(dpsel.Params.from_epsilon("1", 2), "em")
    order = sorted(exact)
    fits, statistic, dof = chi_square_fits([counts[label] for label in order],
                                           [exact[label] for label in order], GROUPS)
    assert fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"


def test_decimal_scores_are_data_never_refused(client):
    # Every number is a score: infinities and long values clamped into the
    # int64 units, and at epsilon 200 (100 per unit of 0.001, not monotonic)
    # 'a' one unit above every other wins but with probability below 1e-40.
    frame = dd.from_pandas(pandas.DataFrame({
        "label": ["a", "b", "c", "d", "e"],
        "score": [0.35, "0.349", decimal.Decimal("-1e400"), float("-inf"), "-" + "9" * 500]}),
        npartitions=2)
    options = {"label": "label", "score": "score", "epsilon": "200", "sensitivity": "0.001"}
    assert dpsel.dask.select(frame, **options) == "a"  # 0.35 read as its repr: 350 units
    # At its exact binary value, 0.1 is 5 units of 10^-18 above "0.1".
    tenth = dd.from_pandas(pandas.DataFrame({"label": ["a", "b"], "score": [0.1, "0.1"]}),
                           npartitions=1)
    unit = "0." + "0" * 17 + "1"
    assert dpsel.dask.select(tenth, label="label", score="score", epsilon="200",
                             resolution=unit, sensitivity=unit, floats="exact") == "a"


def distinct_labels(copies):
    """LABELS `copies` times over, each copy's labels made distinct."""
    return [f"{label}{copy}" for copy in range(copies) for label in LABELS]


def test_one_selection_without_by(client):
    frame = groups_frame(1, distinct_labels(4), SCORES * 4, 4)
    for mechanism in ("pf", "em"):
        assert dpsel.dask.select(frame, label="label", score="score", epsilon="1",
                                 mechanism=mechanism) in distinct_labels(4)
    # At epsilon 60 (beta = e^-30, gap cap 2) the best, 6 above the rest,
    # loses with probability below 23 e^-60 < 1e-24.
    best = frame.assign(score=frame.score + (frame.label == "d2") * 10)
    assert dpsel.dask.select(best, label="label", score="score", epsilon="60") == "d2"
    assert dpsel.dask.select(frame[frame.score > 100], label="label", score="score",
                             epsilon="1") is None  # no candidate


def test_states_keyed_with_a_mac(client):
    frame = groups_frame(1, distinct_labels(4), SCORES * 4, 4)
    key = bytes(range(100, 132))
    assert dpsel.dask.select(frame, label="label", score="score", epsilon="1",
                             key=key) in distinct_labels(4)
    # The states a step writes are sealed with the key: the combine step
    # refuses one sealed without it, or with another key.
    aggregation = dpsel.dask._aggregation(dpsel.Params.from_epsilon("1"), "pf", key)
    labels = pandas.Series(["a", "b"], index=pandas.Index([3, 5]), name="x")
    states = aggregation.chunk(pandas.DataFrame({"g": [0, 0], "x": labels}).groupby("g")["x"])
    assert dpsel.dask._merged(pandas.Series([states[0]] * 2), dpsel.Params.from_epsilon("1"),
                              key)[4] == 2
    for other in (None, bytes(32)):
        with pytest.raises(dpsel.StateError):
            dpsel.dask._merged(pandas.Series([states[0]] * 2), dpsel.Params.from_epsilon("1"),
                               other)
    with pytest.raises(ValueError, match="key must be 16 to 64 bytes"):
        dpsel.dask.select(frame, label="label", score="score", epsilon="1", key=b"short")


def test_groups_are_kept_apart_and_labels_carried_exactly(client):
    # Two group columns; each group's best (at least 7 above its others, so
    # not chosen with probability below 3 e^-60 < 1e-24 at epsilon 60) is a
    # label of its own.
    days, sites = range(40), ("x", "y", "z")
    rows = [(day, site, kind, score + (10 if kind == (day + ord(site)) % 4 else 0))
            for kind, score in enumerate([3, 1, 2, 0]) for day in days for site in sites]
    pandas_frame = pandas.DataFrame(rows, columns=["day", "site", "kind", "score"])
    frame = dd.from_pandas(pandas_frame, npartitions=6, sort=False)
    expected = {(day, site): (day + ord(site)) % 4 for day in days for site in sites}
    released = dpsel.dask.select(frame, label="kind", score="score", epsilon="60",
                                 by=["day", "site"], mechanism="em")
    assert released.to_dict() == expected and released.dtype == "int64"
    assert list(released.index.names) == ["day", "site"]
    # Labels of other types come back equal and of their type: a str (UTF-8,
    # a lone surrogate too), a tuple, a Timestamp and bytes (pickled).
    kinds = {0: "\ud800 é", 1: ("t", 1), 2: pandas.Timestamp("2026-11-01 10:00"), 3: b"raw"}
    pandas_frame["mixed"] = pandas_frame["kind"].map(kinds)
    frame = dd.from_pandas(pandas_frame, npartitions=6, sort=False)
    released = dpsel.dask.select(frame, label="mixed", score="score", epsilon="60",
                                 by=["day", "site"])
    assert len(released) == len(expected)
    for key, label in released.items():
        want = kinds[expected[key]]
        assert label == want and type(label) is type(want), (key, label)


# The issue's case: one row per person, the status of each (married the
# most common), taken by select as scores of 1.
PEOPLE = pandas.DataFrame({"region": ["north"] * 9 + ["south"] * 4,
                           "status": ["married"] * 4 + ["never", "widowed"] * 2 + ["never"]
                           + ["never", "married", "widowed", "divorced"],
                           "one": 1})


@pytest.mark.parametrize("by, where", [("region", " of a group"), (None, "")])
def test_a_label_twice_in_a_group_is_refused(client, by, where):
    # Partitions of one row each: every repeat lies in another partition.
    frame = dd.from_pandas(PEOPLE, npartitions=len(PEOPLE), sort=False)
    with distributed.get_task_stream(client) as stream:
        with pytest.raises(ValueError, match=f"label column 'status' holds a label on more "
                                             f"than one row{where} .*dpsel.dask.mode") as raised:
            dpsel.dask.select(frame, label="status", score="one", epsilon="1", by=by)
    # The column is named, never the label, its rows nor its group (the data's).
    for shown in ("married", "north", "rows in", "other label"):
        assert shown not in str(raised.value)
    assert stream.data, "the check runs in the workers"
    # One row per label and group is taken; the south's labels are distinct.
    south = frame[frame.region == "south"]
    assert dpsel.dask.select(south, label="status", score="one", epsilon="1") in set(
        PEOPLE.status)


def test_mode_of_the_issues_rows(client):
    frame = dd.from_pandas(PEOPLE, npartitions=3, sort=False)
    statuses = ["married", "never", "widowed", "divorced", "separated"]
    # At epsilon 60 (beta = e^-30) married, 2 rows ahead in the north,
    # loses with probability below 4 e^-60.
    released = dpsel.dask.mode(frame[frame.region == "north"], "status", statuses, "60")
    assert released == "married"
    released = dpsel.dask.mode(frame, "status", statuses, "1", by="region")
    assert list(released.index) == ["north", "south"] and released.name == "status"
    assert set(released) <= set(statuses)


def raw_rows(groups, values, partitions):
    """`groups` groups of the same raw values (one row each), rows in value
    order, so that each group's rows lie in several partitions."""
    rows = [(group, value) for value in values for group in range(groups)]
    frame = pandas.DataFrame(rows, columns=["group", "value"])
    return dd.from_pandas(frame, npartitions=partitions, sort=True)


MODE_CANDIDATES = ["married", "never", "widowed", "divorced", "separated"]
# Rows per candidate 6, 5, 5, 2, 0; rows of no candidate and missing ones
# are dropped.
MODE_ROWS = (["married"] * 6 + ["never"] * 5 + ["widowed"] * 5 + ["divorced"] * 2
             + ["single", None, "MARRIED"])


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_mode_fits_the_pmf(client, mechanism):
    frame = raw_rows(GROUPS, MODE_ROWS, PARTITIONS)
    assert partitions_per_group(frame).min() >= 4
    released = dpsel.dask.mode(frame, "value", MODE_CANDIDATES, "1", by="group",
                               mechanism=mechanism, split_every=2)
    assert list(released.index) == list(range(GROUPS)) and released.name == "value"
    counts = collections.Counter(released)
    exact = dpsel.pmf(dpsel.Params.from_epsilon("1", 1, True), [6, 5, 5, 2, 0], mechanism)
    probabilities = [exact.probability(i) for i in range(len(MODE_CANDIDATES))]
    fits, statistic, dof = chi_square_fits([counts[c] for c in MODE_CANDIDATES],
                                           probabilities, GROUPS)
    print(f"dask mode {mechanism}: chi-square {statistic:.2f} with {dof} degrees of freedom")
    assert fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"
    # The fit would catch the unknown and missing rows counted.
    wrong = dpsel.pmf(dpsel.Params.from_epsilon("1", 1, True), [6, 5, 5, 2, 3], mechanism)
    fits, statistic, dof = chi_square_fits([counts[c] for c in MODE_CANDIDATES],
                                           [wrong.probability(i) for i in range(5)], GROUPS)
    assert not fits, f"the wrong pmf fits: chi-square {statistic:.2f}"


# Latencies in ms, floats; on the grid 0, 0.5, ..., 10 (21 points).
LATENCIES = [0.25, 1.5, 2.0, 2.0, 2.75, 3.0, 4.5, 7.0, 9.5, 12.0, float("inf")]


@pytest.mark.parametrize("mechanism", ["em", "pf"])
def test_quantile_fits_the_pmf(client, mechanism):
    frame = raw_rows(GROUPS, LATENCIES, PARTITIONS)
    released = dpsel.dask.quantile(frame, "value", "0.75", 0, 10, "1", by="group",
                                   resolution="0.5", mechanism=mechanism, split_every=2)
    assert list(released.index) == list(range(GROUPS)) and released.name == "value"
    assert all(type(value) is decimal.Decimal for value in released)
    grid = dpsel.Grid(0, 10, "0.5")
    fraction = dpsel.quantile_fraction("0.75")
    runs = dpsel.QuantileRuns(fraction.a, fraction.b, grid.points(LATENCIES), grid)
    pmf = dpsel.quantile_pmf(dpsel.Params.from_epsilon("1", fraction.sensitivity), runs,
                             mechanism)
    counts = collections.Counter()
    for value in released:
        point = grid.point(value)
        counts[next(i for i, run in enumerate(runs)
                    if run.first <= point < run.first + run.points)] += 1
    fits, statistic, dof = chi_square_fits([counts[i] for i in range(len(runs))],
                                           [pmf.probability(i) for i in range(len(runs))], GROUPS)
    print(f"dask quantile {mechanism}: chi-square {statistic:.2f} with {dof} degrees of freedom")
    assert fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"


def test_quantile_of_floats_decimals_and_ints(client):
    # At epsilon 60 the 21 rows' median point wins but with probability
    # below 21 e^-60.  A float reads as its shortest repr: 0.3 is 0.3
    # (its binary value, 0.2999..., would fall on the point 0.2).
    for values, expected in [([0.3] * 21, "0.3"), ([decimal.Decimal("0.7")] * 21, "0.7"),
                             ([1] * 21, "1.0"), (["0.45"] * 21, "0.4")]:
        frame = dd.from_pandas(pandas.DataFrame({"x": values}), npartitions=3)
        released = dpsel.dask.quantile(frame, "x", "0.5", 0, 1, "60", resolution="0.1")
        assert released == decimal.Decimal(expected) and str(released) == expected, values
    # floats="exact": 0.3 at its binary value, 0.29999999999999998889..., on 0.2.
    frame = dd.from_pandas(pandas.DataFrame({"x": [0.3] * 21}), npartitions=3)
    assert dpsel.dask.quantile(frame, "x", "0.5", 0, 1, "60", resolution="0.1",
                               floats="exact") == decimal.Decimal("0.2")
    # Missing values are skipped, NaN and infinities clamped to the ends.
    frame = dd.from_pandas(pandas.DataFrame(
        {"x": [None] * 30 + [decimal.Decimal("-Infinity")] * 21, "g": 1}), npartitions=3)
    assert dpsel.dask.quantile(frame, "x", "0.5", 0, 1, "60", by="g",
                               resolution="0.1").to_dict() == {1: decimal.Decimal("0.0")}
    frame = dd.from_pandas(pandas.DataFrame({"x": [float("nan")] * 21}), npartitions=2)
    assert dpsel.dask.quantile(frame, "x", "0.5", 0, 1, "60") == decimal.Decimal("1")


def test_mode_of_numbers_and_dates(client):
    # Candidates compared with the column's values in its dtype.
    for values, candidates, best in [([1.5] * 9 + [2.0], [2, 1.5], 1.5),
                                     ([7] * 9 + [3], [3, 7], 7),
                                     (pandas.to_datetime(["2026-11-01"] * 9 + ["2026-11-02"]),
                                      [pandas.Timestamp("2026-11-02"),
                                       pandas.Timestamp("2026-11-01")],
                                      pandas.Timestamp("2026-11-01"))]:
        frame = dd.from_pandas(pandas.DataFrame({"x": values}), npartitions=2)
        assert dpsel.dask.mode(frame, "x", candidates, "60") == best


DTYPES = pandas.DataFrame({"n": [1, 2], "f": [0.5, 1.5], "b": [True, False],
                           "t": pandas.to_datetime(["2026-11-01"] * 2), "s": ["a", "b"]})


@pytest.mark.parametrize("call, error, message", [
    (lambda f: dpsel.dask.mode(f, "n", ["a", "b"], "1"), TypeError,
     r"column 'n' is of dtype int64, and the candidate 'a' \(str\)"),
    (lambda f: dpsel.dask.mode(f, "n", [1, 2.5], "1"), TypeError,
     r"column 'n' is of dtype int64, and the candidate 2.5"),
    (lambda f: dpsel.dask.mode(f, "t", ["2026-11-01"], "1"), TypeError,
     r"column 't' is of dtype datetime64\[ns\], and the candidate '2026-11-01'"),
    (lambda f: dpsel.dask.mode(f, "s", ["a", "b", "a"], "1"), dpsel.RangeError, "'a' twice"),
    (lambda f: dpsel.dask.mode(f, "s", [], "1"), dpsel.RangeError, "candidates is empty"),
    (lambda f: dpsel.dask.mode(f, "s", ["a"], "1", groups=[1]), ValueError,
     "groups lists the groups of by: give by too"),
    (lambda f: dpsel.dask.quantile(f, "f", "0.5", 0, 1, "1", by="n", groups=["1"]), TypeError,
     r"column 'n' is of dtype int64, and the group '1' \(str\)"),
    (lambda f: dpsel.dask.mode(f, "s", ["a"], "1", by="n", groups=[1, 2, 1]), dpsel.RangeError,
     "groups holds 1 twice"),
    (lambda f: dpsel.dask.mode(f, "s", ["a"], "1", by="n", groups=[]), dpsel.RangeError,
     "groups is empty"),
    (lambda f: dpsel.dask.mode(f, "s", ["a"], "1", by=["n", "s"], groups=[1]), TypeError,
     "each group is a tuple of 2 keys, not 1"),
    (lambda f: dpsel.dask.select(f, label="s", score="n", epsilon="1", by="t",
                                 groups=["2026-11-01"]), TypeError,
     r"column 't' is of dtype datetime64\[ns\], and the group '2026-11-01'"),
    (lambda f: dpsel.dask.mode(f, "s", "ab", "1"), TypeError, "list of labels, not str"),
    (lambda f: dpsel.dask.mode(f, "z", ["a"], "1"), KeyError, "no column 'z'"),
    (lambda f: dpsel.dask.mode(f, "s", ["a"], "1", by="__dpsel_code__"), KeyError, "no column"),
    (lambda f: dpsel.dask.mode(f, "s", ["a"], "0"), dpsel.EpsilonError, "positive decimal"),
    (lambda f: dpsel.dask.quantile(f, "b", "0.5", 0, 1, "1"), TypeError,
     r"column 'b' is of dtype bool.*astype\(int\)"),
    (lambda f: dpsel.dask.quantile(f, "t", "0.5", 0, 1, "1"), TypeError,
     r"column 't' is of dtype datetime64\[ns\]"),
    (lambda f: dpsel.dask.quantile(f, "f", "1.5", 0, 1, "1"), dpsel.RangeError,
     "not strictly between 0 and 1"),
    (lambda f: dpsel.dask.quantile(f, "f", "0.5", 2, 1, "1"), dpsel.RangeError,
     "lower 2 is above upper 1"),
    (lambda f: dpsel.dask.quantile(f, "f", "0.5", 0, 10**13, "1"), dpsel.RangeError,
     "EM takes grids of at most"),
    (lambda f: dpsel.dask.quantile(f, "f", "0.5", 0, 1, "1", mechanism="x"), dpsel.RangeError,
     "'pf' or 'em'"),
    (lambda f: dpsel.dask.quantile(f, "f", "0.5", 0, 1, "1", mechanism="rnm"), dpsel.RangeError,
     "'rnm' has no quantile form"),
    (lambda f: dpsel.dask.mode(f, "s", ["a"], "1", mechanism="rnm"), dpsel.RangeError,
     "'rnm' has no partial-state form"),
    (lambda f: dpsel.dask.select(f, label="s", score="n", epsilon="1", mechanism="rnm"),
     dpsel.RangeError, "'rnm' has no partial-state form"),
    (lambda f: dpsel.dask.quantile(f, "f", "0.5", 0, 1, "1", floats="binary"), dpsel.RangeError,
     "'repr' or 'exact'"),
    (lambda f: dpsel.dask.quantile(DTYPES, "f", "0.5", 0, 1, "1"), TypeError,
     "from_pandas"),
])
def test_bad_calls_are_refused_on_the_driver(client, call, error, message):
    frame = dd.from_pandas(DTYPES, npartitions=2)
    with distributed.get_task_stream(client) as stream:
        with pytest.raises(error, match=message):
            call(frame)
    assert not stream.data, "a task ran before the refusal"


def test_a_reserved_group_name_is_refused(client):
    frame = dd.from_pandas(DTYPES.rename(columns={"n": "__dpsel_point__"}), npartitions=2)
    with pytest.raises(ValueError, match="may not be named '__dpsel_point__'"):
        dpsel.dask.quantile(frame, "f", "0.5", 0, 1, "1", by="__dpsel_point__")


BASE = pandas.DataFrame({"day": [1, 1, 2, 2], "page": ["a", "b", "a", "b"], "views": [5, 3, 2, 9]})


@pytest.mark.parametrize("change, arguments, error, message", [
    ({}, {"epsilon": "abc"}, dpsel.EpsilonError, "positive decimal"),
    ({}, {"epsilon": "-1"}, dpsel.EpsilonError, "positive decimal"),
    ({}, {"sensitivity": 0}, dpsel.RangeError, "out of range"),
    ({}, {"mechanism": "median"}, dpsel.RangeError, "'pf' or 'em'"),
    ({}, {"label": "pages"}, KeyError, "no column 'pages'"),
    ({}, {"score": "view"}, KeyError, "no column 'view'"),
    ({}, {"by": ["day", "hour"]}, KeyError, "no column 'hour'"),
    ({}, {"by": []}, ValueError, "empty list"),
    ({"views": [True, False, True, True]}, {}, TypeError, r"dtype bool.*astype\(int\)"),
    ({"views": pandas.Series([5, True, 2, 9], dtype=object)}, {}, TypeError,
     r"score column 'views': a bool is not a number.*astype\(int\)"),
    ({"views": pandas.to_datetime(["2026-11-01"] * 4)}, {}, TypeError, "dtype datetime64"),
    ({"views": ["5", "3", "many", "9"]}, {}, dpsel.DecimalError,
     "score column 'views': not a decimal number"),
    ({"page": ["a" * 70000, "b", "a", "b"]}, {}, dpsel.RangeError, "PARTIAL_MEMBER_MAX"),
    ({}, {"sensitivity": "0.3", "resolution": "0.25"}, dpsel.UnitError,
     "sensitivity 0.3 is not a whole multiple of the resolution 0.25"),
    ({}, {"sensitivity": "0.5", "floats": "binary"}, dpsel.RangeError, "'repr' or 'exact'"),
    ({"views": ["5", "3", "many", "9"]}, {"sensitivity": "0.5"}, dpsel.DecimalError,
     "score column 'views': not a decimal number"),
    ({"views": pandas.to_datetime(["2026-11-01"] * 4)}, {"resolution": "1"}, TypeError,
     "dtype datetime64.*must be numbers"),
])
def test_bad_input_is_refused(client, change, arguments, error, message):
    frame = dd.from_pandas(BASE.assign(**change), npartitions=2)
    options = {"label": "page", "score": "views", "epsilon": "1", **arguments}
    with pytest.raises(error, match=message) as raised:
        dpsel.dask.select(frame, **options)
    # A refusal names the column, never a row's value or its index.
    for shown in ("many", "True", "2026", "aaaa", "index"):
        assert shown not in str(raised.value)


@pytest.mark.parametrize("change, expected", [
    ({}, {1: "a", 2: "b"}),
    # Every score is a number, as SQL's: rounded down to whole units (of 1
    # here), clamped into int64, a NaN that pandas does not call missing
    # (a text) the largest.
    ({"views": [5.0, 3.5, 2.0, 9.0]}, {1: "a", 2: "b"}),
    ({"views": ["5", "3.9", "2", "9"]}, {1: "a", 2: "b"}),
    ({"views": pandas.Series([5, 3, 2**70, 9], dtype=object)}, {1: "a", 2: "a"}),
    ({"views": [float("-inf"), 3, float("inf"), -1e300]}, {1: "b", 2: "a"}),
    ({"views": ["5", "NaN", "2", "-nan"]}, {1: "b", 2: "b"}),
    # A row whose score, label or group key is missing for pandas (isna:
    # None, NaN, NA, NaT) is skipped, as SQL skips NULLs.
    ({"views": [float("nan"), 3.0, 2.0, 9.0]}, {1: "b", 2: "b"}),
    ({"views": pandas.Series([decimal.Decimal("NaN"), 3, 2, 9], dtype=object)}, {1: "b", 2: "b"}),
    ({"views": pandas.array([None, 3, 2, 9], dtype="Int64")}, {1: "b", 2: "b"}),
    ({"views": pandas.Series([5, None, pandas.NA, 9], dtype=object)}, {1: "a", 2: "b"}),
    ({"page": ["a", None, float("nan"), "b"]}, {1: "a", 2: "b"}),
    ({"day": [1.0, float("nan"), None, 2.0]}, {1: "a", 2: "b"}),
])
def test_every_row_is_taken_or_skipped_never_refused(client, change, expected):
    # At epsilon 60 (beta = e^-30 with the sensitivity 1) a label 2 or more
    # ahead of the other in its day loses with probability below e^-60.
    frame = dd.from_pandas(BASE.assign(**change), npartitions=2)
    released = dpsel.dask.select(frame, label="page", score="views", epsilon="60", by="day")
    assert released.to_dict() == expected


@pytest.mark.parametrize("scores", [
    pandas.Series([-2.5, -0.5, 0.0, 0.5, 3.999, -(2.0 ** 53) + 0.5, 2.0 ** 53 - 1, 2.0 ** 53,
                   2.0 ** 60, -(2.0 ** 63), 1e300, float("inf"), float("-inf")]),
    pandas.Series([0.1, -16777215.0, 16777216.0, 2.0 ** 30, -(2.0 ** 40)], dtype="float32"),
    pandas.Series([5, -7, 2**63 - 1, -2**63], dtype=object),
    pandas.Series([5, -7, 2**70, -2**70], dtype=object),
    pandas.Series([0, 2**63 - 1], dtype="uint64"), pandas.Series([0, 2**64 - 1], dtype="uint64"),
    pandas.array([3, -4], dtype="Int8"),
])
@pytest.mark.parametrize("floats", ["repr", "exact"])
def test_scores_in_units_of_1_are_the_grid_points(scores, floats):
    # Without a unit, numpy computes the scores it can take exactly; each
    # must be the grid's point in units of 1 (floor, clamped, a float's
    # repr or binary value), the points every other score gets.
    scores = pandas.Series(scores)
    units = dpsel.dask._score_units(scores, "scores", None, floats)
    assert units.tolist() == dpsel.dask._score_units(scores, "scores", "1", floats).tolist()


def test_mode_and_quantile_skip_rows_of_a_missing_group(client):
    # Rows of no day are skipped; values that cannot be hashed (a signaling
    # NaN, a list) are none of the candidates, dropped as such.  At epsilon
    # 60 a mode 5 rows ahead, and a median on 5 equal values, lose with
    # probability below 1e-24.
    frame = dd.from_pandas(pandas.DataFrame({
        "day": [1] * 5 + [None] * 6 + [2] * 7,
        "page": pandas.Series(["a"] * 5 + ["b"] * 6 + ["b"] * 5 + [decimal.Decimal("sNaN"), [1]],
                              dtype=object),
        "ms": [1] * 5 + [9] * 6 + [5] * 5 + [None, None]}), npartitions=3)
    modes = dpsel.dask.mode(frame, "page", ["a", "b"], "60", by="day")
    assert modes.to_dict() == {1: "a", 2: "b"}
    medians = dpsel.dask.quantile(frame, "ms", "0.5", 0, 10, "60", by="day")
    assert medians.to_dict() == {1: decimal.Decimal(1), 2: decimal.Decimal(5)}
    assert dpsel.dask.mode(frame, "page", ["a", "b"], "60") == "b"  # 11 rows against 5


# Values of no usable row: no rows, or every value missing.
NO_VALUE = {"no-rows": [], "none": [None], "missing": [None, pandas.NA, pandas.NaT]}
NO_VALUE_CANDIDATES = ["a", "b"]
NO_VALUE_GRID = [decimal.Decimal(point) for point in range(11)]


def no_value_rows(values):
    """A frame of one column "v" of values (objects) and a distinct label
    "page" per row, and the same rows as a Dask frame."""
    rows = pandas.DataFrame({"v": pandas.Series(values, dtype=object),
                             "page": [f"p{i}" for i in range(len(values))]})
    return rows, dd.from_pandas(rows, npartitions=1)


# One record never decides whether a release happens: a frame of one row
# of None releases as one of 3.0 does, on all-zero counts (mode) or on no
# values (quantile), as dpsel.mode and dpsel.median do.
@pytest.mark.parametrize("values", NO_VALUE.values(), ids=NO_VALUE.keys())
def test_mode_of_no_usable_row_releases(client, values):
    rows, frame = no_value_rows(values)
    assert dpsel.dask.mode(frame, "v", NO_VALUE_CANDIDATES, "1") in NO_VALUE_CANDIDATES
    assert dpsel.mode(rows["v"], NO_VALUE_CANDIDATES, "1") in NO_VALUE_CANDIDATES


@pytest.mark.parametrize("values", NO_VALUE.values(), ids=NO_VALUE.keys())
def test_quantile_of_no_usable_row_releases(client, values):
    rows, frame = no_value_rows(values)
    assert dpsel.dask.quantile(frame, "v", "0.5", 0, 10, "1") in NO_VALUE_GRID
    assert dpsel.median(rows["v"], 0, 10, "1") in NO_VALUE_GRID


@pytest.mark.parametrize("values", NO_VALUE.values(), ids=NO_VALUE.keys())
def test_select_of_no_usable_row_is_none(client, values):
    # select's candidates are the rows: with none left there is nothing to
    # choose, None (SQL's NULL), never an error decided by a row's score.
    _, frame = no_value_rows(values)
    assert dpsel.dask.select(frame, label="page", score="v", epsilon="1") is None


def test_values_that_cannot_be_hashed_still_release(client):
    # None of the candidates, as in dpsel.mode: all-zero counts.
    rows = pandas.Series([[1], decimal.Decimal("sNaN")], dtype=object)
    frame = dd.from_pandas(pandas.DataFrame({"v": rows}), npartitions=1)
    assert dpsel.dask.mode(frame, "v", NO_VALUE_CANDIDATES, "1") in NO_VALUE_CANDIDATES
    assert dpsel.mode(rows, NO_VALUE_CANDIDATES, "1") in NO_VALUE_CANDIDATES


# Without groups=, the groups are the data's (as SQL's GROUP BY): a day
# whose rows are all missing (or, for mode, cannot be hashed) is a group,
# released on no value, not dropped.  At epsilon 60 a mode 5 rows ahead,
# and a median of 5 equal values, lose with probability below 1e-24.
# (The times are objects: in a float column None is NaN, a value, the
# grid's upper end.)
DAYS_OF_NO_VALUE = pandas.DataFrame({
    "day": [1] * 5 + [2] * 3,
    "page": pandas.Series(["a"] * 5 + [None, [1], None], dtype=object),
    "ms": pandas.Series([4.0] * 5 + [None, pandas.NA, None], dtype=object)})


def test_mode_of_a_group_of_no_value_is_released(client):
    frame = dd.from_pandas(DAYS_OF_NO_VALUE, npartitions=3)
    modes = dpsel.dask.mode(frame, "page", NO_VALUE_CANDIDATES, "60", by="day")
    assert list(modes.index) == [1, 2] and modes[1] == "a" and modes[2] in NO_VALUE_CANDIDATES


def test_quantile_of_a_group_of_no_value_is_released(client):
    frame = dd.from_pandas(DAYS_OF_NO_VALUE, npartitions=3)
    medians = dpsel.dask.quantile(frame, "ms", "0.5", 0, 10, "60", by="day")
    assert list(medians.index) == [1, 2] and medians[1] == decimal.Decimal(4)
    assert medians[2] in NO_VALUE_GRID


@pytest.mark.parametrize("pages", [list("abcd"), pandas.array(list("abcd"), dtype="string"),
                                   pandas.date_range("2026-11-01", periods=4)],
                         ids=["object", "string", "datetime"])
def test_select_of_a_group_of_no_candidate_is_none(client, pages):
    # None, in every dtype of labels (not the dtype's NaN, NaT or NA).
    scores = dd.from_pandas(pandas.DataFrame({"day": [1, 1, 2, 2], "page": pages,
                                              "views": [9, 1, None, None]}), npartitions=2)
    best = dpsel.dask.select(scores, label="page", score="views", epsilon="60", by="day")
    assert best.to_dict() == {1: pages[0], 2: None}


def test_an_unobserved_category_is_no_group_of_the_data(client):
    # A category of the group column with no row is no group of the data
    # (Dask's groupby lists it), in all three calls; listed, it is released.
    rows = pandas.DataFrame({"day": pandas.Categorical([1, 1, 2], categories=[1, 2, 3]),
                             "page": ["a", "b", "a"], "views": [4, 2, 7]})
    frame = dd.from_pandas(rows, npartitions=2)
    for groups, days in [(None, [1, 2]), ([3, 1], [3, 1])]:
        modes = dpsel.dask.mode(frame, "page", ["a", "b"], "1", by="day", groups=groups)
        medians = dpsel.dask.quantile(frame, "views", "0.5", 0, 10, "1", by="day",
                                      groups=groups)
        best = dpsel.dask.select(frame, label="page", score="views", epsilon="1", by="day",
                                 groups=groups)
        assert list(modes.index) == list(medians.index) == list(best.index) == days, groups


def listed_pmf(params, scores, mechanism):
    return [dpsel.pmf(params, scores, mechanism).probability(i) for i in range(len(scores))]


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_listed_groups_of_no_value_fit_the_pmf_on_no_data(client, mechanism):
    # groups= lists the public groups: each is released, in the list's
    # order, those of no row (all but group 0) and group 0, whose rows hold
    # no value, on all-zero counts (mode: uniform over the candidates) and
    # on no values (quantile: uniform over the grid); the rows of group -1,
    # not listed, are dropped (their 9 rows of "b" would win).
    rows = pandas.DataFrame({"group": [0] * 3 + [-1] * 9,
                             "value": pandas.Series([None] * 3 + ["b"] * 9, dtype=object)})
    frame = dd.from_pandas(rows, npartitions=3)
    listed = list(range(GROUPS - 1, -1, -1))
    modes = dpsel.dask.mode(frame, "value", MODE_CANDIDATES, "1", by="group",
                            mechanism=mechanism, groups=listed)
    assert list(modes.index) == listed and modes.name == "value"
    counts = collections.Counter(modes)
    fits, statistic, dof = chi_square_fits(
        [counts[c] for c in MODE_CANDIDATES],
        listed_pmf(dpsel.Params.from_epsilon("1", 1, True), [0] * 5, mechanism), GROUPS)
    assert fits, f"mode: chi-square {statistic:.2f} with {dof} degrees of freedom"
    values = pandas.Series([None] * 3 + [9.0] * 9, dtype=object)  # None: no value
    frame = dd.from_pandas(rows.assign(value=values), npartitions=3)
    medians = dpsel.dask.quantile(frame, "value", "0.75", 0, 10, "1", by="group",
                                  mechanism=mechanism, groups=listed)
    assert list(medians.index) == listed
    counts = collections.Counter(int(value) for value in medians)
    fits, statistic, dof = chi_square_fits([counts[point] for point in range(11)],
                                           [decimal.Decimal(1) / 11] * 11, GROUPS)
    assert fits, f"quantile: chi-square {statistic:.2f} with {dof} degrees of freedom"
    # The fit would catch one row counted for one candidate.
    wrong = listed_pmf(dpsel.Params.from_epsilon("1", 1, True), [1, 0, 0, 0, 0], mechanism)
    assert not chi_square_fits([collections.Counter(modes)[c] for c in MODE_CANDIDATES],
                               wrong, GROUPS)[0]


def test_listed_groups_are_released_in_order_and_others_dropped(client):
    # At epsilon 60, a label or candidate 2 or more ahead loses with
    # probability below e^-60, a median of 5 equal values below 1e-24.
    rows = pandas.DataFrame({"day": pandas.to_datetime(["2026-11-01"] * 5 + ["2026-11-03"] * 5),
                             "site": ["x"] * 5 + ["y"] * 5,
                             "page": ["a"] * 5 + ["b"] * 5, "views": [7] * 5 + [1] * 5})
    frame = dd.from_pandas(rows, npartitions=3)
    days = [pandas.Timestamp("2026-11-03"), pandas.Timestamp("2026-11-02")]
    modes = dpsel.dask.mode(frame, "page", ["a", "b"], "60", by="day", groups=days)
    assert list(modes.index) == days and modes[days[0]] == "b"
    medians = dpsel.dask.quantile(frame, "views", "0.5", 0, 10, "60", by="day", groups=days)
    assert list(medians.index) == days and medians[days[0]] == decimal.Decimal(1)
    # Several columns: a tuple per group.
    pairs = [("2026-11-02", "x"), ("2026-11-01", "x")]
    listed = [(pandas.Timestamp(day), site) for day, site in pairs]
    modes = dpsel.dask.mode(frame, "page", ["a", "b"], "60", by=["day", "site"], groups=listed)
    assert list(modes.index) == listed and modes[listed[1]] == "a"
    scores = dd.from_pandas(pandas.DataFrame({"club": ["north", "north", "south"],
                                              "book": ["M", "B", "M"], "votes": [40, 2, 30]}),
                            npartitions=2)
    best = dpsel.dask.select(scores, label="book", score="votes", epsilon="60", by="club",
                             groups=["east", "north"], monotonic=True)
    assert best.to_dict() == {"east": None, "north": "M"}


def test_a_pandas_frame_is_refused():
    with pytest.raises(TypeError, match="from_pandas"):
        dpsel.dask.select(BASE, label="page", score="views", epsilon="1")


def test_dpsel_imports_without_dask():
    code = """
import sys
sys.modules["dask"] = sys.modules["distributed"] = None  # importing them fails
import dpsel
try:
    import dpsel.dask
except ImportError as error:
    print("refused:", error)
"""
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"), PYTHONDONTWRITEBYTECODE="1")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                            text=True, check=False, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("refused: dpsel.dask needs dask"), result.stdout
