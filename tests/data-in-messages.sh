#!/bin/sh
# SPDX-License-Identifier: ISC
# No message of the command-line tool carries a value from the data.
#   sh tests/data-in-messages.sh build/dpsel
#
# Every data file below holds records (scores, labels, values) malformed in
# one way each, and every record holds the sentinel 7731.  Each file is given
# to every command and form of reading that takes it (select in memory and
# streamed, --top, --count, the mechanisms, --resolution, --task, pmf,
# curve, audit, quantile, --json, --progress, standard input), and
# whatever the tool says on stderr, an error, a warning or a progress line,
# must not contain the sentinel.  Only public things (file names, line
# numbers, options) may appear; none of them contains 7731.
# Prints one line per leaking run, then "N runs, N leaked".
set -u
# shellcheck source=tests/tool.sh
. "$(dirname "$0")/tool.sh"
tool_test_start data-in-messages.sh "$@"
case $work in  # file names are public and shown: they must not hold the sentinel
*7731*) rmdir "$work"; work=$(mktemp -d) || exit 1 ;;
esac

runs=0
leaked=0
sentinel=7731

# fixture NAME FORMAT: printf FORMAT (octal escapes allowed) into $work/NAME.
fixture() {
    # shellcheck disable=SC2059 # the format is the fixture, escapes included
    printf "$2" > "$work/$1"
}

# check ARGS...: runs the tool (stdin from $work/stdin if ARGS name -);
# stderr must not hold the sentinel.
check() {
    runs=$((runs + 1))
    "$tool" "$@" < "$work/stdin" > /dev/null 2> "$work/err"
    if grep -q "$sentinel" "$work/err"; then
        leaked=$((leaked + 1))
        echo "LEAK: dpsel $*: $(head -c 300 "$work/err" | tr '\n' ' ')"
    fi
}

# Score files (label,score or score): every record malformed in one way.
fixture non-integer 'a,1\nb,98765.7731\n'
fixture text-score 'a,1\nb,SENTINEL7731\n'
fixture text-score-alone '1\nSENTINEL7731\n'
fixture huge 'a,1\nb,987654773198765477319876547731\n'
fixture huge-negative 'a,1\nb,-987654773198765477319876547731\n'
fixture exponent 'a,1\nb,7731e99999\n'
fixture nan-score 'a,1\nb,nan7731\n'
fixture infinite-score 'a,1\nb,-inf7731\n'
fixture hex-score 'a,1\nb,0x7731\n'
fixture spaced-score 'a,1\nb,77 31\n'
fixture bad-utf8-label 'a,1\nSENTINEL\3777731,3\n'
fixture overlong-utf8-label 'a,1\nSENTINEL\300\2017731,3\n'
fixture control-label 'a,1\nSENTINEL\0017731,3\n'
fixture escape-label 'a,1\nSENTINEL\0337731,3\n'
fixture duplicate-label 'SENTINEL7731,1\nb,2\nSENTINEL7731,3\n'
fixture comment-candidate 'a,1\n#SENTINEL7731,3\n'
fixture nul-byte 'a,1\nSENTINEL7731\000,3\n'
fixture three-columns 'a,1\nSENTINEL,7731,x7731\n'
fixture bad-header 'SENTINEL7731,score7731\na,1\n'
fixture negative-count 'label,count\na,1\nb,-7731\n'
fixture crlf 'a,1\r\nb,7731x\r\n'
fixture empty-label-score 'a,1\n,7731.5\n'
awk 'BEGIN { printf "a,1\nSENTINEL"; for (i = 0; i < 600; i++) printf "7731"; printf ",3\n" }' \
    > "$work/long-line"
awk 'BEGIN { printf "a,1\nb,"; for (i = 0; i < 600; i++) printf "7731"; printf "\n" }' \
    > "$work/long-score"
score_files="non-integer text-score text-score-alone huge huge-negative exponent nan-score
infinite-score hex-score spaced-score bad-utf8-label overlong-utf8-label control-label
escape-label duplicate-label comment-candidate nul-byte three-columns bad-header
negative-count crlf empty-label-score long-line long-score"

