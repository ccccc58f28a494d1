# SPDX-License-Identifier: ISC
"""Quantiles: the grid, the quantile as a fraction, the runs, releases and
their exact distribution, against the tool on the README's survey."""

from fractions import Fraction

import pytest

import dpsel

from conftest import REPO, run_tool

AGES = REPO / "examples" / "ages.csv"


def survey():
    lines = AGES.read_text().splitlines()
    return [line for line in lines if line and not line.startswith("#")][1:]


def test_the_grid_takes_decimals_exactly():
    grid = dpsel.Grid("0", "20.000")
    assert (grid.lower, grid.upper, grid.resolution) == (0, 20000, "0.001")
    assert grid.point("4.0039") == 4003 and grid.value(4003) == "4.003"
    assert grid.points(["-1", "0.5", 99]) == [0, 500, 20000]  # clamped into [A, B]
    whole = dpsel.Grid(0, 120, "1")
    assert whole.point("37.9") == 37 and "Grid('0', '120', '1')" == repr(whole)
    with pytest.raises(dpsel.DecimalError, match=r"values\[1\] = 'x'"):
        whole.points(["1", "x", "3"])


def test_bad_grids():
    with pytest.raises(dpsel.RangeError):
        dpsel.Grid("1", "0")
    with pytest.raises(dpsel.UnitError):
        dpsel.Grid("0", "1", "0.3")
    with pytest.raises(dpsel.RangeError):
        dpsel.Grid("0", "1", "-0.5")
    with pytest.raises(dpsel.DecimalError):
        dpsel.Grid("0", "1e3")


def test_quantiles_as_fractions():
    assert dpsel.quantile_fraction("0.5") == (1, 2, 1)
    assert dpsel.quantile_fraction("0.95") == dpsel.QuantileFraction(19, 20, 19)
    assert dpsel.quantile_fraction(0.25) == (1, 4, 3)
    for bad in ("0", "1", "1.5", "0.0000000000000000001"):
        with pytest.raises(dpsel.RangeError):
            dpsel.quantile_fraction(bad)
    with pytest.raises(dpsel.DecimalError):
        dpsel.quantile_fraction("half")


def test_the_runs_cut_the_grid():
    grid = dpsel.Grid(0, 120)
    runs = dpsel.QuantileRuns(1, 2, grid.points(survey()), grid.lower, grid.upper)
    assert 1 <= len(runs) <= 2 * len(survey()) + 1 and "runs>" in repr(runs)
    listed = list(runs)
    assert listed[0].first == 0 and sum(run.points for run in listed) == 121
    assert all(a.first + a.points == b.first for a, b in zip(listed, listed[1:]))
    assert max(run.score for run in listed) == 0
    with pytest.raises(dpsel.RangeError):
        runs[len(runs)]
    assert len(dpsel.QuantileRuns(1, 2, [], 0, 9)) == 1  # no values: one run
    with pytest.raises(dpsel.RangeError):
        dpsel.QuantileRuns(2, 4, [], 0, 9)  # not in lowest terms
    with pytest.raises(dpsel.RangeError):
        dpsel.QuantileRuns(1, 2, [], 9, 0)


def test_the_pmf_and_releases_are_the_tool_s():
    grid, q = dpsel.Grid(0, 120), dpsel.quantile_fraction("0.5")
    params = dpsel.Params.from_epsilon("1", q.sensitivity)
    runs = dpsel.QuantileRuns(q.a, q.b, grid.points(survey()), grid.lower, grid.upper)
    pmf = dpsel.quantile_pmf(params, runs)
    rows = [line.split(",") for line in run_tool(
        "quantile", "--quantile", "0.5", "--lower", "0", "--upper", "120", "--epsilon", "1",
        "--pmf", AGES).splitlines()[2:]]
    assert len(rows) == len(pmf)
    for i, (run, row) in enumerate(zip(runs, rows)):
        assert (run.first, run.first + run.points - 1, run.points) == tuple(map(int, row[:3]))
        assert pmf.probability(i, exact=False) == row[5]
        assert tuple(row[3:5]) == pmf.bounds(i)
    assert sum(pmf.probability(i) for i in range(len(pmf))) == 1
    # Releases: the same seed, the same points.
    tool = run_tool("quantile", "--quantile", "0.5", "--lower", "0", "--upper", "120",
                    "--epsilon", "1", "--seed", "0a0b", "--count", "5", AGES).split()
    selector, rng = dpsel.Selector(params), dpsel.Rng.seeded(bytes.fromhex("0a0b"))
    assert [grid.value(selector.select_quantile(runs, rng=rng)) for _ in range(5)] == tool
    rng = dpsel.Rng.seeded(bytes.fromhex("0a0b"))
    assert [grid.value(dpsel.quantile_select(selector, q.a, q.b, grid.points(survey()),
                                             grid.lower, grid.upper, rng=rng))
            for _ in range(5)] == tool


def test_pf_quantiles_and_their_limits():
    grid, q = dpsel.Grid(0, 120), dpsel.quantile_fraction("0.9")
    params = dpsel.Params.from_epsilon("1", q.sensitivity)
    runs = dpsel.QuantileRuns(q.a, q.b, grid.points(survey()), grid.lower, grid.upper)
    pmf = dpsel.quantile_pmf(params, runs, "pf")
    # (Its exact rationals take seconds: the enclosures bracket 1.)
    ends = [pmf.bounds(i) for i in range(len(pmf))]
    assert sum(Fraction(lo) for lo, _ in ends) <= 1 <= sum(Fraction(hi) for _, hi in ends)
    point = dpsel.Selector(params).select_quantile(runs, "pf")
    assert 0 <= point <= 120
    # Parameters not made for the quantile (the sensitivity of the median).
    wrong = dpsel.Params.from_epsilon("1")
    with pytest.raises(dpsel.RangeError):
        dpsel.Selector(wrong).select_quantile(runs)
    with pytest.raises(dpsel.RangeError):
        dpsel.quantile_pmf(wrong, runs)
    huge = dpsel.QuantileRuns(q.a, q.b, [], 0, 40000)
    with pytest.raises(dpsel.TooLargeError):
        dpsel.quantile_pmf(params, huge, "pf")  # PF's distribution: 32768 points at most
    with pytest.raises(TypeError):
        dpsel.quantile_pmf(params, [1, 2])
    with pytest.raises(TypeError):
        dpsel.Selector(params).select_quantile([1, 2])
