# SPDX-License-Identifier: ISC
"""The privacy accountant (dpsel_accountant_*; spec/accounting.md)."""

from __future__ import annotations

import ctypes
import weakref
from dataclasses import dataclass
from typing import Any, Optional, Union

from ._native import convert
from ._enums import Composition, MechanismArg, mechanism as _mechanism, refuse_rnm
from ._errors import ErrorCode, explained
from ._fixes import decimal
from ._native.lib import ACCOUNT_GROUP_MAX, CAccount, CGroupAccount, lib
from ._locks import ForkSafeLock
from ._owned import Owned
from ._params import Params, c_params
from ._types import Number


@dataclass(frozen=True)
class Account:
    """What an Accountant states: rigorous upper bounds, 17-digit decimals
    rounded up ("0" where a bound is 0 or below, "inf" where no finite bound
    was found).  ``releases``: counted in all; ``pure``: epsilon at delta 0
    (the sum); ``rho``: zCDP; at the delta asked, ``zcdp`` (from rho),
    ``bounded_range`` (every release EM) and ``dp_optimal`` (the optimal
    composition), None where a figure does not apply; ``best``, the least,
    and ``best_method``: "pure", "zcdp", "bounded-range" or "dp-optimal";
    ``bounded_range_composition``: the bound ``bounded_range`` states,
    "non-adaptive" (the optimum) or "adaptive" (asked for, or beyond 256
    releases), None when there is none."""
    releases: int
    pure: str
    rho: str
    zcdp: Optional[str]
    bounded_range: Optional[str]
    dp_optimal: Optional[str]
    best: str
    best_method: str
    bounded_range_composition: Optional[str]


@dataclass(frozen=True)
class GroupAccount:
    """The guarantee for groups of ``group`` people (data sets differing in
    up to that many records; spec/accounting.md §8).  ``account``: the
    Account of the same releases with every epsilon ``group`` times larger,
    its figures at the same delta; ``epsilon`` and ``delta``: the group
    privacy theorem on the individual best figure, (group x best, group
    e^((group - 1) best) delta), None without a delta (a delta of 1 or more
    says nothing).  Every figure rounded up, as Account's."""
    group: int
    account: Account
    epsilon: Optional[str]
    delta: Optional[str]


class Accountant(Owned):
    """The privacy of many releases together: add releases (a mechanism
    and an epsilon, counted any number of times), then report.  Calls take
    turns between threads."""

    __slots__ = ("_handle", "_lock", "__weakref__")

    def __init__(self) -> None:
        handle = ctypes.c_void_p()
        lib.dpsel_accountant_new(ctypes.byref(handle))
        self._handle = handle.value
        self._lock = ForkSafeLock("dpsel.Accountant")
        weakref.finalize(self, lib.dpsel_accountant_free, self._handle)

    def add(self, mechanism: MechanismArg, epsilon: Number, count: int = 1) -> None:
        """count releases of the mechanism ("em": eps-bounded range, "pf",
        or "rnm": report noisy max, charged as "pf"), each at epsilon
        (exactly, as for Params.from_epsilon).
        RangeError for count 0; nothing is added on failure."""
        text = convert.c_text(convert.epsilon_text(epsilon), "epsilon")
        count = convert.uint64(count, "count")
        with self._lock, explained(lambda code: _add_fix(code, text.decode(), count)):
            lib.dpsel_accountant_add(self._handle, _mechanism(mechanism), text, count)

    def add_params(self, mechanism: MechanismArg, params: Params, count: int = 1) -> None:
        """count releases of the mechanism with params (their realised
        epsilon, an upper bound)."""
        chosen = refuse_rnm(mechanism, "mechanism 'rnm' is accounted at its decimal epsilon, not "
                                       "Params: call add('rnm', epsilon)")
        with self._lock:
            lib.dpsel_accountant_add_params(self._handle, chosen, c_params(params),
                                            convert.uint64(count, "count"))

    def report(self, delta: Optional[Number] = None,
               composition: Union[Composition, str] = "adaptive") -> Account:
        """The account of the releases so far.  delta: a decimal in (0, 1)
        (exactly, as epsilon), or None for pure epsilon and rho alone.
        composition "nonadaptive" only if every release was fixed before
        any output was seen.  EmptyError with no release."""
        text = None if delta is None else convert.c_text(convert.epsilon_text(delta, "delta"),
                                                          "delta")
        c = CAccount()
        with self._lock, explained(lambda code: _report_fix(code, text)):
            lib.dpsel_accountant_report(self._handle, text,
                                        convert.choice(Composition, composition, "composition"),
                                        ctypes.byref(c))
        return _account(c)

    def report_group(self, group: int, delta: Optional[Number] = None,
                     composition: Union[Composition, str] = "adaptive") -> GroupAccount:
        """The guarantee of the releases so far for groups of ``group``
        people (1 to 2^32), as GroupAccount; delta and composition as for
        report."""
        text = None if delta is None else convert.c_text(convert.epsilon_text(delta, "delta"),
                                                          "delta")
        size = convert.uint64(group, "group")
        c = CGroupAccount()
        with self._lock, explained(lambda code: _group_fix(code, text, size)):
            lib.dpsel_accountant_report_group(self._handle, text,
                                              convert.choice(Composition, composition,
                                                              "composition"),
                                              size, ctypes.byref(c))
        return GroupAccount(c.group, _account(c.account), _figure(c.epsilon), _figure(c.delta))


def _account(c: CAccount) -> Account:
    """An Account from the library's dpsel_account."""
    return Account(c.releases, c.pure.decode(), c.rho.decode(), _figure(c.zcdp),
                   _figure(c.bounded_range), _figure(c.dp_optimal), c.best.decode(),
                   c.best_method.decode(), _figure(c.bounded_range_composition))


def _add_fix(code: int, epsilon: str, count: int) -> Optional[str]:
    """What a refused add needs."""
    if code == ErrorCode.RANGE and count == 0:
        return "count 0: give the number of releases, 1 or more"
    value = decimal(epsilon)
    if code == ErrorCode.EPSILON and value is None:
        return f"epsilon {epsilon!r} is not a decimal number: give one such as '1', '0.25' or '5e-3'"
    if code == ErrorCode.EPSILON and value is not None and value <= 0:
        return f"epsilon {epsilon} is not positive"
    return None


def _report_fix(code: int, delta: Optional[bytes]) -> Optional[str]:
    """What a refused report needs."""
    if code == ErrorCode.EMPTY:
        return "no release was added: add them first (Accountant.add, add_params)"
    text = None if delta is None else delta.decode()
    value = None if text is None else decimal(text)
    if code == ErrorCode.RANGE and value is not None and not 0 < value < 1:
        return f"delta {text} is not strictly between 0 and 1: give one such as '1e-6'"
    return None


def _group_fix(code: int, delta: Optional[bytes], group: int) -> Optional[str]:
    """What a refused group report needs."""
    if code == ErrorCode.RANGE and not 1 <= group <= ACCOUNT_GROUP_MAX:
        return f"group {group} is not from 1 to 2^32: give the number of people in a group"
    return _report_fix(code, delta)


def _figure(text: bytes) -> Optional[str]:
    """A figure of dpsel_account; "" (does not apply) is None."""
    return text.decode() or None
