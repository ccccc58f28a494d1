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


# ------------------------------------------------- exactly or not at all

SELECTOR = dpsel.Selector(dpsel.Params.from_epsilon("1"))


def test_a_masked_array_is_refused_not_released_unmasked():
    # Was: the mask dropped, and the masked-out candidate (the best) released.
    masked = numpy.ma.masked_array([0, 0, 100], mask=[False, False, True])
    for scores in (masked, numpy.ma.masked_array([1, 2, 3])):  # even with nothing masked
        with pytest.raises(TypeError, match=r"masked array.*scores\.compressed\(\).*"
                                            r"scores\.filled\(value\)"):
            SELECTOR.select(scores)
    assert SELECTOR.select(masked.compressed()) in (0, 1)


@pytest.mark.parametrize("booleans", [
    [1, True], (False, 2), [numpy.True_, 3], numpy.array([1, True], dtype=object),
    numpy.array([True, False]), pandas.Series([3, False], dtype=object),
    pandas.Series([True, False]), pandas.Series([True, None], dtype="boolean"),
    pandas.array([True, False], dtype="boolean"), (b for b in [True, 4]), [True] * 1000,
])
def test_booleans_are_refused_everywhere_naming_the_fix(booleans):
    # Was: 1 and 0 in a list, an object array or an object Series.
    with pytest.raises(TypeError, match=r"bool.*(int\(True\)|int\(False\)|astype\(int\))"):
        SELECTOR.select(booleans)


def test_booleans_are_refused_as_single_scores_and_integer_arguments():
    with pytest.raises(TypeError, match="a bool"), SELECTOR.stream(5) as stream:
        stream.add(True)
    with pytest.raises(TypeError, match="a bool"):
        dpsel.Partial(SELECTOR.params).add(True, b"member")
    with pytest.raises(TypeError, match="a bool"):
        SELECTOR.select_top([3, 4, 5], True)
    with pytest.raises(TypeError, match="a bool"):
        dpsel.Params.from_epsilon("1", sensitivity=True)


@pytest.mark.parametrize("mapping", [
    {0: 5, 1: 9}, {"a": 5}.keys(), {"a": 5}.values(), {"a": 5}.items(),
    __import__("collections").OrderedDict(a=5),
])
def test_a_mapping_is_refused_pointing_at_a_series(mapping):
    # Was: a dict's keys taken as its scores.
    with pytest.raises(TypeError, match=r"mapping.*pandas\.Series\(d\)"):
        SELECTOR.select(mapping)
    assert SELECTOR.select(pandas.Series({"a": 5, "b": 1000})) == "b"


@pytest.mark.parametrize("unordered", [{3, 1, 2}, frozenset({3, 1}), iter({3, 1, 2})])
def test_a_set_is_refused_as_it_has_no_order(unordered):
    with pytest.raises(TypeError, match="no order"):
        SELECTOR.select(unordered)


class _Bag:
    """An iterable that is neither a sequence nor an iterator."""
    def __iter__(self):
        return iter([1, 2])


@pytest.mark.parametrize("other", [pandas.DataFrame({0: [1, 2], 1: [3, 4]}), _Bag()])
def test_other_iterables_are_refused(other):
    # A DataFrame was taken as its column names.
    with pytest.raises(TypeError, match=r"frame\[name\]|list\(\.\.\.\)"):
        SELECTOR.select(other)


@pytest.mark.parametrize("kind", [
    lambda v: iter(v), lambda v: reversed(v[::-1]), lambda v: map(int, v),
    lambda v: pandas.Index(v), lambda v: pandas.Series(v, dtype="category"),
    lambda v: pandas.array(v, dtype="Int64"), lambda v: [Decimal(x).scaleb(2).scaleb(-2)
                                                         for x in v],
    lambda v: __import__("collections").deque(v),
])
def test_ordered_kinds_still_give_their_values(kind):
    assert values(kind(SCORES)) == SCORES


@pytest.mark.parametrize("missing", [
    [1, None], [1, float("nan")], numpy.array([1.0, numpy.nan]), [Decimal("NaN")],
    pandas.Series([1, None], dtype="Int64"), [pandas.NA], [pandas.NaT],
])
def test_a_missing_score_is_refused_saying_so(missing):
    with pytest.raises(TypeError, match="a missing score"):
        as_scores(missing)


def test_a_decimal_far_from_an_integer_is_refused_at_once():
    # Fraction(Decimal("1e999999999")) would write out a billion digits.
    for huge in (Decimal("1e999999999"), Decimal("-9.9e19"), Decimal("1e19")):
        with pytest.raises(dpsel.RangeError, match="outside the int64 range"):
            as_scores([huge])
    with pytest.raises(TypeError, match="not an integer"):
        as_scores([Decimal("1e-999999999")])
    assert values([Decimal("9223372036854775807"), Decimal("-9.223372036854775808e18"),
                   Decimal("1.000e3")]) == [INT64_MAX, INT64_MIN, 1000]
