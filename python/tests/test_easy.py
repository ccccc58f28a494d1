# SPDX-License-Identifier: ISC
"""One call per task on raw data (dpsel.mode, quantile, quantiles, median,
select, top_k, best_price), decimal sensitivities and scores in Params and
Selector, and the low-level quantile calls' bounds.  The releases are fitted
to the exact pmf by chi-square at false-alarm probability 1e-6 per test
(tests/README.md's rule), with fixed seeds: each fit is decided once."""

from decimal import Decimal
from fractions import Fraction

import numpy
import pandas
import pytest

import dpsel

from conftest import chi_square_fits

STATUS = ["married"] * 9 + ["single"] * 7 + ["widowed"] * 2 + ["divorced"] * 3
CANDIDATES = ["married", "single", "widowed", "divorced", "never"]
DRAWS = 4_000  # about 1 ms each: a call makes its Params and Selector


def fits(draw, outcomes, probabilities, draws):
    """Whether draw()'s outcomes (each one of outcomes) fit the exact
    probabilities of outcomes, in order."""
    counts = dict.fromkeys(outcomes, 0)
    for _ in range(draws):
        counts[draw()] += 1
    fit, statistic, dof = chi_square_fits(list(counts.values()), probabilities, draws)
    assert fit, f"chi-square {statistic:.2f} with {dof} degrees of freedom"


def probabilities(pmf):
    return [pmf.probability(i) for i in range(len(pmf))]


# ------------------------------------------------------------------ mode


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_mode_fits_the_pmf_of_the_counts(mechanism):
    rng = dpsel.Rng.seeded(b"mode " + mechanism.encode())
    params = dpsel.Params.from_epsilon("0.5", *dpsel.task_params("mode"))
    counts = [9, 7, 2, 3, 0]  # "never" has no rows: it scores 0
    fits(lambda: dpsel.mode(STATUS, CANDIDATES, "0.5", mechanism, rng=rng), CANDIDATES,
         probabilities(dpsel.pmf(params, counts, mechanism)), DRAWS)


def test_mode_of_arrays_and_series_with_unknown_values():
    rows = STATUS * 100 + ["n/a"] * 5000
    for values in (rows, numpy.array(rows), pandas.Series(rows, dtype="category"),
                   pandas.Series(rows, dtype="string")):
        assert dpsel.mode(values, CANDIDATES, "1") == "married"  # 900 rows against 700
    assert dpsel.mode(numpy.array([3, 3, 3, 1], dtype=numpy.int8), [1, 2, 3], "5") == 3


@pytest.mark.parametrize("values, candidates, named", [
    (numpy.array([1, 1, 2]), ["1", "2"], "dtype int64 and candidates\\[0\\] = '1' is of type str"),
    (pandas.Series([1, 1, 2]), [1, "2"], "dtype int64 and candidates\\[1\\] = '2' is of type str"),
    (pandas.Series([1.5, 2.0]), ["2.0"], "dtype float64 and candidates\\[0\\] = '2.0'"),
    (pandas.Series([1, 2], dtype="Int64"), ["1"], "dtype Int64 and candidates\\[0\\]"),
    (pandas.Series([1, 2], dtype="category"), ["1"], "dtype category and candidates\\[0\\]"),
    (numpy.array([True, False]), ["True"], "dtype bool and candidates\\[0\\] = 'True'"),
    (numpy.array(["1", "2"]), [1, 2], "dtype <U1 and candidates\\[0\\] = 1 is of type int"),
    (pandas.Series(["1", "2"], dtype="string"), [1.0], "dtype string and candidates\\[0\\]"),
    (numpy.array([b"a"]), ["a"], "dtype \\|S1 and candidates\\[0\\] = 'a' is of type str"),
])
def test_mode_refuses_candidates_of_another_type_than_the_values(values, candidates, named):
    # Every count would be 0 (no value equals such a candidate): the release
    # would be a uniform candidate, whatever the data.  Public facts only.
    with pytest.raises(TypeError, match=named + ".*: no value can equal it") as refused:
        dpsel.mode(values, candidates, "1")
    assert "whatever the data" in str(refused.value)


def test_mode_of_compatible_types_and_wrong_case_texts():
    assert dpsel.mode(numpy.array([2.0] * 50), [1, 2], "1") == 2
    assert dpsel.mode(pandas.Series([True] * 50), [True, False], "1") is True
    assert dpsel.mode(pandas.Series([2] * 50, dtype="object"), ["1", 2], "1") == 2
    # A wrong-case text is a candidate like any other: it counts 0 here.
    rows = pandas.Series(["married"] * 50, dtype="string")
    assert dpsel.mode(rows, ["Married", "married"], "1") == "married"


