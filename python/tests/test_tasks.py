# SPDX-License-Identifier: ISC
"""Histogram tasks and decimal scores."""

from decimal import Decimal
from fractions import Fraction

import numpy
import pandas
import pytest

import dpsel


@pytest.mark.parametrize("counts, median", [  # tests/test_tasks.c's hand-computed cases
    ([1, 2, 3, 4], [-8, -4, 0, -3]), ([0, 5, 0], [-5, 0, -6]), ([2, 0, 2], [0, -1, -1]),
    ([0, 0], [-1, -1]), ([7], [0])])
def test_median_scores_by_hand(counts, median):
    assert dpsel.task_scores("median", counts) == median
    assert dpsel.task_scores(dpsel.Task.MODE, counts) == counts


def test_the_scores_have_the_kind_of_the_counts():
    counts = pandas.Series([1, 2, 3, 4], index=list("abcd"), name="records")
    scores = dpsel.task_scores("median", counts)
    assert isinstance(scores, pandas.Series) and list(scores) == [-8, -4, 0, -3]
    assert list(scores.index) == list("abcd") and scores.name == "records"
    array = dpsel.task_scores("mode", numpy.array([3, 0, 9], dtype=numpy.int32))
    assert isinstance(array, numpy.ndarray) and array.dtype == numpy.int64
    assert array.tolist() == [3, 0, 9]
    original = numpy.array([1, 2, 3, 4])
    dpsel.task_scores("median", original)
    assert original.tolist() == [1, 2, 3, 4]  # never written in place


def test_task_params():
    assert dpsel.task_params("mode") == (1, True)
    assert dpsel.task_params("median") == dpsel.TaskParams(sensitivity=1, monotonic=False)
    params = dpsel.Params.from_epsilon("1", *dpsel.task_params("mode"))
    assert params.monotonic and params.sensitivity == 1


def test_bad_histograms():
    with pytest.raises(dpsel.RangeError):
        dpsel.task_scores("mode", [1, -1, 2])
    with pytest.raises(dpsel.RangeError):
        dpsel.task_scores("median", [(1 << 63) - 1, 0, 1])  # more than INT64_MAX records
    with pytest.raises(dpsel.EmptyError):
        dpsel.task_scores("mode", [])
    with pytest.raises(dpsel.RangeError, match="'mode' or 'median'"):
        dpsel.task_params("mean")


@pytest.mark.parametrize("text, unit, units", [
    ("0.8731", "0.0001", 8731), ("-1.50", "0.25", -6), ("37", "1", 37), ("400.0", "400", 1),
    (Decimal("0.8731"), Decimal("0.0001"), 8731), (0.75, 0.25, 3), (Fraction(3, 4), "0.25", 3),
    (12, "0.5", 24)])
def test_decimals_in_units(text, unit, units):
    assert dpsel.decimal_to_units(text, unit) == units


@pytest.mark.parametrize("units, unit, text", [(3, "0.25", "0.75"), (-6, "0.25", "-1.50"),
                                               (37, "1", "37"), (0, "0.001", "0.000")])
def test_units_back_to_decimals(units, unit, text):
    assert dpsel.units_to_decimal(units, unit) == text


def test_bad_decimals():
    with pytest.raises(dpsel.UnitError):
        dpsel.decimal_to_units("0.3", "0.25")  # never rounded
    for malformed in ("1e3", "1,5", " 1", "", "1.", "--1"):
        with pytest.raises(dpsel.DecimalError):
            dpsel.decimal_to_units(malformed, "1")
    with pytest.raises(dpsel.DecimalError, match="not exactly"):
        dpsel.decimal_to_units(0.1, "0.1")  # 0.1 as a float is another number
    with pytest.raises(dpsel.DecimalError, match="finite decimal"):
        dpsel.decimal_to_units(Fraction(1, 3), "1")
    with pytest.raises(dpsel.DecimalError):
        dpsel.decimal_to_units(Decimal("1e-999999"), "1")
    with pytest.raises(dpsel.RangeError):
        dpsel.decimal_to_units("1", "0")
    with pytest.raises(dpsel.RangeError):
        dpsel.decimal_to_units("10000000000000000000", "1")  # beyond int64
    with pytest.raises(dpsel.RangeError):
        dpsel.units_to_decimal(1 << 63, "1")
    with pytest.raises(TypeError):
        dpsel.decimal_to_units(None, "1")
