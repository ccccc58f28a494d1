#!/bin/sh
# SPDX-License-Identifier: ISC
# Runs the dpsel tool under valgrind on successful and failing commands:
# every run must end with its expected exit status (0, 2 or 4) and valgrind must
# find no memory error and no leak of any kind (still reachable included).
#   sh tests/valgrind.sh build/dpsel
# Prints one line per failed run, then "N passed, N failed".
set -u
# shellcheck source=tests/tool.sh
. "$(dirname "$0")/tool.sh"
tool_test_start valgrind.sh "$@"
if ! command -v valgrind > /dev/null 2>&1; then
    echo "valgrind.sh: valgrind is not installed (apt-get install valgrind)"
    exit 1
fi

VALGRIND_ERROR=99
passed=0
failed=0

# check NAME STATUS -- ARGS...: runs the tool under valgrind and expects exit
# status STATUS with a clean valgrind report.
check() {
    name=$1
    want=$2
    shift 3
    valgrind --error-exitcode=$VALGRIND_ERROR --leak-check=full --show-leak-kinds=all \
        --errors-for-leak-kinds=all --log-file="$work/valgrind.log" \
        "$tool" "$@" > "$work/out" 2> "$work/err"
    status=$?
    if [ "$status" -eq "$want" ] && grep -q 'ERROR SUMMARY: 0 errors' "$work/valgrind.log"; then
        passed=$((passed + 1))
        return
    fi
    failed=$((failed + 1))
    if [ "$status" -eq $VALGRIND_ERROR ]; then
        why="valgrind found errors or leaks"
    else
        why="exit status $status, expected $want"
    fi
    printf 'FAIL %s: %s (dpsel %s)\n' "$name" "$why" "$*"
    grep -E 'ERROR SUMMARY|definitely|indirectly|possibly|still reachable|Invalid|uninitialised' \
        "$work/valgrind.log" | sed 's/^/    /'
    head -n 3 "$work/err" | sed 's/^/    stderr: /'
}

# fixture NAME FORMAT: writes printf FORMAT (octal escapes allowed) to $work/NAME.
fixture() {
    # shellcheck disable=SC2059 # the format is the fixture, escapes included
    printf "$2" > "$work/$1"
}

fixture basic.csv 'label,score\nalice,10\nbob,9\ncarol,7\ndave,10\n'
fixture bad-score.csv 'label,score\nalice,10\nbob,1.5\n'
fixture dup.csv 'label,score\nalice,10\nbob,9\nalice,7\n'
fixture bad-utf8.csv 'label,score\n\377abc,1\n'
fixture empty.csv ''
fixture neighbour.csv 'label,score\nalice,11\nbob,8\ncarol,7\ndave,10\n'
fixture far.csv 'label,score\nalice,4\nbob,9\ncarol,7\ndave,10\n'
fixture scores.csv '5\n-3\n7\n'
fixture mixed-dup.csv '5\nx,3\n0,4\n'
fixture hash-label.csv 'a,1\n#dp,100\n'
fixture c1.csv 'a,1\nb\302\233,2\n'
fixture ages.csv 'value\n34\n29\n41\n52\n38\n27.5\n45\n33\n61\n36\n'
fixture ages-bad.csv 'value\n34\n29\nforty\n'
fixture decimal.csv 'label,score\nalice,0.0010\nbob,0.0009\ncarol,0.0007\ndave,0.001\n'
fixture decimal-far.csv 'label,score\nalice,0.0004\nbob,0.0009\ncarol,0.0007\ndave,0.0010\n'
fixture decimal-finer.csv 'label,score\nalice,0.0010\nbob,0.00095\n'
awk 'BEGIN { s = "x"; while (length(s) < 100000) s = s s; print "a,1"; print s ",5" }' > "$work/long-line.csv"
f=$work/basic.csv

