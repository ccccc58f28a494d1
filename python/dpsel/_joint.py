# SPDX-License-Identifier: ISC
"""Many quantiles in one release: JointExp (dpsel_quantiles_joint_*,
spec/quantiles.md §8) and its exact marginals (dpsel_joint_pmf_*).  The
quantiles are given as fractions a / b (quantile_fraction(q), or (a, b)
pairs), increasing; the values as grid points (Grid.points)."""

from __future__ import annotations

import array
import ctypes
import math
import weakref
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

from ._native import convert
from ._enums import MechanismArg, mechanism as _mechanism
from ._errors import ErrorCode, RangeError, explained
from ._fixes import index_fix
from ._native.lib import QUANTILE_DENOMINATOR_MAX, address, lib
from ._owned import Owned
from ._params import Params, c_params
from ._pmf import _take_pair, _take_strings
from ._progress import Report, call_reporting
from ._quantile import GridArg, _grid_bounds, grid_bounds_fix
from ._rng import Rng, resolve
from ._scores import as_scores
from ._select import Selector

# The largest B log2(1/beta) (DPSEL_JOINT_DECAY_MAX), B the quantiles' least
# common denominator and beta the base, public parameters only: the weights'
# exponents stay in MPFR's range whatever the values.  Every epsilon up to 22
# is taken.
JOINT_DECAY_MAX = 16


class _Joint:
    """The quantiles a[i] / b[i] as C takes them (two uint64 arrays), and
    what a DPSEL_ERANGE about them, the parameters or the data means."""

    __slots__ = ("a", "b", "m")

    def __init__(self, fractions: Sequence[Any]):
        pairs = [self._pair(f, i) for i, f in enumerate(fractions)]
        self.m = len(pairs)
        self.a = array.array("Q", [a for a, _ in pairs] or [0])
        self.b = array.array("Q", [b for _, b in pairs] or [0])

    @staticmethod
    def _pair(fraction: Any, i: int) -> Tuple[int, int]:
        try:
            a, b = fraction[0], fraction[1]
        except (TypeError, IndexError):
            raise TypeError(f"fractions[{i}] must be a QuantileFraction or an (a, b) pair, not "
                            f"{fraction!r}") from None
        return convert.uint64(a, f"fractions[{i}].a"), convert.uint64(b, f"fractions[{i}].b")

    @property
    def addresses(self) -> Tuple[int, int]:
        return self.a.buffer_info()[0], self.b.buffer_info()[0]

    def fix(self, params: Optional[Params], code: int,
            grid: Optional[Tuple[int, int]] = None) -> Optional[str]:
        """Which argument a DPSEL_ERANGE is about and how to mend it (grid:
        the ends lower, upper of a call on data)."""
        if code != ErrorCode.RANGE:
            return None
        if self.m == 0:
            return "fractions is empty: give one quantile or more"
        for i in range(self.m):
            a, b = self.a[i], self.b[i]
            if not 0 < a < b <= QUANTILE_DENOMINATOR_MAX:
                return (f"fractions[{i}] = {a}/{b} is not a quantile with 0 < a < b <= 10^18: "
                        "take it from quantile_fraction(q)")
            if i > 0 and a * self.b[i - 1] <= self.a[i - 1] * b:
                return (f"fractions[{i}] = {a}/{b} is not above fractions[{i - 1}] = "
                        f"{self.a[i - 1]}/{self.b[i - 1]}: give the quantiles in increasing "
                        "order, each once")
        denominator = math.lcm(*self.b[:self.m])
        if denominator > QUANTILE_DENOMINATOR_MAX:
            return (f"the least common denominator of the quantiles, {denominator}, passes "
                    "10^18: give quantiles of fewer digits")
        needed = joint_sensitivity(list(zip(self.a[:self.m], self.b[:self.m])))
        if params is not None and (params.sensitivity < needed or params.monotonic):
            return (f"the Params must have sensitivity >= {needed} "
                    "(joint_sensitivity(fractions)) and monotonic=False, not sensitivity "
                    f"{params.sensitivity}, monotonic={params.monotonic}")
        bounds = None if grid is None else grid_bounds_fix(*grid)
        if bounds:
            return bounds
        base = "" if params is None else f"{params.x}/2^{params.y} "
        return (f"the base {base}decays too fast for these quantiles: B log2(1/beta) passes "
                f"{JOINT_DECAY_MAX} (JOINT_DECAY_MAX), B = {denominator} their least common "
                "denominator: give an epsilon of at most 22 (every set of quantiles takes it) "
                "or a base nearer 1")


