# SPDX-License-Identifier: ISC
"""Random sources (dpsel_rng)."""

from __future__ import annotations

import ctypes
import threading
import weakref
from types import TracebackType
from typing import Callable, Iterable, Iterator, List, Optional, Type

from ._native.convert import byte_string
from ._errors import RandomSourceError
from ._interrupt import Progress, _Interrupt
from ._native.lib import BitFunction, CRng, InterruptFunction, lib
from ._locks import ForkSafeLock
from ._owned import Owned


Failure = List[Optional[BaseException]]  # one cell: what a from_bits iterator raised


class Rng(Owned):
    """A source of uniform random bits for the samplers (dpsel_rng).

    - :meth:`Rng.os`: the operating system's CSPRNG (ChaCha20 keyed from
      getrandom, with fast key erasure): the source for real releases.
    - :meth:`Rng.seeded`: a deterministic stream, FOR TESTS AND AUDITS ONLY.
    - :meth:`Rng.from_bits`: chosen bits, to drive the samplers in tests.

    Passing ``rng=None`` to a selection uses this thread's own OS source,
    made on first use.  The C state lives at a fixed address inside this
    object and is never copied (a copy of an OS source gives no bits, by
    design): copying or pickling an Rng is a TypeError.  Calls using one
    Rng from several threads take turns.  After ``os.fork()`` (multiprocessing's
    fork start method) parent and child never share a bit: the kernel wipes
    the OS source's state in the child, whose first read draws a fresh key.
    A seeded source replays the same bits in both, by design.

    Ctrl-C stops a long call (KeyboardInterrupt) when it runs on the main
    thread: the source carries an interrupt check that the library asks
    every 4096 steps of its long loops (dpsel_rng_set_interrupt).
    :meth:`set_interrupt` adds the caller's own check, on any thread.

    :meth:`close` (or leaving a ``with`` block) erases the key and buffered
    bits and releases the OS source's page; a closed source gives
    RandomSourceError.  Collection does the same.
    """

    __slots__ = ("_c", "_pointer", "_lock", "_kind", "_keep", "_failure", "_wipe", "_use",
                 "_interrupt", "__weakref__")

    def __init__(self, *, _kind: str = ""):
        if not _kind:
            raise TypeError("make an Rng with Rng.os(), Rng.seeded(seed) or Rng.from_bits(bits)")
        self._c = CRng()  # all zeros: valid to wipe even if never initialised
        self._pointer = ctypes.pointer(self._c)
        self._lock = ForkSafeLock("dpsel.Rng")
        self._kind = _kind
        # from_bits' callback, alive with the source
        self._keep: Optional[ctypes._FuncPointer] = None
        self._failure: Failure = [None]  # what a from_bits iterator raised
        self._wipe = weakref.finalize(self, lib.dpsel_rng_wipe, self._pointer)
        self._interrupt = _Interrupt()
        self._use = _Use(self._lock, self._pointer, self._failure, self._interrupt)

    @classmethod
    def os(cls) -> Rng:
        """The operating system's CSPRNG: the source for real releases.
        RandomSourceError where the kernel cannot keep its state from a
        forked child (Linux before 4.14): refused rather than shared."""
        rng = cls(_kind="os")
        lib.dpsel_rng_init_os(rng._pointer)
        return rng

    @classmethod
    def seeded(cls, seed: bytes) -> Rng:
        """FOR TESTS AND REPRODUCIBLE AUDITS ONLY -- NEVER FOR A REAL RELEASE.

        A deterministic stream: anyone holding the seed can recompute every
        choice made with it.  ChaCha20 keyed with BLAKE2b-256 of ``seed``
        (1 to 64 bytes, else RangeError).  ``bytes.fromhex(HEX)`` gives the
        stream of the tool's ``--seed HEX`` (for an even number of digits).
        """
        seed = byte_string(seed, "seed")
        rng = cls(_kind="seeded")
        lib.dpsel_rng_init_seeded(rng._pointer, seed, len(seed))
        return rng

    @classmethod
    def from_bits(cls, bits: Iterable[int]) -> Rng:
        """FOR TESTS: a source that gives ``bits`` (0s and 1s) one at a
        time.  When they run out, or a value is not 0 or 1, the selection
        fails with RandomSourceError; an exception of the iterator is raised
        as it is."""
        rng = cls(_kind="bits")
        rng._keep = BitFunction(_bit_reader(iter(bits), rng._failure, rng._interrupt))
        lib.dpsel_rng_init_custom(rng._pointer, rng._keep, None)
        return rng

    @property
    def kind(self) -> str:
        """"os", "seeded" or "bits"."""
        return self._kind

    def set_interrupt(self, check: Optional[Progress]) -> None:
        """Asks ``check(done, total)`` every few thousand steps of a long
        call using this source (a quantile's sort, a partial finish), on
        any thread, from the next call on: a true result stops the call
        with CanceledError, nothing released; an exception it raises stops
        the call and is raised as it is; False changes nothing (the same
        release, the same bits read).  ``done`` and ``total`` count the
        steps of the loop running (total may be 0 when unknown).  None
        removes it.  The check runs under the caller's SIGINT handler
        (Ctrl-C stops one that blocks) and may use any other object: this
        source, or a Partial its call works on, gives it RuntimeError."""
        if check is not None and not callable(check):
            raise TypeError(f"check must be a callable (done, total) -> bool or None, "
                            f"not {type(check).__name__}")
        self._interrupt.user = check

    @property
    def closed(self) -> bool:
        """The state was erased (close, or the end of a ``with`` block)."""
        return not self._wipe.alive

    def close(self) -> None:
        """Erases the state (and releases the OS source's page)."""
        with self._lock:
            self._wipe()

    def __enter__(self) -> Rng:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<dpsel.Rng {self._kind}{' closed' if self.closed else ''}>"


