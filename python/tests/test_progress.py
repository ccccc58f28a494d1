# SPDX-License-Identifier: ISC
"""pmf's progress= (dpsel_pmf_new_progress) and the exact rationals' size
known before the work (Pmf.exact_size, dpsel_pmf_exact_work): the
fractions never decrease and end at 1.0 once; False cancels
(CanceledError), an exception cancels and is raised; Ctrl-C during the
call raises KeyboardInterrupt; TooLargeError names the size and the
limit."""

import os
import signal

import pytest

import dpsel

EPSILON = dpsel.Params.from_epsilon("0.01")
SPREAD = list(range(1024))  # PF by the polynomial path: many reports


@pytest.fixture(autouse=True)
def python_handles_sigint():
    """Python's own SIGINT handler (a background shell's child inherits
    SIGINT ignored, and Python then installs none)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("mechanism", ["pf", "em"])
def test_the_fraction_never_decreases_and_ends_at_one(mechanism):
    seen = []
    reported = dpsel.pmf(EPSILON, SPREAD, mechanism, progress=seen.append)
    plain = dpsel.pmf(EPSILON, SPREAD, mechanism)
    assert seen and seen == sorted(seen)
    assert seen[-1] == 1.0 and seen.count(1.0) == 1
    assert all(0.0 <= fraction <= 1.0 for fraction in seen)
    if mechanism == "pf":
        assert len(seen) >= 10
    for i in (0, 1023):
        assert reported.bounds(i) == plain.bounds(i)


def test_grouped_reports_too():
    seen = []
    dpsel.pmf_grouped(EPSILON, [0, 5, 9], [300, 200, 100], progress=seen.append)
    assert seen[-1] == 1.0


@pytest.mark.parametrize("at", [1, 5, None])  # the first call, a middle one, the last
def test_returning_false_cancels(at):
    calls = []

    def stop(fraction):
        calls.append(fraction)
        return False if (at is None and fraction == 1.0) or len(calls) == at else None
    with pytest.raises(dpsel.CanceledError):
        dpsel.pmf(EPSILON, SPREAD, progress=stop)
    assert len(calls) == (at or len(calls))


def test_any_other_return_value_goes_on():
    assert len(dpsel.pmf(EPSILON, SPREAD, progress=lambda fraction: True)) == 1024
    assert len(dpsel.pmf(EPSILON, SPREAD, progress=lambda fraction: 0)) == 1024


def test_raising_cancels_with_the_exception():
    class Enough(Exception):
        pass

    def give_up(fraction):
        if fraction > 0.1:
            raise Enough(fraction)
    with pytest.raises(Enough) as raised:
        dpsel.pmf(EPSILON, SPREAD, progress=give_up)
    assert isinstance(raised.value.__cause__, dpsel.CanceledError)


def test_ctrl_c_during_the_call_raises_keyboard_interrupt():
    def interrupt_once(fraction, sent=[]):
        if not sent:
            sent.append(fraction)
            os.kill(os.getpid(), signal.SIGINT)
    with pytest.raises(KeyboardInterrupt) as raised:
        dpsel.pmf(EPSILON, SPREAD, progress=interrupt_once)
    assert isinstance(raised.value.__cause__, dpsel.CanceledError)


def test_progress_must_be_callable():
    with pytest.raises(TypeError, match="progress must be a callable"):
        dpsel.pmf(EPSILON, SPREAD, progress=0.5)


def test_the_exact_size_is_known_and_named():
    params = dpsel.Params.from_epsilon("1")
    small = dpsel.pmf(params, [1, 2, 3])
    work, limit = small.exact_size()
    assert 0 < work <= limit == 2**34
    large = dpsel.pmf(params, [1000] + [0] * 4096)  # PF's rationals stop at 4096
    assert large.exact_size() == (2**64 - 1, 2**34)
    with pytest.raises(dpsel.TooLargeError, match=r"need 2\^64 or more bits of weight "
                                                  r"arithmetic, beyond the limit of 17179869184"):
        large.probability(0)
    with pytest.raises(dpsel.TooLargeError, match="exact=False"):
        large.expected_error()
    assert large.probability(0, exact="text")  # the decimal is still there


def test_a_quantile_pmf_knows_its_exact_size():
    params = dpsel.Params.from_epsilon("1", 1)  # the median's sensitivity
    runs = dpsel.QuantileRuns(1, 2, [3, 1, 4, 1, 5], 0, 10000)
    work, limit = dpsel.quantile_pmf(params, runs, "pf").exact_size()
    assert work > limit == 2**34  # 10001 grid points
    work, limit = dpsel.quantile_pmf(params, runs, "em").exact_size()
    assert work <= limit == 2**32


def test_an_audit_and_a_quantile_pmf_report():
    seen = []
    result = dpsel.audit(EPSILON, SPREAD, SPREAD[:-1] + [1024], progress=seen.append)
    assert result.loss_upper == dpsel.audit(EPSILON, SPREAD, SPREAD[:-1] + [1024]).loss_upper
    assert seen == sorted(seen) and seen[-1] == 1.0 and seen.count(1.0) == 1
    with pytest.raises(dpsel.CanceledError):
        dpsel.audit(EPSILON, SPREAD, SPREAD, progress=lambda fraction: False)
    params = dpsel.Params.from_epsilon("1", 1)
    runs = dpsel.QuantileRuns(1, 2, [3, 1, 4, 1, 5], 0, 3000)
    seen = []
    dpsel.quantile_pmf(params, runs, "pf", progress=seen.append)
    assert seen[-1] == 1.0 and seen.count(1.0) == 1
    with pytest.raises(dpsel.CanceledError):
        dpsel.quantile_pmf(params, runs, "pf", progress=lambda fraction: False)
