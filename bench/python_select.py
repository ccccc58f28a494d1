# SPDX-License-Identifier: ISC
"""The Python binding's cost: Selector.select on 10^6 int64 scores (a numpy
array, passed without a copy) against dpsel_select itself, called through
ctypes with nothing around it, in alternation round by round so that
machine noise hits both alike; medians per cell.  Run by `make bench`
(`make bench-python` alone).  The target: within 10%.  A Python
list of the same scores is timed too, for the price of its conversion."""

import ctypes
import statistics
import sys
import time
import timeit

import numpy

import dpsel
from dpsel._native import lib as _lib

N = 10**6
ROUNDS = 301


def scores_by_kind():
    # numpy's generator makes the scores only; it is not a source for releases.
    generator = numpy.random.default_rng(20)
    two_level = numpy.zeros(N, dtype=numpy.int64)
    two_level[1::2] = -1000
    return {"uniform in [0, 1000]": generator.integers(0, 1001, N, dtype=numpy.int64),
            "two-level (0, -1000, ...)": two_level}


def direct_call(selector, mechanism, scores, rng):
    """dpsel_select through ctypes alone: the C call's own time."""
    index = ctypes.c_size_t()
    address = scores.ctypes.data
    return lambda: _lib.lib.dpsel_select(selector._handle, mechanism, address, N, rng,
                                         ctypes.byref(index))


def seconds(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def cell(selector, mechanism, scores, c_rng):
    """Median seconds of (Selector.select, the direct call), alternating."""
    python = lambda: selector.select(scores, mechanism)  # noqa: E731
    direct = direct_call(selector, mechanism, scores, c_rng)
    times = {python: [], direct: []}
    for round in range(ROUNDS):
        # Each goes first in every other round: neither always finds the
        # caches as the other left them.
        for call in (python, direct) if round % 2 else (direct, python):
            times[call].append(seconds(call))
    return statistics.median(times[python]), statistics.median(times[direct])


def cell_of_one(selector, one, c_rng):
    """Mean seconds per call on one candidate, 10^5 calls of each."""
    index = ctypes.c_size_t()
    python = timeit.timeit(lambda: selector.select(one), number=10**5) / 10**5
    direct = timeit.timeit(lambda: _lib.lib.dpsel_select(selector._handle, 0, one.ctypes.data, 1,
                                                         c_rng, ctypes.byref(index)),
                           number=10**5) / 10**5
    return python, direct


def main():
    selector = dpsel.Selector(dpsel.Params.from_epsilon("1"))
    rng = dpsel.Rng.os()  # the direct call's own OS source, as Selector.select's
    print(f"python_select: n = 10^6, epsilon 1, medians of {ROUNDS} alternating runs; "
          f"load average {open('/proc/loadavg').read().split()[0]}")
    print("| scores | mechanism | Selector.select (ms) | dpsel_select (ms) | ratio |")
    print("| --- | --- | --- | --- | --- |")
    worst = 0.0
    for kind, scores in scores_by_kind().items():
        for mechanism in (dpsel.Mechanism.PF, dpsel.Mechanism.EM):
            python, direct = cell(selector, mechanism, scores, rng._pointer)
            worst = max(worst, python / direct)
            print(f"| {kind} | {mechanism.name.lower()} | {python * 1e3:.3f} | "
                  f"{direct * 1e3:.3f} | {python / direct:.3f} |")
    one = numpy.zeros(1, dtype=numpy.int64)
    python, direct = cell_of_one(selector, one, rng._pointer)
    print(f"one candidate (the fixed cost of a call): Selector.select {python * 1e6:.2f} us, "
          f"dpsel_select through ctypes {direct * 1e6:.2f} us")
    as_list = scores_by_kind()["uniform in [0, 1000]"].tolist()
    conversion = statistics.median(seconds(lambda: selector.select(as_list)) for _ in range(5))
    print(f"a list of 10^6 ints instead (converted each call): {conversion * 1e3:.1f} ms")
    print(f"python_select: worst ratio {worst:.3f} (target: at most 1.10)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