def test_a_value_outside_the_candidates_is_dropped_or_refused_unnamed():
    accountant = dpsel.Accountant()
    assert dpsel.mode(STATUS * 50, ["married", "single"], "1", accountant=accountant) == "married"
    assert accountant.report().pure == "1.0000000000000000"
    with pytest.raises(dpsel.RangeError, match="values holds a value that is none of the "
                       "candidates \\(not shown.*unknown='drop'") as refused:
        dpsel.mode(STATUS, ["married", "single"], "1", unknown="error")
    assert "widowed" not in str(refused.value)


def test_a_value_that_cannot_be_hashed_is_no_candidate():
    # A signaling NaN or a list equals no candidate (each is hashed): it is
    # dropped, never refused; unknown="error" refuses it as any other.
    rows = STATUS * 50 + [Decimal("sNaN"), [1], numpy.datetime64("NaT")]
    assert dpsel.mode(rows, ["married", "single"], "1") == "married"  # 450 rows against 350
    with pytest.raises(dpsel.RangeError, match="values holds a value that is none of the") \
            as refused:
        dpsel.mode(rows, CANDIDATES, "1", unknown="error")
    assert "NaN" not in str(refused.value)


@pytest.mark.parametrize("call, error, message", [
    (lambda: dpsel.mode(STATUS, "married", "1"), TypeError, "candidates must be a list"),
    (lambda: dpsel.mode(STATUS, ["a", "b", "a"], "1"), dpsel.RangeError, "holds 'a' twice"),
    (lambda: dpsel.mode(STATUS, [], "1"), dpsel.RangeError, "candidates is empty"),
    (lambda: dpsel.mode(STATUS, CANDIDATES, "1", unknown="keep"), dpsel.RangeError,
     "unknown must be 'drop' or 'error', not 'keep'"),
    (lambda: dpsel.mode(STATUS, CANDIDATES, "-1"), dpsel.EpsilonError, "epsilon -1"),
    (lambda: dpsel.mode("married", CANDIDATES, "1"), TypeError, "values must be a sequence"),
])
def test_bad_mode_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ------------------------------------------------------------- quantiles


def quantile_probabilities(values, q, lower, upper, resolution, epsilon, mechanism):
    """The exact probability of each grid point (as a Decimal) of
    dpsel.quantile: its run's probability over the run's length."""
    grid, fraction = dpsel.Grid(lower, upper, resolution), dpsel.quantile_fraction(q)
    runs = dpsel.QuantileRuns(fraction.a, fraction.b, grid.points(values), grid)
    pmf = dpsel.quantile_pmf(dpsel.Params.from_epsilon(epsilon, fraction.sensitivity), runs,
                             mechanism)
    exact = {}
    for run, p in zip(runs, probabilities(pmf)):
        for point in range(run.first, run.first + run.points):
            exact[Decimal(grid.value(point))] = p / run.points
    return exact


@pytest.mark.parametrize("mechanism", ["em", "pf"])
def test_quantile_fits_the_pmf_of_its_runs(mechanism):
    values = [0.5, 1.25, 2.0, 2.0, 3.75, 4.5, 4.75, float("inf"), -3.0]
    exact = quantile_probabilities(values, "0.75", "0", "5", "0.25", "1", mechanism)
    rng = dpsel.Rng.seeded(b"quantile " + mechanism.encode())
    fits(lambda: dpsel.quantile(values, "0.75", "0", "5", "1", resolution="0.25",
                                mechanism=mechanism, rng=rng),
         list(exact), list(exact.values()), DRAWS)


