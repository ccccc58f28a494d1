# SPDX-License-Identifier: ISC
"""Report noisy max with exact Laplace noise (dpsel_rnm_select, its top-k
and its scale)."""

from __future__ import annotations

import ctypes
from typing import Any, List, Optional, Tuple

from ._native import convert
from ._errors import ErrorCode, explained
from ._fixes import count_fix
from ._native.lib import lib
from ._rng import Rng, resolve
from ._scores import as_scores
from ._types import Number, ScoresLike


def rnm_select(scores: ScoresLike, epsilon: Number, sensitivity: int = 1, monotonic: bool = False,
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
    text = convert.c_text(convert.epsilon_text(epsilon), "epsilon")
    d = convert.sensitivity(sensitivity)
    m = convert.flag(monotonic, "monotonic")
    s, index = as_scores(scores), ctypes.c_size_t()
    with resolve(rng)._use as c_rng:
        lib.dpsel_rnm_select(text, d, m, s.address, s.n, c_rng, ctypes.byref(index))
    return s.label(index.value)


def rnm_select_top(scores: ScoresLike, k: int, epsilon: Number, sensitivity: int = 1,
                   monotonic: bool = False, rng: Optional[Rng] = None) -> List[Any]:
    """The k best by report noisy max, by peeling (dpsel_rnm_select_top):
    k rounds of rnm_select with fresh noise, each over the candidates not
    chosen yet, in the order chosen.  Each round is epsilon-DP for the
    decimal epsilon exactly, composed adaptively: Accountant.add("rnm",
    epsilon, k) states the k rounds.  RangeError for k = 0 or k > n; other
    errors as rnm_select."""
    text = convert.c_text(convert.epsilon_text(epsilon), "epsilon")
    d = convert.sensitivity(sensitivity)
    m = convert.flag(monotonic, "monotonic")
    s, k = as_scores(scores), convert.size(k, "k")
    # C refuses k > n before writing, so room for min(k, n) suffices.
    indices = (ctypes.c_size_t * max(1, min(k, s.n)))()
    with resolve(rng)._use as c_rng, \
            explained(lambda code: count_fix(k, s.n) if code == ErrorCode.RANGE else None):
        lib.dpsel_rnm_select_top(text, d, m, s.address, s.n, k, c_rng, indices)
    return [s.label(i) for i in indices[:k]]


def rnm_scale(epsilon: Number, sensitivity: int = 1, monotonic: bool = False) -> Tuple[int, int]:
    """Report noisy max's Laplace scale b = c D / epsilon (c = 1 when
    ``monotonic``, else 2) as (W, P), b = W / P in lowest terms
    (dpsel_rnm_scale): the rational rnm_select uses, checked without any
    data.  EpsilonError when W or P would be 2^62 or more."""
    text = convert.c_text(convert.epsilon_text(epsilon), "epsilon")
    w, p = ctypes.c_uint64(), ctypes.c_uint64()
    lib.dpsel_rnm_scale(text, convert.sensitivity(sensitivity),
                        convert.flag(monotonic, "monotonic"), ctypes.byref(w), ctypes.byref(p))
    return w.value, p.value
