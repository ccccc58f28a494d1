# SPDX-License-Identifier: ISC
"""Exact distributions: Pmf, pmf_grouped and TopPmf against closed forms and
independent products, their decimals and enclosures, and their limits."""

from decimal import Context, Decimal
from fractions import Fraction

import pandas
import pytest

import dpsel
from dpsel._pmf import _value

HALF = dpsel.Params.from_base(1, 1)  # beta = 1/2, gap cap 64


def probabilities(pmf):
    return [pmf.probability(i) for i in range(len(pmf))]


def test_em_is_its_formula():
    # P(r) = beta^g / sum: gaps 2, 1, 0 at beta 1/2 give 1/4, 1/2, 1 over 7/4.
    pmf = dpsel.pmf(HALF, [0, 1, 2], "em")
    assert len(pmf) == 3
    assert probabilities(pmf) == [Fraction(1, 7), Fraction(2, 7), Fraction(4, 7)]
    assert pmf.expected_error() == Fraction(4, 7)  # 2 x 1/7 + 1 x 2/7
    assert pmf.expected_error(unit="0.25") == Fraction(1, 7)
    assert "Pmf of 3" in repr(pmf)


def test_pf_on_two_candidates_is_its_formula():
    # The other candidate first (1/2), then heads (beta^1 = 1/2): 1/4.
    assert probabilities(dpsel.pmf(HALF, [7, 6])) == [Fraction(3, 4), Fraction(1, 4)]


def test_decimals_and_enclosures_agree_with_the_rationals():
    params = dpsel.Params.from_epsilon("1", monotonic=True)
    for mechanism in ("pf", "em"):
        pmf = dpsel.pmf(params, [41, 38, 40, 12, 33], mechanism)
        exact = probabilities(pmf)
        assert sum(exact) == 1
        for i, p in enumerate(exact):
            decimal = pmf.probability_text(i)
            assert isinstance(decimal, str) and pmf.probability(i, exact="text") == decimal
            assert abs(Fraction(decimal) - p) <= p * Fraction(1, 10**16)
            number = pmf.probability(i, exact=False)
            assert type(number) is float and number == float(decimal)
            assert abs(Fraction(number) - p) <= p * Fraction(1, 10**15)
            lo, hi = pmf.bounds(i)
            assert Fraction(lo) <= p <= Fraction(hi) and hi != lo
            lo, hi = pmf.bounds(i, 3)
            assert Fraction(lo) <= p <= Fraction(hi) and len(Decimal(hi).as_tuple().digits) <= 3
        error = pmf.expected_error()
        lo, hi = pmf.expected_error_bounds()
        assert Fraction(lo) <= error <= Fraction(hi)
        text = pmf.expected_error(exact="text")
        assert isinstance(text, str) and abs(Fraction(text) - error) <= error / 10**16
        number = pmf.expected_error(exact=False)
        assert type(number) is float and number == float(text)
        assert abs(Fraction(number) - error) <= error / 10**15
        lo, hi = pmf.expected_error_bounds(20, unit="0.001")
        assert Fraction(lo) <= error / 1000 <= Fraction(hi)
        assert pmf.expected_error(exact=False, unit="1") == number
        assert pmf.expected_error(exact="text", unit="0.001") == str(Decimal(text) / 1000)


def test_beyond_the_exact_limits_only_the_enclosure_exists():
    # PF's exact rationals stop at 4096 candidates; its enclosure goes on.
    pmf = dpsel.pmf(dpsel.Params.from_epsilon("1"), [1] + [0] * 5000)
    with pytest.raises(dpsel.TooLargeError):
        pmf.probability(0)
    # The decimal is correctly rounded: both ends of the enclosure round to it.
    rounded = {Context(prec=17).plus(Decimal(end)) for end in pmf.bounds(0)}
    assert rounded == {Decimal(pmf.probability_text(0))}
    assert pmf.probability(0, exact=False) == float(pmf.probability_text(0))
    # PF past 32768 candidates: by certified quadrature.
    large = dpsel.pmf(dpsel.Params.from_epsilon("1"), [1] + [0] * 32768)
    rounded = {Context(prec=17).plus(Decimal(end)) for end in large.bounds(0)}
    assert rounded == {Decimal(large.probability_text(0))}


