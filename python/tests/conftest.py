# SPDX-License-Identifier: ISC
"""Shared paths and helpers of the Python tests (run by `make python-test`
from python/, with DPSEL_LIBRARY set to the library just built)."""

import csv
import math
import os
import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[2]
TOOL = pathlib.Path(os.environ.get("DPSEL_TOOL", REPO / "build" / "dpsel")).resolve()
# The DPBench histograms: the shared copy, else the five the repository ships.
DPBENCH = next((d for d in (REPO.parent / "shared" / "data" / "dpbench",
                            REPO / "examples" / "paper" / "data") if any(d.glob("*.csv"))),
               None)


def read_histogram(path):
    """A `bin,count` file (after # lines and the header) as (bins, counts)."""
    with open(path, newline="") as f:
        rows = [row for row in csv.reader(f) if row and not row[0].startswith("#")]
    return [row[0] for row in rows[1:]], [int(row[1]) for row in rows[1:]]


def run_tool(*arguments, stdin=None):
    """build/dpsel with arguments: its stdout, or a failure of the test."""
    result = subprocess.run([str(TOOL), *map(str, arguments)], input=stdin, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    return result.stdout


def chi_square_critical(dof):
    """Upper 1e-6 quantile of chi-square with dof degrees of freedom: exact
    for 1 and 2, Wilson-Hilferty above (as tests/support.c)."""
    if dof == 1:
        return 23.9281
    if dof == 2:
        return -2.0 * math.log(1e-6)
    z = 4.753424  # upper 1e-6 quantile of the standard normal
    a = 2.0 / (9.0 * dof)
    return dof * (1.0 - a + z * math.sqrt(a)) ** 3


def chi_square_fits(counts, probabilities, draws):
    """(fits, statistic, dof): the goodness of fit of counts to the exact
    probabilities, cells merged in order until each expects at least 5 draws
    (a short tail joins the last full cell), at false-alarm 1e-6."""
    cells = []  # [expected, observed]
    open_cell = None
    for p, count in zip(probabilities, counts):
        if open_cell is None:
            open_cell = [0.0, 0]
        open_cell[0] += float(p) * draws
        open_cell[1] += count
        if open_cell[0] >= 5.0:
            cells.append(open_cell)
            open_cell = None
    if open_cell is not None:
        if cells:
            cells[-1] = [cells[-1][0] + open_cell[0], cells[-1][1] + open_cell[1]]
        else:
            cells.append(open_cell)
    statistic = sum((observed - expected) ** 2 / expected for expected, observed in cells)
    dof = len(cells) - 1
    return dof < 1 or statistic < chi_square_critical(dof), statistic, dof


def dpbench_files():
    """The DPBench histograms (a failure if there are none)."""
    assert DPBENCH is not None, "no DPBench histograms (shared/data/dpbench, examples/paper/data)"
    return sorted(DPBENCH.glob("*.csv"))
