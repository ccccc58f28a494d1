# SPDX-License-Identifier: ISC
"""Report noisy max with exact Laplace noise (dpsel_rnm_select)."""

from __future__ import annotations

import ctypes
from typing import Any, Optional

from . import _convert
from ._lib import lib
from ._rng import Rng, resolve
from ._scores import as_scores


def rnm_select(scores: Any, epsilon: Any, sensitivity: int = 1, monotonic: bool = False,
               rng: Optional[Rng] = None) -> Any:
    """Report noisy max (dpsel_rnm_select; spec/mechanisms.md §14): adds
    Laplace noise of scale 2 D / epsilon to each score (D / epsilon when
    ``monotonic``), exactly, and returns the position (or, for a pandas
    Series, the label) of the largest noisy score.  ``epsilon`` is a
    decimal (str, int, Decimal, Fraction with a finite decimal), realised
    exactly: no base-2 rounding.  D / epsilon on scores that are not
    monotonic is 2 epsilon-DP: pass ``monotonic=True`` only for scores that
    are.  ``scores`` as for Selector.select, in integers.  EpsilonError for
    an epsilon whose scale c D / epsilon, in lowest terms W / P, has W or P
    of 2^62 or more; the GIL is released during the C call."""
    text = _convert.c_text(_convert.epsilon_text(epsilon), "epsilon")
    d = _convert.uint64(sensitivity, "sensitivity")
    m = _convert.flag(monotonic, "monotonic")
    s, index = as_scores(scores), ctypes.c_size_t()
    with resolve(rng)._use as c_rng:
        lib.dpsel_rnm_select(text, d, m, s.address, s.n, c_rng, ctypes.byref(index))
    return s.label(index.value)
