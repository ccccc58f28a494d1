# SPDX-License-Identifier: ISC
"""libdpsel, loaded with ctypes, and the C declarations of include/dpsel.h.

The structures the API lets callers read (dpsel_params, dpsel_grid,
dpsel_audit_result, dpsel_account) are mirrored field by field; so are the
two whose fields are private (dpsel_rng, dpsel_pf_stream), because the
caller owns their memory.  python/tests/test_layout.py compiles the header
and compares every offset and size, so that a change of layout in C fails
the tests instead of corrupting memory.  At import, the library loaded must
have every function bound here, this package's version (dpsel_version) and
the mirrors' sizes (dpsel_sizeof): else ImportError, before any call.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import pathlib
from typing import Any, Iterator, Mapping, Tuple, Type
from ctypes import (POINTER, Structure, c_char, c_char_p, c_int, c_int64, c_size_t, c_ubyte,
                    c_uint, c_uint64, c_void_p)

# ------------------------------------------------------------ the library


def _candidates() -> Iterator[str]:
    """Where to look for libdpsel, in order: DPSEL_LIBRARY alone if set;
    else the library pip's build put into this package (python/setup.py),
    the build tree beside it (python/../build), the library a system package
    names in _installed.py (debian/rules writes one), and the dynamic
    loader's search (a library `make install` put on its path)."""
    explicit = os.environ.get("DPSEL_LIBRARY")
    if explicit:
        yield explicit
        return
    package = pathlib.Path(__file__).resolve().parent.parent  # dpsel/, above _native/
    yield str(package / "libdpsel.so.0")
    yield str(package.parent.parent / "build" / "libdpsel.so")
    try:
        from .._installed import LIBRARY  # type: ignore[import]  # only in Debian's package
        yield LIBRARY
    except ImportError:
        pass
    found = ctypes.util.find_library("dpsel")  # runs ldconfig: only when needed
    if found:
        yield found


def _load() -> ctypes.CDLL:
    """The first candidate that loads.  ctypes.CDLL (not PyDLL) releases
    the GIL for the length of every call."""
    tried = []
    for path in _candidates():
        # A bare name (find_library's) goes to the dynamic loader's search.
        if os.sep in path and not os.path.exists(path):
            tried.append(f"{path} (absent)")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as error:
            tried.append(f"{path} ({error})")
    raise ImportError("dpsel: cannot load libdpsel: " + "; ".join(tried or ["not found"])
                      + ". Install the package with pip (pip install ./python), build the library "
                      "(make) or set DPSEL_LIBRARY.")


lib = _load()

# ------------------------------------------------------------- constants

VERSION = "0.1.0"  # DPSEL_VERSION of include/dpsel.h, which the library must report
GAP_CAP_MAX = 1 << 20
PF_STREAM_BLOCK = 1024
DECIMAL_TEXT_MAX = 128
UNITS_TEXT_MAX = DECIMAL_TEXT_MAX + 24
QUANTILE_DENOMINATOR_MAX = 10**18
QUANTILE_EM_GRID_MAX = (1 << 42) - 1
GRID_POINTS_MAX = 1 << 62  # the most points of a quantile grid (DPSEL_MAX_CANDIDATES)
ACCOUNT_OPTIMAL_MAX = 20000
ACCOUNT_NONADAPTIVE_MAX = 256
ACCOUNT_TEXT = 40
ACCOUNT_GROUP_MAX = 1 << 32
PARTIAL_MEMBER_MAX = 65536
PARTIAL_KEY_MIN, PARTIAL_KEY_MAX = 16, 64  # a keyed state's key, in bytes
AUDIT_TEXT = 56
DECIMAL, RATIONAL = 0, 1  # dpsel_format

# -------------------------------------------------------------- structures


class CParams(Structure):
    """dpsel_params."""
    _fields_ = [("x", c_uint64), ("y", c_uint), ("sensitivity", c_uint64),
                ("monotonic", c_int), ("gap_cap", c_uint64)]


BitFunction = ctypes.CFUNCTYPE(c_int, c_void_p, POINTER(c_uint))
InterruptFunction = ctypes.CFUNCTYPE(c_int, c_void_p, c_uint64, c_uint64)


def address(out: c_void_p) -> int:
    """The address a C call stored in ``out``: never NULL once the call
    returned DPSEL_OK, so NULL here is the library's fault, not the caller's."""
    if out.value is None:
        from .._errors import InternalError  # _errors imports this module
        raise InternalError("a C call returned DPSEL_OK and no object")
    return out.value


