# SPDX-License-Identifier: ISC
"""dpsel.rnm_select: report noisy max with exact Laplace noise (issue 40)."""

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
