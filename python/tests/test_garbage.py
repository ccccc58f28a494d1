# SPDX-License-Identifier: ISC
"""Errors never crash: every public call, given every pair of a list of
wrong values (None, out-of-range and negative integers, NaN, NULs, bytes,
empty, wrong shapes, objects of other types), raises a TypeError, a
ValueError or a dpsel.Error, never anything from ctypes (an argument it
could not convert, an integer it would have wrapped), and the process
survives: the sweep runs in a child, so that a crash is a failure here."""

import pathlib
import subprocess
import sys
import textwrap

import dpsel

SWEEP = textwrap.dedent('''
    import ctypes, itertools, sys
    from decimal import Decimal
    from fractions import Fraction
    import numpy, pandas
    import dpsel

    p = dpsel.Params.from_epsilon("1")
    sel = dpsel.Selector(p)
    pmf, top = dpsel.pmf(p, [1, 2, 3]), dpsel.top_pmf(p, [1, 2, 3], 2)
    acc, part, grid = dpsel.Accountant(), dpsel.Partial(p), dpsel.Grid(0, 10)
    wrong = [None, -1, 0, 2, 1 << 64, -(1 << 70), 2.5, float("nan"), "x", "", "1\\0", b"\\xff",
             [], [1 << 63], [None], numpy.zeros((2, 2)), numpy.array([1.5]), Decimal("NaN"),
             Fraction(1, 3), object(), (1, 2), dpsel.Rng.from_bits([]), p]
    calls = [
        lambda a, b: dpsel.Params.from_epsilon(a, b), lambda a, b: dpsel.Params.from_base(a, b),
        lambda a, b: sel.select(a, b), lambda a, b: sel.select([1, 2], rng=a),
        lambda a, b: sel.select_hardened(a, b), lambda a, b: sel.select_top(a, b),
        lambda a, b: sel.select_quantile(a, b), lambda a, b: sel.stream(a, b),
        lambda a, b: dpsel.Rng.seeded(a), lambda a, b: dpsel.Rng.from_bits(a),
        lambda a, b: dpsel.Selector(a), lambda a, b: dpsel.pmf(p, a, b),
        lambda a, b: dpsel.pmf_grouped(p, a, b), lambda a, b: pmf.probability(a, b),
        lambda a, b: pmf.bounds(a, b), lambda a, b: pmf.expected_error(a, b),
        lambda a, b: pmf.expected_error_bounds(a, b), lambda a, b: dpsel.top_pmf(p, a, b),
        lambda a, b: top.tuple(a), lambda a, b: top.probability(a, b),
        lambda a, b: dpsel.audit(p, a, b), lambda a, b: dpsel.task_scores(a, b),
        lambda a, b: dpsel.task_params(a), lambda a, b: dpsel.decimal_to_units(a, b),
        lambda a, b: dpsel.units_to_decimal(a, b), lambda a, b: dpsel.Grid(a, b),
        lambda a, b: grid.point(a), lambda a, b: grid.points(a), lambda a, b: grid.value(a),
        lambda a, b: dpsel.quantile_fraction(a), lambda a, b: dpsel.QuantileRuns(a, b, [1], 0, 5),
        lambda a, b: dpsel.QuantileRuns(1, 2, a, b, 5),
        lambda a, b: dpsel.quantile_select(sel, 1, 2, a, 0, b),
        lambda a, b: dpsel.quantile_pmf(a, b), lambda a, b: acc.add(a, b),
        lambda a, b: acc.add("em", a, b), lambda a, b: acc.add_params(a, b),
        lambda a, b: acc.report(a, b), lambda a, b: part.add(a, b), lambda a, b: part.merge(a, b),
        lambda a, b: part.finish(a, b), lambda a, b: dpsel.Partial.from_bytes(a, b),
        lambda a, b: setattr(p.copy(), "gap_cap", a), lambda a, b: p.epsilon_text(a),
        lambda a, b: dpsel.strerror(a),
    ]
    calls_made = 0
    for (i, call), a, b in itertools.product(enumerate(calls), wrong, wrong):
        calls_made += 1
        try:
            call(a, b)
        except (ctypes.ArgumentError, OverflowError, SystemError) as error:
            sys.exit(f"call {i} ({a!r}, {b!r}): {type(error).__name__}: {error}")
        except (TypeError, ValueError, dpsel.Error):
            pass
    print(calls_made)
''')


def test_wrong_arguments_raise_and_never_crash():
    package_root = pathlib.Path(dpsel.__file__).parent.parent
    result = subprocess.run([sys.executable, "-c", SWEEP], capture_output=True, text=True,
                            check=False, env={"DPSEL_LIBRARY": dpsel._native.lib.lib._name,
                                              "PYTHONPATH": str(package_root),
                                              "PYTHONDONTWRITEBYTECODE": "1"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert int(result.stdout) > 20000
