# SPDX-License-Identifier: ISC
"""Report noisy max's exact distribution and audit from Python (rnm_pmf,
rnm_audit; spec/mechanisms.md §14)."""

from decimal import Decimal

import pytest

import dpsel


def test_two_scores_closed_form():
    # P(second) = e^-1 (1 + 1/2) / 2 at b = 1, gap 1
    pmf = dpsel.rnm_pmf([1, 0], "1", monotonic=True)
    lo, hi = pmf.bounds(1)
    assert Decimal(lo) <= Decimal("0.27590958087858174119664282762109565") <= Decimal(hi)
    assert pmf.probability(1, exact="text") == "0.27590958087858174"
    assert pmf.expected_error(exact="text") == "0.27590958087858174"
    assert abs(pmf.probability(0, exact=False) + pmf.probability(1, exact=False) - 1) < 1e-15


def test_groups_and_labels():
    pd = pytest.importorskip("pandas")
    votes = pd.Series({"a": 5, "b": 5, "c": 1})
    grouped = dpsel.rnm_pmf([5, 1], "0.5", multiplicity=[2, 1])
    single = dpsel.rnm_pmf(votes, "0.5")
    # a group's probability is its members' together; a Series' labels kept
    assert single.probability(0, exact="text") == single.probability(1, exact="text")
    assert abs(grouped.probability(0, exact=False) - 2 * single.probability(0, exact=False)) < 1e-15


def test_no_exact_rationals():
    pmf = dpsel.rnm_pmf([3, 1, 2], "1")
    with pytest.raises(dpsel.RangeError, match="not rational"):
        pmf.probability(0)
    with pytest.raises(dpsel.RangeError, match="not rational"):
        pmf.expected_error()


def test_audit_catches_the_notebooks_scale():
    broken = dpsel.rnm_audit([11, 0], [10, 1], "1", monotonic=True)
    assert broken.verdict == dpsel.Verdict.BROKEN
    assert broken.loss_lower.startswith("1.8329459153368338")
    holds = dpsel.rnm_audit([11, 0], [10, 1], "1")
    assert holds.holds and holds.neighbours


@pytest.mark.parametrize("call, error", [
    (lambda: dpsel.rnm_pmf([], "1"), dpsel.EmptyError),
    (lambda: dpsel.rnm_pmf([1, 2], "-1"), dpsel.EpsilonError),
    (lambda: dpsel.rnm_pmf([1, 2], "1", sensitivity=0), dpsel.RangeError),
    (lambda: dpsel.rnm_pmf([1, 2], "1", multiplicity=[1]), ValueError),
    (lambda: dpsel.rnm_pmf(list(range(3000)), "1"), dpsel.TooLargeError),
    (lambda: dpsel.rnm_audit([1, 2], [1], "1"), ValueError),
])
def test_bad_input(call, error):
    with pytest.raises(error):
        call()


def test_progress_cancels():
    with pytest.raises(dpsel.CanceledError):
        dpsel.rnm_pmf(list(range(100)), "1", progress=lambda done: False)


def test_the_params_calls_name_the_rnm_ones():
    params = dpsel.Params.from_epsilon("1")
    with pytest.raises(dpsel.RangeError, match=r"dpsel\.rnm_pmf\("):
        dpsel.pmf(params, [1, 0], "rnm")
    with pytest.raises(dpsel.RangeError, match=r"dpsel\.rnm_audit\("):
        dpsel.audit(params, [1, 0], [0, 1], "rnm")
