#!/bin/sh
# SPDX-License-Identifier: ISC
# The Python examples of the documents, run as written: the README's quick
# starts (its sections "Python" and "Dask"), docs/python.md's and
# docs/dask.md's.  Installs dpsel into a temporary prefix and runs each
# example with Debian's python3 against the installed package (on
# PYTHONPATH; DPSEL_LIBRARY unset, so the package must find the library
# `make install` put beside it), from the repository's root, where they read
# examples/; then checks the shape of each one's output.
set -eu
python=${PYTHON:-/usr/bin/python3}
blocks="$(dirname "$0")/doc-blocks.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
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
failed=0
# example NAME FILE SECTION LINES PATTERN: runs FILE's python blocks (under the
# heading SECTION if not empty) as one script, named NAME.py (not dask.py,
# which would hide dask); its output must be LINES lines, each matching the
# extended regular expression PATTERN.
example() {
    sh "$blocks" python "$2" "$3" > "$work/$1.py"
    output=$(run "$work/$1.py")
    printf '%s\n' "$output" | sed "s|^|readme-python ($2${3:+, $3}): |"
    matching=$(printf '%s\n' "$output" | grep -Ec "^($5)\$" || true)
    if [ "$matching" -ne "$4" ] || [ "$(printf '%s\n' "$output" | wc -l)" -ne "$4" ]; then
        echo "readme-python: unexpected output of $2's example${3:+ under \"$3\"}" >&2
        failed=$((failed + 1))
    fi
}
books='Middlemarch|Moby-Dick|Beloved|Dracula'
# A book and the four exact probabilities the README shows.
example quickstart README.md Python 5 "($books), epsilon <= 1\.0000000000000000|\
  P\(Middlemarch\) = 0\.79727195819316533|  P\(Moby-Dick\) = 0\.021840927702474552|\
  P\(Beloved\) = 0\.18088711410425026|  P\(Dracula\) = 1\.0986479034135544e-13"
# One book per club.
example quickstart_dask README.md Dask 4 \
    "club|(north|south) +($books)|Name: book, dtype: object"
# Per epsilon: the choice, the true mode's probability, the expected error.
example hepth docs/python.md "" 6 "epsilon <= 0\.0[15]0*: most common bin [0-9]+|\
  P\(the true mode, bin 3621\) = 0\.[0-9]+|  expected error [0-9.]+ papers"
# The most visited page of each of three days.
example page_views docs/dask.md "" 5 \
    "day|2026-11-0[123] +/(blog|docs|pricing)?|Name: page, dtype: object"
[ "$failed" -eq 0 ] || exit 1
echo "readme-python: passed"
