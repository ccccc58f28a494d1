#!/bin/sh
# SPDX-License-Identifier: ISC
# Extracts the Python example from the README, installs dpsel into a temporary
# prefix, and runs the example as written with Debian's python3 against the
# installed package (on PYTHONPATH; DPSEL_LIBRARY unset, so the package must
# find the library `make install` put beside it), from the repository's root,
# where it reads examples/hepth.csv; then checks the shape of its output.
# The python block of the "### Dask" section runs the same way, on its own.
set -eu
readme=$1
python=${PYTHON:-/usr/bin/python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Python blocks: the Dask section's to dask_example.py (a dask.py would hide
# dask), the others to example.py.
awk -v dask="$work/dask_example.py" '
    /^```/ { if (fenced) fenced = 0; else { fenced = 1; python = ($0 == "```python") }; next }
    fenced { if (python && in_dask) print > dask; else if (python) print; next }
    /^#+ / { in_dask = ($0 == "### Dask") }' "$readme" > "$work/example.py"
[ -s "$work/example.py" ] || { echo "readme-python: no python block in $readme" >&2; exit 1; }
[ -s "$work/dask_example.py" ] || { echo "readme-python: no python block under ### Dask" >&2; exit 1; }
make -s install PREFIX="$work/prefix" PYTHON="$python" > /dev/null
package=$(find "$work/prefix" -path '*/dist-packages/dpsel/__init__.py')
[ -n "$package" ] || {
    echo "readme-python: make install put no package in $work/prefix" >&2; exit 1; }
# run ARGS...: the installed package's python3, nothing else telling it where dpsel is.
run() {
    env -u DPSEL_LIBRARY PYTHONPATH="$(dirname "$(dirname "$package")")" \
        PYTHONDONTWRITEBYTECODE=1 "$python" "$@"
}
library=$(run -c 'import dpsel._lib as l; print(l.lib._name)')
[ "$library" = "$work/prefix/lib/libdpsel.so.0" ] || {
    echo "readme-python: the installed package loaded $library" >&2; exit 1; }
output=$(run "$work/example.py")
printf '%s\n' "$output" | sed 's/^/readme-python: /'
# Per epsilon: the choice, the true mode's probability, the expected error.
choice='epsilon <= 0\.0[15]0*: most common bin [0-9]+'
mode='  P\(the true mode, bin 3621\) = 0\.[0-9]+'
error='  expected error [0-9.]+ papers'
lines=$(printf '%s\n' "$output" | grep -Ec "^($choice|$mode|$error)\$" || true)
if [ "$lines" -ne 6 ] || [ "$(printf '%s\n' "$output" | wc -l)" -ne 6 ]; then
    echo "readme-python: unexpected output" >&2
    exit 1
fi
# The Dask example: the most visited page of each of three days.
output=$(run "$work/dask_example.py")
printf '%s\n' "$output" | sed 's/^/readme-python: /'
lines=$(printf '%s\n' "$output" |
    grep -Ec '^(day|2026-11-0[123] +/(blog|docs|pricing)?|Name: page, dtype: object)$' || true)
if [ "$lines" -ne 5 ] || [ "$(printf '%s\n' "$output" | wc -l)" -ne 5 ]; then
    echo "readme-python: unexpected output of the Dask example" >&2
    exit 1
fi
echo "readme-python: passed"