class CRngState(Structure):
    """dpsel_rng_state_ (private)."""
    _fields_ = [("key_", c_ubyte * 32), ("block_", c_uint64), ("buffer_", c_ubyte * 256),
                ("buffer_left_", c_uint), ("bits_left_", c_uint), ("unread_", c_uint64)]


class CRng(Structure):
    """dpsel_rng (private): never copied, it must stay where it was initialised."""
    _fields_ = [("kind_", c_int), ("bit_fn_", BitFunction), ("bit_context_", c_void_p),
                ("owner_", c_void_p), ("os_state_", POINTER(CRngState)),
                ("seeded_", CRngState), ("interrupt_fn_", InterruptFunction),
                ("interrupt_context_", c_void_p)]


class CPfStream(Structure):
    """dpsel_pf_stream (private)."""
    _fields_ = [("selector_", c_void_p), ("best_", c_int64), ("raced_", c_uint64),
                ("held_", c_size_t), ("state_", c_int), ("best_added_", c_int),
                ("race_value_", c_int64), ("race_ties_", c_uint64), ("race_chosen_", c_uint64),
                ("block_", c_int64 * PF_STREAM_BLOCK)]


class CGrid(Structure):
    """dpsel_grid."""
    _fields_ = [("lower", c_int64), ("upper", c_int64),
                ("resolution", c_char * (DECIMAL_TEXT_MAX + 1))]


class CAuditResult(Structure):
    """dpsel_audit_result."""
    _fields_ = [("verdict", c_int), ("distance", c_uint64), ("b_at_least_a", c_int),
                ("b_at_most_a", c_int), ("neighbours", c_int), ("output", c_size_t),
                ("a_over_b", c_int), ("decided_exactly", c_size_t),
                ("loss_lower", c_char * AUDIT_TEXT), ("loss_upper", c_char * AUDIT_TEXT)]


class CAccount(Structure):
    """dpsel_account."""
    _fields_ = [("releases", c_uint64)] + [
        (name, c_char * ACCOUNT_TEXT)
        for name in ("pure", "rho", "zcdp", "bounded_range", "dp_optimal", "best")
    ] + [("best_method", c_char_p), ("bounded_range_composition", c_char_p)]


class CGroupAccount(Structure):
    """dpsel_group_account."""
    _fields_ = [("group", c_uint64), ("account", CAccount), ("epsilon", c_char * ACCOUNT_TEXT),
                ("delta", c_char * ACCOUNT_TEXT)]


# ------------------------------------------------------------- prototypes

_P = POINTER
_HANDLE = c_void_p       # an opaque object: dpsel_selector *, dpsel_pmf *, ...
_OUT = _P(c_void_p)      # where a function stores a new object or string
_DATA = c_void_p         # const int64_t * (an address: numpy's, or an array's)
_STR = c_char_p

