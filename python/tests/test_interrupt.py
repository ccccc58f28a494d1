# SPDX-License-Identifier: ISC
"""Ctrl-C and the caller's own cancellation during a long C call (the
source's interrupt check, dpsel_rng_set_interrupt, dpsel/_interrupt.py).

The long call is an EM quantile over POINTS values: the library clamps,
sorts and cuts them asking the check every 4096 steps (about 2 s of CPU on
an idle machine: the signal, sent 0.2 s after the call takes the source,
must find it still working, also where nothing else runs; 4 * 10^6 values,
0.15 s there, were over before it).  A KeyboardInterrupt caused by a
CanceledError was raised by the check inside that call; without it the
call runs to its end and Python raises the KeyboardInterrupt afterwards.
Where a check is slowed down to 1 ms, the call would take more than 20 s
(test_the_slowed_call_would_be_long), so a stop within STOP_SECONDS of the
signal can only come from the check.  No test is statistical."""

import os
import random
import signal
import threading
import time

import numpy
import pytest

import dpsel

POINTS = 3 * 10**7
STOP_SECONDS = 2.0
LOWER, UPPER = 0, 10**9
_PATTERN = numpy.array(random.Random(5).sample(range(UPPER), 4096), dtype=numpy.int64)


def _quantile(rng, points=POINTS):
    """The median of `points` values (4096 distinct ones) on 0..10^9."""
    selector = dpsel.Selector(dpsel.Params.from_epsilon("1", 1))
    values = numpy.tile(_PATTERN, points // len(_PATTERN))  # int64: passed without a copy
    return dpsel.quantile_select(selector, 1, 2, values, LOWER, UPPER, "em", rng=rng)


def _sigint_during(rng):
    """Sends SIGINT to this process from a thread once a call holds rng (its
    lock: the values are converted by then, the C call is starting) and
    0.2 s more.  Returns the thread and a list that gets the sending time."""
    sent = []

    def send():
        while not rng._lock._lock.locked():
            time.sleep(0.005)
        time.sleep(0.2)
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)
    thread = threading.Thread(target=send)
    thread.start()
    return thread, sent


@pytest.fixture(autouse=True)
def python_handles_sigint():
    """Python's own SIGINT handler, as an interactive Python has it: a
    process that a non-interactive shell starts in the background (as make
    check may be) inherits SIGINT ignored, and Python then installs none, so
    Ctrl-C has nothing to raise."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def _slow_checks(done, total):
    time.sleep(0.001)
    return False


@pytest.mark.parametrize("make_rng", [dpsel.Rng.os, lambda: dpsel.Rng.seeded(b"i")])
@pytest.mark.parametrize("slowed", [False, True])
def test_ctrl_c_stops_a_long_quantile(make_rng, slowed):
    rng = make_rng()
    if slowed:
        rng.set_interrupt(_slow_checks)
    thread, sent = _sigint_during(rng)
    with pytest.raises(KeyboardInterrupt) as raised:
        _quantile(rng)
    stopped = time.monotonic()
    thread.join()
    # Raised by the check inside the C call, which stopped with DPSEL_ECANCELED.
    assert isinstance(raised.value.__cause__, dpsel.CanceledError)
    assert stopped - sent[0] < STOP_SECONDS, stopped - sent[0]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    rng.set_interrupt(None)
    assert LOWER <= _quantile(rng, 4096) <= UPPER  # the source still works


def test_the_slowed_call_would_be_long():
    checks = []
    rng = dpsel.Rng.seeded(b"n")
    rng.set_interrupt(lambda done, total: checks.append(done))
    _quantile(rng)
    assert len(checks) * 0.001 > 10 * STOP_SECONDS, len(checks)


def test_ctrl_c_stops_the_default_source():
    thread, sent = _sigint_during(dpsel._rng.thread_rng())
    with pytest.raises(KeyboardInterrupt) as raised:
        _quantile(None)
    assert time.monotonic() - sent[0] < STOP_SECONDS
    thread.join()
    assert isinstance(raised.value.__cause__, dpsel.CanceledError)


def test_a_sigint_handler_that_returns_lets_the_call_go_on():
    seen = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
    try:
        rng = dpsel.Rng.seeded(b"handled")
        thread, _ = _sigint_during(rng)
        point = _quantile(rng)
        thread.join()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert seen == [signal.SIGINT]
    assert point == _quantile(dpsel.Rng.seeded(b"handled"))


def test_a_callable_cancels():
    calls = []

    def stop_at_third(done, total):
        calls.append((done, total))
        return len(calls) == 3
    rng = dpsel.Rng.seeded(b"c")
    rng.set_interrupt(stop_at_third)
    with pytest.raises(dpsel.CanceledError):
        _quantile(rng)
    assert len(calls) == 3 and all(done <= total for done, total in calls)


def test_a_callable_that_raises_stops_with_its_exception():
    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop(done)
    rng = dpsel.Rng.seeded(b"c")
    rng.set_interrupt(stop)
    with pytest.raises(Stop) as raised:
        _quantile(rng)
    assert isinstance(raised.value.__cause__, dpsel.CanceledError)


def test_a_callable_on_another_thread_cancels():
    rng = dpsel.Rng.os()
    rng.set_interrupt(lambda done, total: True)
    outcome = []

    def work():
        try:
            _quantile(rng)
        except dpsel.CanceledError as error:
            outcome.append(error)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert len(outcome) == 1


def test_a_callable_returning_false_changes_nothing():
    calls = []

    def count(done, total):
        calls.append(done)
        return False
    plain = dpsel.Rng.seeded(b"same")
    watched = dpsel.Rng.seeded(b"same")
    watched.set_interrupt(count)
    points = 2 * 10**5
    assert _quantile(watched, points) == _quantile(plain, points)
    assert len(calls) >= points // 4096
    # The same bits read after: the next selections agree.
    scores = list(range(50))
    selector = dpsel.Selector(dpsel.Params.from_epsilon("1", 1))
    assert ([selector.select(scores, rng=watched) for _ in range(20)]
            == [selector.select(scores, rng=plain) for _ in range(20)])
    watched.set_interrupt(None)
    assert _quantile(watched, points) == _quantile(plain, points)


def test_set_interrupt_takes_a_callable_or_none():
    rng = dpsel.Rng.seeded(b"t")
    with pytest.raises(TypeError, match="check must be a callable"):
        rng.set_interrupt(True)
    rng.set_interrupt(None)
