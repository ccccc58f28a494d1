# SPDX-License-Identifier: ISC
"""The C enums.  Arguments take a member, or its name as a str ("pf")."""

import enum
from typing import Union

from ._native.convert import choice
from ._errors import RangeError


class Mechanism(enum.IntEnum):
    """dpsel_mechanism: permute-and-flip, the exponential mechanism, or
    report noisy max (taken by dpsel.rnm_select only: its epsilon is a
    decimal, not a Params)."""
    PF = 0
    EM = 1
    RNM = 2


class Task(enum.IntEnum):
    """dpsel_task: the permute-and-flip paper's histogram tasks."""
    MODE = 0
    MEDIAN = 1


class Composition(enum.IntEnum):
    """dpsel_composition: how the accountant's releases were chosen."""
    ADAPTIVE = 0
    NONADAPTIVE = 1


class Verdict(enum.IntEnum):
    """dpsel_audit_verdict."""
    HOLDS = 0
    BROKEN = 1
    UNDECIDED = 2


MechanismArg = Union[Mechanism, str]


def mechanism(value: MechanismArg) -> Mechanism:
    """A mechanism argument: Mechanism.PF or "pf", Mechanism.EM or "em"."""
    return choice(Mechanism, value, "mechanism")


def rnm_call(call: str) -> str:
    """The fix for mechanism 'rnm' given with Params: the call that takes
    report noisy max's decimal epsilon."""
    return f"mechanism 'rnm' takes its epsilon as a decimal, not Params: call dpsel.{call}"


# The fix for mechanism 'rnm' given to a partial state, whose members'
# scores are merged in C (dpsel_partial_finish) and dpsel.dask built on it.
RNM_PARTIAL = ("mechanism 'rnm' has no partial-state form (neither Partial.finish nor "
               "dpsel.dask): give mechanism='pf' or 'em'")

# The fix for mechanism 'rnm' given to a quantile.
RNM_QUANTILE = ("mechanism 'rnm' has no quantile form (report noisy max chooses among "
                "labelled scores): give mechanism='em' or 'pf'")


def refuse_rnm(value: MechanismArg, fix: str) -> Mechanism:
    """The mechanism of a call that has no report noisy max form: PF or EM;
    RangeError naming ``fix`` (rnm_call, RNM_QUANTILE) for RNM."""
    chosen = mechanism(value)
    if chosen == Mechanism.RNM:
        raise RangeError("mechanism", fix=fix)
    return chosen
