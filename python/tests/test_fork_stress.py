# SPDX-License-Identifier: ISC
"""Fork after threads, at scale: worker threads select
with their own sources (their thread's default and an Rng.os() each) while
the main thread forks CHILDREN children one after another.  Each child
releases with PF from the main thread's default source (made and used
before the first fork; the parent draws from it between forks, so that its
buffer holds unread bits at every fork) and draws an 84-bit word from it
and from an Rng.os() made before the forks.  Three checks, each a false
alarm with probability at most 1e-6 (3e-6 in all):

- the releases fit the exact pmf (chi-square);
- equal consecutive releases are not more frequent than chance: the count
  of CHILDREN - 1 pairs (mean 244, limit 317 here) sees one child in 17
  (5.8%) repeating its predecessor's release;
- no two 84-bit words (the children's and the parent's) are equal: 4500
  independent ones collide with probability below 2^-60; a child that
  replays another's or the parent's bits is caught with certainty.
"""

import math
import mmap
import os
import struct
import threading
import time

import dpsel

from conftest import chi_square_fits

CHILDREN = 1500
THREADS = 4
SCORES = list(range(15, -1, -1))  # gaps 0 .. 15 at base 3/4 (PF): sum of p^2 0.163
PARAMS = dpsel.Params.from_base(3, 2)
SELECTOR = dpsel.Selector(PARAMS)
# A child's report: done, its release, its two words (high and low halves).
RECORD = struct.Struct("<qq4Q")


def half_word(rng):
    """A uniform draw among 2^42 - 1 points: EM over one run of equal scores."""
    return dpsel.quantile_select(SELECTOR, 1, 2, [], 0, dpsel.QUANTILE_EM_GRID_MAX - 1,
                                 "em", rng)


def word(rng):
    return half_word(rng), half_word(rng)


def run_child(slot, shared, own):
    """The child's work; it leaves through os._exit whatever happens, and
    its report says whether it was done."""
    try:
        release = SELECTOR.select(SCORES, "pf")  # the main thread's default source
        shared[slot * RECORD.size:(slot + 1) * RECORD.size] = RECORD.pack(
            1, release, *word(None), *word(own))
    finally:
        os._exit(0)


def select_until(stop):
    own = dpsel.Rng.os()
    while not stop.is_set():
        SELECTOR.select(SCORES, "em")
        SELECTOR.select(SCORES, "pf", own)
        time.sleep(0.001)  # leaves the forking thread most of a core


def fork_children(shared, own):
    """The children's reports, and the words the parent drew between forks."""
    parent_words = []
    for slot in range(CHILDREN):
        pid = os.fork()
        if pid == 0:
            run_child(slot, shared, own)
        parent_words.append(word(None))
        assert os.waitpid(pid, 0)[1] == 0
    reports = [RECORD.unpack_from(shared, slot * RECORD.size) for slot in range(CHILDREN)]
    assert all(report[0] == 1 for report in reports), "a child failed"
    return reports, parent_words


def equal_pairs_limit(probabilities, n):
    """Mean and limit (4.753 standard deviations above: one-sided 1e-6) of
    the count of equal consecutive releases among n independent ones:
    variance (n - 1)(s - s^2) + 2 (n - 2)(t - s^2), s the sum of p^2, t of
    p^3 (neighbouring pairs share a release)."""
    s = sum(float(p) ** 2 for p in probabilities)
    t = sum(float(p) ** 3 for p in probabilities)
    mean = (n - 1) * s
    variance = (n - 1) * (s - s * s) + 2 * (n - 2) * (t - s * s)
    return mean, mean + 4.753424 * math.sqrt(variance)


def test_children_forked_after_threads_draw_independently():
    SELECTOR.select(SCORES, "pf")  # the main thread's default source, used
    own = dpsel.Rng.os()
    SELECTOR.select(SCORES, "pf", own)
    stop = threading.Event()
    workers = [threading.Thread(target=select_until, args=(stop,)) for _ in range(THREADS)]
    for worker in workers:
        worker.start()
    shared = mmap.mmap(-1, CHILDREN * RECORD.size)  # MAP_SHARED: the children write here
    try:
        reports, parent_words = fork_children(shared, own)
    finally:
        stop.set()
        for worker in workers:
            worker.join()
    releases = [report[1] for report in reports]

    pmf = dpsel.pmf(PARAMS, SCORES, "pf")
    probabilities = [pmf.probability(i) for i in range(len(SCORES))]
    counts = [releases.count(i) for i in range(len(SCORES))]
    fits, statistic, dof = chi_square_fits(counts, probabilities, CHILDREN)
    assert fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"

    mean, limit = equal_pairs_limit(probabilities, CHILDREN)
    equal = sum(a == b for a, b in zip(releases, releases[1:]))
    assert equal < limit, f"{equal} equal consecutive releases, expected {mean:.0f}"

    words = [tuple(report[2:4]) for report in reports] + [tuple(report[4:6])
                                                            for report in reports] + parent_words
    assert len(set(words)) == len(words), "two 84-bit words are equal"