def test_median_and_quantiles_are_quantile_s():
    values = numpy.arange(0, 100) / 10  # 0.0 .. 9.9
    exact = quantile_probabilities(values, "0.5", 0, 10, "0.1", "2", "em")
    rng = dpsel.Rng.seeded(b"median")
    fits(lambda: dpsel.median(values, 0, 10, "2", resolution="0.1", rng=rng), list(exact),
         list(exact.values()), DRAWS // 2)
    # Three quantiles at epsilon 3 in all: each at 1, each as quantile at 1.
    exact = quantile_probabilities(values, "0.9", 0, 10, "0.1", "1", "em")
    rng, accountant = dpsel.Rng.seeded(b"quantiles"), dpsel.Accountant()
    fits(lambda: dpsel.quantiles(values, ["0.1", "0.5", "0.9"], 0, 10, "3", "0.1", rng=rng,
                                 accountant=accountant)[2],
         list(exact), list(exact.values()), DRAWS // 2)
    account = accountant.report()
    assert account.releases == 3 * (DRAWS // 2) and Decimal(account.pure) <= 3 * (DRAWS // 2)


def test_an_uneven_share_of_epsilon_is_rounded_down():
    accountant = dpsel.Accountant()
    dpsel.quantiles([1, 2, 3], ["0.25", "0.5", "0.75"], 0, 10, "1", accountant=accountant)
    assert Decimal(accountant.report().pure) <= 1
    share = "0.3333333333333333333333333333333333"  # 1 / 3 rounded down
    assert Decimal(dpsel.Params.from_epsilon(share, 1).epsilon_text(60)) <= Decimal(share)


def test_the_p95_in_the_values_unit():
    # The case: quantile_select(selector, a, b, points, 0, 100) gave 10.0
    # against a true 95th percentile of 64.5 (the bounds are grid points).
    values = [Decimal(i) / 10 for i in range(680)]  # 0.0 .. 67.9: p95 64.5
    release = dpsel.quantile(values, "0.95", 0, 100, "200", resolution="0.1",
                             rng=dpsel.Rng.seeded(b"p95"))
    assert isinstance(release, Decimal) and abs(release - Decimal("64.5")) <= Decimal("0.2")


def test_the_low_level_calls_clamp_points_outside_the_ends():
    # Ends given as values for a 0.1 grid clamp every point above 100 to
    # it, as C does: a record never decides whether a release happens.
    grid, q = dpsel.Grid(0, 100, "0.1"), dpsel.quantile_fraction("0.95")
    selector = dpsel.Selector(dpsel.Params.from_epsilon("200", q.sensitivity))
    points = grid.points([str(Decimal(i) / 10) for i in range(680)])
    assert dpsel.quantile_select(selector, q.a, q.b, points, 0, 100,
                                 rng=dpsel.Rng.seeded(b"e")) == 100
    assert list(dpsel.QuantileRuns(q.a, q.b, numpy.array([-1, 5]), 0, 10)) == \
        list(dpsel.QuantileRuns(q.a, q.b, numpy.array([0, 5]), 0, 10))
    point = dpsel.quantile_select(selector, q.a, q.b, points, grid, rng=dpsel.Rng.seeded(b"g"))
    assert abs(point - 645) <= 2
    assert len(dpsel.QuantileRuns(q.a, q.b, points, grid)) >= 1
    with pytest.raises(TypeError, match="upper is 5 with a Grid"):
        dpsel.quantile_select(selector, q.a, q.b, points, grid, 5)
    with pytest.raises(TypeError, match="upper is missing"):
        dpsel.QuantileRuns(q.a, q.b, points, 0)


def test_floats_by_their_repr_or_exactly():
    # 0.3 prints as 0.3 (grid point 3 of 0.1) but is 0.29999999999999998889...
    # in binary (point 2); float32's 0.3 is 0.30000001192092896 (point 3).
    def median(values, floats):
        return dpsel.median(values, "0", "1", "40", resolution="0.1", floats=floats,
                            rng=dpsel.Rng.seeded(b"floats"))
    assert median([0.3] * 99, "repr") == Decimal("0.3")
    assert median([0.3] * 99, "exact") == Decimal("0.2")
    assert median(numpy.full(99, 0.3), "exact") == Decimal("0.2")
    assert median(numpy.full(99, 0.3, dtype=numpy.float32), "repr") == Decimal("0.3")
    assert median(numpy.full(99, 0.3, dtype=numpy.float32), "exact") == Decimal("0.3")
    with pytest.raises(dpsel.RangeError, match="floats must be 'repr' or 'exact', not 'binary'"):
        median([0.3], "binary")


@pytest.mark.parametrize("values", [
    [7] * 99, numpy.full(99, 7, dtype=numpy.int8), numpy.full(99, 7, dtype=numpy.uint64),
    numpy.full(99, 7.0), numpy.full(99, "7"), numpy.array([Decimal(7)] * 99, dtype=object),
    pandas.Series([7] * 99 + [None], dtype="Int64"),  # a missing value is skipped
    pandas.Series([Fraction(7)] * 99), ["7.0"] * 99 + [None], (7 for _ in range(99)),
    [7] * 99 + [numpy.datetime64("NaT"), numpy.timedelta64("NaT")],  # numpy's missing values
])
def test_values_of_every_kind(values):
    assert dpsel.median(values, 0, 10, "40", rng=dpsel.Rng.seeded(b"kinds")) == 7


SECONDS = pandas.Series(pandas.to_timedelta([5, 10, 15, 20, 25], unit="s"))


@pytest.mark.parametrize("values, kind", [
    (SECONDS, "numpy.timedelta64"), (SECONDS.to_numpy(), "numpy.timedelta64"),
    (pandas.Series([pandas.NaT] * 3, dtype="timedelta64[ns]"), "numpy.timedelta64"),
    (list(SECONDS.to_numpy()), "numpy.timedelta64"), (list(SECONDS), "Timedelta"),
    (SECONDS.astype(object), "Timedelta"), ([SECONDS[0].to_pytimedelta()], "datetime.timedelta"),
    (pandas.Series(pandas.to_datetime(["2024-01-01"])), "numpy.datetime64"),
    ([pandas.Timestamp("2024-01-01")], "Timestamp"),
])
def test_durations_and_dates_are_not_numbers(values, kind):
    # A timedelta64[ns] read as an int of nanoseconds released 100 for load
    # times of 5 to 25 s on the bounds 0 .. 100.
    for call in (lambda: dpsel.median(values, 0, 100, "1"),
                 lambda: dpsel.quantiles(values, ["0.5"], 0, 100, "1", joint=True),
                 lambda: dpsel.best_price(values, ["1"], "1")):
        with pytest.raises(TypeError, match=f"^values(\\[0\\])?: a .*{kind} is not a number: "
                           "give numbers in a unit you name"):
            call()
    assert dpsel.median(SECONDS.dt.total_seconds(), 0, 100, "40",
                        rng=dpsel.Rng.seeded(b"s")) == 15


def test_the_grid_takes_numbers_by_type_alone():
    grid = dpsel.Grid(0, 100, "1")
    for value in (numpy.timedelta64(5, "s"), numpy.datetime64("2024-01-01"), 5j):
        with pytest.raises(TypeError, match="^value: a .* is not a number"):
            grid.point(value)
    with pytest.raises(TypeError, match="^values\\[1\\]: a numpy.timedelta64"):
        grid.points([5, numpy.timedelta64(5, "s")])
    assert grid.points([numpy.int8(5), numpy.uint64(7), Decimal("NaN")]) == [5, 7, 100]


def test_records_are_clamped_never_refused():
    # NaN to the upper end, infinities and huge numbers to their end.
    values = [float("nan")] * 50 + [float("-inf"), -1e300, Decimal("-1e999999999")] * 20
    assert dpsel.quantile(values, "0.1", 0, 10, "40", rng=dpsel.Rng.seeded(b"c")) == 0
    assert dpsel.quantile(values, "0.9", 0, 10, "40", rng=dpsel.Rng.seeded(b"c")) == 10
    assert dpsel.median([], 0, 10, "1") in range(11)  # no values: every point alike


@pytest.mark.parametrize("call, error, message", [
    (lambda: dpsel.median(["7", "seven"], 0, 10, "1"), dpsel.DecimalError,
     "^values\\[1\\]: not a decimal number"),
    (lambda: dpsel.median([True], 0, 10, "1"), TypeError, "^values\\[0\\]: a bool is not a"),
    (lambda: dpsel.median([[7]], 0, 10, "1"), TypeError, "^values\\[0\\]: a list is not a number"),
    (lambda: dpsel.quantile([7], "1.5", 0, 10, "1"), dpsel.RangeError, "q 1.5 is not"),
    (lambda: dpsel.median([7], 10, 0, "1"), dpsel.RangeError, "lower 10 is above upper 0"),
    (lambda: dpsel.median([7], "0.5", 10, "1", resolution="1"), dpsel.UnitError, ""),
    (lambda: dpsel.median([7], 0, 10, "1", resolution="-1"), dpsel.RangeError,
     "resolution -1 is not positive"),
    (lambda: dpsel.median([7], 0, 10, "1", mechanism="laplace"), dpsel.RangeError,
     "mechanism must be"),
    (lambda: dpsel.quantiles([7], [], 0, 10, "1"), dpsel.RangeError, "qs is empty"),
    (lambda: dpsel.quantiles([7], ["0.5"], 0, 10, "x"), dpsel.EpsilonError, ""),
    (lambda: dpsel.quantiles([7], ["0.5", "0.6"], 0, 10, "one"), dpsel.EpsilonError,
     "epsilon 'one'"),
])
def test_bad_quantile_arguments_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


# ------------------------------------------------------ labelled scores


def test_select_of_decimal_scores_fits_the_pmf():
    # Accuracies in a unit of 0.25 (from the sensitivity's digits: 0.25 has 2,
    # the unit 0.01), and the same scores as integers of that unit.
    scores = {"a": "1.50", "b": Decimal("2.25"), "c": 0.75, "d": Fraction(9, 4)}
    params = dpsel.Params.from_epsilon("1", 25)
    rng = dpsel.Rng.seeded(b"select")
    fits(lambda: dpsel.select(scores, "1", sensitivity="0.25", rng=rng), list(scores),
         probabilities(dpsel.pmf(params, [150, 225, 75, 225])), DRAWS)


def test_top_k_fits_the_pmf_of_its_tuples():
    scores = pandas.Series([41, 38, 40, 12], index=["w", "x", "y", "z"])
    params = dpsel.Params.from_epsilon("1", monotonic=True)  # each of 2 rounds: 2 / 2
    top = dpsel.top_pmf(params, scores, 2)
    outcomes = [top.tuple(t) for t in range(len(top))]
    rng, accountant = dpsel.Rng.seeded(b"top"), dpsel.Accountant()
    fits(lambda: tuple(dpsel.top_k(scores, 2, "2", monotonic=True, rng=rng,
                                   accountant=accountant)),
         outcomes, probabilities(top), DRAWS)
    assert accountant.report().releases == 2 * DRAWS
    assert dpsel.top_k([5, 100, 7], 1, "10") == [1]  # a sequence: positions


@pytest.mark.parametrize("call, error, message", [
    (lambda: dpsel.select({"a": "1.5"}, "1"), TypeError, "scores\\[0\\] is a str, not an integer"),
    (lambda: dpsel.select({"a": "1.505"}, "1", sensitivity="0.01"), dpsel.UnitError,
     "scores\\[0\\] is not a whole multiple of the resolution 0.01"),
    (lambda: dpsel.select({"a": 1}, "1", sensitivity="0.3", resolution="0.25"),
     dpsel.UnitError, "sensitivity 0.3 is not a whole multiple of the resolution 0.25"),
    (lambda: dpsel.top_k({"a": 1}, 0, "1"), dpsel.RangeError, "k is 0"),
    (lambda: dpsel.top_k({"a": 1}, 2, "1"), dpsel.RangeError, ""),
    (lambda: dpsel.select({}, "1"), dpsel.EmptyError, ""),
])
def test_bad_selections_are_named(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --------------------------------------------------------------- pricing


def test_best_price_fits_the_pmf_of_the_revenues():
    bids = [1, 2.5, 3, 10, Decimal("7.25"), "4", float("nan"), None, 0.99, Decimal("sNaN"),
            numpy.datetime64("NaT")]
    prices = ["1", "2.5", 3, Decimal("7.3")]
    # Revenue in units of 0.1: p * #{bids >= p} (a bid equal to p buys);
    # sensitivity max(prices), 73 units.
    revenues = [10 * 6, 25 * 5, 30 * 4, 73 * 1]
    params = dpsel.Params.from_epsilon("1", 73, monotonic=True)
    rng = dpsel.Rng.seeded(b"price")
    fits(lambda: dpsel.best_price(bids, prices, "1", rng=rng), prices,
         probabilities(dpsel.pmf(params, revenues)), DRAWS)


def test_bad_prices_are_named():
    with pytest.raises(dpsel.RangeError, match="prices must be positive"):
        dpsel.best_price([1], ["0", 1], "1")
    with pytest.raises(dpsel.RangeError, match="holds 1 twice"):
        dpsel.best_price([1], [1, 1], "1")
    with pytest.raises(dpsel.DecimalError, match="prices"):
        dpsel.best_price([1], ["1", "cheap"], "1")


# ------------------------------------------------------- decimal params


def test_decimal_sensitivity_and_resolution_in_params_and_selector():
    params = dpsel.Params.from_epsilon("1", sensitivity="10.00")
    assert (params.sensitivity, params.resolution) == (1000, "0.01")
    assert (params.x, params.y) == (lambda p: (p.x, p.y))(dpsel.Params.from_epsilon("1", 1000))
    assert "resolution='0.01'" in repr(params) and params.copy() == params
    assert params != dpsel.Params.from_epsilon("1", 1000)  # integer scores: another unit
    quarter = dpsel.Params.from_epsilon("1", 10, resolution="0.25")
    assert (quarter.sensitivity, quarter.resolution) == (40, "0.25")
    assert dpsel.Params.from_base(1, 1, "0.5").sensitivity == 5
    assert dpsel.Params.from_epsilon("1").resolution is None
    selector = dpsel.Selector(dpsel.Params.from_epsilon("50", sensitivity="0.01"))
    assert selector.select(["0.25", "9.99", Decimal("1.5")], rng=dpsel.Rng.seeded(b"d")) == 1
    series = pandas.Series(["0.25", "9.99"], index=["p", "q"])
    assert selector.select_top(series, 2, rng=dpsel.Rng.seeded(b"d")) == ["q", "p"]
    with pytest.raises(dpsel.UnitError, match="scores\\[1\\] is not a whole multiple"):
        selector.select(["0.25", "0.125"])
    with pytest.raises(dpsel.RangeError, match="sensitivity"):
        dpsel.Params.from_epsilon("1", sensitivity="0.00")
    with pytest.raises(dpsel.DecimalError, match="sensitivity"):
        dpsel.Params.from_epsilon("1", sensitivity="ten")


def test_decimal_scores_in_every_call_that_takes_params():
    # Scores in units of 0.25 give what their integers of that unit give: the
    # same pmfs and audit, and from one seed the same releases.
    decimals = ["1.50", Decimal("2.25"), 0.75, Fraction(9, 4)]
    units = [6, 9, 3, 9]
    quarter = dpsel.Params.from_epsilon("1", "0.5", resolution="0.25")
    whole = dpsel.Params.from_epsilon("1", 2)
    assert probabilities(dpsel.top_pmf(quarter, decimals, 2)) == \
        probabilities(dpsel.top_pmf(whole, units, 2))
    assert probabilities(dpsel.pmf_grouped(quarter, decimals, [1, 2, 1, 3])) == \
        probabilities(dpsel.pmf_grouped(whole, units, [1, 2, 1, 3]))
    assert dpsel.audit(quarter, decimals, ["1.75", "2.25", "0.75", "2.5"]) == \
        dpsel.audit(whole, units, [7, 9, 3, 10])
    assert released_from_parts(quarter, decimals) == released_from_parts(whole, units)
    assert released_from_stream(quarter, decimals) == released_from_stream(whole, units)


def released_from_parts(params, scores):
    rng, releases = dpsel.Rng.seeded(b"parts"), []
    for _ in range(20):
        state, other = dpsel.Partial(params), dpsel.Partial(params)
        state.add(scores[0], b"0", rng)
        other.add_many(scores[1:], [b"1", b"2", b"3"], rng)
        state.merge(other, rng)
        releases.append(state.finish(dpsel.Selector(params), rng=rng))
    return releases


def released_from_stream(params, scores):
    rng, selector, releases = dpsel.Rng.seeded(b"stream"), dpsel.Selector(params), []
    for _ in range(20):
        with selector.stream(max(scores, key=Fraction), rng) as stream:
            stream.add(scores[0])
            stream.add_many(scores[1:])
            releases.append(stream.finish())
    return releases


def test_decimal_scores_not_of_the_unit_are_named():
    quarter = dpsel.Params.from_epsilon("1", "0.5", resolution="0.25")
    with pytest.raises(dpsel.UnitError, match="score is not a whole multiple of the "
                       "resolution 0.25"):
        dpsel.Partial(quarter).add("0.1")
    with pytest.raises(dpsel.UnitError, match="scores\\[1\\] is not a whole multiple"):
        dpsel.Partial(quarter).add_many(["0.5", "0.3"], [b"a", b"b"])
    with pytest.raises(dpsel.UnitError, match="best is not a whole multiple"):
        dpsel.Selector(quarter).stream("2.1")
    with pytest.raises(dpsel.UnitError, match="scores_b\\[0\\] is not a whole multiple"):
        dpsel.audit(quarter, ["0.5"], ["0.2"])
    with pytest.raises(dpsel.RangeError, match="units of 0.25, this state's in units of None"):
        dpsel.Partial(dpsel.Params.from_epsilon("1", 2)).merge(dpsel.Partial(quarter))
