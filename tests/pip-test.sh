#!/bin/sh
# SPDX-License-Identifier: ISC
# The Python package as pip installs it (`make pip-test`), offline:
#   - a venv made from scratch in a temporary folder with Debian's python3
#     and --system-site-packages (the build backend, setuptools and wheel,
#     comes from Debian, as do numpy, pandas and dask), `pip install
#     --no-build-isolation ./python` into it, `import dpsel` loading the
#     library the build put into the installed package (no DPSEL_LIBRARY, no
#     PYTHONPATH, not from the checkout), and every Python example of the
#     documents run with the venv's interpreter (tests/readme-python.sh);
#   - `pip wheel ./python` gives a wheel tagged py3-none-linux_* that holds
#     the package, libdpsel.so.0 and the ISC license in its metadata;
#   - every other CPython 3.9 or later named python3 on PATH (here pyenv's):
#     a venv of its own, that wheel installed, the README's quick start run.
set -eu
debian=/usr/bin/python3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# An enclosing make's flags are not the package build's (python/setup.py).
unset MAKEFLAGS MFLAGS MAKELEVEL PYTHONPATH DPSEL_LIBRARY
offline="--no-build-isolation --no-deps --no-index --quiet --disable-pip-version-check"

# check_installed PYTHON: dpsel imports from PYTHON's venv and loads the
# library inside the installed package.
check_installed() {
    found=$(cd "$work" && PYTHONDONTWRITEBYTECODE=1 "$1" -c '
import pathlib, dpsel, dpsel._native.lib as lib
package = pathlib.Path(dpsel.__file__).parent
print(package, lib.lib._name == str(package / "libdpsel.so.0"), sep="\n")')
    venv=$(dirname "$(dirname "$1")")
    case "$found" in
        "$venv"/lib/python3*/site-packages/dpsel"
True") echo "pip-test: $1 imports dpsel from $(echo "$found" | head -1), its own library" ;;
        *) echo "pip-test: $1 found the wrong dpsel or library: $found" >&2; exit 1 ;;
    esac
}

echo "pip-test: $($debian --version): a venv, pip install --no-build-isolation ./python"
$debian -m venv --system-site-packages "$work/debian"
# shellcheck disable=SC2086
"$work/debian/bin/pip" install $offline ./python
check_installed "$work/debian/bin/python"
PYTHON="$work/debian/bin/python" sh "$here/readme-python.sh"

echo "pip-test: pip wheel ./python"
# shellcheck disable=SC2086
"$work/debian/bin/pip" wheel $offline --wheel-dir "$work/wheels" ./python
"$work/debian/bin/python" - "$work/wheels" <<'PYTHON'
import pathlib, sys, zipfile
wheels = list(pathlib.Path(sys.argv[1]).glob("dpsel-*.whl"))
assert len(wheels) == 1, wheels
name = wheels[0].name
assert "-py3-none-linux_" in name, f"not a platform wheel for any Python 3: {name}"
with zipfile.ZipFile(wheels[0]) as wheel:
    files = wheel.namelist()
    metadata = next(wheel.read(f).decode() for f in files if f.endswith(".dist-info/METADATA"))
for needed in ("dpsel/__init__.py", "dpsel/_native/__init__.py", "dpsel/_native/lib.py",
               "dpsel/py.typed", "dpsel/libdpsel.so.0"):
    assert needed in files, f"{name} lacks {needed}"
assert "License: ISC" in metadata.splitlines(), "no ISC license in the metadata"
print(f"pip-test: {name}: the package, libdpsel.so.0, License: ISC")
PYTHON

# Every other CPython 3.9+ on PATH: the wheel, without building.
for python in $(which -a python3 | sort -u); do
    [ "$(readlink -f "$python")" = "$(readlink -f "$debian")" ] && continue
    "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))' 2>/dev/null || continue
    venv="$work/venv-$(echo "$python" | cksum | cut -d' ' -f1)"
    echo "pip-test: $("$python" --version) ($python): a venv, the wheel installed"
    "$python" -m venv "$venv"
    # shellcheck disable=SC2086
    "$venv/bin/pip" install $offline "$work"/wheels/dpsel-*.whl
    check_installed "$venv/bin/python"
    PYTHON="$venv/bin/python" sh "$here/readme-python.sh" quickstart
done
echo "pip-test: passed"