def require_em(mechanism: MechanismArg) -> None:
    """RangeError unless mechanism is EM: JointExp is the exponential
    mechanism over tuples, with no PF form."""
    if _mechanism(mechanism) != _mechanism("em"):
        raise RangeError("mechanism", fix="joint=True is the exponential mechanism over tuples "
                         f"(JointExp): give mechanism='em', not {mechanism!r}")


def joint_sensitivity(fractions: Sequence[Any]) -> int:
    """The sensitivity of JointExp's utility for the increasing quantiles
    a / b (dpsel_quantiles_joint_sensitivity): 2 (B - min_i B (p_i -
    p_(i-1))), B their least common denominator.  Make the Params with it,
    not monotonic."""
    joint = _Joint(fractions)
    out = ctypes.c_uint64()
    with explained(lambda code: joint.fix(None, code)):
        lib.dpsel_quantiles_joint_sensitivity(*joint.addresses, joint.m, ctypes.byref(out))
    return out.value


class JointCost(NamedTuple):
    """What JointExp's releases cost, known before the work: its MPFR
    operations (steps, a few tens of ns each) and an upper bound of the
    memory it allocates (bytes)."""
    steps: int
    bytes: int


def quantiles_joint_cost(quantiles: int, n: int, count: int = 1) -> JointCost:
    """The cost of count JointExp releases of ``quantiles`` quantiles of n
    values (dpsel_quantiles_joint_select_cost), from the sizes alone:
    4 m (m + 8) (n + 1) steps for the forward tables, 6 (n + 1) for their
    total, m (6 (n + 1) + 8 m) a release; bytes about 160 m (n + 1).  No n
    is refused (saturated at 2^64 - 1); RangeError for m outside 1 .. 1024
    or count 0."""
    m, values, releases = (convert.size(quantiles, "quantiles"), convert.size(n, "n"),
                           convert.size(count, "count"))
    if not 1 <= m <= 1024:
        raise RangeError("quantiles", fix=f"give 1 to 1024 quantiles, not {quantiles}")
    if releases < 1:
        raise RangeError("count", fix=f"give count >= 1, not {count}")
    steps, size = ctypes.c_uint64(), ctypes.c_uint64()
    lib.dpsel_quantiles_joint_select_cost(m, values, releases, ctypes.byref(steps),
                                          ctypes.byref(size))
    return JointCost(steps.value, size.value)


def quantiles_joint_select(selector: Selector, fractions: Sequence[Any], points: Any,
                           lower: GridArg, upper: Optional[int] = None,
                           rng: Optional[Rng] = None,
                           progress: Optional[Report] = None) -> List[int]:
    """One JointExp release of the quantiles (increasing fractions a / b)
    of points (grid.points(values)) on the Grid ``lower`` (or lower ..
    upper, grid points; a point outside is clamped into them, as C does):
    one grid point per quantile, non-decreasing, for
    the selector's one epsilon (dpsel_quantiles_joint_select; its Params
    with joint_sensitivity(fractions), not monotonic).  Its cost:
    quantiles_joint_cost; progress as pmf's."""
    return quantiles_joint_select_many(selector, fractions, points, lower, upper, 1, rng,
                                       progress)[0]


def quantiles_joint_select_many(selector: Selector, fractions: Sequence[Any], points: Any,
                                lower: GridArg, upper: Optional[int] = None, count: int = 1,
                                rng: Optional[Rng] = None,
                                progress: Optional[Report] = None) -> List[List[int]]:
    """count independent releases of quantiles_joint_select on the same
    points, each for the selector's epsilon (count of them: count epsilon),
    from one sort and one set of forward tables
    (dpsel_quantiles_joint_select_many_progress): release r is the r-th
    list.  progress as pmf's: the forward tables a rank at a time, then a
    release at a time."""
    if not isinstance(selector, Selector):
        raise TypeError(f"selector must be a dpsel.Selector, not {type(selector).__name__}")
    joint, values = _Joint(fractions), as_scores(points, "points")
    low, high = _grid_bounds(lower, upper)
    releases = convert.size(count, "count")
    if releases < 1:
        raise RangeError("count", fix=f"give count >= 1, not {count}")
    out = array.array("q", bytes(8 * max(1, joint.m * releases)))
    with resolve(rng)._use as c_rng, \
            explained(lambda code: joint.fix(selector.params, code, (low, high))):
        call_reporting(lib.dpsel_quantiles_joint_select_many_progress, progress,
                       selector._handle, *joint.addresses, joint.m, values.address, values.n,
                       low, high, c_rng, releases, out.buffer_info()[0])
    return [out[r * joint.m:(r + 1) * joint.m].tolist() for r in range(releases)]


class JointRun(NamedTuple):
    """A run of the joint pmf: its first grid point, its number of points
    and its rank (the values below it)."""
    first: int
    points: int
    rank: int


