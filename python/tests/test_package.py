# SPDX-License-Identifier: ISC
"""The package itself: it imports without numpy and pandas, finds the
library where it says it does, documents every public name, and
help(dpsel) reads."""

import ctypes
import inspect
import os
import pydoc
import re
import shutil
import subprocess
import sys

import pytest

import dpsel

from conftest import REPO

PACKAGE_ROOT = REPO / "python"


def python(code, **environment):
    """Runs code in a fresh interpreter with the package on its path."""
    env = {key: value for key, value in os.environ.items() if key != "DPSEL_LIBRARY"}
    env.update(PYTHONPATH=str(PACKAGE_ROOT), PYTHONDONTWRITEBYTECODE="1", **environment)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=False)


def test_numpy_and_pandas_are_optional():
    # An import hook that refuses them: dpsel imports and selects on a list.
    code = """
import sys
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("numpy", "pandas"):
            raise ImportError("no " + name)
sys.meta_path.insert(0, Refuse())
import dpsel
selector = dpsel.Selector(dpsel.Params.from_epsilon("1"))
assert selector.select([1, 2, 3]) in range(3)
assert dpsel.task_scores("mode", (4, 5)) == [4, 5]
assert "numpy" not in sys.modules and "pandas" not in sys.modules
print("ok")
"""
    result = python(code, DPSEL_LIBRARY=dpsel._native.lib.lib._name)
    assert result.stdout == "ok\n", result.stderr


def test_the_library_is_found_in_the_build_tree_beside_the_package():
    result = python("import dpsel, dpsel._native.lib as l; print(l.lib._name)")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(REPO / "build" / "libdpsel.so")


def test_dpsel_library_is_the_only_place_looked_at_when_set():
    result = python("import dpsel", DPSEL_LIBRARY="/nonexistent/libdpsel.so")
    assert result.returncode != 0
    assert "ImportError: dpsel: cannot load libdpsel: /nonexistent/libdpsel.so" in result.stderr


def test_the_library_pip_put_into_the_package_comes_first(tmp_path):
    # The package as python/setup.py builds it, libdpsel.so.0 inside, away
    # from any build tree: it loads that library, with nothing set.
    package = tmp_path / "dpsel"
    shutil.copytree(PACKAGE_ROOT / "dpsel", package,
                    ignore=shutil.ignore_patterns("__pycache__", "libdpsel.so*"))
    shutil.copyfile(dpsel._native.lib.lib._name, package / "libdpsel.so.0")
    env = {key: value for key, value in os.environ.items() if key != "DPSEL_LIBRARY"}
    env.update(PYTHONPATH=str(tmp_path), PYTHONDONTWRITEBYTECODE="1")
    code = "import dpsel._native.lib as l; print(l.lib._name)"
    result = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path,
                            capture_output=True, text=True, check=False)
    assert result.stdout.strip() == str(package / "libdpsel.so.0"), result.stderr


def test_another_library_is_an_import_error_naming_it_and_what_it_lacks():
    # The C library (libm here) loads, but has none of dpsel's functions:
    # ImportError, not AttributeError at the first missing one.
    other = "libm.so.6"
    result = python("import dpsel", DPSEL_LIBRARY=other)
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ImportError: dpsel: {other} lacks dpsel_strerror, dpsel_version, "
                           "dpsel_sizeof and "), result.stderr
    assert "DPSEL_LIBRARY" in last


def test_a_library_of_another_version_or_layout_is_an_import_error():
    from dpsel._native import lib as _lib
    name = _lib.lib._name
    with pytest.raises(ImportError, match=f"{re.escape(name)} is version {_lib.VERSION}: it "
                                          r"is not the libdpsel 0\.1\.1 "):
        _lib.check_build(_lib.lib, "0.1.1", _lib.MIRRORS)

    class Longer(ctypes.Structure):  # a mirror with a field the library lacks
        _fields_ = _lib.CRng._fields_ + [("more", ctypes.c_uint64)]
    size = ctypes.sizeof(_lib.CRng)
    with pytest.raises(ImportError, match=f"has a dpsel_rng of {size} bytes, not the "
                                          f"{size + 8} of this package's mirror"):
        _lib.check_build(_lib.lib, _lib.VERSION, {**_lib.MIRRORS, "dpsel_rng": Longer})
    _lib.check_build(_lib.lib, _lib.VERSION, _lib.MIRRORS)  # the library loaded passes


def test_every_public_name_is_documented_and_presented_as_dpsel():
    for name in dpsel.__all__:
        value = getattr(dpsel, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert inspect.getdoc(value), name
            assert value.__module__ == "dpsel", name
            for member_name, member in vars(value).items():
                if not member_name.startswith("_") and callable(member):
                    assert inspect.getdoc(member), f"{name}.{member_name}"


def test_help_reads():
    text = pydoc.render_doc(dpsel, renderer=pydoc.plaintext)
    for expected in ("dpsel - Exact differentially private selection", "class Selector",
                     "FOR TESTS AND REPRODUCIBLE AUDITS ONLY", "pmf(params", "class RangeError",
                     "DPSEL_LIBRARY"):
        assert expected in text, expected
