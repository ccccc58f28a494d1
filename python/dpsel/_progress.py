# SPDX-License-Identifier: ISC
"""A long C call's progress report (dpsel_progress_fn) as a Python callable:
``progress(fraction)`` with the fraction done, a float from 0 to 1 that
never decreases and is 1.0 once, at the end.  It cancels the call by
returning ``False`` (CanceledError) or by raising (its exception, raised
after the call, caused by the CanceledError); any other return value goes
on.  Ctrl-C during the call is handled as for a random source's interrupt
check (_interrupt.py): SIGINT is deferred into the report, and its
KeyboardInterrupt raised after the call.  The fraction follows the input's
size alone, never a random bit."""

from __future__ import annotations

from typing import Any, Callable, Optional

from ._interrupt import _Interrupt
from ._native.lib import InterruptFunction

Report = Callable[[float], Any]
_NO_REPORT = InterruptFunction(0)  # NULL: no progress report


class Reporting:
    """``with Reporting(progress) as function:`` around one C call that takes
    function (a dpsel_progress_fn, its context NULL)."""

    def __init__(self, progress: Report):
        if not callable(progress):
            raise TypeError(f"progress must be a callable taking the fraction done (a float "
                            f"from 0 to 1), not {type(progress).__name__}")
        self._progress = progress
        self._interrupt = _Interrupt()
        self._interrupt.user = self._ask
        self._function = InterruptFunction(self._interrupt.check)

    def _ask(self, done: int, total: int) -> bool:
        """True (stop) when the callable returns False."""
        return self._progress(done / total if total else 0.0) is False

    def __enter__(self) -> Any:
        self._interrupt.watch()
        return self._function

    def __exit__(self, kind: Any, error: Optional[BaseException], trace: Any) -> None:
        caught = self._interrupt.disarm()
        if caught is not None:
            raise caught from error


def call_reporting(function: Any, progress: Optional[Report], *arguments: Any) -> Any:
    """function(*arguments, report, NULL): a C call that takes a
    dpsel_progress_fn and its context last, reporting to progress (None:
    no report)."""
    if progress is None:
        return function(*arguments, _NO_REPORT, None)
    with Reporting(progress) as report:
        return function(*arguments, report, None)
