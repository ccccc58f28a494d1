# SPDX-License-Identifier: ISC
"""The ctypes mirror of include/dpsel.h against the header itself: every
structure's size, alignment and field offsets and sizes, every constant,
and every function of the API bound.  A C program compiled here prints
what the compiler says."""

import ctypes
import re
import subprocess

import pytest

import dpsel
from dpsel._native import lib as _lib

from conftest import REPO

HEADER = REPO / "include" / "dpsel.h"

STRUCTS = {  # C type: its ctypes mirror
    "dpsel_params": _lib.CParams,
    "dpsel_rng_state_": _lib.CRngState,
    "dpsel_rng": _lib.CRng,
    "dpsel_pf_stream": _lib.CPfStream,
    "dpsel_grid": _lib.CGrid,
    "dpsel_audit_result": _lib.CAuditResult,
    "dpsel_account": _lib.CAccount,
    "dpsel_group_account": _lib.CGroupAccount,
}

CONSTANTS = {  # C expression: the Python value
    "DPSEL_GAP_CAP_MAX": dpsel.GAP_CAP_MAX,
    "DPSEL_PF_STREAM_BLOCK": dpsel.PF_STREAM_BLOCK,
    "DPSEL_DECIMAL_TEXT_MAX": dpsel.DECIMAL_TEXT_MAX,
    "DPSEL_UNITS_TEXT_MAX": _lib.UNITS_TEXT_MAX,
    "DPSEL_QUANTILE_DENOMINATOR_MAX": dpsel.QUANTILE_DENOMINATOR_MAX,
    "DPSEL_QUANTILE_EM_GRID_MAX": dpsel.QUANTILE_EM_GRID_MAX,
    "DPSEL_JOINT_DECAY_MAX": dpsel.JOINT_DECAY_MAX,
    "DPSEL_ACCOUNT_OPTIMAL_MAX": dpsel.ACCOUNT_OPTIMAL_MAX,
    "DPSEL_ACCOUNT_NONADAPTIVE_MAX": dpsel.ACCOUNT_NONADAPTIVE_MAX,
    "DPSEL_ACCOUNT_TEXT": _lib.ACCOUNT_TEXT,
    "DPSEL_ACCOUNT_GROUP_MAX": _lib.ACCOUNT_GROUP_MAX,
    "DPSEL_PARTIAL_MEMBER_MAX": dpsel.PARTIAL_MEMBER_MAX,
    "DPSEL_PARTIAL_KEY_MIN": _lib.PARTIAL_KEY_MIN,
    "DPSEL_PARTIAL_KEY_MAX": _lib.PARTIAL_KEY_MAX,
    "DPSEL_AUDIT_TEXT": _lib.AUDIT_TEXT,
    "DPSEL_DECIMAL": _lib.DECIMAL,
    "DPSEL_RATIONAL": _lib.RATIONAL,
    "DPSEL_PF": dpsel.Mechanism.PF,
    "DPSEL_EM": dpsel.Mechanism.EM,
    "DPSEL_TASK_MODE": dpsel.Task.MODE,
    "DPSEL_TASK_MEDIAN": dpsel.Task.MEDIAN,
    "DPSEL_ADAPTIVE": dpsel.Composition.ADAPTIVE,
    "DPSEL_NONADAPTIVE": dpsel.Composition.NONADAPTIVE,
    "DPSEL_AUDIT_HOLDS": dpsel.Verdict.HOLDS,
    "DPSEL_AUDIT_BROKEN": dpsel.Verdict.BROKEN,
    "DPSEL_AUDIT_UNDECIDED": dpsel.Verdict.UNDECIDED,
    **{f"DPSEL_{'OK' if code == 0 else 'E' + code.name}": code for code in dpsel.ErrorCode},
}


def _program():
    """C that prints `name value` for every size, offset and constant."""
    lines = ["#include <stdio.h>", "#include <stddef.h>", "#include <stdalign.h>",
             '#include "dpsel.h"', "int main(void) {"]
    emit = 'printf("%s %lld\\n", "{0}", (long long)({1}));'
    for c_name, mirror in STRUCTS.items():
        lines.append(emit.replace("{0}", f"sizeof {c_name}").replace("{1}", f"sizeof({c_name})"))
        lines.append(emit.replace("{0}", f"alignof {c_name}")
                     .replace("{1}", f"alignof({c_name})"))
        for field, _ in mirror._fields_:
            lines.append(emit.replace("{0}", f"{c_name}.{field} offset")
                         .replace("{1}", f"offsetof({c_name}, {field})"))
            lines.append(emit.replace("{0}", f"{c_name}.{field} size")
                         .replace("{1}", f"sizeof(((const {c_name} *)0)->{field})"))
    for expression in CONSTANTS:
        lines.append(emit.replace("{0}", expression).replace("{1}", expression))
    lines.append('printf("DPSEL_VERSION %s\\n", DPSEL_VERSION);')
    lines.append("return 0; }")
    return "\n".join(lines)


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """What the C compiler says, as {name: value}."""
    work = tmp_path_factory.mktemp("layout")
    (work / "layout.c").write_text(_program())
    subprocess.run(["cc", "-std=c11", "-I", str(HEADER.parent), "-o", str(work / "layout"),
                    str(work / "layout.c")], check=True)
    output = subprocess.run([str(work / "layout")], check=True, capture_output=True,
                            text=True).stdout
    return dict(line.rsplit(" ", 1) for line in output.splitlines())


@pytest.mark.parametrize("c_name", STRUCTS)
def test_structures_have_the_layout_of_the_header(compiled, c_name):
    mirror = STRUCTS[c_name]
    assert int(compiled[f"sizeof {c_name}"]) == ctypes.sizeof(mirror)
    assert int(compiled[f"alignof {c_name}"]) == ctypes.alignment(mirror)
    for field, _ in mirror._fields_:
        description = getattr(mirror, field)
        assert int(compiled[f"{c_name}.{field} offset"]) == description.offset, field
        assert int(compiled[f"{c_name}.{field} size"]) == description.size, field


def test_constants_and_version_are_the_header_s(compiled):
    for expression, value in CONSTANTS.items():
        assert int(compiled[expression]) == value, expression
    assert compiled["DPSEL_VERSION"] == dpsel.__version__


def test_every_function_of_the_api_is_bound():
    declared = set(re.findall(r"DPSEL_API[^;{]*?\b(dpsel_\w+)\s*\(", HEADER.read_text()))
    assert len(declared) > 50
    assert declared == _lib.BOUND


def test_the_import_check_compares_every_mirror_with_the_library():
    assert _lib.MIRRORS == STRUCTS
    for c_name, mirror in STRUCTS.items():
        assert _lib.lib.dpsel_sizeof(c_name.encode()) == ctypes.sizeof(mirror), c_name


def test_the_layout_check_sees_a_drift(compiled):
    # A mirror one field short would have another size: the check can fail.
    class Short(ctypes.Structure):
        _fields_ = _lib.CParams._fields_[:-1]
    assert int(compiled["sizeof dpsel_params"]) != ctypes.sizeof(Short)
