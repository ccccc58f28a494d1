# SPDX-License-Identifier: ISC
"""dpsel.rnm_select: report noisy max with exact Laplace noise."""

import math

import pytest

import dpsel


def test_two_scores_fit():
    # b = 60/7 (epsilon 0.7, D = 3, not monotonic), gap 5: P(second) =
    # e^-u (1 + u/2) / 2 with u = 5 * 7 / 60.  20000 draws, seed fixed: the
    # frequency is within 5 standard deviations (false alarm 6e-7).
    rng = dpsel.Rng.seeded(b"rnm40")
    draws = 20000
    seconds = sum(dpsel.rnm_select([5, 0], "0.7", 3, rng=rng) for _ in range(draws))
    u = 5 * 7 / 60
    p = math.exp(-u) * (1 + u / 2) / 2
    assert abs(seconds - draws * p) < 5 * math.sqrt(draws * p * (1 - p))


def test_labels_and_decimal_epsilon():
    pd = pytest.importorskip("pandas")
    votes = pd.Series([120, 97, 300], index=["a", "b", "c"])
    assert dpsel.rnm_select(votes, "2", monotonic=True, rng=dpsel.Rng.seeded(b"1")) in "abc"


@pytest.mark.parametrize("call, error, words", [
    (lambda: dpsel.rnm_select([1, 2], "0"), dpsel.EpsilonError, ""),
    (lambda: dpsel.rnm_select([1, 2], "1e-30"), dpsel.EpsilonError, ""),
    (lambda: dpsel.rnm_select([], "1"), dpsel.EmptyError, ""),
    (lambda: dpsel.rnm_select([1, 2], "1", 0), dpsel.RangeError, ""),
    (lambda: dpsel.rnm_select([1.5, 2], "1"), (TypeError, ValueError), ""),
])
def test_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_selector_refuses_rnm():
    selector = dpsel.Selector(dpsel.Params.from_epsilon("1"))
    with pytest.raises(dpsel.RangeError):
        selector.select([1, 2], "rnm")


def test_top_is_distinct_and_fits():
    # The top 2 of [5, 0, 0] at b = 60/7: after a 0 comes first, the other 0
    # follows with s = e^-u (1 + u/2) / 2 (u = 5 * 7 / 60), the 5 with 1 - s.
    # 6000 draws, seed fixed; within 5 standard deviations (false alarm 6e-7).
    rng = dpsel.Rng.seeded(b"rnmtop40")
    pairs = [dpsel.rnm_select_top([5, 0, 0], 2, "0.7", 3, rng=rng) for _ in range(6000)]
    assert all(len(set(pair)) == 2 and set(pair) <= {0, 1, 2} for pair in pairs)
    after_zero = [pair for pair in pairs if pair[0] != 0]
    others = sum(1 for pair in after_zero if pair[1] != 0)
    u = 5 * 7 / 60
    s = math.exp(-u) * (1 + u / 2) / 2
    n = len(after_zero)
    assert abs(others - n * s) < 5 * math.sqrt(n * s * (1 - s))


def test_top_labels_and_all():
    pd = pytest.importorskip("pandas")
    votes = pd.Series([120, 97, 300], index=["a", "b", "c"])
    top = dpsel.rnm_select_top(votes, 3, "2", monotonic=True, rng=dpsel.Rng.seeded(b"2"))
    assert sorted(top) == ["a", "b", "c"]


def test_top_bad_k():
    with pytest.raises(dpsel.RangeError, match="k 3 is not 1 to the number of candidates, 2"):
        dpsel.rnm_select_top([1, 2], 3, "1")
    with pytest.raises(dpsel.RangeError):
        dpsel.rnm_select_top([1, 2], 0, "1")
    with pytest.raises(dpsel.EpsilonError):
        dpsel.rnm_select_top([1, 2], 1, "1e-30")


def test_scale():
    assert dpsel.rnm_scale("0.25e1", 3) == (12, 5)
    assert dpsel.rnm_scale("1e-18", monotonic=True) == (10**18, 1)
    with pytest.raises(dpsel.EpsilonError):
        dpsel.rnm_scale("1e-19")
    with pytest.raises(dpsel.RangeError):
        dpsel.rnm_scale("1", 0)


def test_accountant_takes_rnm():
    accountant = dpsel.Accountant()
    accountant.add("rnm", "0.5", 3)
    account = accountant.report()
    assert account.pure == "1.5000000000000000"
    assert account.rho == "0.37500000000000000"