def test_bad_requests():
    pmf = dpsel.pmf(HALF, [0, 1, 2])
    for bad in (3, -1, 1 << 64):
        with pytest.raises(dpsel.RangeError):
            pmf.probability(bad)
    for digits in (0, 101):
        with pytest.raises(dpsel.RangeError):
            pmf.bounds(0, digits)
    with pytest.raises(dpsel.RangeError):
        pmf.expected_error(unit="0")
    with pytest.raises(dpsel.DecimalError):
        pmf.expected_error(unit="1e-3")
    with pytest.raises(dpsel.EmptyError):
        dpsel.pmf(HALF, [])
    with pytest.raises(TypeError):
        dpsel.pmf("params", [1])


def test_groups_are_their_members_summed():
    scores, multiplicity = [3, 1, 2], [2, 3, 1]
    expanded = [s for s, m in zip(scores, multiplicity) for _ in range(m)]
    for mechanism in ("pf", "em"):
        grouped = dpsel.pmf_grouped(HALF, scores, multiplicity, mechanism)
        whole = probabilities(dpsel.pmf(HALF, expanded, mechanism))
        assert probabilities(grouped) == [sum(whole[0:2]), sum(whole[2:5]), whole[5]]
        assert grouped.expected_error() == dpsel.pmf(HALF, expanded, mechanism).expected_error()
    with pytest.raises(dpsel.RangeError):
        dpsel.pmf_grouped(HALF, scores, [1, 0, 1])
    with pytest.raises(dpsel.RangeError):
        dpsel.pmf_grouped(HALF, scores, [1, -1, 1])
    with pytest.raises(ValueError):
        dpsel.pmf_grouped(HALF, scores, [1, 1])


def test_top_k_is_the_product_of_its_rounds():
    scores = [3, 1, 2, 2]
    for mechanism in ("pf", "em"):
        top = dpsel.top_pmf(HALF, scores, 2, mechanism)
        assert len(top) == 4 * 3 and "2-tuples" in repr(top)
        total = 0
        for t in range(len(top)):
            first, second = top.tuple(t)
            rest = [s for i, s in enumerate(scores) if i != first]
            expected = (dpsel.pmf(HALF, scores, mechanism).probability(first)
                        * dpsel.pmf(HALF, rest, mechanism).probability(second - (second > first)))
            assert top.probability(t) == expected
            lo, hi = top.bounds(t)
            assert Fraction(lo) <= expected <= Fraction(hi)
            total += expected
        assert total == 1
    labelled = dpsel.top_pmf(HALF, pandas.Series(scores, index=list("wxyz")), 4)
    assert sorted(labelled.tuple(0)) == list("wxyz")
    with pytest.raises(dpsel.RangeError):
        dpsel.top_pmf(HALF, scores, 5)
    with pytest.raises(dpsel.RangeError):
        labelled.tuple(len(labelled))
    with pytest.raises(dpsel.TooLargeError):
        dpsel.top_pmf(HALF, list(range(300)), 2)  # 89700 tuples


def test_top_k_exact_limits_refuse_at_once():
    # 111 EM candidates at epsilon 1: rationals of 272624880 bits, past 2**28
    params = dpsel.Params.from_epsilon("1")
    spread = [(37 * i) % 100 for i in range(1, 112)]
    past = dpsel.top_pmf(params, spread, 2, "em")
    work, bits = past.exact_size()
    assert bits == 272624880 > 2**28 and work <= 2**32
    with pytest.raises(dpsel.TooLargeError):
        past.probability(0)
    assert Fraction(past.probability_text(0)) > 0  # the decimals stay
    at = dpsel.top_pmf(params, spread[:110], 2, "em")
    assert at.exact_size()[1] <= 2**28
    assert isinstance(at.probability(0), Fraction)


def test_rationals_of_any_length_are_read():
    # Python reads at most 4300 digits at once (sys.get_int_max_str_digits).
    numerator, denominator = 3 ** 30000, 2 ** 50000 + 1
    text = _digits(numerator) + "/" + _digits(denominator)
    assert _value(text, exact=True) == Fraction(numerator, denominator)
    assert _value("1/1", exact=True) == 1 and _value("0.25", exact=False) == 0.25
    assert _value("0.25", exact="text") == "0.25"


def _digits(number):
    """str(number) for any length, by halves (as str() refuses past 4300 digits)."""
    if number < 10**4000:
        return str(number)
    half = 10**2000
    high, low = divmod(number, half)
    return _digits(high) + _digits(low).rjust(2000, "0")
