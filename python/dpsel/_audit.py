# SPDX-License-Identifier: ISC
"""The privacy audit (dpsel_audit)."""

from __future__ import annotations

import ctypes
import sys
from dataclasses import dataclass
from typing import Any, Optional

from ._enums import MechanismArg, Verdict, mechanism as _mechanism, refuse_rnm, rnm_call
from ._native.lib import CAuditResult, lib
from ._params import Params, c_params, scores_for
from ._progress import Report, call_reporting
from ._scores import as_scores
from ._types import ScoresLike


@dataclass(frozen=True)
class AuditResult:
    """The privacy loss ``max_r |ln(P_a(r) / P_b(r))|`` of a mechanism on two
    score vectors, compared rigorously with the realised epsilon
    (dpsel_audit_result; spec/mechanisms.md §9).

    ``verdict``: HOLDS or BROKEN (both proved), or UNDECIDED (never a
    guess); ``distance``: max_r |a_r - b_r|; ``b_at_least_a``,
    ``b_at_most_a``: b_r >= a_r (<=) for every r; ``neighbours``: distance
    <= D, and one-sided when monotonic; ``output``: an output with the
    largest lower bound of the loss (its label for a Series) and
    ``a_over_b`` its direction (ln(P_a / P_b), else ln(P_b / P_a));
    ``decided_exactly``: comparisons the enclosures left open, decided
    exactly; ``loss_lower <= loss <= loss_upper``: 36 digits, rounded
    outwards."""
    verdict: Verdict
    distance: int
    b_at_least_a: bool
    b_at_most_a: bool
    neighbours: bool
    output: Any
    a_over_b: bool
    decided_exactly: int
    loss_lower: str
    loss_upper: str

    @property
    def holds(self) -> bool:
        """The claim ``loss <= epsilon`` is proved."""
        return self.verdict == Verdict.HOLDS


def audit(params: Params, scores_a: ScoresLike, scores_b: ScoresLike,
          mechanism: MechanismArg = "pf", progress: Optional[Report] = None) -> AuditResult:
    """Audits the mechanism with params on two score vectors (candidate r
    the same in both; two pandas Series are matched by label, in
    scores_a's order): both pmfs and the verdict, whether or not a and b
    are neighbours.  Decimal scores with a resolution, and progress, as
    pmf (dpsel_audit_progress).  Errors as pmf."""
    a = as_scores(scores_for(params, scores_a, "scores_a"), "scores_a")
    b = as_scores(scores_for(params, _aligned(scores_a, scores_b), "scores_b"), "scores_b")
    if a.n != b.n:
        raise ValueError(f"scores_a has {a.n} candidates, scores_b {b.n}")
    refuse_rnm(mechanism, rnm_call("rnm_audit(scores_a, scores_b, epsilon, sensitivity, monotonic)"))
    c = CAuditResult()
    call_reporting(lib.dpsel_audit_progress, progress, ctypes.byref(c), c_params(params),
                   _mechanism(mechanism), a.address, b.address, a.n)
    return _result(c, a)


def _result(c: CAuditResult, a: Any) -> AuditResult:
    """The AuditResult of a C result, its output labelled by scores a."""
    return AuditResult(Verdict(c.verdict), c.distance, bool(c.b_at_least_a),
                       bool(c.b_at_most_a), bool(c.neighbours), a.label(c.output),
                       bool(c.a_over_b), c.decided_exactly, c.loss_lower.decode(),
                       c.loss_upper.decode())


def _aligned(scores_a: Any, scores_b: Any) -> Any:
    """scores_b in scores_a's order of labels, for two pandas Series."""
    pandas = sys.modules.get("pandas")
    if pandas is None or not (isinstance(scores_a, pandas.Series)
                              and isinstance(scores_b, pandas.Series)):
        return scores_b
    a, b = scores_a.index, scores_b.index
    if a.equals(b):
        return scores_b
    if not (a.is_unique and b.is_unique and len(a) == len(b) and a.isin(b).all()):
        raise ValueError("scores_a and scores_b do not have the same labels")
    return scores_b.reindex(a)
