# SPDX-License-Identifier: ISC
"""Exact differentially private selection, from Python.

dpsel chooses the best of many candidates (the most common category, the
median bin, the best price) with differential privacy, by permute-and-flip
("pf") or the exponential mechanism ("em"), and every probability it
realises equals the specified distribution exactly.  This package binds the
C library (libdpsel) with ctypes; numpy and pandas are optional.

    >>> import dpsel
    >>> params = dpsel.Params.from_epsilon("1", sensitivity=1, monotonic=True)
    >>> selector = dpsel.Selector(params)
    >>> selector.select([41, 38, 40, 12, 33], rng=dpsel.Rng.seeded(b"docs"))
    0

One call per task, on raw data (a list, numpy array or pandas Series):
mode, quantile, quantiles, median, select, top_k, best_price.

- Params: the privacy parameters (from_epsilon, from_base; .epsilon).
- Selector: select, select_hardened, select_top, select_quantile, stream.
- Rng: the random source (Rng.os for releases; Rng.seeded for tests only).
- rnm_select, rnm_select_top, rnm_scale: report noisy max, exact Laplace noise.
- pmf, pmf_grouped, top_pmf, quantile_pmf: exact output distributions.
- audit: the privacy loss between two score vectors, proved.
- task_scores, task_params: histogram scores for the mode and the median.
- decimal_to_units, units_to_decimal: decimal scores in a public unit.
- Grid, quantile_fraction, QuantileRuns, quantile_select: private quantiles.
- joint_sensitivity, quantiles_joint_select(_many), quantiles_joint_pmf: many
  quantiles in one release (JointExp) and its exact marginals.
- Partial: a selection split over shards, merged, then finished.
- Accountant: the privacy of many releases together.
- Error and its subclasses, one per DPSEL_E* code.

The library is found from the environment variable DPSEL_LIBRARY, else in
this package (where ``pip install ./python`` puts it), else in the build
tree beside it (../build/libdpsel.so), else where a system package says
(_installed.py), else on the loader's path.  dpsel._native holds the
ctypes plumbing (the C declarations and the conversions to C types).  Every
C call releases the GIL.  include/dpsel.h documents each function in full.
"""

from ._account import Account, Accountant, GroupAccount
from ._audit import AuditResult, audit
from ._easy import best_price, median, mode, quantile, quantiles, select, top_k
from ._enums import Composition, Mechanism, Task, Verdict
from ._joint import (JOINT_DECAY_MAX, JointCost, JointPmf, JointRun, joint_sensitivity,
                     quantiles_joint_cost, quantiles_joint_pmf, quantiles_joint_select,
                     quantiles_joint_select_many)
from ._errors import (DecimalError, EmptyError, EpsilonError, Error, ErrorCode, InexactError,
                      InternalError, NoMemoryError, NullError, RandomSourceError, RangeError,
                      StateError, CanceledError, TooLargeError, UnitError, UnlikelyError, strerror)
from ._native.lib import (ACCOUNT_NONADAPTIVE_MAX, ACCOUNT_OPTIMAL_MAX, DECIMAL_TEXT_MAX,
                          GAP_CAP_MAX, PARTIAL_MEMBER_MAX, PF_STREAM_BLOCK,
                          QUANTILE_DENOMINATOR_MAX, QUANTILE_EM_GRID_MAX, VERSION)
from ._params import Params
from ._partial import Partial
from ._pmf import Pmf, TopPmf, pmf, pmf_grouped, top_pmf
from ._quantile import (Grid, QuantileFraction, QuantileRuns, Run, quantile_fraction,
                        quantile_pmf, quantile_select)
from ._rng import Rng
from ._rnm import rnm_scale, rnm_select, rnm_select_top
from ._rnm_pmf import RnmPmf, rnm_audit, rnm_pmf
from ._select import PfStream, Selector
from ._tasks import TaskParams, decimal_to_units, task_params, task_scores, units_to_decimal

__version__ = VERSION  # DPSEL_VERSION of include/dpsel.h (test_layout.py compares them)

__all__ = [
    "mode", "quantile", "quantiles", "median", "select", "top_k", "best_price",
    "Params", "Selector", "PfStream", "Rng", "Mechanism",
    "rnm_select", "rnm_select_top", "rnm_scale", "rnm_pmf", "RnmPmf", "rnm_audit",
    "pmf", "pmf_grouped", "Pmf", "top_pmf", "TopPmf",
    "audit", "AuditResult", "Verdict",
    "task_scores", "task_params", "TaskParams", "Task",
    "decimal_to_units", "units_to_decimal",
    "Grid", "quantile_fraction", "QuantileFraction", "QuantileRuns", "Run", "quantile_select",
    "quantile_pmf",
    "joint_sensitivity", "quantiles_joint_select", "quantiles_joint_select_many",
    "quantiles_joint_pmf", "JointPmf", "JointRun", "quantiles_joint_cost", "JointCost",
    "JOINT_DECAY_MAX",
    "Partial",
    "Accountant", "Account", "GroupAccount", "Composition",
    "Error", "ErrorCode", "strerror", "NullError", "EmptyError", "RangeError", "EpsilonError",
    "NoMemoryError", "RandomSourceError", "UnlikelyError", "TooLargeError", "InexactError",
    "InternalError", "DecimalError", "UnitError", "StateError", "CanceledError",
    "GAP_CAP_MAX", "PF_STREAM_BLOCK", "DECIMAL_TEXT_MAX", "QUANTILE_DENOMINATOR_MAX",
    "QUANTILE_EM_GRID_MAX", "ACCOUNT_OPTIMAL_MAX", "ACCOUNT_NONADAPTIVE_MAX", "PARTIAL_MEMBER_MAX",
]


def _present_as_dpsel() -> None:
    """Classes and functions say dpsel.X (reprs, tracebacks, help, pickling
    of exceptions), not the private module that defines them."""
    for name in __all__:
        value = globals()[name]
        if getattr(value, "__module__", "").startswith("dpsel._"):
            value.__module__ = __name__


_present_as_dpsel()
