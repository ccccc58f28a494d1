# SPDX-License-Identifier: ISC
"""Many quantiles in one release (JointExp): quantiles(..., joint=True),
quantiles_joint_select, joint_sensitivity and the exact marginals
(quantiles_joint_pmf), against a case computed by hand and the tool."""

import copy
from decimal import Decimal
from fractions import Fraction

import pytest

import dpsel

from conftest import REPO, run_tool

LATENCIES = REPO / "examples" / "latencies.csv"
QUARTILES = [dpsel.quantile_fraction("0.25"), dpsel.quantile_fraction("0.75")]


def latencies():
    return [line for line in LATENCIES.read_text().splitlines()
            if line and line[0].isdigit()]


def hand_case():
    """X = {0, 1} on the grid 0..1, q = 1/4, 3/4, base 1/2: the tuples
    (0,0), (0,1), (1,1) weigh 1, 256, 16 over 273 (tests/test_joint_pmf.c)."""
    params = dpsel.Params.from_base(1, 1, dpsel.joint_sensitivity(QUARTILES), False)
    return dpsel.quantiles_joint_pmf(params, QUARTILES, [0, 1], 0, 1)


def test_the_sensitivity():
    assert dpsel.joint_sensitivity(QUARTILES) == 6  # B = 4: 2 (4 - 1)
    assert dpsel.joint_sensitivity([(1, 3), (1, 2)]) == 10  # B = 6: 2 (6 - 1)
    with pytest.raises(dpsel.RangeError, match=r"fractions\[1\] = 1/4 is not above"):
        dpsel.joint_sensitivity([(3, 4), (1, 4)])
    with pytest.raises(dpsel.RangeError, match="fractions is empty"):
        dpsel.joint_sensitivity([])
    with pytest.raises(TypeError, match=r"fractions\[0\]"):
        dpsel.joint_sensitivity([0.5])
    with pytest.raises(dpsel.RangeError, match="denominator of the quantiles, .* passes 10"):
        dpsel.joint_sensitivity([(1, 10**18 - 1), (1, 2)])


def test_the_marginals_by_hand():
    pmf = hand_case()
    assert pmf.quantiles == 2
    assert pmf.runs == [dpsel.JointRun(0, 1, 0), dpsel.JointRun(1, 1, 1)]
    assert pmf.probability_text(0, 0) == "0.94139194139194139"   # 257/273
    assert pmf.probability_text(1, 1) == "0.99633699633699634"   # 272/273
    assert pmf.rank_error_text(0) == "0.50000000000000000"       # 1/2
    assert pmf.rank_error_text(1) == "0.50366300366300366"       # 275/546
    low, high = map(Fraction, pmf.bounds(1, 0, digits=40))
    assert low <= Fraction(1, 273) <= high and high - low < Fraction(1, 10**30) * low
    low, high = map(Fraction, pmf.rank_error_bounds(1, digits=40))
    assert low <= Fraction(275, 546) <= high
    assert pmf.probability(0, 1) == pytest.approx(16 / 273, rel=1e-15)
    assert "2 quantiles over 2 runs" in repr(pmf)


def test_the_marginals_agree_with_the_tool():
    values = latencies()
    qs = ["0.5", "0.95", "0.99"]
    grid = dpsel.Grid("0", "20.000")
    fractions = [dpsel.quantile_fraction(q) for q in qs]
    params = dpsel.Params.from_epsilon("1", dpsel.joint_sensitivity(fractions))
    pmf = dpsel.quantiles_joint_pmf(params, fractions, grid.points(values), grid)
    table = run_tool("quantile", "--joint", "--pmf", "--quantile", ",".join(qs), "--lower", "0",
                     "--upper", "20.000", "--epsilon", "1", str(LATENCIES))
    heads = [line for line in table.splitlines() if line.startswith("# quantile")]
    assert [head.rsplit(" ", 1)[1] for head in heads] == [pmf.rank_error_text(i)
                                                          for i in range(3)]
    rows = [line.split(",") for line in table.splitlines() if line[0].isdigit()]
    assert len(rows) == 3 * len(pmf.runs)
    for i in range(3):
        assert sum(pmf.probability(i, r) for r in range(len(pmf.runs))) == pytest.approx(1)
        row = rows[i * len(pmf.runs) + 7]
        assert row[0] == grid.value(pmf.runs[7].first) and row[5] == pmf.probability_text(i, 7)


