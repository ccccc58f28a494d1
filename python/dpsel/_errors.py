# SPDX-License-Identifier: ISC
"""dpsel's error codes as Python exceptions: one class per code."""

from __future__ import annotations

import contextlib
import enum
import operator
from typing import Callable, Iterator, Optional, Tuple, Type

from ._native.lib import lib


class ErrorCode(enum.IntEnum):
    """The DPSEL_E* codes of include/dpsel.h."""
    OK = 0
    NULL = -1
    EMPTY = -2
    RANGE = -3
    EPSILON = -4
    NOMEM = -5
    RANDOM = -6
    UNLIKELY = -7
    TOOLARGE = -8
    INEXACT = -9
    INTERNAL = -10
    DECIMAL = -11
    UNIT = -12
    STATE = -13
    CANCELED = -14


def strerror(code: int) -> str:
    """dpsel_strerror: the library's description of a code ("unknown
    error" for a value that is not one)."""
    code = operator.index(code)
    if not -(1 << 31) <= code < (1 << 31):  # not even a C int
        code = 1
    return str(lib.dpsel_strerror(code).decode())


class Error(Exception):
    """A failure reported by dpsel.

    ``code`` is the DPSEL_E* code (an ErrorCode where dpsel knows it),
    ``message`` the library's description of it (dpsel_strerror),
    ``detail`` what failed, e.g. the C function or the argument, and
    ``fix`` (possibly empty) which argument is wrong, the value it needs
    and how to get it.  Each code has its subclass; the ones for bad
    arguments are also ValueError or TypeError, as Python code expects.
    """
    code: int = 0

    def __init__(self, detail: str = "", code: int | None = None, fix: str = ""):
        if code is not None:
            self.code = code
        self.detail = detail
        self.message = strerror(self.code)
        self.fix = fix
        text = f"{detail}: {self.message}" if detail else self.message
        super().__init__(f"{text}: {fix}" if fix else text)

    def __reduce__(self) -> Tuple[Type[Error], Tuple[str, int, str]]:
        # Rebuilt from (detail, code, fix), e.g. across multiprocessing.
        return (type(self), (self.detail, self.code, self.fix))


class NullError(Error, TypeError):
    """DPSEL_ENULL: a required pointer was NULL (never from this package's
    own calls: it checks its arguments first)."""
    code = ErrorCode.NULL


class EmptyError(Error, ValueError):
    """DPSEL_EEMPTY: no candidates (or, for the accountant, no release)."""
    code = ErrorCode.EMPTY


class RangeError(Error, ValueError):
    """DPSEL_ERANGE: an argument out of its documented range (also an
    integer that does not fit its C type, checked here before the call)."""
    code = ErrorCode.RANGE


class EpsilonError(Error, ValueError):
    """DPSEL_EEPSILON: epsilon (or delta) not a positive decimal, or too
    small for any base."""
    code = ErrorCode.EPSILON


class NoMemoryError(Error, MemoryError):
    """DPSEL_ENOMEM: an allocation failed."""
    code = ErrorCode.NOMEM


class RandomSourceError(Error):
    """DPSEL_ERANDOM: the random source failed (getrandom, a custom source,
    a wiped (closed) source)."""
    code = ErrorCode.RANDOM


class UnlikelyError(Error):
    """DPSEL_EUNLIKELY: a rejection loop ran past its bound (probability
    below 2^-128 for a sound source: a broken random source)."""
    code = ErrorCode.UNLIKELY


class TooLargeError(Error):
    """DPSEL_ETOOLARGE: beyond dpsel's size limits (e.g. the exact
    rationals of a large pmf: the enclosure is still there)."""
    code = ErrorCode.TOOLARGE


class InexactError(Error):
    """DPSEL_EINEXACT: an MPFR operation was inexact (a bug in dpsel)."""
    code = ErrorCode.INEXACT


class InternalError(Error):
    """DPSEL_EINTERNAL: an internal consistency check failed (a bug)."""
    code = ErrorCode.INTERNAL


class DecimalError(Error, ValueError):
    """DPSEL_EDECIMAL: a decimal text is malformed."""
    code = ErrorCode.DECIMAL


class UnitError(Error, ValueError):
    """DPSEL_EUNIT: a decimal is not a whole multiple of its unit (nothing
    is rounded)."""
    code = ErrorCode.UNIT


class StateError(Error, ValueError):
    """DPSEL_ESTATE: a serialised partial selection is malformed, corrupt
    or made for other parameters."""
    code = ErrorCode.STATE


class CanceledError(Error):
    """DPSEL_ECANCELED: the interrupt check attached to the random source
    asked the call to stop; nothing was released."""
    code = ErrorCode.CANCELED


_CLASSES = {cls.code: cls for cls in (
    NullError, EmptyError, RangeError, EpsilonError, NoMemoryError, RandomSourceError,
    UnlikelyError, TooLargeError, InexactError, InternalError, DecimalError, UnitError,
    StateError, CanceledError)}


def error_for(code: int, detail: str = "") -> Error:
    """The exception for a dpsel code (Error itself for an unknown one)."""
    cls = _CLASSES.get(code)
    return cls(detail) if cls is not None else Error(detail, code)


def refuses(code: int, call: Callable[..., object], *arguments: object) -> bool:
    """call(*arguments), a C call, fails with code: a probe by which a
    diagnosis finds the argument the library refuses."""
    try:
        call(*arguments)
    except Error as error:
        return error.code == code
    return False


@contextlib.contextmanager
def explained(diagnose: Callable[[int], Optional[str]]) -> Iterator[None]:
    """Around C calls whose bare code ("argument out of range") would not
    say which argument: on an Error, diagnose(code) names the public
    argument at fault, the value it needs and how to get it, and the same
    error is raised again with that fix.  The library still decides what
    is an error; diagnose only explains it (None: nothing to add)."""
    try:
        yield
    except Error as error:
        fix = diagnose(error.code)
        if not fix:
            raise
        raise type(error)(error.detail, error.code, fix) from None
