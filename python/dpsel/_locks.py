# SPDX-License-Identifier: ISC
"""A lock that a forked child finds released, and that refuses its own
thread's second use."""

from __future__ import annotations

import os
import threading
import weakref
from typing import Optional


class ForkSafeLock:
    """threading.Lock for the objects whose C state one thread at a time may
    use (a random source, a stream, an accountant).  A child forked while
    another thread held the lock gets it released: that thread does not
    exist in the child, and would never release it there.

    The thread holding it that asks for it again is in a callback of its own
    call (an interrupt check, a progress report, a from_bits iterator), which
    would wait for itself forever: RuntimeError instead, naming ``what``."""

    __slots__ = ("_lock", "_owner", "_what", "__weakref__")
    _every: weakref.WeakSet[ForkSafeLock] = weakref.WeakSet()

    def __init__(self, what: str) -> None:
        self._lock = threading.Lock()
        self._owner: Optional[int] = None  # the thread holding the lock (its ident)
        self._what = what
        ForkSafeLock._every.add(self)

    def __enter__(self) -> ForkSafeLock:
        thread = threading.get_ident()
        if self._owner == thread:  # only this thread writes its own ident
            raise RuntimeError(
                f"this {self._what} is in use by the call whose callback (an interrupt check, "
                f"a progress report or a from_bits iterator) asked for it again: a callback "
                f"cannot use the objects of the call it runs in; give it a {self._what} of "
                f"its own")
        self._lock.acquire()
        self._owner = thread
        return self

    def __exit__(self, *exception: object) -> None:
        self._owner = None
        self._lock.release()

    @classmethod
    def _renew_all(cls) -> None:
        for lock in cls._every:
            lock._lock = threading.Lock()
            lock._owner = None


os.register_at_fork(after_in_child=ForkSafeLock._renew_all)