def test_quantiles_joint_one_call():
    values = latencies()
    accountant = dpsel.Accountant()
    released = dpsel.quantiles(values, ["0.5", "0.95", "0.99"], "0", "20.000", "1", joint=True,
                               rng=dpsel.Rng.seeded(b"joint"), accountant=accountant)
    again = dpsel.quantiles(values, ["0.5", "0.95", "0.99"], "0", "20.000", "1", joint=True,
                            rng=dpsel.Rng.seeded(b"joint"))
    assert released == again and released == sorted(released)
    assert all(isinstance(value, Decimal) and value == value.quantize(Decimal("0.001"))
               for value in released)
    # one release at the whole epsilon, not three at a third
    account = accountant.report()
    assert account.releases == 1 and Decimal(account.pure) <= 1
    assert Decimal(account.pure) > Decimal("0.999999")


def test_quantiles_joint_refusals():
    values = latencies()
    with pytest.raises(dpsel.RangeError, match=r"qs\[1\] = '0.5' comes after qs\[0\] = '0.95'"):
        dpsel.quantiles(values, ["0.95", "0.5"], 0, 20, 1, joint=True)
    with pytest.raises(dpsel.RangeError, match=r"qs\[1\] = '0.50' comes after"):
        dpsel.quantiles(values, ["0.5", "0.50"], 0, 20, 1, joint=True)
    with pytest.raises(dpsel.RangeError, match="mechanism='em', not 'pf'"):
        dpsel.quantiles(values, ["0.5", "0.95"], 0, 20, 1, mechanism="pf", joint=True)
    assert len(dpsel.quantiles(values, ["0.5", "0.95"], 0, 20, 1, mechanism=dpsel.Mechanism.EM,
                               joint=True)) == 2
    # B n = 2 10^18 (B = 10^15, 2000 values) is released: the old limit
    # B n <= 2^52 refused it
    low, median = dpsel.quantiles(values, ["0.000000000000001", "0.5"], 0, 20, 1, joint=True)
    assert 0 <= low <= median <= 20
    # the one limit is public, B log2(1/beta) <= JOINT_DECAY_MAX: the median
    # (B = 2, D = 2) takes epsilon 22, not 23, with or without values
    assert dpsel.JOINT_DECAY_MAX == 16
    assert len(dpsel.quantiles(values, ["0.5"], 0, 20, 22, joint=True)) == 1
    for data in (values, []):
        with pytest.raises(dpsel.RangeError, match="decays too fast for these quantiles: B "
                           r"log2\(1/beta\) passes 16 .*an epsilon of at most 22"):
            dpsel.quantiles(data, ["0.5"], 0, 20, 23, joint=True)


def test_the_low_level_calls_check_their_arguments():
    params = dpsel.Params.from_base(1, 1, 5, False)  # one short of 6
    with pytest.raises(dpsel.RangeError, match="sensitivity >= 6"):
        dpsel.quantiles_joint_pmf(params, QUARTILES, [0, 1], 0, 1)
    with pytest.raises(dpsel.RangeError, match="sensitivity >= 6"):
        dpsel.quantiles_joint_select(dpsel.Selector(params), QUARTILES, [0, 1], 0, 1)
    good = dpsel.Params.from_base(1, 1, 6, False)
    clamped = dpsel.quantiles_joint_pmf(good, QUARTILES, [0, 7], 0, 1)  # 7 clamped to 1
    assert clamped.runs == hand_case().runs
    assert clamped.probability_text(0, 0) == "0.94139194139194139"
    with pytest.raises(TypeError, match="selector must be"):
        dpsel.quantiles_joint_select(good, QUARTILES, [0, 1], 0, 1)
    pmf = hand_case()
    with pytest.raises(dpsel.RangeError, match="quantile 2 is not 0 to 1"):
        pmf.probability_text(2, 0)
    with pytest.raises(dpsel.RangeError, match="run 2 is not 0 to 1"):
        pmf.bounds(0, 2)
    with pytest.raises(TypeError, match="made by dpsel.quantiles_joint_pmf"):
        dpsel.JointPmf()
    with pytest.raises(TypeError, match="cannot be copied"):
        copy.copy(pmf)


