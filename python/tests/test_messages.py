# SPDX-License-Identifier: ISC
"""Messages that say the fix: where the library's bare code ("argument out
of range") would not say which argument is wrong, the error names it, its
value and what it needs (dpsel._fixes), keeping its class and code.  Each
message is pinned here as a user sees it."""

import ctypes
import pickle

import pytest

import dpsel
from dpsel._errors import explained
from dpsel._native.lib import CParams, lib

P = dpsel.Params.from_epsilon("1")
SELECTOR = dpsel.Selector(P)
RNM_QUANTILE = ("mechanism 'rnm' has no quantile form (report noisy max chooses among "
                "labelled scores): give mechanism='em' or 'pf'")
RNM_PARTIAL = ("mechanism 'rnm' has no partial-state form (neither Partial.finish nor "
               "dpsel.dask): give mechanism='pf' or 'em'")
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
    # A grid of more than 2^62 points is named, for one quantile and for JointExp (whose base
    # is not to blame).
    (lambda: dpsel.median([1, 2, 3], 0, 2**62, "1", resolution=1, mechanism="pf"),
     dpsel.RangeError,
     "dpsel_quantile_select: argument out of range: the grid has 4611686018427387905 points "
     "(lower 0 to upper 4611686018427387904, in units of the resolution), more than 2^62: give "
     "a coarser resolution or nearer ends"),
    (lambda: dpsel.quantiles([1, 2, 3], ["0.25", "0.75"], 0, 2**63 - 2, "1", resolution=1,
                             joint=True), dpsel.RangeError,
     "dpsel_quantiles_joint_select_many_progress: argument out of range: the grid has "
     "9223372036854775807 points (lower 0 to upper 9223372036854775806, in units of the "
     "resolution), more than 2^62: give a coarser resolution or nearer ends"),
    (lambda: dpsel.quantiles_joint_pmf(dpsel.Params.from_epsilon("1", 6), [(1, 4), (3, 4)], [0],
                                       -2**62, 2**62), dpsel.RangeError,
     "dpsel_quantiles_joint_pmf_new: argument out of range: the grid has 9223372036854775809 "
     "points (lower -4611686018427387904 to upper 4611686018427387904, in units of the "
     "resolution), more than 2^62: give a coarser resolution or nearer ends"),
    (lambda: dpsel.QuantileRuns(1, 2, [0], 0, 2**62), dpsel.RangeError,
     "dpsel_quantile_runs_new: argument out of range: the grid has 4611686018427387905 points "
     "(lower 0 to upper 4611686018427387904, in units of the resolution), more than 2^62: give "
     "a coarser resolution or nearer ends"),
    # Report noisy max where a call has no form of it: the call that has, or the mechanisms.
    (lambda: SELECTOR.select([1, 2], "rnm"), dpsel.RangeError,
     "mechanism: argument out of range: mechanism 'rnm' takes its epsilon as a decimal, not "
     "Params: call dpsel.rnm_select(scores, epsilon, sensitivity, monotonic)"),
    (lambda: SELECTOR.select_top([1, 2], 1, "rnm"), dpsel.RangeError,
     "mechanism: argument out of range: mechanism 'rnm' takes its epsilon as a decimal, not "
     "Params: call dpsel.rnm_select_top(scores, k, epsilon, sensitivity, monotonic)"),
    (lambda: SELECTOR.select_hardened([1, 2], "rnm"), dpsel.RangeError,
     "mechanism: argument out of range: mechanism 'rnm' has no hardened form: give "
     "mechanism='pf' or 'em'"),
    (lambda: dpsel.top_pmf(P, [1, 2], 1, "rnm"), dpsel.RangeError,
     "mechanism: argument out of range: mechanism 'rnm' has no top-k pmf: give mechanism='pf' "
     "or 'em' (dpsel.rnm_pmf gives report noisy max's for one selection)"),
    (lambda: dpsel.pmf(P, [1, 2], "rnm"), dpsel.RangeError,
     "mechanism: argument out of range: mechanism 'rnm' takes its epsilon as a decimal, not "
     "Params: call dpsel.rnm_pmf(scores, epsilon, sensitivity, monotonic)"),
    (lambda: dpsel.Partial(P).finish(SELECTOR, "rnm"), dpsel.RangeError,
     "mechanism: argument out of range: " + RNM_PARTIAL),
    (lambda: dpsel.Accountant().add_params("rnm", P), dpsel.RangeError,
     "mechanism: argument out of range: mechanism 'rnm' is accounted at its decimal epsilon, "
     "not Params: call add('rnm', epsilon)"),
    (lambda: dpsel.median([1, 2, 3], 0, 10, "1", mechanism="rnm"), dpsel.RangeError,
     "mechanism: argument out of range: " + RNM_QUANTILE),
    (lambda: dpsel.quantiles([1], ["0.5"], 0, 10, "1", mechanism="rnm"), dpsel.RangeError,
     "mechanism: argument out of range: " + RNM_QUANTILE),
    (lambda: dpsel.quantile_select(SELECTOR, 1, 2, [3], 0, 10, "rnm"), dpsel.RangeError,
     "mechanism: argument out of range: " + RNM_QUANTILE),
    (lambda: SELECTOR.select_quantile(RUNS_90, "rnm"), dpsel.RangeError,
     "mechanism: argument out of range: " + RNM_QUANTILE),
    (lambda: dpsel.quantile_pmf(P, RUNS_90, "rnm"), dpsel.RangeError,
     "mechanism: argument out of range: " + RNM_QUANTILE),
    # A decimal that is not one, and an end off the grid, are named.
    (lambda: dpsel.median([1, 2, 3], 0, "500k", "1"), dpsel.DecimalError,
     "dpsel_grid_init: not a decimal number ([+-]digits[.digits]): upper '500k' is not a "
     "decimal number: give one such as '0', '100' or '0.5'"),
    (lambda: dpsel.Grid("zero", "10"), dpsel.DecimalError,
     "dpsel_grid_init: not a decimal number ([+-]digits[.digits]): lower 'zero' is not a "
     "decimal number: give one such as '0', '100' or '0.5'"),
    (lambda: dpsel.Grid("0", "10", "a tenth"), dpsel.DecimalError,
     "dpsel_grid_init: not a decimal number ([+-]digits[.digits]): resolution 'a tenth' is not "
     "a decimal number: give one such as '0', '100' or '0.5'"),
    (lambda: dpsel.quantile([1], "half", 0, 10, "1"), dpsel.DecimalError,
     "dpsel_quantile_fraction: not a decimal number ([+-]digits[.digits]): q 'half' is not a "
     "decimal number: give a quantile such as '0.5' or '0.95'"),
    (lambda: dpsel.select([1, 2], "1", resolution="x"), dpsel.DecimalError,
     "dpsel_decimal_to_units: not a decimal number ([+-]digits[.digits]): resolution 'x' is not "
     "a decimal number: give one such as '0.01'"),
    (lambda: dpsel.median([1, 2, 3], 0, 10, "1", resolution="7"), dpsel.UnitError,
     "dpsel_grid_init: not a whole multiple of its unit: upper 10 is not a whole multiple of "
     "the resolution 7: give ends on the grid"),
    (lambda: dpsel.Grid("0", "1" + "0" * 30), dpsel.RangeError,
     "dpsel_grid_init: argument out of range: lower 0 and upper 1000000000000000000000000000000 "
     "must lie within 2^63 - 1 steps of the resolution from 0: give a coarser resolution"),
    (lambda: dpsel.Grid("1", "10", "7"), dpsel.UnitError,
     "dpsel_grid_init: not a whole multiple of its unit: lower 1 and upper 10 are not whole "
     "multiples of the resolution 7: give ends on the grid"),
    # A negative sensitivity is named with the range that holds (0 is refused too).
    (lambda: dpsel.select([1, 2], "1", sensitivity=-1), dpsel.RangeError,
     "sensitivity: argument out of range: sensitivity -1 is negative: give the most one person "
     "can move any score (1 for counts)"),
    (lambda: dpsel.Params.from_epsilon("1", sensitivity="-1.5"), dpsel.RangeError,
     "sensitivity: argument out of range: sensitivity -1.5 is negative: give the most one "
     "person can move any score (1 for counts)"),
    (lambda: dpsel.rnm_select([1, 2], "1", sensitivity=-1), dpsel.RangeError,
     "sensitivity: argument out of range: sensitivity -1 is negative: give the most one person "
     "can move any score (1 for counts)"),
    (lambda: dpsel.rnm_pmf([1, 2], "1", sensitivity=-1), dpsel.RangeError,
     "sensitivity: argument out of range: sensitivity -1 is negative: give the most one person "
     "can move any score (1 for counts)"),
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
    # A refusal the diagnosis finds nothing in keeps the library's message.
    with pytest.raises(dpsel.RangeError) as raised, explained(lambda code: None):
        lib.dpsel_params_set_gap_cap(ctypes.byref(CParams()), 0)
    assert (str(raised.value), raised.value.fix) == (
        "dpsel_params_set_gap_cap: argument out of range", "")


