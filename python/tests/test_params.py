# SPDX-License-Identifier: ISC
"""Params: the base for an epsilon given exactly in every Python form, the
explicit base, the gap cap, the realised epsilon, and bad input."""

from decimal import Decimal
from fractions import Fraction

import pytest

import dpsel
from dpsel._native import convert


def fields(params):
    return (params.x, params.y, params.sensitivity, params.monotonic, params.gap_cap)


def test_epsilon_one_gives_the_readme_s_base():
    params = dpsel.Params.from_epsilon("1")
    assert (params.x, params.y, params.gap_cap) == (2797128963144291325, 62, 89)
    assert params.epsilon == "1.0000000000000000"
    assert params.sensitivity == 1 and params.monotonic is False


@pytest.mark.parametrize("same", [1, "1e0", "1.000", Fraction(1), Decimal("1"),
                                  Decimal("1.0E+0"), 1.0])
def test_every_form_of_one_is_one(same):
    assert dpsel.Params.from_epsilon(same) == dpsel.Params.from_epsilon("1")


@pytest.mark.parametrize("same", [Fraction(1, 4), Decimal("0.25"), 0.25, "25e-2"])
def test_every_form_of_a_quarter_is_a_quarter(same):
    assert dpsel.Params.from_epsilon(same, 3, True) == dpsel.Params.from_epsilon("0.25", 3, True)


def test_a_float_is_taken_at_its_exact_binary_value():
    exact = "1000000000000000055511151231257827021181583404541015625e-55"
    assert convert.epsilon_text(0.1) == exact
    assert dpsel.Params.from_epsilon(0.1) == dpsel.Params.from_epsilon(exact)
    assert convert.epsilon_text(Decimal("0.1")) == "1e-1"
    assert convert.epsilon_text(Fraction(3, 8)) == "375e-3"


def test_monotonic_scores_halve_epsilon():
    assert dpsel.Params.from_base(1, 1).epsilon == "1.3862943611198907"   # 2 ln 2, rounded up
    assert dpsel.Params.from_base(1, 1, monotonic=True).epsilon == "0.69314718055994531"
    assert dpsel.Params.from_base(1, 1, sensitivity=3).epsilon_text(5) == "4.1589"


def test_the_base_is_kept_in_lowest_terms_with_the_default_cap():
    params = dpsel.Params.from_base(6, 3)  # 6/8 = 3/4
    assert (params.x, params.y) == (3, 2)
    assert dpsel.Params.from_base(1, 1).gap_cap == 64  # (1/2)^64 = 2^-64


def test_the_gap_cap_is_set_and_checked():
    params = dpsel.Params.from_epsilon("1")
    params.gap_cap = 10
    assert params.gap_cap == 10
    for bad in (0, dpsel.GAP_CAP_MAX + 1, -1, 1 << 64):
        with pytest.raises(dpsel.RangeError):
            params.gap_cap = bad
    assert params.gap_cap == 10
    params.gap_cap = dpsel.GAP_CAP_MAX
    assert params.gap_cap == dpsel.GAP_CAP_MAX


def test_copies_and_equality():
    params = dpsel.Params.from_epsilon("0.5", 2)
    copy = params.copy()
    assert copy == params and copy is not params
    copy.gap_cap = 3
    assert copy != params and params.gap_cap != 3
    assert "epsilon<=" in repr(params) and params != "0.5"


@pytest.mark.parametrize("bad", ["0", "-1", "abc", "1 ", "", "1e", "1e1234567890", "1" * 5000,
                                 "1e-30", Fraction(1, 3), Fraction(-1, 2), Decimal("NaN"),
                                 Decimal("-Infinity"), float("inf"), float("nan"), -1, 0, 0.0])
def test_bad_epsilons_are_epsilon_errors(bad):
    with pytest.raises(dpsel.EpsilonError) as caught:
        dpsel.Params.from_epsilon(bad)
    assert isinstance(caught.value, ValueError)
    assert caught.value.code == dpsel.ErrorCode.EPSILON


@pytest.mark.parametrize("bad", [None, True, [1], b"1", 1j])
def test_epsilons_of_another_type_are_type_errors(bad):
    with pytest.raises(TypeError):
        dpsel.Params.from_epsilon(bad)


def test_a_nul_in_a_text_is_refused_before_c_reads_it():
    with pytest.raises(ValueError, match="NUL"):
        dpsel.Params.from_epsilon("1\0garbage")


@pytest.mark.parametrize("arguments", [(3, 0), (4, 2), (0, 3), (1, 65), (1, 1 << 32), (-1, 3),
                                       (1 << 64, 64)])
def test_bad_bases_are_range_errors(arguments):
    with pytest.raises(dpsel.RangeError):
        dpsel.Params.from_base(*arguments)


@pytest.mark.parametrize("sensitivity", [0, -1, 1 << 64])
def test_bad_sensitivities_are_range_errors(sensitivity):
    with pytest.raises(dpsel.RangeError):
        dpsel.Params.from_epsilon("1", sensitivity)


def test_flags_and_integers_must_be_what_they_say():
    with pytest.raises(TypeError):
        dpsel.Params.from_epsilon("1", 1, "yes")
    with pytest.raises(TypeError):
        dpsel.Params.from_epsilon("1", 1, 2)
    with pytest.raises(TypeError):
        dpsel.Params.from_epsilon("1", True)
    # A decimal sensitivity is one in units of its last digit, as the tool's
    # --sensitivity 1.5; a float only when it is exactly what it prints as.
    assert dpsel.Params.from_epsilon("1", 1.5).resolution == "0.1"
    with pytest.raises(dpsel.DecimalError, match="sensitivity 0.1 is not exactly 0.1 in binary"):
        dpsel.Params.from_epsilon("1", 0.1)
    with pytest.raises(dpsel.RangeError):
        dpsel.Params.from_epsilon("1").epsilon_text(0)
    with pytest.raises(dpsel.RangeError):
        dpsel.Params.from_epsilon("1").epsilon_text(101)
