# SPDX-License-Identifier: ISC
"""Selections: Selector (dpsel_selector_*, dpsel_select*) and PfStream
(dpsel_pf_stream_*)."""

from __future__ import annotations

import ctypes
import weakref
from typing import TYPE_CHECKING, Any, List, Optional, SupportsIndex, Tuple

from ._native import convert
from ._enums import RNM_QUANTILE, MechanismArg, refuse_rnm, rnm_call
from ._errors import ErrorCode, explained
from ._fixes import count_fix
from ._native.lib import CPfStream, lib
from ._locks import ForkSafeLock
from ._owned import Owned
from ._params import Params, c_params
from ._rng import Rng, resolve
from ._scores import Scores, as_scores
from ._units import score_in_units, scores_in_units
from ._types import ScoresLike

if TYPE_CHECKING:  # _quantile imports this module
    from ._quantile import QuantileRuns


# Report noisy max's calls, for a Selector asked for it.
_RNM_SELECT = rnm_call("rnm_select(scores, epsilon, sensitivity, monotonic)")
_RNM_TOP = rnm_call("rnm_select_top(scores, k, epsilon, sensitivity, monotonic)")


class Selector(Owned):
    """The exact powers of the base that the samplers compare random bits
    with, made once for a Params (copied) and used for any number of
    selections, from any number of threads at once.

    ``scores`` (higher is better) may be a sequence of integers, a numpy
    integer array (int64 C-contiguous: passed without a copy) or a pandas
    Series, whose label is then returned instead of the position.  Floats
    are accepted only when each is exactly an integer.  With Params made
    with a resolution, the scores are decimals in whole units of it (str,
    Decimal, int, Fraction; UnitError names one that is not).  ``rng=None`` draws
    from this thread's OS source.  The GIL is released during the C call.
    """

    __slots__ = ("_handle", "_params", "__weakref__")

    def __init__(self, params: Params):
        handle = ctypes.c_void_p()
        lib.dpsel_selector_new(ctypes.byref(handle), c_params(params))
        self._handle = handle.value
        self._params = params.copy()
        weakref.finalize(self, lib.dpsel_selector_free, self._handle)

    @property
    def params(self) -> Params:
        """A copy of the parameters it was made with."""
        return self._params.copy()

    def select(self, scores: ScoresLike, mechanism: MechanismArg = "pf",
               rng: Optional[Rng] = None) -> Any:
        """One epsilon-DP selection (dpsel_select): the released position,
        or for a pandas Series its label.  mechanism: "pf" (permute-and-flip)
        or "em" (the exponential mechanism); "rnm" is RangeError naming
        rnm_select, which takes its decimal epsilon.  EmptyError for no
        scores."""
        return self._one(lib.dpsel_select, scores, refuse_rnm(mechanism, _RNM_SELECT), rng)

    def select_hardened(self, scores: ScoresLike, mechanism: MechanismArg = "pf",
                        rng: Optional[Rng] = None) -> Any:
        """select with work (time, random bits) that does not depend on the
        scores (dpsel_select_hardened; spec/timing.md): the same
        distribution, at a higher cost."""
        return self._one(lib.dpsel_select_hardened, scores,
                         refuse_rnm(mechanism, "mechanism 'rnm' has no hardened form: give "
                                    "mechanism='pf' or 'em'"), rng)

    def select_top(self, scores: ScoresLike, k: int, mechanism: MechanismArg = "pf",
                   rng: Optional[Rng] = None) -> List[Any]:
        """The k best by peeling (dpsel_select_top): k rounds of select, each
        over the candidates not chosen yet, in the order chosen.  Each round
        is one epsilon-DP selection, composed adaptively (see Accountant).
        RangeError for k = 0 or k > n."""
        s, m, k = self._scores(scores), refuse_rnm(mechanism, _RNM_TOP), convert.size(k, "k")
        # C refuses k > n before writing, so room for min(k, n) suffices.
        indices = (ctypes.c_size_t * max(1, min(k, s.n)))()
        with resolve(rng)._use as c_rng, \
                explained(lambda code: count_fix(k, s.n) if code == ErrorCode.RANGE else None):
            lib.dpsel_select_top(self._handle, m, s.address, s.n, k, c_rng, indices)
        return [s.label(i) for i in indices[:k]]

    def select_quantile(self, runs: QuantileRuns, mechanism: MechanismArg = "em",
                        rng: Optional[Rng] = None) -> int:
        """One release of a quantile (dpsel_quantile_select_runs): a grid
        point, in units of the grid's resolution (Grid.value gives its
        decimal).  The parameters must have the quantile's sensitivity and
        not be monotonic (else RangeError)."""
        from ._quantile import QuantileRuns  # here: _quantile imports this module
        if not isinstance(runs, QuantileRuns):
            raise TypeError(f"runs must be dpsel.QuantileRuns, not {type(runs).__name__}")
        m, value = refuse_rnm(mechanism, RNM_QUANTILE), ctypes.c_int64()
        with resolve(rng)._use as c_rng, \
                explained(lambda code: runs._quantile.fix(self._params, m, code)):
            lib.dpsel_quantile_select_runs(self._handle, m, runs._handle, c_rng,
                                           ctypes.byref(value))
        return value.value

    def stream(self, best: int, rng: Optional[Rng] = None) -> PfStream:
        """A PfStream over this selector whose largest score is ``best``."""
        return PfStream(self, best, rng)

    def _one(self, function: Any, scores: Any, mechanism: int, rng: Optional[Rng]) -> Any:
        s, index = self._scores(scores), ctypes.c_size_t()
        with resolve(rng)._use as c_rng:
            function(self._handle, mechanism, s.address, s.n, c_rng, ctypes.byref(index))
        return s.label(index.value)

    def _scores(self, scores: Any) -> Scores:
        """scores for C, in units of the resolution if the Params have one."""
        return as_scores(scores_in_units(scores, self._params.resolution))

    # Copies and pickles are made again from the parameters (a new table).
    __copy__ = __deepcopy__ = None

    def __reduce_ex__(self, protocol: SupportsIndex) -> Tuple[Any, ...]:
        return (Selector, (self._params,))

    def __repr__(self) -> str:
        return f"Selector({self._params!r})"