for f in $score_files; do
    file="$work/$f"
    cp "$file" "$work/stdin"
    for options in "--epsilon 1" "--epsilon 1 --mechanism em" "--epsilon 1 --mechanism rnm" \
                   "--epsilon 1 --hardened" "--epsilon 1 --count 3" "--epsilon 1 --top 2" \
                   "--epsilon 1 --resolution 0.5" "--epsilon 1 --resolution 0.5 --sensitivity 1" \
                   "--epsilon 1 --task mode" "--epsilon 1 --task median" "--epsilon 1 --json" \
                   "--epsilon 1 --progress" "--epsilon 1 --monotonic --seed 1"; do
        # shellcheck disable=SC2086 # the options are words
        check select $options "$file"
        # shellcheck disable=SC2086
        check select $options -
    done
    for options in "--epsilon 1" "--epsilon 1 --mechanism em" "--epsilon 1 --top 2" \
                   "--epsilon 1 --exact" "--epsilon 1 --resolution 0.5" "--epsilon 1 --json" \
                   "--epsilon 1 --task median" "--epsilon 1 --progress"; do
        # shellcheck disable=SC2086
        check pmf $options "$file"
    done
    for options in "" "--resolution 0.5" "--task mode" "--json" "--target 1"; do
        # shellcheck disable=SC2086
        check curve $options "$file"
    done
    fixture fine 'a,1\nb,2\n'
    check audit --epsilon 1 "$file" "$work/fine"
    check audit --epsilon 1 "$work/fine" "$file"
    check audit --epsilon 1 --resolution 0.5 --json "$file" "$file"
done

# Audits of well-formed files whose records do not match.
fixture audit-a 'SENTINEL7731,1\nb,2\n'
fixture audit-b 'OTHER,1\nb,2\n'
fixture audit-far 'SENTINEL7731,7731\nb,2\n'
fixture audit-decimal 'SENTINEL7731,0.7731\nb,2\n'
for pair in "audit-a audit-b" "audit-b audit-a" "audit-a audit-far" "audit-far audit-a"; do
    set -- $pair
    check audit --epsilon 1 "$work/$1" "$work/$2"
    check audit --epsilon 1 --json "$work/$1" "$work/$2"
    check audit --epsilon 1 --monotonic "$work/$1" "$work/$2"
done
check audit --epsilon 1 --resolution 0.0001 "$work/audit-a" "$work/audit-decimal"
check audit --epsilon 1 --resolution 0.5 "$work/audit-a" "$work/audit-decimal"

# Value files for quantile (one decimal a line).
fixture value-text '1\nSENTINEL7731\n'
fixture value-fraction '1\n987654.7731\n'
fixture value-huge '1\n7731e99999999999\n'
fixture value-nan '1\nnan7731\n'
fixture value-hex '1\n0x7731\n'
fixture value-bad-utf8 '1\n\3777731\n'
fixture value-comma '1\nSENTINEL,7731\n'
fixture value-nul '1\n7731\000\n'
fixture value-comment '1\n#7731\n'
fixture value-tiny '1\n-7731e-99999\n'
awk 'BEGIN { printf "1\n"; for (i = 0; i < 600; i++) printf "7731"; printf "\n" }' \
    > "$work/value-long"
for f in value-text value-fraction value-huge value-nan value-hex value-bad-utf8 value-comma \
         value-nul value-comment value-tiny value-long; do
    file="$work/$f"
    cp "$file" "$work/stdin"
    for options in "--quantile 0.5" "--quantile 0.5 --mechanism pf" "--quantile 0.5 --pmf" \
                   "--quantile 0.5 --json" "--quantile 0.5 --count 3" "--quantile 0.5 --progress" \
                   "--quantile 0.25,0.75" "--quantile 0.25,0.75 --joint" \
                   "--quantile 0.25,0.75 --joint --pmf" "--quantile 0.5 --resolution 0.25" \
                   "--quantile 0.5 --pmf --exact"; do
        # shellcheck disable=SC2086
        check quantile --lower 0 --upper 10 --epsilon 1 $options "$file"
        # shellcheck disable=SC2086
        check quantile --lower 0 --upper 10 --epsilon 1 $options -
    done
done

echo "$runs runs, $leaked leaked"
[ "$leaked" -eq 0 ]
