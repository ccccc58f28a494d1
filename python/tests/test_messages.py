# SPDX-License-Identifier: ISC
"""Messages that say the fix: where the library's bare code ("argument out
of range") would not say which argument is wrong, the error names it, its
value and what it needs (dpsel._fixes), keeping its class and code.  Each
message is pinned here as a user sees it."""

import pickle

import pytest

import dpsel

P = dpsel.Params.from_epsilon("1")
SELECTOR = dpsel.Selector(P)
MONOTONIC = dpsel.Selector(dpsel.Params.from_epsilon("1", monotonic=True))
RUNS_90 = dpsel.QuantileRuns(9, 10, [3, 5, 7], 0, 10)


def started_stream():
    return SELECTOR.stream(3)


def spent_partial():
    partial, other = dpsel.Partial(P), dpsel.Partial(P)
    other.add(1, b"a")
    partial.merge(other)
    return other


def accountant_with_one():
    accountant = dpsel.Accountant()
    accountant.add("em", "1")
    return accountant


CASES = [
    # (call, class, the whole message)
    (lambda: dpsel.quantile_select(SELECTOR, 9, 10, [3, 5, 7], 0, 10), dpsel.RangeError,
     "dpsel_quantile_select: argument out of range: sensitivity 1 is below 9, the quantile "
     "9/10's: make the Params with sensitivity=9 (quantile_fraction(q).sensitivity) and "
     "monotonic=False"),
    (lambda: SELECTOR.select_quantile(RUNS_90), dpsel.RangeError,
     "dpsel_quantile_select_runs: argument out of range: sensitivity 1 is below 9, the quantile "
     "9/10's: make the Params with sensitivity=9 (quantile_fraction(q).sensitivity) and "
     "monotonic=False"),
    (lambda: dpsel.quantile_pmf(P, RUNS_90), dpsel.RangeError,
     "dpsel_quantile_pmf_new_progress: argument out of range: sensitivity 1 is below 9, the "
     "quantile "
     "9/10's: make the Params with sensitivity=9 (quantile_fraction(q).sensitivity) and "
     "monotonic=False"),
    (lambda: dpsel.quantile_select(MONOTONIC, 1, 2, [3], 0, 10), dpsel.RangeError,
     "dpsel_quantile_select: argument out of range: the Params are monotonic and a quantile's "
     "score is not: make them with monotonic=False"),
    (lambda: dpsel.quantile_select(SELECTOR, 1, 2, [3], 10, 0), dpsel.RangeError,
     "dpsel_quantile_select: argument out of range: lower 10 is above upper 0: swap them"),
    (lambda: dpsel.quantile_select(SELECTOR, 1, 2, [3], 0, 1 << 42), dpsel.RangeError,
     "dpsel_quantile_select: argument out of range: EM takes grids of at most 2^42 - 1 points, "
     "not 4398046511105: use mechanism='pf' or a coarser resolution"),
    (lambda: dpsel.QuantileRuns(2, 4, [3], 0, 10), dpsel.RangeError,
     "dpsel_quantile_runs_new: argument out of range: a / b = 2/4 is not a quantile in lowest "
     "terms with 0 < a < b <= 10^18: take a and b from quantile_fraction(q)"),
    (lambda: dpsel.quantile_fraction("1.5"), dpsel.RangeError,
     "dpsel_quantile_fraction: argument out of range: q 1.5 is not strictly between 0 and 1: "
     "give a quantile such as '0.5' or '0.95'"),
    (lambda: dpsel.quantile_fraction("0." + "1" * 19), dpsel.RangeError,
     "dpsel_quantile_fraction: argument out of range: q 0.1111111111111111111 is a / b with b "
     "above 10^18 (QUANTILE_DENOMINATOR_MAX): give it with at most 18 fraction digits"),
    (lambda: dpsel.Grid("5", "1"), dpsel.RangeError,
     "dpsel_grid_init: argument out of range: lower 5 is above upper 1: swap them"),
    (lambda: dpsel.Grid("0", "1", "-0.5"), dpsel.RangeError,
     "dpsel_grid_init: argument out of range: resolution -0.5 is not positive"),
    (lambda: dpsel.Params.from_epsilon("1", sensitivity=0), dpsel.RangeError,
     "dpsel_params_from_epsilon: argument out of range: sensitivity 0 is below 1: give the most "
     "one person can move any score (1 for counts)"),
    (lambda: dpsel.Params.from_epsilon("1e-30"), dpsel.EpsilonError,
     "dpsel_params_from_epsilon: epsilon is not a positive decimal number that a base x/2^y "
     "with y <= 64 can realise: epsilon 1e-30 is below what any base x / 2^y with y <= 64 "
     "realises for sensitivity 1: the least is about 1.08e-19 (2 x 2^-64)"),
    (lambda: dpsel.Params.from_epsilon("1e-30", 3, True), dpsel.EpsilonError,
     "dpsel_params_from_epsilon: epsilon is not a positive decimal number that a base x/2^y "
     "with y <= 64 can realise: epsilon 1e-30 is below what any base x / 2^y with y <= 64 "
     "realises for sensitivity 3 (monotonic): the least is about 1.63e-19 (3 x 2^-64)"),
    (lambda: dpsel.Params.from_epsilon("abc"), dpsel.EpsilonError,
     "dpsel_params_from_epsilon: epsilon is not a positive decimal number that a base x/2^y "
     "with y <= 64 can realise: epsilon 'abc' is not a decimal number: give one such as '1', "
     "'0.25' or '5e-3'"),
    (lambda: dpsel.Params.from_epsilon("-1"), dpsel.EpsilonError,
     "dpsel_params_from_epsilon: epsilon is not a positive decimal number that a base x/2^y "
     "with y <= 64 can realise: epsilon -1 is not positive"),
    (lambda: dpsel.Params.from_base(0, 3), dpsel.RangeError,
     "dpsel_params_from_base: argument out of range: x 0 is not 1 to 2^3 - 1: the base x / 2^3 "
     "must lie strictly between 0 and 1"),
    (lambda: dpsel.Params.from_base(1, 65), dpsel.RangeError,
     "dpsel_params_from_base: argument out of range: y 65 is not 1 to 64: the base is x / 2^y"),
    (lambda: setattr(P.copy(), "gap_cap", 0), dpsel.RangeError,
     "dpsel_params_set_gap_cap: argument out of range: gap_cap 0 is not 1 to GAP_CAP_MAX "
     "(1048576)"),
    (lambda: SELECTOR.select_top([1, 2], 3), dpsel.RangeError,
     "dpsel_select_top: argument out of range: k 3 is not 1 to the number of candidates, 2"),
    (lambda: dpsel.top_pmf(P, [1, 2], 0), dpsel.RangeError,
     "dpsel_top_pmf_new: argument out of range: k 0 is not 1 to the number of candidates, 2"),
    (lambda: dpsel.pmf(P, [1, 2]).probability(2), dpsel.RangeError,
     "outcome: argument out of range: outcome 2 is not 0 to 1: there are 2"),
    (lambda: started_stream().add(5), dpsel.RangeError,
     "dpsel_pf_stream_add: argument out of range: score is above best, the largest score "
     "the stream was started with: start it with the largest of all (Selector.stream(best))"),
    (lambda: started_stream().add_many([1, 5]), dpsel.RangeError,
     "dpsel_pf_stream_add_scores: argument out of range: a score above best, or a stream that "
     "failed or finished: start it with the largest score of all (Selector.stream(best)) and "
     "add each score before finish"),
    (lambda: dpsel.decimal_to_units("1", "0"), dpsel.RangeError,
     "dpsel_decimal_to_units: argument out of range: unit 0 is not positive"),
    (lambda: dpsel.units_to_decimal(1, "-0.25"), dpsel.RangeError,
     "dpsel_units_to_decimal: argument out of range: unit -0.25 is not positive"),
    (lambda: dpsel.Partial(P).merge(dpsel.Partial(dpsel.Params.from_base(1, 1))),
     dpsel.RangeError,
     "dpsel_partial_merge: argument out of range: other was made for Params(base=1/2^1, "
     "epsilon<=1.3862943611198907, sensitivity=1, monotonic=False, gap_cap=64), this state for "
     "Params(base=2797128963144291325/2^62, epsilon<=1.0000000000000000, sensitivity=1, "
     "monotonic=False, gap_cap=89): merge states made with the same base and gap cap"),
    (lambda: dpsel.Partial(P).merge(spent_partial()), dpsel.RangeError,
     "dpsel_partial_merge: argument out of range: one of the states is spent (finished, merged "
     "away, or failed part-way): release each candidate through one path of merges to one "
     "finish"),
    (lambda: dpsel.Accountant().report(), dpsel.EmptyError,
     "dpsel_accountant_report: no candidates: no release was added: add them first "
     "(Accountant.add, add_params)"),
    (lambda: accountant_with_one().report(delta="2"), dpsel.RangeError,
     "dpsel_accountant_report: argument out of range: delta 2 is not strictly between 0 and 1: "
     "give one such as '1e-6'"),
    (lambda: dpsel.Accountant().add("em", "1", 0), dpsel.RangeError,
     "dpsel_accountant_add: argument out of range: count 0: give the number of releases, 1 or "
     "more"),
    (lambda: dpsel.Accountant().add("pf", "0"), dpsel.EpsilonError,
     "dpsel_accountant_add: epsilon is not a positive decimal number that a base x/2^y with "
     "y <= 64 can realise: epsilon 0 is not positive"),
]


@pytest.mark.parametrize("call, cls, message", CASES, ids=[c[2][:60] for c in CASES])
def test_the_message_names_the_argument_and_the_fix(call, cls, message):
    with pytest.raises(cls) as raised:
        call()
    assert str(raised.value) == message
    assert type(raised.value) is cls  # the class and code the library's error had


def test_a_fix_survives_pickling():
    with pytest.raises(dpsel.RangeError) as raised:
        SELECTOR.select_quantile(RUNS_90)
    again = pickle.loads(pickle.dumps(raised.value))
    assert (type(again), str(again), again.fix) == (dpsel.RangeError, str(raised.value),
                                                   raised.value.fix)


def test_without_a_finding_the_library_message_stands():
    # A grid of 2^62 + 1 points, which no fix names; the library's message
    # is left as it was.  (Ten values of the quantile 1/(10^18 - 1) were
    # the case until 5eb08b2: a count never refuses the runs now.)
    with pytest.raises(dpsel.RangeError) as raised:
        dpsel.QuantileRuns(1, 2, [0] * 10, 0, 2**62)
    assert (str(raised.value), raised.value.fix) == (
        "dpsel_quantile_runs_new: argument out of range", "")