def test_the_one_calls_release_what_rnm_select_top_does():
    # Report noisy max goes through select, top_k and mode as through
    # best_price and `dpsel select --mechanism rnm`: decimal scores in units
    # of the sensitivity's digit, each of top_k's k rounds at epsilon / k.
    seed = bytes(range(32))
    scores = {"a": "1.5", "b": "2.0", "c": "0.5"}
    expected = dpsel.rnm_select_top([3, 4, 1], 2, "0.5", 1, rng=dpsel.Rng.seeded(seed))
    chosen = dpsel.top_k(scores, 2, "1", sensitivity="0.5", mechanism="rnm",
                         rng=dpsel.Rng.seeded(seed))
    assert chosen == [list(scores)[i] for i in expected]
    mode_expected = dpsel.rnm_select_top([1, 2], 1, "1", 1, True, rng=dpsel.Rng.seeded(seed))
    assert dpsel.mode(["a", "b", "b"], ["a", "b"], "1", mechanism="rnm",
                      rng=dpsel.Rng.seeded(seed)) == ["a", "b"][mode_expected[0]]


def test_report_noisy_max_is_accounted_at_its_decimal_epsilon():
    accountant = dpsel.Accountant()
    dpsel.top_k([1, 5, 2], 2, "1", mechanism="rnm", accountant=accountant)
    dpsel.mode(["a"], ["a", "b"], "0.25", mechanism="rnm", accountant=accountant)
    with_rnm = dpsel.Accountant()
    with_rnm.add("rnm", "0.5", 2)
    with_rnm.add("rnm", "0.25", 1)
    assert accountant.report() == with_rnm.report()
