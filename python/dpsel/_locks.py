# SPDX-License-Identifier: ISC
"""A lock that a forked child finds released."""

from __future__ import annotations

import os
import threading
import weakref


class ForkSafeLock:
    """threading.Lock for the objects whose C state one thread at a time may
    use (a random source, a stream, an accountant).  A child forked while
    another thread held the lock gets it released: that thread does not
    exist in the child, and would never release it there."""

    __slots__ = ("_lock", "__weakref__")
    _every: weakref.WeakSet = weakref.WeakSet()

    def __init__(self) -> None:
        self._lock = threading.Lock()
        ForkSafeLock._every.add(self)

    def __enter__(self) -> ForkSafeLock:
        self._lock.acquire()
        return self

    def __exit__(self, *exception: object) -> None:
        self._lock.release()

    @classmethod
    def _renew_all(cls) -> None:
        for lock in cls._every:
            lock._lock = threading.Lock()


os.register_at_fork(after_in_child=ForkSafeLock._renew_all)
