# SPDX-License-Identifier: ISC
"""The interrupt check a random source carries (dpsel_rng_set_interrupt):
Ctrl-C and the caller's own cancellation during a long C call.

ctypes releases the GIL for every C call, so Python runs no signal handler
while a long call (a quantile over 10^7 values, a partial finish) works:
Ctrl-C would wait for its end.  The library asks the source's check every
4096 steps of such a loop; the check (a ctypes callback, which takes the
GIL) lets the pending signals run and stops the call with DPSEL_ECANCELED
when SIGINT's handler raised or the caller's callable said so.

An exception must never escape a ctypes callback (ctypes prints it and the
C caller reads an unset result), and Python runs a pending handler at the
callback's very first instruction (3.11's RESUME), before any ``try`` of
its body.  So while a call runs on the main thread, SIGINT's Python handler
is replaced by :meth:`_Interrupt.defer`, which only notes the signal; the
check, inside its ``try``, runs the handler the caller had, catches what it
raises and returns 1; the source's ``with`` raises it again after the call.
A handler that returns lets the call go on.  A signal noted after the last
check has its handler run when the call ends, as Python would run it.
While the caller's own code runs inside the call (its check, or a
from_bits iterator), SIGINT has the caller's handler back: Ctrl-C stops
that code even where it blocks or never returns, and the check catches the
KeyboardInterrupt as any other exception of it.
Only the main thread receives signals: other threads carry no check unless
the caller set one (a check takes the GIL, which costs a wait of up to the
switch interval when another thread runs Python).
"""

from __future__ import annotations

import os
import threading
# The C module under signal.py, whose getsignal and signal convert their
# results to enums through a caught exception: 5 to 9 us a call against
# 0.2 to 0.8 here, paid twice by every call of a source on the main thread.
import _signal as signal  # type: ignore[import]  # typeshed has no stub for the C module
from types import FrameType
from typing import Any, Callable, Optional, Tuple

from ._native.lib import InterruptFunction, lib

Progress = Callable[[int, int], Any]
_NO_CHECK = InterruptFunction(0)  # NULL: the library asks nothing


class _Interrupt:
    """The check of one Rng: what it runs, what it caught, and SIGINT's
    handler while a call of this source runs on the main thread."""

    __slots__ = ("user", "caught", "_installed", "_previous", "_pending", "_pid")

    def __init__(self) -> None:
        self.user: Optional[Progress] = None  # Rng.set_interrupt's callable
        self.caught: Optional[BaseException] = None  # raised again after the call
        self._installed = False  # the C source holds the check
        self._previous: Any = None  # SIGINT's handler before defer, during a call
        self._pending: Optional[Tuple[int, Optional[FrameType]]] = None  # noted by defer
        self._pid = 0  # the process whose call installed defer

    def arm(self, pointer: Any, check: Any) -> None:
        """Before a C call: defer SIGINT on the main thread, and give the C
        source the check only when something can ask it to stop."""
        wanted = self.watch() or self.user is not None
        if wanted != self._installed:
            lib.dpsel_rng_set_interrupt(pointer, check if wanted else _NO_CHECK, None)
            self._installed = wanted

    def watch(self) -> bool:
        """Before a C call that asks check: defers SIGINT when the call runs
        on the main thread under a Python handler (True), as arm does."""
        handler = signal.getsignal(signal.SIGINT)
        watch = callable(handler) and threading.current_thread() is threading.main_thread()
        if watch:
            self._previous, self._pid = handler, os.getpid()
            signal.signal(signal.SIGINT, self.defer)
        return watch

    def disarm(self) -> Optional[BaseException]:
        """After the C call: SIGINT's handler back, a signal noted after the
        last check handled, and what the check caught (then forgotten)."""
        if self._previous is not None:
            if signal.getsignal(signal.SIGINT) == self.defer:
                signal.signal(signal.SIGINT, self._previous)
            try:
                self._run_pending()
            except BaseException as error:
                self.caught = self.caught or error
            self._previous = None
        caught, self.caught = self.caught, None
        return caught

    def defer(self, signum: int, frame: Any) -> None:
        """SIGINT's handler during a call: notes the signal for the check.
        In a child forked during a call (or once the call is over) it gives
        way to the handler it replaced."""
        if self._previous is not None and self._pid == os.getpid():
            self._pending = (signum, frame)
            return
        handler = self._previous if callable(self._previous) else signal.default_int_handler
        signal.signal(signal.SIGINT, handler)
        handler(signum, frame)

    def check(self, context: Any, done: int, total: int) -> int:
        """The dpsel_interrupt_fn: 1 (stop) when SIGINT's handler or the
        caller's callable raised, or the callable returned true; never
        raises."""
        try:
            self._run_pending()
            user = self.user
            return 1 if user is not None and self.as_the_caller(user, done, total) else 0
        except BaseException as error:  # raised again after the C call returns
            self.caught = error
            return 1

    def as_the_caller(self, function: Callable[..., Any], *arguments: Any) -> Any:
        """function(*arguments), the caller's code inside a call, under the
        SIGINT handler the caller had (defer's again after it), so that
        Ctrl-C reaches it wherever it blocks."""
        if self._previous is None:  # not deferred: the caller's handler is there
            return function(*arguments)
        signal.signal(signal.SIGINT, self._previous)
        try:
            return function(*arguments)
        finally:
            signal.signal(signal.SIGINT, self.defer)

    def _run_pending(self) -> None:
        """Runs the handler a noted SIGINT was deferred from (it may raise)."""
        pending, self._pending = self._pending, None
        if pending is not None:
            self._previous(*pending)