class _Use:
    """``with rng._use as c_rng``: the C source, for one call at a time (the
    lock), with its interrupt check armed (_interrupt.py); what the check
    caught (KeyboardInterrupt) or a from_bits iterator's exception is raised
    as it is.  One per Rng, made once: nothing is allocated per call."""

    __slots__ = ("_lock", "_pointer", "_failure", "_interrupt", "_check")

    def __init__(self, lock: ForkSafeLock, pointer: ctypes._Pointer[CRng], failure: Failure,
                 interrupt: _Interrupt):
        self._lock, self._pointer, self._failure = lock, pointer, failure
        self._interrupt, self._check = interrupt, InterruptFunction(interrupt.check)

    def __enter__(self) -> ctypes._Pointer[CRng]:
        self._lock.__enter__()
        try:
            self._interrupt.arm(self._pointer, self._check)
        except BaseException:
            self._lock.__exit__()
            raise
        return self._pointer

    def __exit__(self, kind: Optional[Type[BaseException]], error: Optional[BaseException],
                 traceback: Optional[TracebackType]) -> None:
        failure, self._failure[0] = self._failure[0], None
        try:
            caught = self._interrupt.disarm()
        finally:
            self._lock.__exit__()
        if caught is not None:
            raise caught from error
        if failure is not None and isinstance(error, RandomSourceError):
            raise failure from error


def _bit_reader(bits: Iterator[int], failure: Failure,
                interrupt: _Interrupt) -> Callable[[object, ctypes._Pointer[ctypes.c_uint]], int]:
    """The dpsel_bit_fn of Rng.from_bits: 0 with a bit, 1 for a failure.
    The iterator runs under the caller's SIGINT handler (Ctrl-C stops one
    that blocks: its KeyboardInterrupt is the failure)."""
    def read(context: object, out: ctypes._Pointer[ctypes.c_uint]) -> int:
        try:
            bit = interrupt.as_the_caller(next, bits)
        except StopIteration:
            return 1
        except BaseException as error:  # raised again after the C call returns
            failure[0] = error
            return 1
        if bit not in (0, 1):
            return 1
        out[0] = bit
        return 0
    return read


_per_thread = threading.local()


def thread_rng() -> Rng:
    """This thread's OS source, made on first use (rng=None)."""
    rng = getattr(_per_thread, "rng", None)
    if rng is None:
        rng = _per_thread.rng = Rng.os()
    return rng


def resolve(rng: Optional[Rng]) -> Rng:
    """The source a call uses: rng, or this thread's OS source."""
    if rng is None:
        return thread_rng()
    if not isinstance(rng, Rng):
        raise TypeError(f"rng must be a dpsel.Rng or None, not {type(rng).__name__}")
    return rng
