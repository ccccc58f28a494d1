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


def test_figures_are_decimals_never_negative():
    # CKS's bound at delta 0.5 is -0.693...: stated as 0 (it printed as
    # "0.-69314693055996093"); an epsilon of 1e20 gave "0.@Inf@"
    accountant = dpsel.Accountant()
    accountant.add("em", "0.001")
    account = accountant.report("0.5")
    assert (account.zcdp, account.dp_optimal, account.best) == ("0", "0", "0")
    huge = dpsel.Accountant()
    huge.add("em", "1e20")
    assert huge.report("1e-3").bounded_range == "2.8584610944249193e+20"


def test_the_bounded_range_names_its_composition():
    accountant = dpsel.Accountant()
    accountant.add("em", "0.01", 257)
    past = accountant.report("1e-6", "nonadaptive")
    assert past.bounded_range_composition == "adaptive"  # past 256 releases
    assert ten_em_releases().report("1e-6", "nonadaptive").bounded_range_composition \
        == "non-adaptive"
    assert ten_em_releases().report("1e-6").bounded_range_composition == "adaptive"
    assert ten_em_releases().report().bounded_range_composition is None


def test_groups_are_each_release_k_times_and_the_theorem():
    group = ten_em_releases().report_group(3, "1e-6")
    direct = dpsel.Accountant()
    direct.add("em", "0.3", 10)
    assert group.group == 3
    assert group.account == direct.report("1e-6")
    assert (group.epsilon, group.delta) == ("2.1006153138036383", "0.000012170591365268640")
    alone = ten_em_releases().report_group(1, "1e-6")
    assert alone.account == ten_em_releases().report("1e-6")
    assert (alone.epsilon, alone.delta) == ("0.70020510460121275", "1.0000000000000000e-6")
    pure = ten_em_releases().report_group(2)
    assert (pure.account.pure, pure.epsilon, pure.delta) == ("2.0000000000000000", None, None)


@pytest.mark.parametrize("group", [0, 2**32 + 1])
def test_a_group_out_of_range_is_refused(group):
    with pytest.raises(dpsel.RangeError, match=f"group {group} is not from 1 to 2\\^32"):
        ten_em_releases().report_group(group)
