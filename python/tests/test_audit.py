# SPDX-License-Identifier: ISC
"""The audit: neighbours hold, a sensitivity too small breaks, labels."""

import dataclasses

import pandas
import pytest

import dpsel

from conftest import REPO, read_histogram


def hepth_summed(bins=64):
    """HEPTH summed to `bins` bins (as the C tests do)."""
    _, counts = read_histogram(REPO / "examples" / "hepth.csv")
    width = len(counts) // bins
    return [sum(counts[i:i + width]) for i in range(0, len(counts), width)]


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_one_record_more_holds_and_two_break_a_sensitivity_of_one(mechanism):
    params = dpsel.Params.from_epsilon("0.01", *dpsel.task_params("mode"))
    counts = hepth_summed()
    top = counts.index(max(counts))  # more records in the mode's bin
    one = list(counts)
    one[top] += 1
    result = dpsel.audit(params, counts, one, mechanism)
    assert result.holds and result.verdict == dpsel.Verdict.HOLDS
    assert result.neighbours and result.distance == 1
    assert result.b_at_least_a and not result.b_at_most_a
    assert float(result.loss_lower) <= float(result.loss_upper) <= 0.0100001
    two = list(counts)
    two[top] += 2
    broken = dpsel.audit(params, counts, two, mechanism)
    assert broken.verdict == dpsel.Verdict.BROKEN and not broken.neighbours
    assert broken.distance == 2 and not broken.holds


def test_series_are_matched_by_label():
    params = dpsel.Params.from_epsilon("1", monotonic=True)
    a = pandas.Series([5, 3, 9], index=["x", "y", "z"])
    b = pandas.Series([9, 5, 4], index=["z", "x", "y"])  # y gained one record
    result = dpsel.audit(params, a, b)
    in_order = dpsel.audit(params, [5, 3, 9], [5, 4, 9])
    assert result == dataclasses.replace(in_order, output=a.index[in_order.output])
    assert result.output in {"x", "y", "z"}
    with pytest.raises(ValueError, match="same labels"):
        dpsel.audit(params, a, pandas.Series([1, 2, 3], index=["x", "y", "w"]))


def test_bad_audits():
    params = dpsel.Params.from_epsilon("1")
    with pytest.raises(ValueError, match="3 candidates"):
        dpsel.audit(params, [1, 2, 3], [1, 2])
    with pytest.raises(dpsel.EmptyError):
        dpsel.audit(params, [], [])
    # PF past 32768 candidates: by certified quadrature.
    assert dpsel.audit(params, [0] * 32769, [0] * 32768 + [1]).holds
