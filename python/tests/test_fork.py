# SPDX-License-Identifier: ISC
"""Fork safety: processes forked by multiprocessing (the fork start method)
never share a random bit with their parent or with each other, whether they
use their thread's default source or an OS source made before the fork.
The test: 16 EM selections among 2^20 equal candidates; two independent
lists are equal with probability 2^-320."""

import multiprocessing

import numpy
import pytest

import dpsel

FORK = multiprocessing.get_context("fork")
SELECTOR = dpsel.Selector(dpsel.Params.from_epsilon("1"))
EQUAL = numpy.zeros(1 << 20, dtype=numpy.int64)
SOURCES = {}  # made in the parent, inherited by the children


def sixteen(source):
    rng = SOURCES.get(source)
    return [SELECTOR.select(EQUAL, "em", rng) for _ in range(16)]


def in_two_children(source):
    """sixteen(source) in two forked processes, one call each."""
    with FORK.Pool(2) as pool:
        return pool.map(_once_both_started, [source] * 2, chunksize=1)


_BOTH_STARTED = FORK.Barrier(2)


def _once_both_started(source):
    # The barrier keeps one process from taking both calls.
    _BOTH_STARTED.wait()
    return sixteen(source)


@pytest.mark.parametrize("source", ["default", "os", "seeded"])
def test_forked_processes_draw_their_own_bits(source):
    SOURCES.clear()
    if source == "os":
        SOURCES[source] = dpsel.Rng.os()
    elif source == "seeded":
        SOURCES[source] = dpsel.Rng.seeded(b"replayed")
    before = sixteen(source)  # the parent's source has drawn bits before the fork
    first, second = in_two_children(source)
    parent = sixteen(source)
    if source == "seeded":
        # A deterministic stream, by design: both children replay the
        # parent's bits (so the test sees a shared stream when there is one).
        assert first == second == parent and before != parent
    else:
        assert len({tuple(before), tuple(parent), tuple(first), tuple(second)}) == 4


def shard_state(shard):
    state = dpsel.Partial(SELECTOR.params)
    for position, score in shard:
        state.add(score, bytes([position]))
    return state  # pickled back to the parent


def test_partial_selections_come_back_from_the_children():
    scores = [5, 9, 9, 1, 7, 9]
    shards = [list(enumerate(scores))[:3], list(enumerate(scores))[3:]]
    with FORK.Pool(2) as pool:
        states = pool.map(shard_state, shards)
    states[0].merge(states[1])
    assert len(states[0]) == 6 and states[0].finish(SELECTOR)[0] in range(6)