class JointPmf(Owned):
    """JointExp's exact marginals (dpsel_joint_pmf): for quantile i and run
    r, the chance that the release's i-th point lies in the run, and each
    quantile's expected rank error E|k_i - p_i n|.  Enclosures of relative
    width below 1e-30 and correctly rounded decimals; no exact rationals.
    Made by quantiles_joint_pmf; the getters may be called from several
    threads at once."""

    __slots__ = ("_handle", "quantiles", "runs", "__weakref__")
    _handle: int
    quantiles: int
    runs: List[JointRun]

    def __init__(self, *arguments: object, **options: object):
        raise TypeError("a dpsel.JointPmf is made by dpsel.quantiles_joint_pmf(...)")

    @classmethod
    def _adopt(cls, handle: int) -> "JointPmf":
        pmf = cls.__new__(cls)
        pmf._handle = handle
        weakref.finalize(pmf, lib.dpsel_joint_pmf_free, handle)
        pmf.quantiles = int(lib.dpsel_joint_pmf_quantiles(handle))
        pmf.runs = [pmf._run(r) for r in range(lib.dpsel_joint_pmf_runs(handle))]
        return pmf

    def _run(self, r: int) -> JointRun:
        first, points, rank = ctypes.c_int64(), ctypes.c_uint64(), ctypes.c_uint64()
        lib.dpsel_joint_pmf_run(self._handle, r, ctypes.byref(first), ctypes.byref(points),
                                ctypes.byref(rank))
        return JointRun(first.value, points.value, rank.value)

    def _index(self, i: int, r: Optional[int] = None) -> Tuple[int, ...]:
        i = convert.size(i, "quantile")
        fix = index_fix(i, self.quantiles, "quantile")
        if fix:
            raise RangeError("quantile", fix=fix)
        if r is None:
            return (i,)
        r = convert.size(r, "run")
        fix = index_fix(r, len(self.runs), "run")
        if fix:
            raise RangeError("run", fix=fix)
        return (i, r)

    def probability_text(self, i: int, r: int) -> str:
        """The chance that quantile i's release lies in run r: 17 significant
        digits, correctly rounded (TooLargeError in the rare case its
        enclosure cannot decide them)."""
        return _take_strings(lib.dpsel_joint_pmf_probability, self._handle, *self._index(i, r))[0]

    def probability(self, i: int, r: int) -> float:
        """probability_text(i, r) as the nearest float (for plots)."""
        return float(self.probability_text(i, r))

    def bounds(self, i: int, r: int, digits: int = 36) -> Tuple[str, str]:
        """A rigorous enclosure lo <= P <= hi of that chance, as decimals of
        ``digits`` (1 to 100) significant digits rounded outward."""
        return _take_pair(lib.dpsel_joint_pmf_probability_bounds, self._handle,
                          *self._index(i, r), convert.uint(digits, "digits"))

    def rank_error_text(self, i: int) -> str:
        """Quantile i's expected rank error E|k_i - p_i n| (the values between
        its release and the true quantile), 17 digits correctly rounded."""
        return _take_strings(lib.dpsel_joint_pmf_rank_error, self._handle, *self._index(i))[0]

    def rank_error(self, i: int) -> float:
        """rank_error_text(i) as the nearest float."""
        return float(self.rank_error_text(i))

    def rank_error_bounds(self, i: int, digits: int = 36) -> Tuple[str, str]:
        """Its enclosure, as bounds gives a probability's."""
        return _take_pair(lib.dpsel_joint_pmf_rank_error_bounds, self._handle,
                          *self._index(i), convert.uint(digits, "digits"))

    def __repr__(self) -> str:
        return f"<dpsel.JointPmf: {self.quantiles} quantiles over {len(self.runs)} runs>"


def quantiles_joint_pmf(params: Params, fractions: Sequence[Any], points: Any, lower: GridArg,
                        upper: Optional[int] = None,
                        progress: Optional[Report] = None) -> JointPmf:
    """The exact marginals of quantiles_joint_select with these Params, the
    same fractions, points and grid (dpsel_quantiles_joint_pmf_new):
    O(m^2 n) work whatever the grid; progress as pmf's."""
    joint, values = _Joint(fractions), as_scores(points, "points")
    low, high = _grid_bounds(lower, upper)
    handle = ctypes.c_void_p()
    with explained(lambda code: joint.fix(params, code, (low, high))):
        call_reporting(lib.dpsel_quantiles_joint_pmf_new, progress, ctypes.byref(handle),
                       c_params(params), *joint.addresses, joint.m, values.address, values.n,
                       low, high)
    return JointPmf._adopt(address(handle))
