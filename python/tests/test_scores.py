# SPDX-License-Identifier: ISC
"""Score vectors: every accepted kind gives the same int64 values, a numpy
int64 array is passed without a copy, and what is not exactly an int64
integer is refused (never rounded, never wrapped)."""

import array
import ctypes
from decimal import Decimal
from fractions import Fraction

import numpy
import pandas
import pytest

import dpsel
from dpsel._scores import as_scores

SCORES = [41, 38, 40, 12, 33]
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def values(scores):
    """The int64 values as C reads them."""
    s = as_scores(scores)
    return list((ctypes.c_int64 * s.n).from_address(s.address))


@pytest.mark.parametrize("kind", [
    list, tuple, lambda v: (x for x in v), lambda v: array.array("q", v),
    lambda v: numpy.array(v, dtype=numpy.int64), lambda v: numpy.array(v, dtype=numpy.int8),
    lambda v: numpy.array(v, dtype=numpy.uint16), lambda v: numpy.array(v, dtype=numpy.uint64),
    lambda v: numpy.array(v, dtype=numpy.float64), lambda v: numpy.array(v, dtype=">i8"),
    lambda v: numpy.repeat(numpy.array(v, dtype=numpy.int64), 2)[::2],
    lambda v: numpy.array(v, dtype=object),
    lambda v: pandas.Series(v), lambda v: pandas.Series(v, dtype="Int64"),
    lambda v: [float(x) for x in v], lambda v: [Fraction(x) for x in v],
    lambda v: [Decimal(x) for x in v], lambda v: [numpy.int32(x) for x in v],
])
def test_every_kind_of_sequence_gives_the_same_values(kind):
    assert values(kind(SCORES)) == SCORES


def test_a_numpy_int64_array_is_passed_without_a_copy():
    scores = numpy.arange(10**6, dtype=numpy.int64)
    s = as_scores(scores)
    assert s.keep is scores and s.address == scores.ctypes.data
    series = pandas.Series(scores)
    assert as_scores(series).address == scores.ctypes.data
    strided = scores[::2]
    assert as_scores(strided).address != strided.ctypes.data  # copied, contiguous


def test_the_int64_extremes_pass_exactly():
    extremes = [INT64_MIN, INT64_MAX, 0]
    assert values(extremes) == extremes
    assert values(numpy.array(extremes)) == extremes
    assert values(numpy.array([INT64_MAX], dtype=numpy.uint64)) == [INT64_MAX]
    assert values(numpy.array([-2.0**63])) == [INT64_MIN]


@pytest.mark.parametrize("bad", [[1 << 63], [INT64_MIN - 1], [1, 2, 10**30],
                                 numpy.array([1 << 63], dtype=numpy.uint64)])
def test_integers_outside_int64_are_range_errors(bad):
    with pytest.raises(dpsel.RangeError):
        as_scores(bad)


@pytest.mark.parametrize("bad", [
    [1, 2.5], [1, float("nan")], [float("inf")], ["1"], [None], [1, Fraction(1, 2)],
    numpy.array([1.0, 2.5]), numpy.array([numpy.nan]), numpy.array([2.0**63]),
    numpy.array([True, False]), numpy.array(["a"]), numpy.array([1 + 2j]),
    pandas.Series([1, None], dtype="Int64"), "123", b"\x01\x02", bytearray(2), None, 5,
])
def test_what_is_not_an_integer_is_refused(bad):
    with pytest.raises(TypeError):
        as_scores(bad)


def test_a_matrix_is_refused():
    with pytest.raises(ValueError, match="one-dimensional"):
        as_scores(numpy.zeros((2, 2), dtype=numpy.int64))


def test_no_scores_is_an_empty_error_never_a_null():
    selector = dpsel.Selector(dpsel.Params.from_epsilon("1"))
    for empty in ([], (), numpy.array([], dtype=numpy.int64), pandas.Series([], dtype="int64")):
        with pytest.raises(dpsel.EmptyError):
            selector.select(empty)


def test_every_kind_selects_alike_on_one_seed():
    selector = dpsel.Selector(dpsel.Params.from_epsilon("0.3"))
    scores = [i % 17 for i in range(3000)]
    kinds = [scores, numpy.array(scores), numpy.array(scores, dtype=numpy.float32),
             pandas.Series(scores)]
    choices = [[selector.select(k, rng=rng) for _ in range(20)]
               for k, rng in ((k, dpsel.Rng.seeded(b"same")) for k in kinds)]
    assert all(c == choices[0] for c in choices)