def test_a_release_is_a_tuple_of_the_grid():
    out = dpsel.quantiles_joint_select(dpsel.Selector(dpsel.Params.from_base(1, 1, 6, False)),
                                       QUARTILES, [0, 1], 0, 1, rng=dpsel.Rng.seeded(b"1"))
    assert out in ([0, 0], [0, 1], [1, 1])


def test_many_releases_from_one_set_of_tables():
    selector = dpsel.Selector(dpsel.Params.from_base(1, 1, 6, False))
    many = dpsel.quantiles_joint_select_many(selector, QUARTILES, [0, 1], 0, 1, count=200,
                                             rng=dpsel.Rng.seeded(b"many"))
    assert len(many) == 200 and all(out in ([0, 0], [0, 1], [1, 1]) for out in many)
    # (0, 1) weighs 256 of 273 (tests/cli.sh's example by hand): none of
    # the 200 is (0, 1) with probability (17/273)^200 < 1e-240
    assert {tuple(out) for out in many} >= {(0, 1)}
    with pytest.raises(dpsel.RangeError, match="count >= 1, not 0"):
        dpsel.quantiles_joint_select_many(selector, QUARTILES, [0, 1], 0, 1, count=0)


def test_progress_and_cancel():
    seen = []
    values = [str(v) for v in range(3000)]
    grid = dpsel.Grid(0, 3000)
    params = dpsel.Params.from_epsilon("1", dpsel.joint_sensitivity(QUARTILES))
    dpsel.quantiles_joint_pmf(params, QUARTILES, grid.points(values), grid, progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)
    with pytest.raises(dpsel.CanceledError):
        dpsel.quantiles_joint_pmf(params, QUARTILES, grid.points(values), grid,
                                  progress=lambda fraction: False)


def test_a_release_reports_its_progress_and_cancels():
    values = [str(v) for v in range(3000)]
    grid = dpsel.Grid(0, 3000)
    params = dpsel.Params.from_epsilon("1", dpsel.joint_sensitivity(QUARTILES))
    selector = dpsel.Selector(params)
    seen = []
    reported = dpsel.quantiles_joint_select_many(selector, QUARTILES, grid.points(values), grid,
                                                 count=3, rng=dpsel.Rng.seeded(b"p" * 32),
                                                 progress=seen.append)
    plain = dpsel.quantiles_joint_select_many(selector, QUARTILES, grid.points(values), grid,
                                              count=3, rng=dpsel.Rng.seeded(b"p" * 32))
    assert reported == plain
    assert len(seen) >= 2 and seen == sorted(seen) and seen[-1] == 1.0 and seen.count(1.0) == 1
    with pytest.raises(dpsel.CanceledError):
        dpsel.quantiles_joint_select(selector, QUARTILES, grid.points(values), grid,
                                     progress=lambda fraction: False)


def test_the_one_call_reports_joint_progress_and_cancels():
    values = list(range(3000))
    seen = []
    reported = dpsel.quantiles(values, ["0.25", "0.75"], 0, 3000, "1", joint=True,
                               rng=dpsel.Rng.seeded(b"q" * 32), progress=seen.append)
    plain = dpsel.quantiles(values, ["0.25", "0.75"], 0, 3000, "1", joint=True,
                            rng=dpsel.Rng.seeded(b"q" * 32))
    assert reported == plain
    assert len(seen) >= 2 and seen == sorted(seen) and seen[-1] == 1.0
    with pytest.raises(dpsel.CanceledError):
        dpsel.quantiles(values, ["0.25", "0.75"], 0, 3000, "1", joint=True,
                        progress=lambda fraction: False)


def test_the_cost_before_the_work():
    cost = dpsel.quantiles_joint_cost(999, 2000)
    release = 999 * (6 * 2001 + 8 * 999)
    assert cost.steps == 4 * 999 * 1007 * 2001 + 6 * 2001 + release
    assert 160 * 999 * 2001 <= cost.bytes <= 161 * 999 * 2001
    assert dpsel.quantiles_joint_cost(999, 2000, 3).steps == cost.steps + 2 * release
    assert dpsel.quantiles_joint_cost(1024, 2 ** 64 - 1).bytes == 2 ** 64 - 1  # no n refused
    with pytest.raises(dpsel.RangeError, match="1 to 1024 quantiles"):
        dpsel.quantiles_joint_cost(1025, 10)
    with pytest.raises(dpsel.RangeError, match="count >= 1"):
        dpsel.quantiles_joint_cost(3, 10, 0)
