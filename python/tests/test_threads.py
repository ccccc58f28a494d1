# SPDX-License-Identifier: ISC
"""Threads: selections in parallel give the results they give one after
another, each thread has its own default source, a shared source takes
turns, and the GIL is released while C works."""

import threading
import time

import numpy

import dpsel
from dpsel import _rng

SELECTOR = dpsel.Selector(dpsel.Params.from_epsilon("0.5"))
SCORES = numpy.arange(100_000, dtype=numpy.int64) % 1000
THREADS = 4


def run_in_threads(work):
    """work(i) in THREADS threads started together: their results, by i."""
    results = [None] * THREADS
    start = threading.Barrier(THREADS)

    def body(i):
        start.wait()
        results[i] = work(i)
    threads = [threading.Thread(target=body, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def seeded_run(i):
    rng = dpsel.Rng.seeded(bytes([i + 1]))
    return [SELECTOR.select(SCORES, ("pf", "em")[k % 2], rng) for k in range(200)]


def test_parallel_selections_are_the_sequential_ones():
    assert run_in_threads(seeded_run) == [seeded_run(i) for i in range(THREADS)]


def test_each_thread_has_its_own_default_source():
    def work(i):
        choices = [SELECTOR.select(SCORES) for _ in range(50)]
        return _rng.thread_rng(), choices
    results = run_in_threads(work)
    sources = {id(source) for source, _ in results} | {id(_rng.thread_rng())}
    assert len(sources) == THREADS + 1
    assert all(source.kind == "os" for source, _ in results)
    assert all(0 <= c < len(SCORES) for _, choices in results for c in choices)


def test_a_shared_source_takes_turns():
    shared = dpsel.Rng.seeded(b"shared")
    results = run_in_threads(lambda i: [SELECTOR.select(SCORES, rng=shared) for _ in range(100)])
    assert all(0 <= c < len(SCORES) for choices in results for c in choices)
    # Together they read the stream one selection at a time: the multiset of
    # choices is that of 400 selections in a row.
    alone = dpsel.Rng.seeded(b"shared")
    assert sorted(sum(results, [])) == sorted(SELECTOR.select(SCORES, rng=alone)
                                              for _ in range(THREADS * 100))


def test_the_gil_is_released_during_a_call():
    # While another thread spends about half a second in one C call (the
    # pmf of PF on 2000 candidates), this one keeps running: the longest
    # pause between its loop's turns stays well below the call's length.
    done, took = threading.Event(), []

    def long_call():
        start = time.perf_counter()
        dpsel.pmf(dpsel.Params.from_epsilon("0.01"), list(range(2000)), "pf")
        took.append(time.perf_counter() - start)
        done.set()
    worker = threading.Thread(target=long_call)
    last, longest = time.perf_counter(), 0.0
    worker.start()
    while not done.is_set():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    assert longest < took[0] / 2, (longest, took[0])