# Successful commands: exit 0.
check select-seed           0 -- select --epsilon 1 --seed 1 "$f"
check select-os-random      0 -- select --epsilon 1 --json "$f"
check select-count-50-em    0 -- select --epsilon 1 --count 50 --mechanism em --seed 2a "$f"
check select-count-50-pf    0 -- select --epsilon 1 --count 50 --json --seed 2b "$f"
check pmf-pf-exact          0 -- pmf --epsilon 1 --exact "$f"
check pmf-pf-json           0 -- pmf --epsilon 1 --json "$f"
check pmf-em-exact          0 -- pmf --epsilon 1 --mechanism em --exact "$f"
check pmf-em-json           0 -- pmf --epsilon 1 --mechanism em --json "$f"
check pmf-stdin             0 -- pmf --base 1/2^1 - < "$f"
check pmf-rnm-json          0 -- pmf --epsilon 1 --mechanism rnm --json "$f"
check pmf-rnm-exact         2 -- pmf --epsilon 1 --mechanism rnm --exact "$f"
check curve-rnm             0 -- curve --epsilons 0.1,1 --mechanism rnm "$f"
check audit-rnm-broken      1 -- audit --epsilon 1 --monotonic --mechanism rnm "$f" "$work/far.csv"
check params-epsilon        0 -- params --epsilon 1
check params-json-base      0 -- params --base 3/2^2 --monotonic --gap-cap 10 --json
check help                  0 -- --help
check help-select           0 -- help select
check help-quantile-flag    0 -- quantile --help
check bare                  2 --
check typo-command          2 -- selct --epsilon 1 "$f"
check typo-option           2 -- select --epsilno 1 "$f"
# the advice: a decimal score in an integer file (streamed and in memory),
# an epsilon too small (the smallest named) or no number
check decimal-advice-stream 2 -- select --epsilon 1 --sensitivity 10 "$work/bad-score.csv"
check decimal-advice-memory 2 -- pmf --epsilon 1 "$work/bad-score.csv"
check epsilon-too-small     2 -- params --epsilon 1e-30
check epsilon-not-number    2 -- params --epsilon abc
# select with PF on a regular file streams it (stream_select.c); standard
# input is read into memory
check select-stream-count   0 -- select --epsilon 1 --count 3 --json --seed 5 "$f"
check select-stream-scores  0 -- select --epsilon 1 --count 2 "$work/scores.csv"
check select-stdin          0 -- select --epsilon 1 --seed 6 - < "$f"
check select-hardened-pf    0 -- select --epsilon 1 --hardened --seed 3 "$f"
check select-hardened-em    0 -- select --epsilon 1 --hardened --mechanism em --seed 4 "$f"
check curve-json            0 -- curve --epsilons 0.5,1,2 --json "$f"
check curve-target          0 -- curve --epsilons 1 --target 0.5 "$f"
check audit-holds           0 -- audit --epsilon 1 "$f" "$work/neighbour.csv"
check audit-broken          1 -- audit --epsilon 1 "$f" "$work/far.csv"
# decimal scores (spec/quantiles.md §5): outputs in the scores' own unit
check pmf-decimal-exact     0 -- pmf --epsilon 1 --sensitivity 0.0001 --exact --json "$work/decimal.csv"
check curve-decimal-target  0 -- curve --target 0.00005 --resolution 0.00005 --sensitivity 0.0001 "$work/decimal.csv"
check audit-decimal-broken  1 -- audit --epsilon 1 --sensitivity 0.0001 "$work/decimal.csv" "$work/decimal-far.csv"
check pmf-decimal-finer     2 -- pmf --epsilon 1 --sensitivity 0.0001 "$work/decimal-finer.csv"
check select-top            0 -- select --epsilon 1 --top 3 --count 2 --json --delta 1e-6 --seed 9 "$f"
check pmf-top-exact         0 -- pmf --epsilon 1 --top 2 --exact --json "$f"
check account-nonadaptive   0 -- account --nonadaptive --delta 1e-6 --json em:0.1x20 em:0.2
check account-mixed         0 -- account --delta 1e-9 pf:1x3 em:0.5
check account-bad           2 -- account em:0.5 pf:nothing
check account-zero-and-huge 0 -- account --json --delta 0.5 em:0.001 em:1e20 pf:1e999999999
check account-group        0 -- account --json --nonadaptive --delta 1e-6 --group 3 em:0.1x20 em:0.2
check account-group-huge   0 -- account --delta 1e-6 --group 4294967296 em:1e20 pf:1e-999999999
printf 'a,1\nb,2\nc,0\nd,1\ne,2\nf,0\n' > "$work/tied.csv"
awk 'BEGIN { for (i = 1; i <= 29; i++) printf "c%d,%d\n", i, (37 * i) % 100 }' > "$work/spread.csv"
check pmf-top-shared-leaves 0 -- pmf --epsilon 1 --top 3 --exact --mechanism em "$work/tied.csv"
check pmf-top-exact-limit   2 -- pmf --epsilon 1 --top 2 --exact "$work/spread.csv"
q="--lower 0 --upper 120 --epsilon 1"
check quantile-em           0 -- quantile --quantile 0.5 $q --seed 8 "$work/ages.csv"
check quantile-pf-several   0 -- quantile --quantile 0.25,0.5,0.75 $q --mechanism pf --count 3 --json "$work/ages.csv"
check quantile-pf-2-to-62   0 -- quantile --quantile 0.5 --lower 0 --upper 4611686018427387903 --epsilon 1 --mechanism pf --count 3 "$work/ages.csv"
check quantile-pmf-pf       0 -- quantile --quantile 0.5 $q --resolution 0.5 --mechanism pf --pmf --json "$work/ages.csv"
check quantile-pmf-em-exact 0 -- quantile --quantile 0.9 $q --pmf --exact "$work/ages.csv"
check quantile-bad-line     2 -- quantile --quantile 0.5 $q "$work/ages-bad.csv"
check quantile-bad-q        2 -- quantile --quantile 0.5,2 $q "$work/ages.csv"
check quantile-joint        0 -- quantile --joint --quantile 0.25,0.5,0.75 $q --count 3 --json --seed 8 "$work/ages.csv"
check quantile-joint-2-to-62 0 -- quantile --joint --quantile 0.1,0.9 --lower 0 --upper 4611686018427387903 --epsilon 1 "$work/ages.csv"
check quantile-joint-unsorted 2 -- quantile --joint --quantile 0.5,0.25 $q "$work/ages.csv"
check quantile-joint-pmf    0 -- quantile --joint --pmf --quantile 0.25,0.5,0.75 $q "$work/ages.csv"
check quantile-joint-pmf-json 0 -- quantile --joint --pmf --json --quantile 0.5,0.9 --lower 0 --upper 4611686018427387903 --epsilon 1 "$work/ages.csv"
check quantile-joint-pmf-exact 2 -- quantile --joint --pmf --exact --quantile 0.5,0.9 $q "$work/ages.csv"
check quantile-joint-past-2-to-52 0 -- quantile --joint --pmf --quantile 0.000000000000001,0.5 $q "$work/ages.csv"
check quantile-joint-decay 2 -- quantile --joint --quantile 0.5 --lower 0 --upper 120 --epsilon 23 "$work/ages.csv"
# values of any length (a line buffer grown past 4096 bytes), exponents,
# inf and nan, then a line that is not a number after a long one
{ echo value; echo 34; awk 'BEGIN { printf "1"; for (i = 0; i < 20000; i++) printf "0"; print "" }'
  echo -1e-1000; echo inf; echo nan; } > "$work/values-long.csv"
