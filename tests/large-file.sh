#!/bin/sh
# SPDX-License-Identifier: ISC
# The streamed `select` on 10^7 candidates: it works, and its memory does not
# grow with the file (the property, not a speed or memory target: those are
# in `make bench`).
#   sh tests/large-file.sh TOOL PEAK_RSS
# For score-only lines and for `item-I,score` lines, the tool runs on 10^5
# and on 10^7 lines of the same kind; each run must succeed with a
# candidate of the file on stdout, and the peak resident memory at 10^7 may
# exceed the one at 10^5 by less than 8 MB (less than one byte per added
# candidate; the in-memory path takes about 70).  Then a repeat appended to
# the labelled file must be found on its line, again without growth.
set -u
LC_ALL=C
export LC_ALL
[ $# -eq 2 ] || { echo "usage: sh tests/large-file.sh TOOL PEAK_RSS" >&2; exit 1; }
tool=$1
peak_rss=$2
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

small=100000
large=10000000
growth_max_kb=8192
failed=0

# write KIND N FILE: N lines of scores 0..1000, `score` or `item-I,score`
write() {
    awk -v kind="$1" -v n="$2" 'BEGIN {
        srand(2026)
        for (i = 0; i < n; i++) {
            score = int(rand() * 1001)
            if (kind == "label") printf "item-%d,%d\n", i, score
            else printf "%d\n", score
        }
    }' > "$3"
}

# run FILE STATUS: runs select on FILE, expecting STATUS; prints the peak RSS
run() {
    "$peak_rss" "$work/rss" "$tool" select --epsilon 1 "$1" > "$work/out" 2> "$work/err"
    status=$?
    if [ "$status" -ne "$2" ]; then
        echo "FAIL $1: exit $status, expected $2: $(head -n 1 "$work/err")" >&2
        failed=1
    fi
    cat "$work/rss"
}

# check_growth WHAT SMALL_KB LARGE_KB
check_growth() {
    echo "$1: peak RSS $2 kB at $small lines, $3 kB at $large lines"
    if [ $(($3 - $2)) -ge "$growth_max_kb" ]; then
        echo "FAIL $1: memory grew by $(($3 - $2)) kB (limit $growth_max_kb)" >&2
        failed=1
    fi
}

for kind in score label; do
    write "$kind" "$small" "$work/small.csv"
    write "$kind" "$large" "$work/large.csv"
    small_kb=$(run "$work/small.csv" 0)
    large_kb=$(run "$work/large.csv" 0)
    case $kind in
        score) pattern='^[0-9]+$' ;;
        label) pattern='^item-[0-9]+$' ;;
    esac
    if ! grep -Eq "$pattern" "$work/out" || [ "$(wc -l < "$work/out")" -ne 1 ]; then
        echo "FAIL $kind: stdout is not one candidate: $(head -c 80 "$work/out")" >&2
        failed=1
    fi
    check_growth "$kind" "$small_kb" "$large_kb"
done

# The labelled file is still there: a repeat of its sixth label at the end,
# found by its line, the label never shown.
echo "item-5,3" >> "$work/large.csv"
repeat_kb=$(run "$work/large.csv" 2)
expected="duplicate label (first on line 6)"
if ! grep -qF "large.csv:$((large + 1)): $expected" "$work/err" || grep -qF "item-5" "$work/err" \
    || [ -s "$work/out" ]; then
    echo "FAIL repeat: stderr $(head -n 1 "$work/err"), stdout $(head -c 80 "$work/out")" >&2
    failed=1
fi
check_growth "label with a repeat at the end" "$small_kb" "$repeat_kb"

[ "$failed" -eq 0 ] && echo "large-file: passed" || echo "large-file: FAILED"
[ "$failed" -eq 0 ]
