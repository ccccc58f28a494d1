# SPDX-License-Identifier: ISC
"""The accountant, against the figures of docs/cli.md."""

from fractions import Fraction

import pytest

import dpsel


def ten_em_releases():
    accountant = dpsel.Accountant()
    accountant.add("em", "0.1", 10)
    return accountant


def test_the_readme_s_ten_em_releases():
    account = ten_em_releases().report("1e-6")
    assert account.releases == 10
    assert (account.pure, account.rho) == ("1.0000000000000000", "0.012500000000000000")
    assert account.zcdp == "0.70020510460121275"
    assert account.bounded_range == "0.84362733240915334"
    assert account.dp_optimal == "0.99937090572175873"
    assert (account.best, account.best_method) == ("0.70020510460121275", "zcdp")
    nonadaptive = ten_em_releases().report(Fraction(1, 10**6), "nonadaptive")
    assert (nonadaptive.best, nonadaptive.best_method) == ("0.62863683877322238",
                                                            "bounded-range")


def test_without_a_delta_only_pure_epsilon_and_rho():
    accountant = dpsel.Accountant()
    accountant.add(dpsel.Mechanism.PF, 0.5)
    accountant.add("em", 1, count=2)
    account = accountant.report()
    assert account.pure == "2.5000000000000000" and account.rho == "0.37500000000000000"
    assert account.zcdp is account.bounded_range is account.dp_optimal is None
    assert account.best_method == "pure"


def test_params_count_their_realised_epsilon():
    accountant = dpsel.Accountant()
    accountant.add_params("pf", dpsel.Params.from_base(1, 1, monotonic=True), 2)
    assert accountant.report().pure == "1.3862943611198907"  # 2 ln 2, rounded up


def test_bad_releases_add_nothing():
    accountant = dpsel.Accountant()
    with pytest.raises(dpsel.EmptyError):
        accountant.report()
    with pytest.raises(dpsel.RangeError):
        accountant.add("em", "1", 0)
    with pytest.raises(dpsel.EpsilonError):
        accountant.add("em", "0")
    with pytest.raises(dpsel.RangeError):
        accountant.add("laplace", "1")
    with pytest.raises(dpsel.EmptyError):
        accountant.report()
    accountant.add("em", "1")
    with pytest.raises(dpsel.RangeError):
        accountant.report("2")
    with pytest.raises(dpsel.EpsilonError):
        accountant.report("tiny")
    with pytest.raises(dpsel.RangeError):
        accountant.report("1e-6", "sometimes")
    with pytest.raises(TypeError):
        accountant.add_params("em", "1")