# name: (result, arguments).  Functions that return a dpsel code (int) get
# `_check` as errcheck, so that every failure raises.
_CODE = c_int
_PROTOTYPES = {
    "dpsel_strerror": (c_char_p, [c_int]),
    "dpsel_version": (c_char_p, []),
    "dpsel_sizeof": (c_size_t, [c_char_p]),
    "dpsel_params_from_base": (_CODE, [_P(CParams), c_uint64, c_uint, c_uint64, c_int]),
    "dpsel_params_from_epsilon": (_CODE, [_P(CParams), _STR, c_uint64, c_int]),
    "dpsel_params_set_gap_cap": (_CODE, [_P(CParams), c_uint64]),
    "dpsel_params_epsilon": (_CODE, [_P(CParams), c_uint, c_char_p, c_size_t]),
    "dpsel_rng_init_os": (_CODE, [_P(CRng)]),
    "dpsel_rng_init_seeded": (_CODE, [_P(CRng), c_char_p, c_size_t]),
    "dpsel_rng_init_custom": (_CODE, [_P(CRng), BitFunction, c_void_p]),
    "dpsel_rng_set_interrupt": (_CODE, [_P(CRng), InterruptFunction, c_void_p]),
    "dpsel_rng_wipe": (None, [_P(CRng)]),
    "dpsel_selector_new": (_CODE, [_OUT, _P(CParams)]),
    "dpsel_selector_free": (None, [_HANDLE]),
    "dpsel_select": (_CODE, [_HANDLE, c_int, _DATA, c_size_t, _P(CRng), _P(c_size_t)]),
    "dpsel_select_hardened": (_CODE, [_HANDLE, c_int, _DATA, c_size_t, _P(CRng), _P(c_size_t)]),
    "dpsel_select_top": (_CODE, [_HANDLE, c_int, _DATA, c_size_t, c_size_t, _P(CRng),
                                 _P(c_size_t)]),
    "dpsel_rnm_select": (_CODE, [_STR, c_uint64, c_int, _DATA, c_size_t, _P(CRng),
                                 _P(c_size_t)]),
    "dpsel_rnm_select_top": (_CODE, [_STR, c_uint64, c_int, _DATA, c_size_t, c_size_t,
                                     _P(CRng), _P(c_size_t)]),
    "dpsel_rnm_scale": (_CODE, [_STR, c_uint64, c_int, _P(c_uint64), _P(c_uint64)]),
    "dpsel_pf_stream_start": (_CODE, [_P(CPfStream), _HANDLE, c_int64]),
    "dpsel_pf_stream_add": (_CODE, [_P(CPfStream), c_int64, _P(CRng)]),
    "dpsel_pf_stream_add_scores": (_CODE, [_P(CPfStream), _DATA, c_size_t, _P(CRng)]),
    "dpsel_pf_stream_finish": (_CODE, [_P(CPfStream), _P(CRng), _P(c_size_t)]),
    "dpsel_pmf_new": (_CODE, [_OUT, _P(CParams), c_int, _DATA, c_size_t]),
    "dpsel_pmf_new_grouped": (_CODE, [_OUT, _P(CParams), c_int, _DATA, _DATA, c_size_t]),
    # a dpsel_progress_fn has the signature of an interrupt check
    "dpsel_pmf_new_progress": (_CODE, [_OUT, _P(CParams), c_int, _DATA, _DATA, c_size_t,
                                       InterruptFunction, c_void_p]),
    "dpsel_pmf_exact_work": (_CODE, [_P(CParams), c_int, _DATA, _DATA, c_size_t, _P(c_uint64),
                                     _P(c_uint64)]),
    "dpsel_pmf_free": (None, [_HANDLE]),
    "dpsel_pmf_probability": (_CODE, [_HANDLE, c_size_t, c_int, _OUT]),
    "dpsel_pmf_expected_error": (_CODE, [_HANDLE, c_int, _OUT]),
    "dpsel_pmf_probability_bounds": (_CODE, [_HANDLE, c_size_t, c_uint, _OUT, _OUT]),
    "dpsel_pmf_expected_error_bounds": (_CODE, [_HANDLE, c_uint, _OUT, _OUT]),
    "dpsel_pmf_expected_error_in_units": (_CODE, [_HANDLE, _STR, c_int, _OUT]),
    "dpsel_pmf_expected_error_bounds_in_units": (_CODE, [_HANDLE, _STR, c_uint, _OUT, _OUT]),
    "dpsel_string_free": (None, [c_void_p]),
    "dpsel_task_scores": (_CODE, [c_int, _DATA, c_size_t, _DATA]),
    "dpsel_task_params": (_CODE, [c_int, _P(c_uint64), _P(c_int)]),
    "dpsel_decimal_to_units": (_CODE, [_STR, _STR, _P(c_int64)]),
    "dpsel_units_to_decimal": (_CODE, [c_int64, _STR, c_char_p, c_size_t]),
    "dpsel_top_pmf_new": (_CODE, [_OUT, _P(CParams), c_int, _DATA, c_size_t, c_size_t]),
    "dpsel_top_pmf_free": (None, [_HANDLE]),
    "dpsel_top_pmf_count": (c_size_t, [_HANDLE]),
    "dpsel_top_pmf_tuple": (_CODE, [_HANDLE, c_size_t, _P(c_size_t)]),
    "dpsel_top_pmf_probability": (_CODE, [_HANDLE, c_size_t, c_int, _OUT]),
    "dpsel_top_pmf_probability_bounds": (_CODE, [_HANDLE, c_size_t, c_uint, _OUT, _OUT]),
    "dpsel_top_pmf_exact_size": (_CODE, [_HANDLE, _P(c_uint64), _P(c_uint64)]),
    "dpsel_top_pmf_exact_bound": (_CODE, [_P(CParams), c_int, _DATA, c_size_t, c_size_t,
                                          _P(c_uint64), _P(c_uint64)]),
    "dpsel_grid_init": (_CODE, [_P(CGrid), _STR, _STR, _STR]),
    "dpsel_grid_point": (_CODE, [_P(CGrid), _STR, _P(c_int64)]),
    "dpsel_grid_points": (_CODE, [_P(CGrid), _P(c_char_p), c_size_t, _DATA, _P(c_size_t)]),
    "dpsel_quantile_fraction": (_CODE, [_STR, _P(c_uint64), _P(c_uint64), _P(c_uint64)]),
    "dpsel_quantile_runs_new": (_CODE, [_OUT, c_uint64, c_uint64, _DATA, c_size_t, c_int64,
                                        c_int64]),
    "dpsel_quantile_runs_free": (None, [_HANDLE]),
    "dpsel_quantile_runs_count": (c_size_t, [_HANDLE]),
    "dpsel_quantile_runs_get": (_CODE, [_HANDLE, c_size_t, _P(c_int64), _P(c_uint64),
                                        _P(c_int64)]),
    "dpsel_quantile_select_runs": (_CODE, [_HANDLE, c_int, _HANDLE, _P(CRng), _P(c_int64)]),
    "dpsel_quantile_select": (_CODE, [_HANDLE, c_int, c_uint64, c_uint64, _DATA, c_size_t,
                                      c_int64, c_int64, _P(CRng), _P(c_int64)]),
    "dpsel_quantile_pmf_new": (_CODE, [_OUT, _P(CParams), c_int, _HANDLE]),
    "dpsel_quantile_pmf_new_progress": (_CODE, [_OUT, _P(CParams), c_int, _HANDLE,
                                                InterruptFunction, c_void_p]),
    "dpsel_quantile_pmf_exact_work": (_CODE, [_P(CParams), c_int, _HANDLE, _P(c_uint64),
                                              _P(c_uint64)]),
    "dpsel_quantiles_joint_sensitivity": (_CODE, [_DATA, _DATA, c_size_t, _P(c_uint64)]),
    "dpsel_quantiles_joint_select": (_CODE, [_HANDLE, _DATA, _DATA, c_size_t, _DATA, c_size_t,
                                             c_int64, c_int64, _P(CRng), _DATA]),
    "dpsel_quantiles_joint_select_many": (_CODE, [_HANDLE, _DATA, _DATA, c_size_t, _DATA,
                                                  c_size_t, c_int64, c_int64, _P(CRng), c_size_t,
                                                  _DATA]),
    "dpsel_quantiles_joint_select_many_progress": (_CODE, [_HANDLE, _DATA, _DATA, c_size_t,
                                                           _DATA, c_size_t, c_int64, c_int64,
                                                           _P(CRng), c_size_t, _DATA,
                                                           InterruptFunction, c_void_p]),
    "dpsel_quantiles_joint_select_cost": (_CODE, [c_size_t, c_size_t, c_size_t, _P(c_uint64),
                                                  _P(c_uint64)]),
    "dpsel_quantiles_joint_pmf_new": (_CODE, [_OUT, _P(CParams), _DATA, _DATA, c_size_t, _DATA,
                                              c_size_t, c_int64, c_int64, InterruptFunction,
                                              c_void_p]),
    "dpsel_joint_pmf_free": (None, [_HANDLE]),
    "dpsel_joint_pmf_quantiles": (c_size_t, [_HANDLE]),
    "dpsel_joint_pmf_runs": (c_size_t, [_HANDLE]),
    "dpsel_joint_pmf_run": (_CODE, [_HANDLE, c_size_t, _P(c_int64), _P(c_uint64), _P(c_uint64)]),
    "dpsel_joint_pmf_probability": (_CODE, [_HANDLE, c_size_t, c_size_t, _OUT]),
    "dpsel_joint_pmf_probability_bounds": (_CODE, [_HANDLE, c_size_t, c_size_t, c_uint, _OUT,
                                                   _OUT]),
    "dpsel_joint_pmf_rank_error": (_CODE, [_HANDLE, c_size_t, _OUT]),
    "dpsel_joint_pmf_rank_error_bounds": (_CODE, [_HANDLE, c_size_t, c_uint, _OUT, _OUT]),
    "dpsel_accountant_new": (_CODE, [_OUT]),
    "dpsel_accountant_free": (None, [_HANDLE]),
    "dpsel_accountant_add": (_CODE, [_HANDLE, c_int, _STR, c_uint64]),
    "dpsel_accountant_add_params": (_CODE, [_HANDLE, c_int, _P(CParams), c_uint64]),
    "dpsel_accountant_report": (_CODE, [_HANDLE, _STR, c_int, _P(CAccount)]),
    "dpsel_accountant_report_group": (_CODE, [_HANDLE, _STR, c_int, c_uint64,
                                              _P(CGroupAccount)]),
    "dpsel_partial_new": (_CODE, [_OUT, _P(CParams)]),
    "dpsel_partial_free": (None, [_HANDLE]),
    "dpsel_partial_count": (c_uint64, [_HANDLE]),
    "dpsel_partial_add": (_CODE, [_HANDLE, c_int64, c_char_p, c_size_t, _P(CRng)]),
    "dpsel_partial_add_scores": (_CODE, [_HANDLE, _DATA, c_size_t, c_char_p, _P(c_size_t),
                                         _P(CRng)]),
    "dpsel_partial_merge": (_CODE, [_HANDLE, _HANDLE, _P(CRng)]),
    "dpsel_partial_finish": (_CODE, [_HANDLE, _HANDLE, c_int, _P(CRng), _OUT, _P(c_size_t)]),
    "dpsel_partial_serialize": (_CODE, [_HANDLE, c_void_p, c_size_t, _P(c_size_t)]),
    "dpsel_partial_deserialize": (_CODE, [_OUT, _P(CParams), c_char_p, c_size_t]),
    "dpsel_partial_serialize_keyed": (_CODE, [_HANDLE, c_char_p, c_size_t, c_void_p, c_size_t,
                                              _P(c_size_t)]),
    "dpsel_partial_deserialize_keyed": (_CODE, [_OUT, _P(CParams), c_char_p, c_size_t, c_char_p,
                                                c_size_t]),
    "dpsel_audit": (_CODE, [_P(CAuditResult), _P(CParams), c_int, _DATA, _DATA, c_size_t]),
    "dpsel_audit_progress": (_CODE, [_P(CAuditResult), _P(CParams), c_int, _DATA, _DATA,
                                     c_size_t, InterruptFunction, c_void_p]),
    "dpsel_rnm_pmf_new": (_CODE, [_OUT, _STR, c_uint64, c_int, _DATA, _DATA, c_size_t,
                                  InterruptFunction, c_void_p]),
    "dpsel_rnm_audit": (_CODE, [_P(CAuditResult), _STR, c_uint64, c_int, _DATA, _DATA, c_size_t,
                                InterruptFunction, c_void_p]),
}
BOUND = frozenset(_PROTOTYPES)


