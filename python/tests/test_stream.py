# SPDX-License-Identifier: ISC
"""PfStream: the with-statement, the errors that end it, its erasure."""

import numpy
import pytest

import dpsel

PARAMS = dpsel.Params.from_epsilon("1")


def test_a_stream_releases_a_position_and_is_erased_on_leaving():
    selector = dpsel.Selector(PARAMS)
    with selector.stream(10) as stream:
        stream.add_many(numpy.arange(5000) % 11)
        stream.add(3)
        index = stream.finish()
        assert 0 <= index <= 5000
    assert not any(stream._c.block_) and stream._c.state_ == 0  # the held scores erased
    with pytest.raises(dpsel.RangeError):
        stream.add(1)  # not started


def test_every_error_ends_the_stream():
    selector = dpsel.Selector(PARAMS)
    stream = dpsel.PfStream(selector, 5)
    with pytest.raises(dpsel.EmptyError):
        stream.finish()
    stream = dpsel.PfStream(selector, 5)
    stream.add(5)
    with pytest.raises(dpsel.RangeError):
        stream.add(6)  # above the best
    with pytest.raises(dpsel.RangeError):
        stream.add(1)  # failed for good
    stream = dpsel.PfStream(selector, 5)
    stream.add_many([1, 2, 3])
    with pytest.raises(dpsel.RangeError):
        stream.finish()  # no score equalled the best
    with pytest.raises(dpsel.RangeError):
        dpsel.PfStream(selector, 1 << 63)
    with pytest.raises(TypeError):
        dpsel.PfStream("selector", 1)


def test_a_table_without_the_race_is_refused():
    params = dpsel.Params.from_base(3, 2)  # beta 3/4
    params.gap_cap = 1
    with pytest.raises(dpsel.RangeError):
        dpsel.Selector(params).stream(0)
