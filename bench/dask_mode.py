#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""dpsel.dask.mode against the Dask code it replaces, value_counts().idxmax()
(the non-private mode), on one frame of raw rows held by the workers of a
distributed.LocalCluster of two processes (`make bench-dask`; not part of
check).  Each line gives the median wall time of RUNS runs of each, run in
turn, and their ratio; the target is a ratio of at most 2.

    DPSEL_BENCH_ROWS   rows (default 10^7)
    DPSEL_BENCH_GROUPS groups of the `by` line (default 10^5)
    DPSEL_BENCH_RUNS   runs of each (default 5)
"""

import logging
import os
import statistics
import time

import dask.dataframe as dd
import distributed
import numpy
import pandas

import dpsel
import dpsel.dask

ROWS = int(float(os.environ.get("DPSEL_BENCH_ROWS", "1e7")))
GROUPS = int(float(os.environ.get("DPSEL_BENCH_GROUPS", "1e5")))
RUNS = int(os.environ.get("DPSEL_BENCH_RUNS", "5"))
PARTITIONS = 8
STATUSES = ["married", "never", "widowed", "divorced", "separated"]


def raw_rows(client):
    """ROWS people, each of a status (married the most common) and a group,
    persisted in the workers' memory."""
    rng = numpy.random.default_rng(38)
    status = rng.choice(len(STATUSES), size=ROWS, p=[0.45, 0.3, 0.1, 0.1, 0.05])
    frame = pandas.DataFrame({"group": rng.integers(0, GROUPS, size=ROWS),
                              "status": numpy.array(STATUSES, dtype=object)[status]})
    return client.persist(dd.from_pandas(frame, npartitions=PARTITIONS))


def compare(name, dpsel_task, dask_task):
    """Runs the two in turn, RUNS times each, and prints the medians."""
    ours, theirs = [], []
    for _ in range(RUNS):
        for task, times in ((dask_task, theirs), (dpsel_task, ours)):
            start = time.perf_counter()
            task()
            times.append(time.perf_counter() - start)
    mine, base = statistics.median(ours), statistics.median(theirs)
    print(f"{name:<44} {mine:8.3f} s {base:8.3f} s {mine / base:7.2f}x", flush=True)


def main():
    os.environ.setdefault("DPSEL_LIBRARY", os.path.abspath(dpsel._native.lib.lib._name))
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                  silence_logs=logging.ERROR) as cluster, \
            distributed.Client(cluster) as client:
        frame = raw_rows(client)
        print(f"# {ROWS} rows in {PARTITIONS} partitions on a LocalCluster of 2 worker processes"
              f"; medians of {RUNS} runs each, taken in turn")
        print(f"{'task':<44} {'dpsel':>10} {'dask':>10} {'ratio':>8}")
        compare("mode of all rows (value_counts().idxmax())",
                lambda: dpsel.dask.mode(frame, "status", STATUSES, "1"),
                lambda: frame["status"].value_counts().idxmax().compute())
        compare(f"mode per group, {GROUPS} groups (size, idxmax)",
                lambda: dpsel.dask.mode(frame, "status", STATUSES, "1", by="group"),
                lambda: frame.groupby(["group", "status"]).size().compute()
                .groupby(level="group").idxmax())


if __name__ == "__main__":
    main()