def _check(result: int, function: Any, arguments: Tuple[Any, ...]) -> int:
    """errcheck: a dpsel code other than DPSEL_OK raises its Error."""
    if result != 0:
        from .._errors import error_for  # only on failure: _errors imports this module
        raise error_for(result, function.__name__)
    return result


MIRRORS = {"dpsel_params": CParams, "dpsel_rng_state_": CRngState, "dpsel_rng": CRng,
           "dpsel_pf_stream": CPfStream, "dpsel_grid": CGrid,
           "dpsel_audit_result": CAuditResult, "dpsel_account": CAccount,
           "dpsel_group_account": CGroupAccount}


def _refuse(library: ctypes.CDLL, version: str, problem: str) -> None:
    raise ImportError(f"dpsel: {library._name} {problem}: it is not the libdpsel {version} "
                      "this package was written for. Point DPSEL_LIBRARY at that build's "
                      "libdpsel.so (or unset it), or install the package and the library "
                      "together (make install).")


def check_functions(library: ctypes.CDLL) -> None:
    """ImportError unless library has every function bound here (another
    library would give AttributeError at the first missing one)."""
    missing = [name for name in _PROTOTYPES if not hasattr(library, name)]
    if missing:
        shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if missing[3:] else "")
        _refuse(library, VERSION, f"lacks {shown}")


def check_build(library: ctypes.CDLL, version: str,
                mirrors: Mapping[str, Type[Structure]]) -> None:
    """ImportError unless library (its functions declared) reports `version`
    and gives each structure of `mirrors` its mirror's size."""
    reported = library.dpsel_version().decode("ascii", "replace")
    if reported != version:
        _refuse(library, version, f"is version {reported}")
    for c_name, mirror in mirrors.items():
        size = library.dpsel_sizeof(c_name.encode("ascii"))
        if size != ctypes.sizeof(mirror):
            _refuse(library, version, f"has a {c_name} of {size} bytes, not the "
                    f"{ctypes.sizeof(mirror)} of this package's mirror")


def _declare() -> None:
    for name, (result, arguments) in _PROTOTYPES.items():
        function = getattr(lib, name)
        function.restype = result
        function.argtypes = arguments
        if result is _CODE:
            function.errcheck = _check


check_functions(lib)
_declare()
check_build(lib, VERSION, MIRRORS)
