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
signal can only come from the check.  A callback that asks for an object its
call holds, or blocks, runs in a child process (_run_child): where it would
hang, the test fails after CHILD_SECONDS instead of stopping the suite.  No
test is statistical."""

import os
import pathlib
import random
import signal
import subprocess
import sys
import textwrap
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


CHILD_SECONDS = 60
# A child's prelude: Python's SIGINT handler, a selector, a call asking its
# source's check (a quantile over 10^5 values: checks every 4096 steps), and
# report(), which prints what ended the child's call and what caused it.
_CHILD_PRELUDE = """
import signal, sys, threading
import numpy
import dpsel
signal.signal(signal.SIGINT, signal.default_int_handler)
selector = dpsel.Selector(dpsel.Params.from_epsilon("1", 1))
values = numpy.arange(10**5, dtype=numpy.int64)
def quantile(rng):
    return dpsel.quantile_select(selector, 1, 2, values, 0, 10**5, "em", rng=rng)
def blocked(*arguments):
    print("blocked", flush=True)
    threading.Event().wait()
def report(call):
    try:
        call()
    except BaseException as error:
        print(type(error).__name__, type(error.__cause__).__name__, error, flush=True)
"""


def _start_child(body):
    """A Python running the prelude, then body."""
    package_root = pathlib.Path(dpsel.__file__).parent.parent
    return subprocess.Popen([sys.executable, "-c", _CHILD_PRELUDE + textwrap.dedent(body)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={"DPSEL_LIBRARY": dpsel._native.lib.lib._name,
                                 "PYTHONPATH": str(package_root),
                                 "PYTHONDONTWRITEBYTECODE": "1"})


def _finish_child(child, seconds):
    """The child's output once it ends (killed and a failure of the test if
    it still runs after seconds)."""
    try:
        out, err = child.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        child.kill()
        child.communicate()
        pytest.fail(f"the child still ran after {seconds} s: a hang")
    assert child.returncode == 0, err[-2000:]
    return out


_CALLBACKS_ASKING_FOR_THEIR_CALLS_OBJECT = {
    "a check drawing from its own source": ("CanceledError", "dpsel.Rng", """
        rng = dpsel.Rng.seeded(b"r")
        rng.set_interrupt(lambda done, total: selector.select([1, 2], rng=rng))
        report(lambda: quantile(rng))
        """),
    "a check closing its own source": ("CanceledError", "dpsel.Rng", """
        rng = dpsel.Rng.seeded(b"r")
        rng.set_interrupt(lambda done, total: rng.close())
        report(lambda: quantile(rng))
        """),
    "a check writing the state its call adds to": ("CanceledError", "dpsel.Partial", """
        partial = dpsel.Partial(dpsel.Params.from_epsilon("1", 1))
        rng = dpsel.Rng.seeded(b"r")
        rng.set_interrupt(lambda done, total: partial.to_bytes())
        report(lambda: partial.add_many(range(5000), [b""] * 5000, rng=rng))
        """),
    "a bits iterator drawing from its own source": ("RandomSourceError", "dpsel.Rng", """
        def bits():
            while True:
                yield selector.select([1, 2], rng=rng)  # 0 or 1: a bit
        rng = dpsel.Rng.from_bits(bits())
        report(lambda: selector.select([1, 2, 3], rng=rng))
        """),
}


@pytest.mark.parametrize("case", sorted(_CALLBACKS_ASKING_FOR_THEIR_CALLS_OBJECT))
def test_a_callback_asking_for_its_calls_object_is_refused(case):
    cause, what, body = _CALLBACKS_ASKING_FOR_THEIR_CALLS_OBJECT[case]
    out = _finish_child(_start_child(body + "print(\"went on\")\n"), CHILD_SECONDS)
    ended, caused_by, message = out.split(" ", 2)
    assert (ended, caused_by) == ("RuntimeError", cause), out
    assert f"this {what} is in use by the call whose callback" in message, out
    assert message.splitlines()[-1] == "went on", out


def test_a_check_may_use_another_source():
    out = _finish_child(_start_child("""
        other = dpsel.Rng.seeded(b"o")
        rng = dpsel.Rng.seeded(b"r")
        drawn = []
        rng.set_interrupt(lambda done, total: drawn.append(selector.select([1, 2], rng=other)))
        print(0 <= quantile(rng) <= 10**5, len(drawn) >= 10**5 // 4096)
        """), CHILD_SECONDS)
    assert out == "True True\n"


_CALLBACKS_THAT_BLOCK = {
    "an interrupt check": ("CanceledError", """
        rng = dpsel.Rng.seeded(b"b")
        rng.set_interrupt(blocked)
        report(lambda: quantile(rng))
        """),
    "a bits iterator": ("RandomSourceError", """
        def bits():
            yield 1
            blocked()
        report(lambda: selector.select([1, 2, 3], rng=dpsel.Rng.from_bits(bits())))
        """),
    "a progress report": ("CanceledError", """
        report(lambda: dpsel.pmf(dpsel.Params.from_epsilon("0.01"), list(range(1024)),
                                 progress=blocked))
        """),
}


@pytest.mark.parametrize("case", sorted(_CALLBACKS_THAT_BLOCK))
def test_ctrl_c_stops_a_callback_that_blocks(case):
    cause, body = _CALLBACKS_THAT_BLOCK[case]
    child = _start_child(body)
    try:
        assert child.stdout.readline() == "blocked\n"
    except BaseException:
        child.kill()
        raise
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out = _finish_child(child, 10 * STOP_SECONDS)
    assert time.monotonic() - sent < 10 * STOP_SECONDS
    assert out.split(" ")[:2] == ["KeyboardInterrupt", cause], out
