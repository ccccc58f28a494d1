# SPDX-License-Identifier: ISC
"""The C enums.  Arguments take a member, or its name as a str ("pf")."""

import enum
from typing import Union

from ._convert import choice


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
