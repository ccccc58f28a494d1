# SPDX-License-Identifier: ISC
"""Selector and Rng: the three selections, labels, the random sources, and
every bad argument."""

import copy
import itertools
import pickle

import numpy
import pandas
import pytest

import dpsel

VOTES = [41, 38, 40, 12, 33]


@pytest.fixture
def selector():
    return dpsel.Selector(dpsel.Params.from_epsilon("1", monotonic=True))


def seeded_choices(selector, method, *arguments, seed=b"\x01", count=12, **options):
    rng = dpsel.Rng.seeded(seed)
    return [getattr(selector, method)(*arguments, rng=rng, **options) for _ in range(count)]


@pytest.mark.parametrize("method", ["select", "select_hardened"])
@pytest.mark.parametrize("mechanism", ["pf", "em", "PF", dpsel.Mechanism.EM, 1])
def test_selections_are_indices_and_replay_on_a_seed(selector, method, mechanism):
    first = seeded_choices(selector, method, VOTES, mechanism=mechanism)
    assert first == seeded_choices(selector, method, VOTES, mechanism=mechanism)
    assert all(isinstance(i, int) and 0 <= i < len(VOTES) for i in first)
    assert first != seeded_choices(selector, method, VOTES, mechanism=mechanism, seed=b"\x02")


def test_a_series_gives_its_labels(selector):
    votes = pandas.Series(VOTES, index=["Emma", "Dune", "Middlemarch", "Ulysses", "Beloved"])
    by_label = seeded_choices(selector, "select", votes)
    by_index = seeded_choices(selector, "select", VOTES)
    assert by_label == [votes.index[i] for i in by_index]
    numbered = pandas.Series(VOTES, index=numpy.arange(100, 105))
    label = selector.select(numbered)
    assert type(label) is int and 100 <= label < 105  # a Python int, not numpy's


def test_top_k_gives_k_distinct_candidates_in_the_order_chosen(selector):
    for mechanism in ("pf", "em"):
        top = selector.select_top(VOTES, 3, mechanism, rng=dpsel.Rng.seeded(b"top"))
        assert len(top) == len(set(top)) == 3
        # k = 1 is select, bit for bit.
        assert (seeded_choices(selector, "select_top", VOTES, 1, mechanism=mechanism)
                == [[i] for i in seeded_choices(selector, "select", VOTES, mechanism=mechanism)])
    labels = selector.select_top(pandas.Series(VOTES, index=list("abcde")), 5)
    assert sorted(labels) == list("abcde")
    for bad in (0, 6, 10**15):
        with pytest.raises(dpsel.RangeError):
            selector.select_top(VOTES, bad)


def test_the_selector_copies_its_params():
    params = dpsel.Params.from_epsilon("1")
    selector = dpsel.Selector(params)
    params.gap_cap = 1
    assert selector.params.gap_cap == 89
    selector.params.gap_cap = 2
    assert selector.params.gap_cap == 89
    assert "Selector(Params(" in repr(selector)


def test_bad_arguments(selector):
    with pytest.raises(TypeError):
        dpsel.Selector("epsilon 1")
    with pytest.raises(dpsel.RangeError, match="'pf' or 'em'"):
        selector.select(VOTES, "exponential")
    with pytest.raises(dpsel.RangeError):
        selector.select(VOTES, 2)
    with pytest.raises(TypeError):
        selector.select(VOTES, rng=b"seed")
    with pytest.raises(TypeError):
        selector.select_top(VOTES, 1.5)


def test_seeded_sources_replay_and_refuse_bad_seeds(selector):
    assert seeded_choices(selector, "select", VOTES, seed=bytes(64)) \
        == seeded_choices(selector, "select", VOTES, seed=bytearray(64))
    for bad in (b"", bytes(65)):
        with pytest.raises(dpsel.RangeError):
            dpsel.Rng.seeded(bad)
    with pytest.raises(TypeError):
        dpsel.Rng.seeded("00ff")


def test_a_source_is_never_copied_or_pickled():
    for rng in (dpsel.Rng.os(), dpsel.Rng.seeded(b"x")):
        for duplicate in (copy.copy, copy.deepcopy, pickle.dumps):
            with pytest.raises(TypeError, match="cannot be copied"):
                duplicate(rng)


def owners():
    """One of each object that owns C memory."""
    params = dpsel.Params.from_epsilon("1")
    return [dpsel.pmf(params, VOTES), dpsel.top_pmf(params, VOTES, 1), dpsel.Accountant(),
            dpsel.QuantileRuns(1, 2, [], 0, 5), dpsel.Selector(params).stream(50)]


@pytest.mark.parametrize("duplicate", [copy.copy, copy.deepcopy, pickle.dumps])
def test_what_owns_c_memory_is_never_copied(duplicate):
    # A copy would share a handle and could outlive it: a dangling pointer.
    for owner in owners():
        with pytest.raises(TypeError, match="cannot be copied"):
            duplicate(owner)


def test_a_selector_is_copied_by_making_it_again(selector):
    for duplicate in (copy.copy, copy.deepcopy, lambda s: pickle.loads(pickle.dumps(s))):
        again = duplicate(selector)
        assert again._handle != selector._handle and again.params == selector.params
        assert seeded_choices(again, "select", VOTES) == seeded_choices(selector, "select", VOTES)


def test_a_closed_source_gives_no_bits(selector):
    with dpsel.Rng.os() as rng:
        assert rng.kind == "os" and not rng.closed
        selector.select(VOTES, rng=rng)
    assert rng.closed and "closed" in repr(rng)
    with pytest.raises(dpsel.RandomSourceError):
        selector.select(VOTES, rng=rng)
    rng.close()  # twice is harmless
    seeded = dpsel.Rng.seeded(b"x")
    seeded.close()
    with pytest.raises(dpsel.RandomSourceError):
        selector.select(VOTES, rng=seeded)


def test_chosen_bits_drive_the_sampler(selector):
    # PF on two tied candidates visits one of them first, drawn with one
    # bit, and releases it: the first bit decides.
    def first_bit(b):
        return dpsel.Rng.from_bits(itertools.chain([b], itertools.repeat(0)))
    released = {selector.select([5, 5], rng=first_bit(b)) for b in (0, 1)}
    assert released == {0, 1}
    assert dpsel.Rng.from_bits([]).kind == "bits"


def test_a_failing_bit_source_is_an_error_never_a_crash(selector):
    with pytest.raises(dpsel.RandomSourceError):
        selector.select([1, 2, 3], rng=dpsel.Rng.from_bits([0]))  # runs out
    with pytest.raises(dpsel.RandomSourceError):
        selector.select([1, 2, 3], rng=dpsel.Rng.from_bits(itertools.repeat(2)))

    def broken():
        yield 1
        raise KeyError("the bit source broke")
    with pytest.raises(KeyError, match="broke") as caught:
        selector.select([1, 2, 3], rng=dpsel.Rng.from_bits(broken()))
    assert isinstance(caught.value.__cause__, dpsel.RandomSourceError)


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_a_stuck_source_is_an_unlikely_error(selector, mechanism):
    # Bits stuck at 1: a uniform draw by rejection never ends.
    with pytest.raises(dpsel.UnlikelyError):
        selector.select(list(range(1000)), mechanism,
                        rng=dpsel.Rng.from_bits(itertools.repeat(1)))
