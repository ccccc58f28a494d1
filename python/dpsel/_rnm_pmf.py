# SPDX-License-Identifier: ISC
"""Report noisy max's exact distribution and its audit (dpsel_rnm_pmf_new,
dpsel_rnm_audit)."""

from __future__ import annotations

import ctypes
from typing import Any, Optional, Tuple

from ._native import convert
from ._audit import AuditResult, _aligned, _result
from ._errors import ErrorCode
from ._native.lib import CAuditResult, address, lib
from ._pmf import Pmf
from ._progress import Report, call_reporting
from ._scores import as_counts, as_scores
from ._types import Number, ScoresLike


class RnmPmf(Pmf):
    """Report noisy max's distribution (dpsel_rnm_pmf_new): a Pmf whose
    probabilities and expected error involve e^(-g/b) and are not rational,
    so they come as floats (``exact=False``), correctly rounded decimals
    (``exact="text"``) or enclosures (:meth:`bounds`); ``exact=True``
    raises RangeError."""

    _maker = "rnm_pmf"
    __slots__ = ()

    def _diagnose(self, code: int) -> Optional[str]:
        if code != ErrorCode.RANGE:
            return None
        return ("report noisy max's probabilities involve e^(-g/b) and are not rational: "
                "ask exact=False (a float) or exact='text' (the 17-digit decimal), or bounds()")

    def __repr__(self) -> str:
        return f"<dpsel.RnmPmf of {len(self)} candidates>"


def _scale_arguments(epsilon: Any, sensitivity: int, monotonic: bool) -> Tuple[bytes, int, int]:
    return (convert.c_text(convert.epsilon_text(epsilon), "epsilon"),
            convert.sensitivity(sensitivity), convert.flag(monotonic, "monotonic"))


def rnm_pmf(scores: ScoresLike, epsilon: Number, sensitivity: int = 1, monotonic: bool = False,
            multiplicity: Optional[ScoresLike] = None, progress: Optional[Report] = None) -> RnmPmf:
    """The exact distribution of rnm_select(scores, epsilon, sensitivity,
    monotonic) (dpsel_rnm_pmf_new; spec/mechanisms.md §14): enclosures of
    relative width below 1e-30 of every probability and of the expected
    error.  ``multiplicity`` (optional): candidate r stands for
    multiplicity[r] >= 1 candidates of its score.  progress as pmf's.
    TooLargeError past 65536 candidates or about 2^35 bit operations (the
    work is O(n L) to O(n L^2), L the distinct scores)."""
    s = as_scores(scores)
    m = as_counts(multiplicity, "multiplicity") if multiplicity is not None else None
    if m is not None and m.n != s.n:
        raise ValueError(f"{s.n} scores but {m.n} multiplicities")
    handle = ctypes.c_void_p()
    call_reporting(lib.dpsel_rnm_pmf_new, progress, ctypes.byref(handle),
                   *_scale_arguments(epsilon, sensitivity, monotonic), s.address,
                   m.address if m is not None else None, s.n)
    made = RnmPmf._adopt(address(handle), s.n)
    made._exact_size = (2**64 - 1, 0)   # no exact rationals
    return made


def rnm_audit(scores_a: ScoresLike, scores_b: ScoresLike, epsilon: Number, sensitivity: int = 1,
              monotonic: bool = False, progress: Optional[Report] = None) -> AuditResult:
    """The privacy audit of report noisy max (dpsel_rnm_audit) on two score
    vectors, as audit: the loss against the decimal epsilon itself, from
    the enclosures alone (a comparison they leave open makes the verdict
    UNDECIDED).  Two pandas Series are matched by label."""
    a = as_scores(scores_a, "scores_a")
    b = as_scores(_aligned(scores_a, scores_b), "scores_b")
    if a.n != b.n:
        raise ValueError(f"scores_a has {a.n} candidates, scores_b {b.n}")
    c = CAuditResult()
    call_reporting(lib.dpsel_rnm_audit, progress, ctypes.byref(c),
                   *_scale_arguments(epsilon, sensitivity, monotonic), a.address, b.address, a.n)
    return _result(c, a)
