# SPDX-License-Identifier: ISC
"""Quantiles: the grid, the quantile as a fraction, the runs, releases and
their exact distribution, against the tool on docs/cli.md's survey."""

from decimal import Decimal
from fractions import Fraction

import numpy
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
    with pytest.raises(dpsel.DecimalError, match=r"^values\[1\]: not a decimal number"):
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


def test_a_record_more_past_the_int64_scores_still_releases():
    # q = 0.100000000000000001 (b = 10^18): 9 values gave a release and 10
    # an error before; now both release, and only the pmf of 10 is refused.
    q = dpsel.quantile_fraction("0.100000000000000001")
    grid = dpsel.Grid(0, 20)
    for count in (9, 10):
        values = list(range(1, count + 1))
        assert 0 <= dpsel.quantile(values, "0.100000000000000001", 0, 20, epsilon="1",
                                   rng=dpsel.Rng.seeded(b"1")) <= 20
    runs = dpsel.QuantileRuns(q.a, q.b, grid.points(range(1, 11)), grid.lower, grid.upper)
    assert max(run.score for run in runs) == 0
    params = dpsel.Params.from_epsilon("1", q.sensitivity)
    with pytest.raises(dpsel.RangeError, match="b m = 1000000000000000000 \\* 10 >= 2\\^63"):
        dpsel.quantile_pmf(params, runs)


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
        assert pmf.probability_text(i) == row[5]
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
    # Past 32768 grid points: by certified quadrature.
    large = dpsel.Grid(0, 40000)
    runs_large = dpsel.QuantileRuns(q.a, q.b, large.points(survey()), large.lower, large.upper)
    pmf_large = dpsel.quantile_pmf(params, runs_large, "pf")
    ends = [pmf_large.bounds(i) for i in range(len(pmf_large))]
    assert sum(Fraction(lo) for lo, _ in ends) <= 1 <= sum(Fraction(hi) for _, hi in ends)
    # Parameters not made for the quantile (the sensitivity of the median).
    wrong = dpsel.Params.from_epsilon("1")
    with pytest.raises(dpsel.RangeError):
        dpsel.Selector(wrong).select_quantile(runs)
    with pytest.raises(dpsel.RangeError):
        dpsel.quantile_pmf(wrong, runs)
    with pytest.raises(TypeError):
        dpsel.quantile_pmf(params, [1, 2])
    with pytest.raises(TypeError):
        dpsel.Selector(params).select_quantile([1, 2])


def test_every_number_is_a_value_on_the_grid():
    """One record never decides whether a release happens
    (spec/quantiles.md §6): a value of any length, size or exponent, an
    infinity or NaN, of any numeric type, is clamped and rounded down."""
    grid = dpsel.Grid("-10", "10", "0.25")
    cases = [
        ("1" + "0" * 200, 40), ("0.5" + "0" * 130, 2), ("-0." + "0" * 999 + "1", -1),
        ("-0.5" + "0" * 10000 + "1", -3), ("1e200", 40), ("-1E+200", -40), ("2.5e-0", 10),
        ("1e-99999999999999999999", 0), ("inf", 40), ("-Infinity", -40), ("NaN", 40),
        (10 ** 5000, 40), (-10 ** 5000, -40), (-3, -12),
        (Decimal("1e200"), 40), (Decimal("-1e-1000"), -1), (Decimal("1e999999999"), 40),
        (Decimal("NaN"), 40), (Decimal("sNaN"), 40), (Decimal("-Infinity"), -40),
        (Decimal("0.5" + "0" * 130), 2), (Decimal(-0.3), -2),
        (float("nan"), 40), (float("inf"), 40), (-float("inf"), -40), (1e200, 40),
        (-1e-300, -1), (0.3, 1), (-0.3, -2), (5e-324, 0),
        (Fraction(1, 3), 1), (Fraction(-1, 3), -2), (Fraction(10 ** 10000, 3), 40),
        (Fraction(-1, 10 ** 10000), -1),
        (numpy.float32(0.3), 1), (numpy.float64("nan"), 40), (numpy.int64(-3), -12),
        (numpy.longdouble("-inf"), -40), (numpy.uint64(2 ** 64 - 1), 40),
    ]
    for value, point in cases:
        assert grid.point(value) == point, f"{str(value)[:40]}: {grid.point(value)}"
    assert grid.points([value for value, _ in cases]) == [point for _, point in cases]
    # a release on such values is the release on their grid points
    q = dpsel.quantile_fraction("0.5")
    selector = dpsel.Selector(dpsel.Params.from_epsilon("1", q.sensitivity))
    values = [value for value, _ in cases]
    points = [point for _, point in cases]
    releases = [dpsel.quantile_select(selector, q.a, q.b, grid.points(values), grid.lower,
                                      grid.upper, rng=dpsel.Rng.seeded(b"every number")),
                dpsel.quantile_select(selector, q.a, q.b, points, grid.lower, grid.upper,
                                      rng=dpsel.Rng.seeded(b"every number"))]
    assert releases[0] == releases[1]


def test_an_outlier_point_is_clamped_never_refused():
    """On a grid of resolution 1 the points are the values: a point outside
    the ends is clamped into them by every call, as C does, so one record
    never stops a release (nor lands in a message)."""
    outlier, grid = 987654, dpsel.Grid(0, 100, "1")
    points, clamped = [5, 17, 25, outlier, -outlier], [5, 17, 25, 100, 0]
    q = dpsel.quantile_fraction("0.5")
    selector = dpsel.Selector(dpsel.Params.from_epsilon("1", q.sensitivity))
    for ends in ((grid,), (0, 100)):
        for mechanism in ("em", "pf"):
            released = [dpsel.quantile_select(selector, q.a, q.b, data, *ends,
                                              mechanism=mechanism, rng=dpsel.Rng.seeded(b"o"))
                        for data in (points, clamped)]
            assert released[0] == released[1]
        assert list(dpsel.QuantileRuns(q.a, q.b, points, *ends)) == \
            list(dpsel.QuantileRuns(q.a, q.b, clamped, *ends))
    fractions = [dpsel.quantile_fraction("0.25"), dpsel.quantile_fraction("0.75")]
    joint = dpsel.Params.from_epsilon("1", dpsel.joint_sensitivity(fractions))
    for data in (points, numpy.array(points)):
        assert dpsel.quantiles_joint_select_many(
            dpsel.Selector(joint), fractions, data, grid, count=3,
            rng=dpsel.Rng.seeded(b"joint")) == dpsel.quantiles_joint_select_many(
            dpsel.Selector(joint), fractions, clamped, grid, count=3,
            rng=dpsel.Rng.seeded(b"joint"))
        pmf = dpsel.quantiles_joint_pmf(joint, fractions, data, 0, 100)
        assert pmf.runs == dpsel.quantiles_joint_pmf(joint, fractions, clamped, 0, 100).runs


def test_texts_and_types_that_are_not_numbers():
    grid = dpsel.Grid("0", "10")
    for text in ["x", "1.", ".5", "1e", "e5", "in", "nanx", " 1", "0x10"]:
        with pytest.raises(dpsel.DecimalError):
            grid.point(text)
    for value in [True, numpy.bool_(False), None, [1], object()]:
        with pytest.raises(TypeError):
            grid.point(value)
