# SPDX-License-Identifier: ISC
"""Partial selections: shards merged in any order release with the
distribution of one selection over all candidates (a fit), and states
serialise (unkeyed, and keyed with a MAC), pickle and refuse what is not
theirs."""

import pickle

import pytest

import dpsel

from conftest import chi_square_fits

PARAMS = dpsel.Params.from_epsilon("1", monotonic=True)
OTHER = dpsel.Params.from_epsilon("2", monotonic=True)  # another base
SHARDS = [[41, 38], [40, 12, 33], [39, 40]]
SCORES = [score for shard in SHARDS for score in shard]


def sharded(rng):
    """One Partial per shard, members the global positions, merged."""
    states, position = [], 0
    for shard in SHARDS:
        state = dpsel.Partial(PARAMS)
        for score in shard:
            state.add(score, position.to_bytes(2, "big"), rng)
            position += 1
        states.append(state)
    states[2].merge(states[0], rng)
    states[1].merge(states[2], rng)
    return states[1]


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_merged_shards_fit_the_pmf(mechanism):
    draws, rng, selector = 20_000, dpsel.Rng.seeded(b"shards"), dpsel.Selector(PARAMS)
    counts = [0] * len(SCORES)
    for _ in range(draws):
        counts[int.from_bytes(sharded(rng).finish(selector, mechanism, rng), "big")] += 1
    pmf = dpsel.pmf(PARAMS, SCORES, mechanism)
    fits, statistic, dof = chi_square_fits(counts, [pmf.probability(i) for i in range(len(pmf))],
                                           draws)
    assert fits, f"chi-square {statistic:.2f} with {dof} degrees of freedom"


def test_states_serialise_and_pickle():
    state = sharded(dpsel.Rng.seeded(b"s"))
    assert len(state) == len(SCORES) and "7 candidates" in repr(state)
    data = state.to_bytes()
    again = dpsel.Partial.from_bytes(PARAMS, data)
    assert again.to_bytes() == data and len(again) == len(SCORES)
    assert pickle.loads(pickle.dumps(state)).to_bytes() == data
    selector = dpsel.Selector(PARAMS)
    assert (again.finish(selector, rng=dpsel.Rng.seeded(b"f"))
            == state.finish(selector, rng=dpsel.Rng.seeded(b"f")))


def test_what_is_not_a_state_is_refused():
    data = bytearray(sharded(dpsel.Rng.seeded(b"s")).to_bytes())
    with pytest.raises(dpsel.StateError):
        dpsel.Partial.from_bytes(OTHER, data)
    data[len(data) // 2] ^= 1
    with pytest.raises(dpsel.StateError):
        dpsel.Partial.from_bytes(PARAMS, data)
    with pytest.raises(dpsel.StateError):
        dpsel.Partial.from_bytes(PARAMS, b"")


KEY = bytes(range(32))


def test_keyed_states_round_trip_and_refuse_the_other_forms():
    state = sharded(dpsel.Rng.seeded(b"s"))
    keyed, plain = state.to_bytes(key=KEY), state.to_bytes()
    assert keyed[4] == 2 and plain[4] == 1 and keyed[5:-32] == plain[5:-32]
    again = dpsel.Partial.from_bytes(PARAMS, keyed, key=bytearray(KEY))
    assert again.to_bytes(KEY) == keyed and len(again) == len(SCORES)
    selector = dpsel.Selector(PARAMS)
    assert (again.finish(selector, rng=dpsel.Rng.seeded(b"f"))
            == state.finish(selector, rng=dpsel.Rng.seeded(b"f")))
    for data, key in [(keyed, KEY[:-1] + b"\xff"), (plain, KEY), (keyed, None),
                      (keyed[:-1], KEY)]:
        with pytest.raises(dpsel.StateError):
            dpsel.Partial.from_bytes(PARAMS, data, key=key)
    for i in range(len(keyed)):  # any byte changed
        changed = bytearray(keyed)
        changed[i] ^= 0x40
        with pytest.raises(dpsel.StateError):
            dpsel.Partial.from_bytes(PARAMS, bytes(changed), key=KEY)


@pytest.mark.parametrize("key, error, message", [
    (b"short", ValueError, "key must be 16 to 64 bytes, not 5"),
    (bytes(65), ValueError, "not 65"),
    ("a str key of thirty-two letters", TypeError, "key must be bytes, not str"),
    (32, TypeError, "key must be bytes, not int"),
])
def test_bad_keys(key, error, message):
    state = dpsel.Partial(PARAMS)
    with pytest.raises(error, match=message):
        state.to_bytes(key=key)
    with pytest.raises(error, match=message):
        dpsel.Partial.from_bytes(PARAMS, state.to_bytes(), key=key)


def test_bad_partials():
    state, selector = dpsel.Partial(PARAMS), dpsel.Selector(PARAMS)
    with pytest.raises(dpsel.EmptyError):
        state.finish(selector)
    state.add(3)
    assert state.finish(selector) == b""
    with pytest.raises(dpsel.RangeError):
        state.merge(state)  # itself
    with pytest.raises(dpsel.RangeError):
        state.merge(dpsel.Partial(OTHER))
    with pytest.raises(dpsel.RangeError):
        state.finish(dpsel.Selector(OTHER))
    with pytest.raises(dpsel.RangeError):
        state.add(1, bytes(dpsel.PARTIAL_MEMBER_MAX + 1))
    with pytest.raises(TypeError):
        state.add(1, "label")
    with pytest.raises(TypeError):
        state.merge([1, 2])
    with pytest.raises(TypeError):
        state.finish("selector")


def test_add_many_is_its_adds():
    # One C call for the lot: the same state, byte for byte, and the same
    # random bits as add() row by row, from a list and a numpy array.
    numpy = pytest.importorskip("numpy")
    scores = [(i * 37) % 23 - 11 for i in range(5000)]
    members = [bytes(range(i % 4)) * (i % 3) for i in range(5000)]
    one, many = dpsel.Partial(PARAMS), dpsel.Partial(PARAMS)
    rng_one, rng_many = dpsel.Rng.seeded(b"many"), dpsel.Rng.seeded(b"many")
    for score, member in zip(scores, members):
        one.add(score, member, rng=rng_one)
    many.add_many(scores[:2000], members[:2000], rng=rng_many)
    many.add_many(numpy.array(scores[2000:]), members[2000:], rng=rng_many)
    many.add_many([], [], rng=rng_many)
    assert len(many) == 5000 and many.to_bytes() == one.to_bytes()
    # Where the sources stand: eight uniform draws among 64 equal scores.
    selector = dpsel.Selector(PARAMS)
    assert ([selector.select([0] * 64, rng=rng_one) for _ in range(8)]
            == [selector.select([0] * 64, rng=rng_many) for _ in range(8)])


@pytest.mark.parametrize("scores, members, error, message", [
    ([1, 2], [b"a"], ValueError, "1 members for 2 scores"),
    ([1], ["a"], TypeError, r"members\[0\] must be bytes"),
    ([1, 2], [b"a", bytes(dpsel.PARTIAL_MEMBER_MAX + 1)], dpsel.RangeError,
     r"members\[1\] has more than PARTIAL_MEMBER_MAX \(65536\) bytes"),
    ([1.5], [b"a"], TypeError, "not an integer"),
])
def test_add_many_refuses_bad_input(scores, members, error, message):
    state = dpsel.Partial(PARAMS)
    with pytest.raises(error, match=message):
        state.add_many(scores, members)
    assert len(state) == 0
    state.add(1, b"usable")