class PfStream(Owned):
    """Permute-and-flip on scores given in order, in about 8 KiB whatever
    their number (dpsel_pf_stream_*): for candidates too many to hold.

    Give the largest score first (``best``, from a first pass over the
    data), then every score in order with :meth:`add` or :meth:`add_many`;
    :meth:`finish` returns the released position, with exactly the
    distribution of ``Selector.select(scores, "pf")``::

        with selector.stream(best) as stream:
            for block in blocks:
                stream.add_many(block)
            index = stream.finish()

    RangeError when the selector's decay table does not allow the race (a
    gap cap of 1 with beta >= 1/2: use select), for a score above ``best``,
    or for ``finish`` when no score equalled ``best``; any error ends the
    stream for good.  The stream holds up to PF_STREAM_BLOCK scores: leaving
    the ``with`` block (or close) erases them.  Calls take turns between
    threads.
    """

    __slots__ = ("_c", "_selector", "_best", "_rng", "_lock", "__weakref__")

    def __init__(self, selector: Selector, best: int, rng: Optional[Rng] = None):
        if not isinstance(selector, Selector):
            raise TypeError(f"selector must be a dpsel.Selector, not {type(selector).__name__}")
        self._c = CPfStream()
        self._selector = selector  # the C stream points to it: it must outlive the stream
        self._rng = resolve(rng)
        self._lock = ForkSafeLock("dpsel.PfStream")
        self._best = score_in_units(best, selector._params.resolution, "best")
        lib.dpsel_pf_stream_start(ctypes.byref(self._c), selector._handle, self._best)

    def add(self, score: int) -> None:
        """Adds the next candidate's score (a decimal in units of the
        resolution, as select takes it, if the Params have one)."""
        score = score_in_units(score, self._selector._params.resolution)
        with self._lock, self._rng._use as c_rng, explained(lambda code: self._fix(code, score)):
            lib.dpsel_pf_stream_add(ctypes.byref(self._c), score, c_rng)

    def add_many(self, scores: ScoresLike) -> None:
        """Adds the next candidates' scores at once (a sequence or numpy
        array, as for select): the same as add for each, in fewer steps."""
        s: Scores = self._selector._scores(scores)
        with self._lock, self._rng._use as c_rng, explained(lambda code: self._fix(code, None)):
            lib.dpsel_pf_stream_add_scores(ctypes.byref(self._c), s.address, s.n, c_rng)

    def _fix(self, code: int, score: Optional[int]) -> Optional[str]:
        """What a refused add of score (None: of several) needs."""
        if code != ErrorCode.RANGE:
            return None
        # Neither score nor best is shown: both come from the data.
        if score is not None and score > self._best:
            return ("score is above best, the largest score the stream was started with: "
                    "start it with the largest of all (Selector.stream(best))")
        return ("a score above best, or a stream that failed or finished: start it with the "
                "largest score of all (Selector.stream(best)) and add each score before finish")

    def finish(self) -> int:
        """Ends the selection: the released position (0-based, in the order
        the scores were added).  EmptyError when no score was added."""
        index = ctypes.c_size_t()
        with self._lock, self._rng._use as c_rng:
            lib.dpsel_pf_stream_finish(ctypes.byref(self._c), c_rng, ctypes.byref(index))
        return index.value

    def close(self) -> None:
        """Erases the scores the stream holds; it is then not started."""
        with self._lock:
            ctypes.memset(ctypes.byref(self._c), 0, ctypes.sizeof(self._c))

    def __enter__(self) -> PfStream:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()
