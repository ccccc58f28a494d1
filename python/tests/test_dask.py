# SPDX-License-Identifier: ISC
"""dpsel.dask on a real distributed.LocalCluster of two worker processes:
releases fitted to the exact pmf with every group's candidates spread over
several partitions (thousands of groups of the same candidates: thousands of
independent releases), the chunks seen running in both workers, groups kept
apart, labels of every kind carried exactly, and bad input refused.  The
releases draw from the workers' OS sources, not a seed: each fit is a
false alarm with probability 1e-6."""

import collections
import contextlib
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
LABELS = ["a", "b", "c", "b", "d", "e"]  # "b" twice: two candidates, never merged
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
        patch.setenv("DPSEL_LIBRARY", os.path.abspath(dpsel._lib.lib._name))
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
    library = os.path.abspath(dpsel._lib.lib._name)
    assert set(client.run(lambda: dpsel._lib.lib._name).values()) == {library}


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
    # The fit would catch the two "b" rows taken as one candidate.
    merged = label_pmf(params, mechanism, LABELS[:3] + LABELS[4:], SCORES[:3] + SCORES[4:])
    fits, statistic, dof = chi_square_fits([counts[label] for label in order],
                                           [merged[label] for label in order], GROUPS)
    print(f"  against the two b rows merged: chi-square {statistic:.2f}")
    assert not fits, f"merged labels: chi-square {statistic:.2f} with {dof} degrees of freedom"


def test_one_selection_without_by(client):
    frame = groups_frame(1, LABELS * 4, SCORES * 4, 4)
    for mechanism in ("pf", "em"):
        assert dpsel.dask.select(frame, label="label", score="score", epsilon="1",
                                 mechanism=mechanism) in LABELS
    # At epsilon 60 (beta = e^-30, gap cap 2) the best, 6 above the rest,
    # loses with probability below 23 e^-60 < 1e-24.
    best = frame.assign(score=frame.score + (frame.label == "d") * 10)
    assert dpsel.dask.select(best, label="label", score="score", epsilon="60") == "d"
    with pytest.raises(dpsel.EmptyError, match="no rows"):
        dpsel.dask.select(frame[frame.score > 100], label="label", score="score", epsilon="1")


def test_states_keyed_with_a_mac(client):
    frame = groups_frame(1, LABELS * 4, SCORES * 4, 4)
    key = bytes(range(100, 132))
    assert dpsel.dask.select(frame, label="label", score="score", epsilon="1", key=key) in LABELS
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
    ({"views": [5.0, 3.5, 2.0, 9.0]}, {}, TypeError, r"3\.5, not an integer"),
    ({"views": ["5", "3", "2", "9"]}, {}, TypeError, "'5', not an integer"),
    ({"views": [True, False, True, True]}, {}, TypeError, r"dtype bool.*astype\(int\)"),
    ({"views": pandas.Series([5, True, 2, 9], dtype=object)}, {}, TypeError,
     r"score column 'views'\[1\] is True, a bool.*astype\(int\)"),
    ({"views": pandas.to_datetime(["2026-11-01"] * 4)}, {}, TypeError, "dtype datetime64"),
    ({"views": [5, 3, 2**70, 9]}, {}, dpsel.RangeError, "outside the int64 range"),
    ({"views": [5.0, float("nan"), 2.0, 9.0]}, {}, ValueError,
     "score column 'views' has a missing"),
    ({"views": pandas.array([5, None, 2, 9], dtype="Int64")}, {}, ValueError, "missing"),
    ({"page": ["a", None, "a", "b"]}, {}, ValueError, "label column 'page' has a missing"),
    ({"day": [1.0, float("nan"), 2.0, 2.0]}, {"by": "day"}, ValueError,
     "group column 'day' has a missing"),
    ({"page": ["a" * 70000, "b", "a", "b"]}, {}, dpsel.RangeError, "PARTIAL_MEMBER_MAX"),
])
def test_bad_input_is_refused(client, change, arguments, error, message):
    frame = dd.from_pandas(BASE.assign(**change), npartitions=2)
    options = {"label": "page", "score": "views", "epsilon": "1", **arguments}
    with pytest.raises(error, match=message):
        dpsel.dask.select(frame, **options)


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
