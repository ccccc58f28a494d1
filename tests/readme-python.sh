#!/bin/sh
# SPDX-License-Identifier: ISC
# The Python examples of the documents, run as written: the README's quick
# starts (its sections "Python" and "Dask"), docs/python.md's and
# docs/dask.md's, or those named:
#   PYTHON=INTERPRETER sh tests/readme-python.sh [quickstart quickstart_dask hepth one_call page_views]
# INTERPRETER has dpsel installed (tests/pip-test.sh makes it a venv's); each
# example runs with nothing else telling it where dpsel or the library is
# (no PYTHONPATH, no DPSEL_LIBRARY), from the repository's root, where the
# examples read examples/; then the shape of each one's output is checked.
set -eu
python=${PYTHON:?"usage: PYTHON=INTERPRETER sh tests/readme-python.sh [EXAMPLE...]"}
wanted=" ${*:-quickstart quickstart_dask hepth one_call page_views} "
blocks="$(dirname "$0")/doc-blocks.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {
    env -u DPSEL_LIBRARY -u PYTHONPATH PYTHONDONTWRITEBYTECODE=1 "$python" "$@"
}
failed=0
# example NAME FILE SECTION LINES PATTERN: if NAME is wanted, runs FILE's
# python blocks (under the heading SECTION if not empty) as one script, named NAME.py (not dask.py,
# which would hide dask); its output must be LINES lines, each matching the
# extended regular expression PATTERN.
example() {
    case "$wanted" in *" $1 "*) ;; *) return 0 ;; esac
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
# A book, the four exact probabilities the README shows, a median.
example quickstart README.md Python 6 "($books)|\
  P\(Middlemarch\) = 0\.79727195819316533|  P\(Moby-Dick\) = 0\.021840927702474552|\
  P\(Beloved\) = 0\.18088711410425026|  P\(Dracula\) = 1\.0986479034135544e-13|\
[0-9]+\.[0-9]{2}"
# One book per club.
example quickstart_dask README.md Dask 4 \
    "club|(north|south) +($books)|Name: book, dtype: object"
# Per epsilon: the choice, the true mode's probability, the expected error.
example hepth docs/python.md "The API" 6 "epsilon <= 0\.0[15]0*: most common bin [0-9]+|\
  P\(the true mode, bin 3621\) = 0\.[0-9]+|  expected error [0-9.]+ papers"
# One call per task: a status, a median, two quantiles, a top 2, a model, a price.
example one_call docs/python.md "One call per task" 6 "married|single|widowed|divorced|\
[0-9]+\.[0-9]{2}|\[Decimal\('[0-9]+'\), Decimal\('[0-9]+'\)\]|\
\['($books)', '($books)'\]|model (a|b)|1|2\.50|7"
# The most visited page and the 95th percentile of load times of each of
# three days, then a book per club.
example page_views docs/dask.md "" 14 \
    "day|club|2026-11-0[123] +(/(blog|docs|pricing)?|[0-9]+\.[05])|(north|south) +($books)|\
Name: (page|ms|book), dtype: object"
[ "$failed" -eq 0 ] || exit 1
echo "readme-python: passed"