check quantile-long-values  0 -- quantile --quantile 0.5 $q --seed 8 "$work/values-long.csv"
echo forty >> "$work/values-long.csv"
check quantile-long-then-bad 2 -- quantile --quantile 0.5 $q "$work/values-long.csv"

# Failing commands: exit 2, and nothing leaks on the error paths either.
check bad-score-line        2 -- select --epsilon 1 "$work/bad-score.csv"
check duplicate-label       2 -- pmf --epsilon 1 "$work/dup.csv"
check stream-duplicate      2 -- select --epsilon 1 "$work/dup.csv"
check stream-dup-position   2 -- select --epsilon 1 "$work/mixed-dup.csv"
check invalid-utf8          2 -- pmf --epsilon 1 "$work/bad-utf8.csv"
check empty-file            2 -- select --epsilon 1 "$work/empty.csv"
check unknown-option        2 -- select --epsilon 1 --foo "$f"
check epsilon-zero          2 -- select --epsilon 0 "$f"
check base-out-of-range     2 -- pmf --base 5/2^2 "$f"
check nonexistent-file      2 -- pmf --epsilon 1 "$work/missing.csv"
check directory             2 -- pmf --epsilon 1 "$work"
check long-line-stream      2 -- select --epsilon 1 "$work/long-line.csv"
check long-line-memory      2 -- pmf --epsilon 1 "$work/long-line.csv"
check hash-label            2 -- select --epsilon 1 "$work/hash-label.csv"
check c1-label              2 -- pmf --epsilon 1 "$work/c1.csv"
check composition-mpfr      0 -- select --base 1/2^1 --sensitivity 18446744073709551615 --count 3 --seed 1 "$f"

# Could not complete: exit 4, and nothing leaks either.
if [ -r /proc/self/mem ]; then
    check read-error-memory 4 -- pmf --epsilon 1 /proc/self/mem
    check read-error-stream 4 -- select --epsilon 1 /proc/self/mem
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
