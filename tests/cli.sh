#!/bin/sh
# SPDX-License-Identifier: ISC
# Table-driven test of the dpsel command-line tool.
#   sh tests/cli.sh build/dpsel
#
# Every case is one line of the tables below:
#   expect_error NAME [EXPECT]... -- ARGS...
#       the tool must exit with status 2, print nothing on stdout and exactly
#       one line on stderr, containing every plain EXPECT substring;
#   expect_failure NAME [EXPECT]... -- ARGS...
#       the same with exit status 4 (could not complete);
#   expect_ok NAME [EXPECT]... -- ARGS...
#       the tool must exit with status 0 and print on stdout every plain
#       EXPECT substring; stderr must be empty unless -e expectations are
#       given, then it must contain each of them.
# EXPECT is a plain substring (it may span lines, ${nl} joining them: the whole
# text is looked for, and a final ${nl} ends its last line) or one of
#   -e SUB   stderr contains SUB (expect_ok)
#   -r ERE   some stdout line matches the extended regular expression ERE
#   -s       the pmf's decimal probabilities sum to 1 within 1e-15
#   -m MIN   the realised epsilon ("epsilon <= V" of params) is at least MIN,
#            compared exactly as decimal numbers
#   -d       deterministic: a second run gives byte-identical stdout and stderr
# Standard input is /dev/null unless the case line redirects it.
# Prints one line per failed case, then "N passed, N failed".
set -u
# shellcheck source=tests/tool.sh
. "$(dirname "$0")/tool.sh"
tool_test_start cli.sh "$@"

nl='
'
passed=0
failed=0

# ------------------------------------------------------------------ helpers

# fixture NAME FORMAT: writes printf FORMAT (octal escapes allowed) to $work/NAME.
fixture() {
    # shellcheck disable=SC2059 # the format is the fixture, escapes included
    printf "$2" > "$work/$1"
}

# run ARGS...: runs the tool; $work/out, $work/err and $status hold the result.
run() {
    "$tool" "$@" > "$work/out" 2> "$work/err"
    status=$?
}

problem() {
    problems="${problems:+$problems; }$1"
}

# contains FILE SUB: FILE's text contains the substring SUB, which may span
# lines and end with a newline (the x keeps the file's last newlines, which
# a command substitution would strip).
contains() {
    text=$(cat "$1"; printf x)
    case ${text%x} in
        *"$2"*) return 0 ;;
    esac
    return 1
}

# shown TEXT: TEXT on one line, each newline written \n.
shown() {
    printf '%s|' "$1" | awk '{ s = s (NR > 1 ? "\\n" : "") $0 } END { sub(/[|]$/, "", s); print s }'
}

first_line() {
    head -n 1 "$1" | cut -c 1-200
}

# exactly_one_line FILE: FILE is one line ending with a newline.
exactly_one_line() {
    [ $(($(wc -l < "$1"))) -eq 1 ] && [ -z "$(tail -c 1 "$1")" ]
}

check_error_run() {
    [ "$status" -eq "${error_status:-2}" ] || problem "exit status $status, expected ${error_status:-2}"
    [ ! -s "$work/out" ] || problem "stdout not empty: $(first_line "$work/out")"
    exactly_one_line "$work/err" || problem "stderr is not exactly one line ($(($(wc -l < "$work/err"))) newlines)"
}

check_ok_run() {
    [ "$status" -eq "${ok_status:-0}" ] \
        || problem "exit status $status, expected ${ok_status:-0} (stderr: $(first_line "$work/err"))"
    [ -s "$work/out" ] || problem "stdout empty"
}

# sums_to_one: the last comma-separated field (the probability: label,score,
# lower,upper,probability) of the pmf's candidate lines (text output) adds up
# to 1 within 1e-15.
sums_to_one() {
    awk -F, '
        /^#/ || $0 == "label,score,lower,upper,probability" { next }
        { sum += $NF; n++ }
        END {
            d = sum - 1; if (d < 0) d = -d
            if (n == 0 || d > 1e-15) { printf "sum %.17g over %d candidates", sum, n; exit 1 }
        }' "$work/out"
}

# epsilon_at_least MIN: the "epsilon <= V" line of params has V >= MIN, both
# compared exactly as non-negative decimal strings.
epsilon_at_least() {
    awk -v min="$1" '
        function parts(s, p) {
            if (index(s, ".") == 0) s = s "."
            split(s, p, ".")
            ip = p[1] + 0; fp = p[2]
        }
        function geq(a, b,   ai, af, bi, bf) {
            parts(a); ai = ip; af = fp
            parts(b); bi = ip; bf = fp
            if (ai != bi) return ai > bi
            while (length(af) < length(bf)) af = af "0"
            while (length(bf) < length(af)) bf = bf "0"
            return af >= bf
        }
        $1 == "epsilon" && $2 == "<=" { found = 1; value = $3 }
        END {
            if (!found) { print "no epsilon line"; exit 1 }
            if (!geq(value, min)) { print "epsilon " value " < " min; exit 1 }
        }' "$work/out"
}

# scan_expectations [EXPECT]... -- ARGS...: sets $words to the number of
# EXPECT words before the --, $want_stderr and $twice; false without a --.
scan_expectations() {
    words=0 want_stderr=no twice=no takes_value=no
    for item do
        if [ "$takes_value" = yes ]; then
            takes_value=no
        else
            case $item in
                --) return 0 ;;
                -e) want_stderr=yes takes_value=yes ;;
                -r | -m) takes_value=yes ;;
                -d) twice=yes ;;
            esac
        fi
        words=$((words + 1))
    done
    return 1
}

# check_expectations [EXPECT]... -- ARGS...: checks each EXPECT, whole (a
# plain substring may span lines); $kind (ok or error) decides where plain
# substrings are looked for.
check_expectations() {
    main=$work/out main_name=stdout
    [ "$kind" = error ] && main=$work/err main_name=stderr
    while [ "$1" != -- ]; do
        case $1 in
            -e) contains "$work/err" "$2" \
                    || problem "stderr lacks '$(shown "$2")' (got: $(first_line "$work/err"))"
                shift ;;
            -r) grep -Eq -e "$2" "$work/out" \
                    || problem "no stdout line matches /$2/ (got: $(first_line "$work/out"))"
                shift ;;
            -s) why=$(sums_to_one) || problem "probabilities do not sum to 1: $why" ;;
            -m) why=$(epsilon_at_least "$2") || problem "$why"
                shift ;;
            -d) ;;
            *) contains "$main" "$1" \
                   || problem "$main_name lacks '$(shown "$1")' (got: $(first_line "$main"))" ;;
        esac
        shift
    done
}

# run_command WORDS [EXPECT]... -- ARGS...: run ARGS, the words after the
# WORDS expectations and the --.
run_command() {
    status=$(shift $(($1 + 2)) && run "$@" && echo "$status")
}

# run_case KIND NAME [EXPECT]... -- ARGS...
run_case() {
    kind=$1
    name=$2
    shift 2
    if ! scan_expectations "$@"; then
        echo "cli.sh: table error in case $name: no --" >&2
        exit 1
    fi
    problems=
    run_command "$words" "$@"
    if [ "$kind" = error ]; then
        check_error_run
    else
        check_ok_run
        if [ "$want_stderr" = no ] && [ -s "$work/err" ]; then
            problem "unexpected stderr: $(first_line "$work/err")"
        fi
    fi
    check_expectations "$@"
    if [ "$twice" = yes ]; then
        mv "$work/out" "$work/out.1"
        mv "$work/err" "$work/err.1"
        run_command "$words" "$@"
        cmp -s "$work/out" "$work/out.1" || problem "second run: different stdout"
        cmp -s "$work/err" "$work/err.1" || problem "second run: different stderr"
    fi
    record "$name"
}

record() {
    if [ -z "$problems" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        printf 'FAIL %s: %s\n' "$1" "$problems"
    fi
}

expect_ok() {
    run_case ok "$@"
}

expect_error() {
    run_case error "$@"
}

# expect_failure NAME [EXPECT]... -- ARGS...: expect_error, but with exit
# status 4: the command could not complete (out of memory, a read error, the
# random source failed, an internal error), the input is not to blame.
expect_failure() {
    error_status=4
    run_case error "$@"
    error_status=2
}

# bad_line NAME LINE MESSAGE: a file whose third line is LINE (a printf
# format) is rejected with "FILE:3: MESSAGE".
bad_line() {
    fixture "$1.csv" "label,score\nok,1\n$2\n"
    expect_error "$1" "$work/$1.csv:3: $3" -- select --epsilon 1 "$work/$1.csv"
}

# ----------------------------------------------------------------- fixtures

d=$work
fixture basic.csv 'label,score\nalice,10\nbob,9\ncarol,7\ndave,10\n'
fixture two.csv 'a,1\nb,0\n'
fixture empty.csv ''
fixture comments-only.csv '# nothing here\n\n   \n\t# indented\n'
fixture header-only.csv 'label,score\n# no candidates follow\n'
fixture bad-stdin.csv 'a,1\nb,x\n'
fixture dup.csv 'label,score\nalice,1\nbob,2\nalice,3\n'
fixture dup-trimmed.csv 'alice,1\n  alice\t,2\n'
fixture crlf.csv 'label,score\r\na,1\r\nb,2\r\n'
fixture no-final-newline.csv 'a,1\nb,2'
fixture bin-count.csv 'bin,count\n0,6\n1,7\n'
fixture comments.csv '# a poll\n\nlabel,score\n  # indented comment\n\nx,1\n\n# more\ny,0\n'
fixture scores-only.csv '5\n-3\n7\n'
fixture negative.csv 'a,-5\nb,-7\nc,+2\n'
fixture extremes.csv 'lo,-9223372036854775808\nhi,9223372036854775807\n'
fixture utf8.csv '\303\211ric,3\nJean Paul,4\n'
eric=$(printf '\303\211ric')
# A line of 4097 bytes (rejected) and one of 4096 bytes before CRLF (accepted).
awk 'BEGIN { s = "x,"; while (length(s) < 4097) s = s "1"; print s }' > "$d/too-long.csv"
awk 'BEGIN { s = ""; while (length(s) < 4094) s = s "a"; printf "%s,1\r\nb,2\r\n", s }' > "$d/longest.csv"
# PF over 4096 candidates: beyond the exact rationals. The best's probability
# is (1 - (1-w)^4097) / (4097 w), w = beta^89 at --epsilon 1 (closed form,
# checked at 3000 bits in test_enclosure.c).
awk 'BEGIN { print "best,1000"; for (i = 0; i < 4096; i++) print "c" i ",0" }' > "$d/beyond-exact.csv"
fixture unreadable.csv 'a,1\n'
chmod 000 "$d/unreadable.csv"

# ------------------------------------------------------ rejected input files

expect_error empty-file "$d/empty.csv: no candidates" -- select --epsilon 1 "$d/empty.csv"
expect_error comments-only "$d/comments-only.csv: no candidates" -- pmf --epsilon 1 "$d/comments-only.csv"
expect_error header-only "$d/header-only.csv" "no candidates" -- pmf --epsilon 1 "$d/header-only.csv"
fixture semicolons.csv 'label;score\nalice;10\nbob;9\n'
fixture semicolons-no-header.csv 'alice;10\nbob;9\n'
fixture tabs.csv 'alice\t10\nbob\t9\n'
separator_advice=" (the columns are separated by a comma, as in label,score: save the file with commas, not semicolons, tabs or bars)"
expect_error semicolon-header "$d/semicolons.csv:1: score is not an integer$separator_advice" -- select --epsilon 1 "$d/semicolons.csv"
expect_error semicolon-line "$d/semicolons-no-header.csv:1: score is not an integer$separator_advice" -- select --epsilon 1 "$d/semicolons-no-header.csv"
expect_error semicolon-decimal "$d/semicolons-no-header.csv:1: score is not a decimal number$separator_advice" -- select --epsilon 1 --resolution 0.5 "$d/semicolons-no-header.csv"
expect_error tab-line "$d/tabs.csv:1: score is not an integer$separator_advice" -- select --epsilon 1 "$d/tabs.csv"
bad_line non-numeric     'alice,ten'                  "score is not an integer${nl}"
bad_line decimals        'alice,1.5'                  "score is not an integer ("
bad_line sign-inside     'alice,1-2'                  "score is not an integer${nl}"
bad_line double-sign     'alice,--3'                  "score is not an integer${nl}"
bad_line sign-alone      'alice,+'                    "score is not an integer${nl}"
bad_line space-inside    'alice,1 2'                  "score is not an integer${nl}"
bad_line score-missing   'alice,'                     "score is not an integer${nl}"
bad_line above-int64     'alice,9223372036854775808'  "score out of the int64 range${nl}"
bad_line below-int64     'alice,-9223372036854775809' "score out of the int64 range${nl}"
bad_line nul-byte        'b\000c,2'                   "NUL byte in line"
bad_line invalid-utf8    '\377abc,1'                  "label is not valid UTF-8 text"
bad_line overlong-utf8   '\300\201x,1'                "label is not valid UTF-8 text"
bad_line surrogate-utf8  '\355\240\200,1'             "label is not valid UTF-8 text"
bad_line truncated-utf8  'ab\303,1'                   "label is not valid UTF-8 text"
bad_line control-char    'a\033b,1'                   "label is not valid UTF-8 text without control characters${nl}"
bad_line escape-in-score 'a,1\033[2J'                 "score is not an integer${nl}"
bad_line raw-high-bytes  '\377abc,1'                  "label is not valid UTF-8 text without control characters${nl}"
bad_line empty-label     ',5'                         "empty label"
bad_line plus-minus      'alice,+-3'                  "score is not an integer${nl}"
bad_line trailing-sign   'alice,1-'                   "score is not an integer${nl}"
bad_line exponent-score  'alice,3e2'                  "score is not an integer${nl}"
bad_line hex-score       'alice,0x10'                 "score is not an integer${nl}"
bad_line nul-in-score    'b,1\0002'                   "NUL byte in line"
fixture cr-only.csv 'a,1\rb,2\r'
expect_error cr-only-line-ends "$d/cr-only.csv:1: label is not valid UTF-8 text without control characters${nl}" -- select --epsilon 1 "$d/cr-only.csv"
awk 'BEGIN { s = "x"; while (length(s) < 1048576) s = s s; printf "%s", s }' > "$d/huge-line.csv"
expect_error huge-line-no-newline "$d/huge-line.csv:1: line longer than 4096 bytes" -- select --epsilon 1 "$d/huge-line.csv"
if [ -r /proc/self/mem ]; then  # opens, then every read fails (EIO), even for root
    expect_failure read-error "/proc/self/mem: read error: Input/output error" -- pmf --epsilon 1 /proc/self/mem
    expect_failure read-error-streamed "/proc/self/mem: read error: Input/output error" -- select --epsilon 1 /proc/self/mem
fi
expect_error line-too-long "$d/too-long.csv:1: line longer than 4096 bytes" -- pmf --epsilon 1 "$d/too-long.csv"
expect_error duplicate-label "$d/dup.csv:4: duplicate label (first on line 2)" -- select --epsilon 1 "$d/dup.csv"
expect_error duplicate-trimmed "$d/dup-trimmed.csv:2: duplicate label (first on line 1)" -- pmf --epsilon 1 "$d/dup-trimmed.csv"
expect_error directory "$d: is a directory" -- select --epsilon 1 "$d"
expect_error nonexistent "$d/missing.csv: cannot open: No such file or directory" -- pmf --epsilon 1 "$d/missing.csv"
expect_error stdin-bad-line "<stdin>:2: score is not an integer${nl}" -- select --epsilon 1 - < "$d/bad-stdin.csv"
expect_error stdin-empty "<stdin>: no candidates" -- pmf --epsilon 1 < "$d/empty.csv"
fixture typo-first.csv 'alice,1O\nbob,3\n'
expect_error first-line-typo-is-no-header "$d/typo-first.csv:1: score is not an integer${nl}" -- pmf --epsilon 1 "$d/typo-first.csv"
expect_error escape-in-option "--epsilon '1\\x1bx'" -- select --epsilon "$(printf '1\033x')"
# Root reads any file, so as root the case runs as nobody (setpriv, from
# util-linux), if nobody may run the tool where it lies.
unreadable_case() {
    expect_error unreadable "$d/unreadable.csv: cannot open: Permission denied" -- select --epsilon 1 "$d/unreadable.csv"
}
as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
if [ "$(id -u)" -ne 0 ]; then
    unreadable_case
elif $as_nobody "$tool" --help > /dev/null 2>&1; then
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$as_nobody" "$tool" > "$work/as-nobody"
    chmod 755 "$work/as-nobody"
    real_tool=$tool
    tool=$work/as-nobody
    unreadable_case
    tool=$real_tool
else
    echo "skip unreadable: running as root, and nobody may not run $tool"
fi

# ---------------------------------------------------------- rejected options

expect_error unknown-option "unknown option: '--foo'" -- select --epsilon 1 --foo "$d/basic.csv"
expect_error unknown-short-option "unknown option: '-x': options are long, --NAME (dpsel help select lists them)" -- select --epsilon 1 -x "$d/basic.csv"
expect_error short-option-meant "dpsel: unknown option: '-e'; did you mean '--epsilon'? (options are long: --NAME)" -- select -e 1 "$d/basic.csv"
expect_error short-option-of-the-command "unknown option: '-c'; did you mean '--count'?" -- select --epsilon 1 -c 2 "$d/basic.csv"
expect_error short-option-two-meant "unknown option: '-e'; did you mean '--epsilon' or '--exact'? (options are long: --NAME)" -- pmf -e 1 "$d/basic.csv"
expect_error short-option-of-quantile "unknown option: '-p'; did you mean '--pmf' or '--progress'?" -- quantile -p "$d/basic.csv"
expect_error single-dash-word "unknown option: '-epsilon'; did you mean '--epsilon'?" -- select -epsilon 1 "$d/basic.csv"
expect_error repeated-option "option given twice: '--json'" -- select --epsilon 1 --json --json "$d/basic.csv"
expect_error pmf-exact-too-large "beyond-exact.csv: pmf --exact: the exact rationals of 4097 candidates need 2^64 or more bits of weight arithmetic, beyond the limit of 17179869184 (2^34); drop --exact" -- pmf --epsilon 1 --exact "$d/beyond-exact.csv"
expect_error count-with-pmf "option does not apply to this command: '--count'" -- pmf --epsilon 1 --count 3 "$d/basic.csv"
expect_ok select-hardened-pf -r '^(alice|bob|carol|dave)$' -- select --epsilon 1 --hardened "$d/basic.csv"
expect_ok select-hardened-em -r '^(alice|bob|carol|dave)$' -- select --epsilon 1 --hardened --mechanism em "$d/basic.csv"
expect_error hardened-with-pmf "option does not apply to this command: '--hardened'" -- pmf --epsilon 1 --hardened "$d/basic.csv"
expect_error hardened-with-value "option takes no value: '--hardened=1'" -- select --epsilon 1 --hardened=1 "$d/basic.csv"
expect_error exact-with-select "option does not apply to this command: '--exact'" -- select --epsilon 1 --exact "$d/basic.csv"
expect_error seed-with-params "option does not apply to this command: '--seed'" -- params --epsilon 1 --seed 1
expect_error mechanism-with-params "option does not apply to this command: '--mechanism'" -- params --epsilon 1 --mechanism em
expect_error missing-value "option needs a value: '--epsilon'" -- select --epsilon
expect_error flag-with-value "option takes no value: '--json=1'" -- select --epsilon 1 --json=1 "$d/basic.csv"
expect_error count-zero "--count" "'0'" -- select --epsilon 1 --count 0 "$d/basic.csv"
expect_error count-not-number "--count" "'abc'" -- select --epsilon 1 --count abc "$d/basic.csv"
expect_error count-too-large "--count" "'4294967296'" -- select --epsilon 1 --count 4294967296 "$d/basic.csv"
expect_error epsilon-zero "--epsilon '0'" -- params --epsilon 0
expect_error epsilon-negative "--epsilon '-1'" -- params --epsilon -1
expect_error epsilon-not-number "--epsilon 'abc' is not a positive decimal number (write it as 1, 0.5 or 5e-3)" -- params --epsilon abc
expect_error epsilon-nan "--epsilon 'nan'" -- params --epsilon nan
expect_error epsilon-inf "--epsilon 'inf'" -- params --epsilon inf
expect_error epsilon-too-small "--epsilon '1e-30'" -- select --epsilon 1e-30 "$d/basic.csv"
expect_error epsilon-empty "--epsilon ''" -- params --epsilon=
expect_error base-not-below-1 "--base 5/2^2" "out of range" -- params --base 5/2^2
expect_error base-zero "--base 0/2^3" "out of range" -- params --base 0/2^3
expect_error base-y-too-large "--base" "'1/2^65'" -- params --base 1/2^65
expect_error base-y-zero "--base 1/2^0" "out of range" -- params --base 1/2^0
expect_error base-junk "--base" "'junk'" -- pmf --base junk "$d/basic.csv"
expect_error base-x-overflow "--base" "'18446744073709551616/2^64'" -- params --base 18446744073709551616/2^64
expect_error sensitivity-zero "--sensitivity" "'0'" -- params --epsilon 1 --sensitivity 0
expect_error gap-cap-zero "--gap-cap" "'0'" -- params --epsilon 1 --gap-cap 0
expect_error gap-cap-too-large "--gap-cap" "'1048577'" -- pmf --epsilon 1 --gap-cap 1048577 "$d/basic.csv"
expect_error mechanism-unknown "--mechanism must be pf, em or rnm: 'xx'" -- select --epsilon 1 --mechanism xx "$d/basic.csv"
expect_error epsilon-and-base "give --epsilon or --base, not both" -- select --epsilon 1 --base 1/2^1 "$d/basic.csv"
expect_error no-privacy-parameter "a privacy parameter is required" -- select "$d/basic.csv"
expect_error unknown-command "unknown command 'frob': the commands are select, pmf, params, curve, audit, quantile, account" -- frob --epsilon 1
expect_error two-files "more than one FILE: '$d/basic.csv'" -- select --epsilon 1 "$d/two.csv" "$d/basic.csv"
expect_error params-with-file "params takes no FILE: '$d/basic.csv'" -- params --epsilon 1 "$d/basic.csv"
expect_error seed-65-digits "--seed must be 1 to 64 hexadecimal digits" -- select --epsilon 1 --seed 00000000000000000000000000000000000000000000000000000000000000001 "$d/basic.csv"
expect_error seed-not-hex "--seed must be 1 to 64 hexadecimal digits: 'xyz'" -- select --epsilon 1 --seed xyz "$d/basic.csv"
expect_error help-with-argument "unexpected argument: 'x'" -- --help x
expect_error repeated-value-option "option given twice: '--epsilon'" -- select --epsilon 1 --epsilon 2 "$d/basic.csv"
expect_error repeated-equals-option "option given twice: '--seed'" -- select --epsilon 1 --seed=1 --seed 2 "$d/basic.csv"
expect_error option-prefix "unknown option: '--eps'; did you mean '--epsilon'?" -- select --eps 1 "$d/basic.csv"
expect_error count-negative "--count" "'-1'" -- select --epsilon 1 --count -1 "$d/basic.csv"
expect_error epsilon-leading-space "--epsilon ' 1'" -- params --epsilon ' 1'
expect_error epsilon-trailing-space "--epsilon '1 '" -- params --epsilon '1 '
expect_error epsilon-hex "--epsilon '0x1'" -- params --epsilon 0x1
expect_error epsilon-underflow "--epsilon '1e-999999999'" -- params --epsilon 1e-999999999
expect_error epsilon-exponent-10-digits "--epsilon '1e1234567890'" -- params --epsilon 1e1234567890

# ------------------------------------------------------------ accepted input

expect_ok crlf -r '^a,1,[0-9.]+,[0-9.]+,1/4$' -r '^b,2,[0-9.]+,[0-9.]+,3/4$' -- pmf --base 1/2^1 --exact "$d/crlf.csv"
expect_ok no-final-newline -r '^a,1,[0-9.]+,[0-9.]+,1/4$' -r '^b,2,[0-9.]+,[0-9.]+,3/4$' -- pmf --base 1/2^1 --exact "$d/no-final-newline.csv"
expect_ok header-label-score -r '^alice,10,[0-9.]+,[0-9.]+,8/21$' -r '^bob,9,[0-9.]+,[0-9.]+,4/21$' -r '^carol,7,[0-9.]+,[0-9.]+,1/21$' -r '^dave,10,[0-9.]+,[0-9.]+,8/21$' "# expected error 1/3" -- pmf --base 1/2^1 --exact --mechanism em "$d/basic.csv"
expect_ok header-bin-count -r '^0,6,[0-9.]+,[0-9.]+,1/4$' -r '^1,7,[0-9.]+,[0-9.]+,3/4$' -- pmf --base 1/2^1 --exact "$d/bin-count.csv"
expect_ok comments-blank-lines -r '^x,1,[0-9.]+,[0-9.]+,3/4$' -r '^y,0,[0-9.]+,[0-9.]+,1/4$' -- pmf --base 1/2^1 --exact "$d/comments.csv"
expect_ok scores-only "0,5," "1,-3," "2,7," -- pmf --epsilon 1 "$d/scores-only.csv"
expect_ok scores-only-select -r '^(0|1|2)$' -- select --epsilon 1 "$d/scores-only.csv"
expect_ok negative-scores "a,-5," "b,-7," "c,2," -s -- pmf --epsilon 1 "$d/negative.csv"
expect_ok int64-extremes-pf "lo,-9223372036854775808," "hi,9223372036854775807," -s -- pmf --epsilon 1 "$d/extremes.csv"
expect_ok int64-extremes-em "lo,-9223372036854775808," "hi,9223372036854775807," -s -- pmf --epsilon 1 --mechanism em "$d/extremes.csv"
expect_ok int64-extremes-select -r '^(lo|hi)$' -- select --epsilon 1 --mechanism em "$d/extremes.csv"
# report noisy max: select (one, --count, --top), a decimal epsilon
expect_ok select-rnm -r '^(alice|bob|carol|dave)$' -- select --epsilon 0.7 --mechanism rnm "$d/basic.csv"
expect_ok select-rnm-extremes -r '^(lo|hi)$' -- select --epsilon 1 --monotonic --mechanism rnm "$d/extremes.csv"
# RNM's pmf: two scores one apart at b = 1, P(b) = e^-1 (1 + 1/2) / 2
expect_ok rnm-pmf -s '# mechanism rnm, Laplace scale 1/1, epsilon = 1 (realised exactly), resolution 1' 'b,0,0.275909580878581741196642827621095650,0.275909580878581741196642827621095651,0.27590958087858174' '# expected error 0.27590958087858174 in [' -- pmf --epsilon 1 --monotonic --mechanism rnm "$d/two.csv"
expect_ok rnm-pmf-json '{"mechanism": "rnm", "scale": "4/1", "epsilon": "0.50", "resolution": "1", "candidates": [{"label": "alice", "score": "10", "probability": "0.' '"expected_error": "' -- pmf --epsilon 0.50 --mechanism rnm --json "$d/basic.csv"
expect_error rnm-pmf-exact "--mechanism rnm's probabilities involve e^(-g/b) and are not rational: pmf gives their enclosures and correctly rounded decimals, and takes no: '--exact'" -- pmf --epsilon 1 --exact --mechanism rnm "$d/basic.csv"
expect_error rnm-pmf-top "pmf --mechanism rnm gives one selection's distribution (the top-k pmf is PF's and EM's): it takes no: '--top'" -- pmf --epsilon 1 --top 2 --mechanism rnm "$d/basic.csv"
awk 'BEGIN { for (i = 0; i < 3000; i++) print "c" i "," i }' > "$d/rnm-distinct.csv"
expect_error rnm-pmf-too-large "pmf --mechanism rnm: the enclosure of 3000 candidates is past its limits (65536 candidates, about 2^35 bit operations, which grow as n L^2 for L distinct scores" -- pmf --epsilon 1 --mechanism rnm "$d/rnm-distinct.csv"
# curve --mechanism rnm: RNM's column beside PF's and EM's (the pmf's expected error above)
expect_ok rnm-curve '# error_rnm = report noisy max' 'epsilon,epsilon_realised,error_pf,error_em,ratio,em_bound,tail_pf,tail_em,error_rnm' '1,1.0000000000000000,' ',0.27590958087858174' -- curve --epsilons 1 --monotonic --mechanism rnm "$d/two.csv"
expect_ok rnm-curve-json '"error_rnm": "0.27590958087858174"}]}' -- curve --epsilons 1 --monotonic --json --mechanism rnm "$d/two.csv"
expect_error rnm-curve-target "--target searches PF's and EM's epsilons: with --mechanism rnm curve takes no: '--target'" -- curve --target 1 --mechanism rnm "$d/two.csv"
expect_error rnm-base "--mechanism rnm takes --epsilon as a decimal (realised exactly), not: '--base'" -- select --base 1/2^1 --mechanism rnm "$d/basic.csv"
expect_error rnm-hardened "--mechanism rnm has no hardened mode and no gap cap: it takes no: '--hardened'" -- select --epsilon 1 --hardened --mechanism rnm "$d/basic.csv"
expect_error rnm-gap-cap "--mechanism rnm has no hardened mode and no gap cap: it takes no: '--gap-cap'" -- select --epsilon 1 --gap-cap 4 --mechanism rnm "$d/basic.csv"
expect_ok rnm-top -r '^(alice|bob|carol|dave)$' -e '1 list of the top 2 (2 selections, each epsilon = 0.7); together epsilon <= 1.4000000000000000 (basic composition)' -- select --epsilon 0.7 --top 2 --mechanism rnm "$d/basic.csv"
expect_ok rnm-count-json -r '^\{"choices": \["[a-z]+", "[a-z]+", "[a-z]+"\], "indices": \[[0-3], [0-3], [0-3]\]\}$' -e '3 selections, each epsilon = 0.7; together epsilon <= 2.1000000000000000 (basic composition)' -- select --epsilon 0.7 --count 3 --json --mechanism rnm "$d/basic.csv"
expect_ok rnm-top-count-delta -e '2 lists of the top 3 (6 selections, each epsilon = 0.25); together epsilon <= 1.5000000000000000 (basic composition); at delta 1e-6, epsilon <= ' -- select --epsilon 0.25 --top 3 --count 2 --delta 1e-6 --mechanism rnm "$d/basic.csv"
expect_ok rnm-top-all-seeded -d -e 'for tests and reproducible audits only' -- select --epsilon 1 --top 4 --seed 5 --mechanism rnm "$d/basic.csv"
problems=
[ "$(sort -u "$work/out" | grep -c .)" = 4 ] || problem "the top 4 of 4 are not 4 distinct labels"
record rnm-top-all-distinct
expect_error rnm-top-too-many "--top 5 exceeds the 4 candidates (give --top 4 or less)" -- select --epsilon 1 --top 5 --mechanism rnm "$d/basic.csv"
# RNM's own refusals of --epsilon, not PF's (whose smallest epsilon is 4 times smaller)
expect_error rnm-epsilon-small "--epsilon '1e-19' with --mechanism rnm: the Laplace scale 2 D / epsilon (D = 1) as a fraction W / P in lowest terms needs W and P below 2^62" -- select --epsilon 1e-19 --mechanism rnm "$d/basic.csv"
expect_error rnm-epsilon-digits "--epsilon '0.12345678901234567890123' with --mechanism rnm: the Laplace scale 2 D / epsilon" -- select --epsilon 0.12345678901234567890123 --mechanism rnm "$d/basic.csv"
expect_error rnm-epsilon-text "--epsilon 'abc' is not a positive decimal number" -- select --epsilon abc --mechanism rnm "$d/basic.csv"
expect_ok rnm-epsilon-smallest -r '^(alice|bob|carol|dave)$' -- select --epsilon 1e-18 --mechanism rnm --monotonic "$d/basic.csv"
expect_ok utf8-and-spaces "$eric,3," "Jean Paul,4," -- pmf --epsilon 1 "$d/utf8.csv"
expect_ok utf8-json "\"label\": \"$eric\"" "\"label\": \"Jean Paul\"" -- pmf --epsilon 1 --json "$d/utf8.csv"
expect_ok longest-line "b,2," -- pmf --epsilon 1 "$d/longest.csv"
expect_ok stdin-dash -r '^(alice|bob|carol|dave)$' -- select --epsilon 1 - < "$d/basic.csv"
expect_ok stdin-default "alice,10," "dave,10," -- pmf --epsilon 1 < "$d/basic.csv"
fixture crlf-blank.csv 'a,1\r\n\r\n  \r\n# c\r\nb,2'
expect_ok crlf-blank-lines-no-final-newline -r '^a,1,[0-9.]+,[0-9.]+,1/4$' -r '^b,2,[0-9.]+,[0-9.]+,3/4$' -- pmf --base 1/2^1 --exact "$d/crlf-blank.csv"
fixture bom.csv '\357\273\277label,score\na,1\nb,2\n'
expect_ok bom-at-start -r '^a,1,[0-9.]+,[0-9.]+,1/4$' -r '^b,2,[0-9.]+,[0-9.]+,3/4$' -- pmf --base 1/2^1 --exact "$d/bom.csv"
expect_ok epsilon-huge-takes-the-smallest-base "base 1/2^64" "gap cap 1" -- params --epsilon 1e999999999

# ------------------------------------------------------------------ outputs

expect_ok select-text -r '^(alice|bob|carol|dave)$' -- select --epsilon 1 "$d/basic.csv"
expect_ok select-json -r '^\{"choice": "(alice|bob|carol|dave)", "index": [0-3]\}$' -- select --epsilon 1 --json "$d/basic.csv"
expect_ok select-count-json-seed \
    -r '^\{"choices": \["[a-z]+", "[a-z]+", "[a-z]+"\], "indices": \[[0-3], [0-3], [0-3]\]\}$' \
    -e "dpsel: warning: --seed gives a deterministic stream" \
    -e "3 selections, each epsilon <= 1.0000000000000000; together epsilon <= 3.0000000000000000" \
    -- select --epsilon 1 --count 3 --json --seed 1 "$d/basic.csv"
expect_ok same-seed-same-output -d -e "warning: --seed" -- select --epsilon 1 --count 20 --mechanism em --seed 0123abcdef "$d/basic.csv"
expect_ok pmf-json '"mechanism": "pf"' '"base": {"x": "' '"epsilon": "1.0000000000000000"' '"gap_cap": 89' \
    '"candidates": [{"label": "alice", "score": "10", "probability": "' '"expected_error": "' \
    -- pmf --epsilon 1 --json "$d/basic.csv"
expect_ok pmf-json-exact '{"label": "a", "score": "1", "probability": "3/4", "enclosure": ["0.750000000000000000000000000000000000", "0.750000000000000000000000000000000000"]}' \
    '"expected_error": "1/4", "expected_error_enclosure": ["0.250000000000000000000000000000000000", "0.250000000000000000000000000000000000"], "utility_bound": {' \
    -- pmf --base 1/2^1 --json --exact "$d/two.csv"
# The utility theorem beside the pmf (spec/mechanisms.md §15): EM at base 1/2 on basic.csv has weights 1, 1/2, 1/8, 1 (Z = 21/8), so
# B_1 = (ln 2 + 1) / ln 2 = 2.44 takes carol (gap 3) alone, 1/21, and B_2 =
# 3.89 none; PF's lines say the theorem is EM's; a gap cap of 2 counts
# carol's gap as 2 (1/4 of 11/4: 1/11); monotonic scores have
# ln(1/base) = eps / D, twice the general one; a resolution scales B_t.
expect_ok pmf-utility-em "# expected error 0.33333333333333333 in [" \
    "# utility theorem (EM): P(error >= B_t) <= e^-t, B_t = (ln(n/|OPT|) + t) / ln(1/base), n 4, |OPT| 2${nl}# t 1: B_t 2.4426950408889635, P(error >= B_t) in [0.047619047619047619, 0.04761904761904762], e^-t 0.36787944117144233${nl}# t 2: B_t 3.8853900817779269, P(error >= B_t) in [0, 0], e^-t 0.1353352832366127${nl}# t 5: B_t 8.2134752044448171, P(error >= B_t) in [0, 0], e^-t 0.0067379469990854671${nl}" \
    -- pmf --base 1/2^1 --mechanism em "$d/basic.csv"
expect_ok pmf-utility-exact "# t 1: B_t 2.4426950408889635, P(error >= B_t) in [0.047619047619047619, 0.04761904761904762]" -- pmf --base 1/2^1 --mechanism em --exact "$d/basic.csv"
expect_ok pmf-utility-pf "# EM's utility theorem, not claimed for PF, for comparison: P(error >= B_t) <= e^-t" \
    -r '^# t 1: B_t 2\.4426950408889635, P\(error >= B_t\) in \[0\.03[0-9]+, 0\.03[0-9]+\], e\^-t 0\.36787944117144233$' -- pmf --base 1/2^1 "$d/basic.csv"
expect_ok pmf-utility-json '"utility_bound": {"theorem": "em", "applies": true, "candidates": 4, "optimal": 2, "tails": [{"t": 1, "bound": "2.4426950408889635", "probability_enclosure": ["0.047619047619047619", "0.04761904761904762"], "e_minus_t": "0.36787944117144233"}, {"t": 2, "bound": "3.8853900817779269", "probability_enclosure": ["0", "0"], "e_minus_t": "0.1353352832366127"}, {"t": 5, "bound": "8.2134752044448171", "probability_enclosure": ["0", "0"], "e_minus_t": "0.0067379469990854671"}]}}' \
    -- pmf --base 1/2^1 --mechanism em --json "$d/basic.csv"
expect_ok pmf-utility-json-pf '"utility_bound": {"theorem": "em", "applies": false, "candidates": 4, "optimal": 2, ' -- pmf --base 1/2^1 --json "$d/basic.csv"
expect_ok pmf-utility-capped "# t 1: B_t 2.4426950408889635, P(error >= B_t) in [0.090909090909090909, 0.09090909090909091]" \
    "# t 2: B_t 3.8853900817779269, P(error >= B_t) in [0, 0]" -- pmf --base 1/2^1 --gap-cap 2 --mechanism em "$d/basic.csv"
expect_ok pmf-utility-monotonic "# t 1: B_t 6.1067376022224113, P(error >= B_t) in [0, 0]" -- pmf --epsilon 0.277258872223978 --monotonic --mechanism em "$d/basic.csv"
# the widest gap, 2^64 - 1, is past B_t at epsilon 1, and short of it when
# beta = 1 - 2^-64 puts B_1 near 3.1e19; one candidate has no error
expect_ok pmf-utility-widest "# t 5: B_t 11.386294361119891, P(error >= B_t) in [4.7194952715261234e-20, 4.7194952715261235e-20]" -- pmf --epsilon 1 --mechanism em "$d/extremes.csv"
expect_ok pmf-utility-beyond "# t 1: B_t 3.1233052718912208e+19, P(error >= B_t) in [0, 0]" -- pmf --base 18446744073709551615/2^64 --mechanism em "$d/extremes.csv"
fixture alone.csv 'solo,5\n'
expect_ok pmf-utility-alone "n 1, |OPT| 1${nl}# t 1: B_t 2.0000000000000001, P(error >= B_t) in [0, 0]" -- pmf --epsilon 1 "$d/alone.csv"
# a tail of 1e-86 over 10 of 11 candidates (gaps of 100 under a cap of
# 100): 1 minus the best's probability is too wide for it, so the tail is
# summed directly (not [-0, 1e-36])
fixture tiny-tail.csv 'best,100\nf1,0\nf2,0\nf3,0\nf4,0\nf5,0\nf6,0\nf7,0\nf8,0\nf9,0\nf10,0\n'
expect_ok pmf-utility-tiny-tail "# t 5: B_t 3.6989476363991853, P(error >= B_t) in [1.3838965267367375e-86, 1.3838965267367376e-86]" -- pmf --epsilon 2 --monotonic --gap-cap 100 --mechanism em "$d/tiny-tail.csv"
expect_ok pmf-utility-resolution "# t 1: B_t 0.61067376022224086, P(error >= B_t) in [0.030417800923186175, 0.030417800923186176]" \
    -- pmf --base 1/2^1 --sensitivity 0.25 --resolution 0.25 --mechanism em "$d/basic.csv"
expect_ok pmf-exact-pf "# mechanism pf, base 1/2^1" -r '^a,1,[0-9.]+,[0-9.]+,3/4$' -r '^b,0,[0-9.]+,[0-9.]+,1/4$' "# expected error 1/4" -- pmf --base 1/2^1 --exact "$d/two.csv"
expect_ok pmf-exact-large -r '^alice,10,0\.[0-9]{36},0\.[0-9]{36},[0-9]+/[0-9]+$' \
    -r '^# expected error [0-9]+/[0-9]+ in \[0\.[0-9]{36}, 0\.[0-9]{36}\]$' -- pmf --epsilon 1 --exact "$d/basic.csv"
expect_ok pmf-text-enclosure "label,score,lower,upper,probability" "a,1,0.750000000000000000000000000000000000,0.750000000000000000000000000000000000,0.75000000000000000" \
    "# expected error 0.25000000000000000 in [0.250000000000000000000000000000000000, 0.250000000000000000000000000000000000]" \
    -- pmf --base 1/2^1 "$d/two.csv"
# Beyond the exact rationals: decimals and enclosures (beyond-exact.csv).
expect_ok pmf-beyond-exact -s -r '^best,1000,0\.999999999999999903344736839144998[0-9]*,0\.999999999999999903344736839144998[0-9]*,0\.99999999999999990$' \
    -- pmf --epsilon 1 "$d/beyond-exact.csv"
expect_ok pmf-beyond-exact-json '"probability": "0.99999999999999990", "enclosure": ["0.999999999999999903344736839144998' \
    -- pmf --epsilon 1 --json "$d/beyond-exact.csv"
expect_ok pmf-sum-pf -s -- pmf --epsilon 1 "$d/basic.csv"
expect_ok pmf-sum-em -s -- pmf --epsilon 1 --mechanism em "$d/basic.csv"
expect_ok pmf-sum-pf-small-epsilon -s -- pmf --epsilon 0.01 "$d/basic.csv"
expect_ok params-json '{"base": {"x": "' '"epsilon": "1.0000000000000000"' '"epsilon_requested": "1"' '"sensitivity": "1"' '"monotonic": false' '"gap_cap": 89}' -- params --epsilon 1 --json
expect_ok params-json-base '"base": {"x": "1", "y": 1}' '"epsilon_requested": null' '"sensitivity": "3"' '"monotonic": true' -- params --base 1/2^1 --sensitivity 3 --monotonic --json
expect_ok params-text "epsilon <= 1.0000000000000000" "epsilon requested 1" "sensitivity 1" "monotonic no" -- params --epsilon 1
expect_ok params-lowest-terms "base 1/2^2" -- params --base 2/2^3
expect_ok params-gap-cap-max "gap cap 1048576" -- params --base 1/2^1 --gap-cap 1048576
expect_ok params-monotonic "epsilon <= 0.6931471805599453" "monotonic yes" -m 0.693147180559945309 -- params --base 1/2^1 --monotonic
expect_ok params-not-monotonic "epsilon <= 1.386294361119890" "monotonic no" -m 1.386294361119890618 -- params --base 1/2^1
expect_ok params-sensitivity-2 "epsilon <= 1.386294361119890" -m 1.386294361119890618 -- params --base 1/2^1 --sensitivity 2 --monotonic
expect_ok help "usage: dpsel select" -- --help
# a write error is an error, for --help too
"$tool" --help > /dev/full 2> "$work/err"
if [ $? -eq 4 ] && grep -q "cannot write the output" "$work/err"; then
    passed=$((passed + 1))
else
    failed=$((failed + 1)); echo "FAIL help-write-error: status or message wrong"
fi
expect_ok help-after-command "usage: dpsel select" -- select --help
expect_ok version "dpsel 0.1.0" "License: ISC" -- --version

# ========================================================== streamed select

# select with PF on a regular file streams it (stream_select.c): the same
# checks and messages as the in-memory path (standard input, --hardened,
# EM), in passes. One candidate 1000 above the rest wins but with
# probability below 5000 * 2^-64, so the label and index are known.
awk 'BEGIN { print "label,score"; for (i = 0; i < 5000; i++) print "c" i "," (i == 3999 ? 1000 : i % 7) }' > "$d/stream.csv"
awk 'BEGIN { for (i = 0; i < 5000; i++) print (i == 3999 ? 1000 : i % 7) }' > "$d/stream-scores.csv"
awk 'BEGIN { print "label,score"; for (i = 0; i < 5000; i++) print "c" (i == 4500 ? 123 : i) "," i % 7 }' > "$d/stream-dup.csv"
awk 'BEGIN { print "label,score"; for (i = 0; i < 5000; i++) print "c" i "," (i == 4900 ? "12x" : i % 7) }' > "$d/stream-bad.csv"
fixture mixed-dup.csv '5\nx,3\n0,4\n'
expect_ok stream-labels '{"choice": "c3999", "index": 3999}' -- select --epsilon 1 --json "$d/stream.csv"
expect_ok stream-scores-only -r '^3999$' -- select --epsilon 1 "$d/stream-scores.csv"
expect_ok stream-count-3 '{"choices": ["c3999", "c3999", "c3999"], "indices": [3999, 3999, 3999]}' \
    -e "3 selections, each epsilon <= 1.0000000000000000" -- select --epsilon 1 --count 3 --json "$d/stream.csv"
expect_ok stream-scores-only-count-3 '{"choices": ["3999", "3999", "3999"], "indices": [3999, 3999, 3999]}' \
    -e "3 selections" -- select --epsilon 1 --count 3 --json "$d/stream-scores.csv"
expect_ok stream-count-seeded -d -e "warning: --seed" -r '^c[0-9]+$' -- select --epsilon 0.001 --count 5 --seed 5eed "$d/stream.csv"
expect_ok stream-crlf -r '^(a|b)$' -- select --epsilon 1 "$d/crlf.csv"
expect_ok stream-comments -r '^(x|y)$' -- select --epsilon 1 "$d/comments.csv"
expect_ok stream-bom-header -r '^(a|b)$' -- select --epsilon 1 "$d/bom.csv"
expect_ok stream-bin-count -r '^(0|1)$' -- select --epsilon 1 "$d/bin-count.csv"
expect_ok stream-no-final-newline -r '^(a|b)$' -- select --epsilon 1 "$d/crlf-blank.csv"
expect_error stream-duplicate "$d/stream-dup.csv:4502: duplicate label (first on line 125)" -- select --epsilon 1 "$d/stream-dup.csv"
expect_error stream-duplicate-in-memory "<stdin>:4502: duplicate label (first on line 125)" -- select --epsilon 1 - < "$d/stream-dup.csv"
# a `score` line's label is its position: '0' on line 1, then a label '0'
expect_error stream-duplicate-position "$d/mixed-dup.csv:3: duplicate label (first on line 1)" -- select --epsilon 1 "$d/mixed-dup.csv"
expect_error stream-duplicate-position-in-memory "<stdin>:3: duplicate label (first on line 1)" -- select --epsilon 1 < "$d/mixed-dup.csv"
expect_error stream-bad-line-late "$d/stream-bad.csv:4902: score is not an integer${nl}" -- select --epsilon 1 --count 2 "$d/stream-bad.csv"

# =================================================== end of streamed select

# =========================================================== hardened input

# Lines are read into a bounded buffer: a line longer than 4096 bytes is
# rejected as soon as it is seen, without holding it. Under a memory limit
# an ENOMEM must not end the file there, silently dropping the best
# candidate after it (exit 0), and /dev/zero must not grow to the limit.
awk 'BEGIN { s = "x"; while (length(s) < 67108864) s = s s; print "a,1"; print s ",5"; print "best,1000" }' > "$d/long-line.csv"
cp "$d/long-line.csv" "$d/long-line-b.csv"
limit_kb=100000
# AddressSanitizer reserves terabytes of address space: no ulimit -v there
if ! grep -qa __asan_init "$tool" && (ulimit -v $limit_kb && "$tool" --version) > /dev/null 2>&1; then
    printf '#!/bin/sh\nulimit -v %s\nexec "%s" "$@"\n' "$limit_kb" "$tool" > "$work/limited"
    chmod 755 "$work/limited"
    real_tool=$tool
    tool=$work/limited
    expect_error long-line-limited-stream "$d/long-line.csv:2: line longer than 4096 bytes" -- select --epsilon 1 "$d/long-line.csv"
    expect_error long-line-limited-memory "<stdin>:2: line longer than 4096 bytes" -- select --epsilon 1 - < "$d/long-line.csv"
    expect_error long-line-limited-pmf "$d/long-line.csv:2: line longer than 4096 bytes" -- pmf --epsilon 1 "$d/long-line.csv"
    expect_error long-line-limited-audit "$d/long-line.csv:2: line longer than 4096 bytes" -- audit --epsilon 1 "$d/long-line.csv" "$d/long-line-b.csv"
    expect_error dev-zero "/dev/zero:1: line longer than 4096 bytes" -- select --epsilon 1 /dev/zero
    expect_failure count-out-of-memory "out of memory for --count 4294967295" -- select --epsilon 1 --count 4294967295 "$d/basic.csv"
    tool=$real_tool
else
    echo "skip memory-limited cases: a sanitizer build, or the tool does not run under ulimit -v $limit_kb"
fi

# Numbers that may pass 2^53 are JSON strings.
expect_ok params-json-big-sensitivity '"sensitivity": "18446744073709551615"' -- params --base 1/2^1 --sensitivity 18446744073709551615 --json
expect_ok pmf-json-big-scores '{"label": "lo", "score": "-9223372036854775808", ' '{"label": "hi", "score": "9223372036854775807", ' -- pmf --base 1/2^1 --json "$d/extremes.csv"
# The total of --count when D x N passes 2^64: 3 x 2 (2^64 - 1) ln 2, rounded up.
expect_ok composition-beyond-2-64 -r '^(alice|bob|carol|dave)$' -e "warning: --seed" \
    -e "3 selections, each epsilon <= 2.5572617290405312e+19; together epsilon <= 7.6717851871215934e+19 (basic composition)" \
    -- select --base 1/2^1 --sensitivity 18446744073709551615 --count 3 --seed 1 "$d/basic.csv"

# C1 controls (U+0080..U+009F: CSI, NEL...) are control characters too.
bad_line c1-csi   'a\302\233[2Jb,1' "label is not valid UTF-8 text without control characters${nl}"
bad_line c1-nel   'a\302\205,1'     "label is not valid UTF-8 text without control characters${nl}"
bad_line c1-first '\302\200x,1'     "label is not valid UTF-8 text without control characters${nl}"
fixture c1-memory.csv 'a,1\nb\302\237,2\n'
expect_error c1-in-memory "$d/c1-memory.csv:2: label is not valid UTF-8 text without control characters${nl}" -- pmf --epsilon 1 "$d/c1-memory.csv"
fixture nbsp.csv 'a\302\240b,1\nc,2\n'
expect_ok nbsp-label-accepted -r '^a..b,1,' -- pmf --epsilon 1 "$d/nbsp.csv"

# A line starting with # is a comment; one that has the form of a candidate
# (#text,integer) is refused rather than skipped: labels cannot start with #.
fixture hash-label.csv 'label,score\na,1\n#dp,100\n'
fixture hash-label-indented.csv 'a,1\n  # b , -7 \n'
expect_error hash-label-stream "$d/hash-label.csv:3: a comment that looks like a candidate (labels cannot start with #)" -- select --epsilon 1 "$d/hash-label.csv"
expect_error hash-label-memory "<stdin>:3: a comment that looks like a candidate (labels cannot start with #)" -- pmf --epsilon 1 < "$d/hash-label.csv"
expect_error hash-label-indented "$d/hash-label-indented.csv:2: a comment that looks like a candidate (labels cannot start with #)" -- select --epsilon 1 "$d/hash-label-indented.csv"
fixture hash-comments.csv '# label,score\n#,\n# total, 3 votes\n#5\na,1\n'
expect_ok comments-not-candidates -r '^a$' -- select --epsilon 1 "$d/hash-comments.csv"

# Exit statuses are documented in --help.
expect_ok help-exit-status "exit status: 0 success" "2 bad input" "4 could not complete" -- --help

# ==================================================== end of hardened input

# ================================================ histogram tasks and curve

fixture hist.csv 'bin,count\n0,1\n1,2\n2,3\n3,4\n'
fixture hist-negative.csv 'bin,count\n0,3\n1,-1\n'
fixture hist-overflow.csv 'a,9223372036854775807\nb,1\n'
# median of 1,2,3,4: the 5th of 10 records is in bin 2 (spec/mechanisms.md §7)
expect_ok task-median-scores "0,-8," "1,-4," "2,0," "3,-3," -s -- pmf --task median --epsilon 1 "$d/hist.csv"
expect_ok task-median-not-monotonic "epsilon <= 1.386294361119890" -r '^0,-1,[0-9.]+,[0-9.]+,1/4$' -r '^1,0,[0-9.]+,[0-9.]+,3/4$' -- pmf --task median --base 1/2^1 --exact "$d/bin-count.csv"
expect_ok task-mode-monotonic "epsilon <= 0.6931471805599453" -r '^0,6,[0-9.]+,[0-9.]+,1/4$' -r '^1,7,[0-9.]+,[0-9.]+,3/4$' -- pmf --task mode --base 1/2^1 --exact "$d/bin-count.csv"
expect_ok task-median-select -r '^[0-3]$' -- select --task median --epsilon 1 "$d/hist.csv"
expect_error task-unknown "--task must be mode or median: 'mean'" -- pmf --task mean --epsilon 1 "$d/hist.csv"
expect_error task-with-monotonic "--task sets the sensitivity and monotonicity itself: '--monotonic'" -- pmf --task median --monotonic --epsilon 1 "$d/hist.csv"
expect_error task-with-sensitivity "--task sets the sensitivity and monotonicity itself: '--sensitivity'" -- select --task mode --sensitivity 2 --epsilon 1 "$d/hist.csv"
expect_error task-with-params "option does not apply to this command: '--task'" -- params --task mode --epsilon 1
expect_error task-negative-count "$d/hist-negative.csv:3: --task needs counts >= 0${nl}" -- pmf --task mode --epsilon 1 "$d/hist-negative.csv"
expect_error task-count-overflow "$d/hist-overflow.csv: --task: the counts add up to more than 9223372036854775807" -- pmf --task median --epsilon 1 "$d/hist-overflow.csv"

# curve: 25 log-spaced epsilons from 0.01 to 10 by default; two candidates of
# gap 1 have PF error p/2 and EM error p/(1+p) with p = e^(-epsilon/2).
curve_head='epsilon,epsilon_realised,error_pf,error_em,ratio,em_bound,tail_pf,tail_em'
expect_ok curve-default "$curve_head" -r '^0\.01,0\.0100000000000000' -r '^10,' -r '^0\.0133352,' -d -- curve --task mode "$d/bin-count.csv"
expect_ok curve-list "$curve_head" -r '^0\.5,0\.50000000000000000,0\.3894003915357024[0-9],0\.4378234991142019[0-9],1\.124' -- curve --epsilons 0.5,1 "$d/two.csv"
expect_ok curve-json '{"candidates": 2, "sensitivity": "1", "monotonic": false, "tail_probability": 0.05, "points": [{"epsilon": "0.5", "epsilon_realised": "0.50000000000000000", "error_pf": "' '"em_bound": ' '"tail_em": ' -- curve --epsilons 0.5,1 --json "$d/two.csv"
expect_ok curve-target "mechanism,epsilon,epsilon_realised,expected_error" -r '^pf,3\.219[0-9]*,3\.219[0-9]*,0\.099' -r '^em,4\.394[0-9]*,4\.394[0-9]*,0\.099' "# epsilon ratio em/pf 1.36" -- curve --target 0.1 "$d/two.csv"
expect_ok curve-target-unreachable '{"target": "1e-300", "pf": null, "em": null, "epsilon_ratio_em_pf": null}' -- curve --target 1e-300 --json "$d/two.csv"
expect_ok curve-stdin "$curve_head" -- curve --epsilons 1:2:2 < "$d/two.csv"
expect_error curve-epsilons-zero "--epsilons must be LOW:HIGH:COUNT" "'0:1:5'" -- curve --epsilons 0:1:5 "$d/two.csv"
expect_error curve-epsilons-falling "--epsilons must be" "'1:0.1:5'" -- curve --epsilons 1:0.1:5 "$d/two.csv"
expect_error curve-epsilons-count "--epsilons must be" "'0.1:1:1001'" -- curve --epsilons 0.1:1:1001 "$d/two.csv"
expect_error curve-epsilons-empty-item "--epsilons must be" "'1,,2'" -- curve --epsilons 1,,2 "$d/two.csv"
expect_error curve-epsilons-bad-item "--epsilons: epsilon 'abc'" -- curve --epsilons 1,abc "$d/two.csv"
expect_error curve-epsilons-too-small "--epsilons: epsilon '1e-30'" -- curve --epsilons 1e-30,1 "$d/two.csv"
expect_error curve-target-zero "--target must be a positive decimal number: '0'" -- curve --target 0 "$d/two.csv"
expect_error curve-target-negative "--target must be a positive decimal number: '-1'" -- curve --target -1 "$d/two.csv"
expect_error curve-with-epsilon "option does not apply to this command: '--epsilon'" -- curve --epsilon 1 "$d/two.csv"
expect_error curve-with-mechanism "curve prints PF's and EM's errors always; --mechanism rnm adds report noisy max's: it takes rnm only, not: 'em'" -- curve --mechanism em "$d/two.csv"
expect_error epsilons-with-pmf "option does not apply to this command: '--epsilons'" -- pmf --epsilon 1 --epsilons 1,2 "$d/two.csv"
expect_error curve-bad-file "$d/bad-stdin.csv:2: score is not an integer${nl}" -- curve "$d/bad-stdin.csv"

# ========================================= end of histogram tasks and curve

# ==================================================================== audit

# expect_audit STATUS NAME [EXPECT]... -- ARGS...: expect_ok, but the exit
# status must be STATUS, the audit's verdict (0 holds, 1 broken, 3 undecided).
expect_audit() {
    ok_status=$1
    shift
    run_case ok "$@"
    ok_status=0
}

fixture audit-a.csv 'a,0\nb,0\n'
fixture audit-b.csv 'b,0\na,1\n'
fixture audit-far.csv 'a,2\nb,0\n'
fixture audit-other.csv 'a,0\nc,0\n'
fixture audit-three.csv 'a,0\nb,0\nc,0\n'
# HEPTH summed to 1024 bins (counts up to 1571 in bin 803); one record added
# to bin 500; two records added to the mode.
hepth=$(dirname "$0")/../examples/hepth.csv
awk -F, '/^[0-9]/ { s[int($1 / 4)] += $2 } END { print "bin,count"; for (i = 0; i < 1024; i++) print i "," s[i] }' "$hepth" > "$d/hepth-1024.csv"
awk -F, 'BEGIN { OFS = "," } $1 == 500 { $2 += 1 } { print }' "$d/hepth-1024.csv" > "$d/hepth-plus1.csv"
awk -F, 'BEGIN { OFS = "," } $1 == 803 { $2 += 2 } { print }' "$d/hepth-1024.csv" > "$d/hepth-plus2.csv"
# A breach of (16/9)(1 + ~2^-317) over 4097 candidates (no exact rationals):
# beyond the enclosures, so undecided (tests/test_audit.c explains it).
awk 'BEGIN { print "c0,10\nc1,0\nc2,-750"; for (i = 3; i < 4097; i++) print "c" i ",-900" }' > "$d/breach-a.csv"
awk 'BEGIN { print "c0,10\nc1,2\nc2,-751"; for (i = 3; i < 4097; i++) print "c" i ",-900" }' > "$d/breach-b.csv"

# PF, monotonic: P_b(b) / P_a(b) = e^epsilon exactly, proved exactly; labels
# matched in any order.
expect_audit 0 audit-tight "distance 1${nl}direction b >= a${nl}neighbours yes" "output b${nl}ratio P_a/P_b" "decided exactly 1${nl}verdict holds" -d -- audit --epsilon 1 --monotonic "$d/audit-a.csv" "$d/audit-b.csv"
expect_audit 0 audit-em "mechanism em" "verdict holds" -- audit --epsilon 1 --monotonic --mechanism em "$d/audit-a.csv" "$d/audit-b.csv"
expect_audit 0 audit-json '{"mechanism": "pf", "base": {"x": "2797128963144291325", "y": 62}, "sensitivity": "1", "monotonic": false, "gap_cap": 89, "distance": "1", "direction": "b >= a", "neighbours": true, "loss": ["' '"output": "b", "output_index": 1, "ratio": "P_a/P_b", "epsilon": "1.0000000000000000", "decided_exactly": 0, "verdict": "holds"}' -- audit --epsilon 1 --json "$d/audit-a.csv" "$d/audit-b.csv"
# a sensitivity too small for the pair: broken, with a warning naming it
expect_audit 1 audit-too-small "distance 2" "neighbours no" "verdict broken" -e "are not neighbours for sensitivity 1, monotonic: the candidate of $d/audit-a.csv:1 moves by more;" -- audit --epsilon 1 --monotonic "$d/audit-a.csv" "$d/audit-far.csv"
expect_audit 0 audit-d2 "neighbours yes" "verdict holds" -- audit --epsilon 1 --monotonic --sensitivity 2 "$d/audit-a.csv" "$d/audit-far.csv"
expect_audit 0 audit-hepth-pf "neighbours yes" "output 500" -r '^decided exactly [1-9]' "verdict holds" -- audit --task mode --epsilon 0.01 "$d/hepth-1024.csv" "$d/hepth-plus1.csv"
expect_audit 0 audit-hepth-median "neighbours yes" "verdict holds" -- audit --task median --epsilon 0.01 --mechanism em "$d/hepth-1024.csv" "$d/hepth-plus1.csv"
expect_audit 1 audit-hepth-too-small "distance 2" "verdict broken" -e "the candidate of $d/hepth-1024.csv:805 moves by more;" -- audit --task mode --epsilon 0.01 --mechanism em "$d/hepth-1024.csv" "$d/hepth-plus2.csv"
expect_audit 3 audit-undecided "verdict undecided" -e "not neighbours" -- audit --base 3/2^2 --gap-cap 1000 --sensitivity 2 --monotonic "$d/breach-a.csv" "$d/breach-b.csv"
expect_audit 0 audit-stdin "verdict holds" -- audit --epsilon 1 - "$d/audit-b.csv" < "$d/audit-a.csv"
# RNM: the notebook's scale D / epsilon (--monotonic) on a pair that moves
# one score up and one down, at a gap of 11: loss 1.83 > 1, broken; at
# 2 D / epsilon it holds (loss 0.857).
fixture rnm-audit-a.csv 'a,11\nb,0\n'
fixture rnm-audit-b.csv 'a,10\nb,1\n'
expect_audit 1 audit-rnm-notebook "mechanism rnm${nl}scale 1/1" "gap cap none" "loss >= 1.83294591533683380800845613639981069" "epsilon = 1${nl}decided exactly 0${nl}verdict broken" -e "are not neighbours for sensitivity 1, monotonic: the candidate of $d/rnm-audit-a.csv:2 moves by more;" -- audit --epsilon 1 --monotonic --mechanism rnm "$d/rnm-audit-a.csv" "$d/rnm-audit-b.csv"
expect_audit 0 audit-rnm "scale 2/1" "neighbours yes" "loss <= 0.856899156359326670057482871416605261" "verdict holds" -- audit --epsilon 1 --mechanism rnm "$d/rnm-audit-a.csv" "$d/rnm-audit-b.csv"
expect_audit 0 audit-rnm-json '{"mechanism": "rnm", "base": null, "scale": "2/1", "sensitivity": "1", "monotonic": false, "gap_cap": null, "distance": "1"' '"epsilon": "1", "decided_exactly": 0, "verdict": "holds"}' -- audit --epsilon 1 --mechanism rnm --json "$d/rnm-audit-a.csv" "$d/rnm-audit-b.csv"
expect_error audit-one-file "audit needs two files: 'FILE_A FILE_B'" -- audit --epsilon 1 "$d/audit-a.csv"
expect_error audit-three-files "more than two FILEs" -- audit --epsilon 1 "$d/audit-a.csv" "$d/audit-b.csv" "$d/audit-b.csv"
expect_error audit-no-epsilon "a privacy parameter is required" -- audit "$d/audit-a.csv" "$d/audit-b.csv"
expect_error audit-other-labels "$d/audit-other.csv: no candidate with the label of $d/audit-a.csv:2: audit needs the same labels${nl}" -- audit --epsilon 1 "$d/audit-a.csv" "$d/audit-other.csv"
expect_error audit-counts "$d/audit-three.csv has 3 candidates but $d/audit-a.csv has 2" -- audit --epsilon 1 "$d/audit-a.csv" "$d/audit-three.csv"
expect_error audit-bad-b "$d/bad-stdin.csv:2: score is not an integer${nl}" -- audit --epsilon 1 "$d/audit-a.csv" "$d/bad-stdin.csv"
expect_error audit-missing-b "$d/none.csv: cannot open" -- audit --epsilon 1 "$d/audit-a.csv" "$d/none.csv"
expect_error audit-exact "option does not apply to this command: '--exact'" -- audit --epsilon 1 --exact "$d/audit-a.csv" "$d/audit-b.csv"

# ============================================================= end of audit

# ============================================================== exact layer

# --task median in audit: FILE_B's rows are put in FILE_A's order before the
# scores are built (the median depends on the order of the bins).  The same
# histogram reordered is the same dataset; reordered with one record added,
# a neighbour.
fixture hist-reordered.csv 'bin,count\n3,4\n1,2\n0,1\n2,3\n'
fixture hist-reordered-plus1.csv 'bin,count\n3,4\n1,3\n0,1\n2,3\n'
expect_audit 0 audit-median-reordered "distance 0" "neighbours yes" "verdict holds" -- audit --task median --epsilon 1 "$d/hist.csv" "$d/hist-reordered.csv"
expect_audit 0 audit-median-reordered-plus1 "distance 1" "neighbours yes" "verdict holds" -- audit --task median --epsilon 1 "$d/hist.csv" "$d/hist-reordered-plus1.csv"
expect_audit 0 audit-mode-reordered "distance 1" "verdict holds" -- audit --task mode --epsilon 1 "$d/hist.csv" "$d/hist-reordered-plus1.csv"
expect_error audit-task-negative-b "$d/hist-negative.csv:3: --task needs counts >= 0${nl}" -- audit --task median --epsilon 1 "$d/hist.csv" "$d/hist-negative.csv"
# --json: integers that may exceed 2^53 are strings
fixture extreme-a.csv 'x,9223372036854775807\ny,0\n'
fixture extreme-b.csv 'x,-9223372036854775808\ny,0\n'
expect_audit 1 audit-json-extremes '"sensitivity": "1", "monotonic": false, "gap_cap": 89, "distance": "18446744073709551615"' -e "not neighbours" -- audit --epsilon 1 --json "$d/extreme-a.csv" "$d/extreme-b.csv"
# curve at a large epsilon (base below 2^-53: ln(1/beta) = 79.98 / 2): EM's
# bound is (ln 2 + ln 20) / 39.99 = 0.0922 (it was 0, from log1p(-1)), and
# the tails, P(error >= bound) = P(b), are far below 1 (they were 1).
expect_ok curve-large-epsilon -r '^80,79\.98[0-9]*,[^,]+,[^,]+,[^,]*,0\.0922[0-9]*,[0-9.]+e-[0-9]+,[0-9.]+e-[0-9]+$' -- curve --epsilons 80 "$d/two.csv"
expect_ok curve-large-epsilon-json '"em_bound": 0.0922' -- curve --epsilons 80 --json "$d/two.csv"
# curve --target on two candidates at the int64 extremes: every pmf of the
# search comes from the enclosures (the exact rationals of up to 2^26 bits
# made it take 8 minutes).  Run with a hang guard of 300 s.
fixture extremes.csv 'a,9223372036854775807\nb,-9223372036854775808\n'
tool_unguarded=$tool
printf '#!/bin/sh\nexec timeout 300 "%s" "$@"\n' "$(cd "$(dirname "$tool")" && pwd)/$(basename "$tool")" > "$d/guarded-tool"
chmod +x "$d/guarded-tool"
tool=$d/guarded-tool
expect_ok curve-target-extremes "mechanism,epsilon,epsilon_realised,expected_error" -r '^pf,[0-9.e-]+,[0-9.e-]+,0\.99' -r '^em,[0-9.e-]+,[0-9.e-]+,0\.99' -- curve --target 1 "$d/extremes.csv"
tool=$tool_unguarded
awk 'BEGIN { for (i = 0; i < 4097; i++) print i % 3 }' > "$d/scores-4097.csv"
expect_error curve-target-too-many "curve --target: 4097 candidates, at most 4096" -- curve --target 1 "$d/scores-4097.csv"

# ======================================================= end of exact layer

# ==================================== decimal scores (spec/quantiles.md §5)

# same_as_integers NAME ARGS...: `select ARGS decimal.csv` prints what
# `select ARGS basic.csv` prints with integer scores: the decimals in units
# of 0.0001 are those integers, and the sensitivity 0.0001 is one unit.
fixture decimal.csv 'label,score\nalice,0.0010\nbob,0.0009\ncarol,0.0007\ndave,0.001\n'
same_as_integers() {
    name=$1
    shift
    problems=
    run select "$@" --seed 5 --count 40 --json "$d/basic.csv"
    cp "$work/out" "$work/integer.out"
    run select "$@" --seed 5 --count 40 --json --sensitivity 0.0001 "$d/decimal.csv"
    [ "$status" -eq 0 ] || problem "exit status $status: $(first_line "$work/err")"
    [ -s "$work/integer.out" ] || problem "no output with integer scores"
    cmp -s "$work/out" "$work/integer.out" || problem "choices differ from the integer scores'"
    record "$name"
}
same_as_integers decimal-pf-streamed --epsilon 1
same_as_integers decimal-em-in-memory --epsilon 1 --mechanism em
same_as_integers decimal-hardened --base 3/2^2 --hardened
expect_ok decimal-resolution -r '^(alice|bob|carol|dave)$' -- select --epsilon 1 --resolution 0.00005 --sensitivity 0.0001 "$d/decimal.csv"
expect_ok params-resolution-json '"sensitivity": "1000", "resolution": "0.001"' -- params --epsilon 1 --sensitivity 1 --resolution 0.001 --json
expect_ok params-decimal-sensitivity '"sensitivity": "6", "resolution": "0.25"' -- params --base 1/2^1 --sensitivity 1.5 --resolution 0.25 --json
expect_ok params-integer-resolution "sensitivity 1${nl}resolution 1${nl}" -- params --epsilon 1
expect_ok params-sensitivity-digits "sensitivity 25${nl}resolution 0.01${nl}" -- params --epsilon 1 --sensitivity 0.25
fixture finer.csv 'label,score\na,0.001\nb,0.00001\n'
expect_error decimal-finer-than-unit "$d/finer.csv:3: score is not a whole multiple of the unit 0.001 (" -- select --epsilon 1 --sensitivity 0.001 "$d/finer.csv"
expect_error decimal-finer-in-memory "$d/finer.csv:3: score is not a whole multiple of the unit 0.001 (" -- select --epsilon 1 --mechanism em --sensitivity 0.001 "$d/finer.csv"
fixture exponent.csv 'label,score\na,0.001\nb,1e-3\n'
expect_error decimal-exponent "$d/exponent.csv:3: score is not a decimal number${nl}" -- select --epsilon 1 --sensitivity 0.001 "$d/exponent.csv"
fixture beyond.csv 'label,score\na,0.001\nb,9223372036854775.808\n'
expect_error decimal-beyond-int64 "$d/beyond.csv:3: score out of the int64 range in units of 0.001${nl}" -- select --epsilon 1 --sensitivity 0.001 "$d/beyond.csv"
expect_error resolution-zero "--resolution must be a positive decimal number: '0'" -- select --epsilon 1 --resolution 0 "$d/decimal.csv"
expect_error resolution-text "--resolution must be a positive decimal number: 'fine'" -- params --epsilon 1 --resolution fine
expect_error sensitivity-not-multiple "--sensitivity must be a whole multiple of the score unit 0.001: '0.0015'" -- params --epsilon 1 --resolution 0.001 --sensitivity 0.0015
expect_error sensitivity-decimal-zero "--sensitivity must be a positive decimal number of at most 2^63-1 score units: '0.00'" -- params --epsilon 1 --sensitivity 0.00
expect_error sensitivity-point-alone "--sensitivity must be a positive decimal number: '1.'" -- params --epsilon 1 --sensitivity 1.
# pmf, curve and audit take decimal scores too, and report in the scores'
# own unit: scores with the unit's digits, expected errors E x unit (17
# significant digits: E's own, the unit being a power of ten here),
# sensitivities and distances as decimals.
# same_digits FILE_A FILE_B: the expected error of the pmf in FILE_B ("#
# expected error V in [...]") is that of FILE_A times 0.0001: the same
# significant digits, and the value within 1e-12 relative.
same_digits() {
    awk '
        function digits(v) { sub(/e.*/, "", v); gsub(/\./, "", v); sub(/^0+/, "", v); return v }
        FNR == 1 { file++ }
        /^# expected error / { e[file] = $4 }
        END {
            d = e[2] * 10000 - e[1]; if (d < 0) d = -d
            if (digits(e[1]) != digits(e[2]) || !(e[1] > 0) || d > 1e-12 * e[1]) {
                printf "expected error %s, not %s x 0.0001", e[2], e[1]; exit 1
            }
        }' "$1" "$2"
}
# integer_and_decimal ARGS...: `dpsel ARGS basic.csv` into $work/integer.out,
# then `dpsel ARGS --sensitivity 0.0001 decimal.csv` (the result of run).
integer_and_decimal() {
    problems=
    run "$@" "$d/basic.csv"
    cp "$work/out" "$work/integer.out"
    run "$@" --sensitivity 0.0001 "$d/decimal.csv"
    [ "$status" -eq 0 ] || problem "exit status $status: $(first_line "$work/err")"
}
# pmf_same_as_integers NAME ARGS...: `pmf ARGS` on decimal.csv (sensitivity
# 0.0001) prints the probabilities and enclosures of basic.csv exactly, the
# decimal scores and the expected error times 0.0001.
pmf_same_as_integers() {
    name=$1
    shift
    integer_and_decimal pmf "$@"
    grep -v '^#' "$work/integer.out" | cut -d, -f1,3- > "$work/integer.p"
    grep -v '^#' "$work/out" | cut -d, -f1,3- > "$work/decimal.p"
    [ -s "$work/integer.p" ] || problem "no output with integer scores"
    cmp -s "$work/integer.p" "$work/decimal.p" || problem "probabilities differ from the integer scores'"
    grep -q "^# mechanism .*, resolution 0.0001\$" "$work/out" || problem "no resolution in the header"
    grep -q '^alice,0\.0010,' "$work/out" && grep -q '^carol,0\.0007,' "$work/out" \
        || problem "scores not printed as decimals: $(grep '^alice' "$work/out")"
    why=$(same_digits "$work/integer.out" "$work/out") || problem "$why"
    record "$name"
}
pmf_same_as_integers pmf-decimal-pf --epsilon 1
pmf_same_as_integers pmf-decimal-em --epsilon 0.3 --mechanism em
pmf_same_as_integers pmf-decimal-base-cap --base 3/2^2 --gap-cap 2
fixture two-decimal.csv 'a,0.0001\nb,0\n'
expect_ok pmf-decimal-by-hand "# mechanism pf, base 1/2^1, epsilon <= 1.3862943611198907, gap cap 64, resolution 0.0001" \
    "a,0.0001,0.750000000000000000000000000000000000,0.750000000000000000000000000000000000,0.75000000000000000" \
    "b,0.0000,0.250000000000000000000000000000000000,0.250000000000000000000000000000000000,0.25000000000000000" \
    "# expected error 0.000025000000000000000 in [0.0000249999999999999999999999999999999999, 0.0000250000000000000000000000000000000001]" \
    -- pmf --base 1/2^1 --sensitivity 0.0001 "$d/two-decimal.csv"
expect_ok pmf-decimal-exact-json '"gap_cap": 64, "resolution": "0.0001", "candidates": [{"label": "a", "score": "0.0001", "probability": "3/4", ' \
    '{"label": "b", "score": "0.0000", "probability": "1/4", ' '"expected_error": "1/40000", ' \
    -- pmf --base 1/2^1 --sensitivity 0.0001 --exact --json "$d/two-decimal.csv"
expect_ok pmf-integer-resolution "# mechanism pf, base 1/2^1, epsilon <= 1.3862943611198907, gap cap 64, resolution 1${nl}" "a,1," "# expected error 1/4 in" -- pmf --base 1/2^1 --exact "$d/two.csv"
expect_ok pmf-integer-resolution-json '"gap_cap": 64, "resolution": "1", "candidates": [{"label": "a", "score": "1", ' -- pmf --base 1/2^1 --json "$d/two.csv"
# --resolution 0.25: a gap of one unit, printed with the unit's two digits;
# E = 1/4 of a unit, 1/16.
fixture quarters.csv 'a,0.25\nb,0\n'
expect_ok pmf-resolution "resolution 0.25${nl}" -r '^a,0\.25,[0-9.]+,[0-9.]+,3/4$' -r '^b,0\.00,[0-9.]+,[0-9.]+,1/4$' "# expected error 1/16 in" -- pmf --base 1/2^1 --sensitivity 0.25 --resolution 0.25 --exact "$d/quarters.csv"
expect_ok pmf-decimal-sensitivity "resolution 0.1${nl}" -r '^alice,10\.0,' -s -- pmf --epsilon 1 --sensitivity 0.5 "$d/basic.csv"
expect_error pmf-finer-than-unit "$d/finer.csv:3: score is not a whole multiple of the unit 0.001 (" -- pmf --epsilon 1 --sensitivity 0.001 "$d/finer.csv"
expect_error pmf-sensitivity-not-multiple "--sensitivity must be a whole multiple of the score unit 0.25: '0.1'" -- pmf --epsilon 1 --resolution 0.25 --sensitivity 0.1 "$d/basic.csv"
# curve: the same epsilons, realised epsilons, ratios and tails as the
# integer scores; the errors and EM's bound times 0.0001.
curve_same_as_integers() {
    name=$1
    shift
    integer_and_decimal curve "$@"
    grep -q '^# dpsel curve: 4 candidates (2 best), sensitivity 0.0001, not monotonic$' "$work/out" \
        || problem "sensitivity not in the decimals' unit: $(first_line "$work/out")"
    why=$(awk -F, '
        function digits(v) { sub(/e.*/, "", v); gsub(/\./, "", v); sub(/^0+/, "", v); return v }
        /^[0-9]/ && FNR == NR { line[FNR] = $0; next }
        /^[0-9]/ {
            split(line[FNR], a, ",")
            if (a[1] != $1 || a[2] != $2 || a[5] != $5 || a[7] != $7 || a[8] != $8) { print "row " FNR " differs: " $0; exit 1 }
            for (i = 3; i <= 4; i++)
                if (digits(a[i]) != digits($i)) { print "error " $i " is not " a[i] " x 0.0001"; exit 1 }
            d = $6 * 10000 - a[6]; if (d < 0) d = -d
            if (d > 1e-8 * a[6]) { print "em_bound " $6 " is not " a[6] " x 0.0001"; exit 1 }
            rows++
        }
        END { if (rows == 0) { print "no rows"; exit 1 } }' "$work/integer.out" "$work/out") || problem "$why"
    record "$name"
}
curve_same_as_integers curve-decimal --epsilons 0.5,1,4
curve_same_as_integers curve-decimal-capped --epsilons 0.01:10:5 --gap-cap 3
# --target ERR is in the decimals' unit: 0.00005 on decimal.csv is 0.5 on
# basic.csv, the same search to the same epsilons.
run curve --target 0.5 "$d/basic.csv"
sed -n 's/^\(pf\|em\),\([^,]*\),\([^,]*\),0\.\(.*\)$/\1,\2,\3,0.0000\4/p' "$work/out" > "$work/target.rows"
target_pf=$(sed -n 1p "$work/target.rows")
target_em=$(sed -n 2p "$work/target.rows")
expect_ok curve-decimal-target "# dpsel curve --target 0.00005: " "$target_pf" "$target_em" -r '^pf,0\.7[0-9]*,0\.7[0-9]*,0\.0000[0-9]{17}$' -- curve --target 0.00005 --sensitivity 0.0001 "$d/decimal.csv"
expect_ok curve-decimal-json '{"candidates": 4, "sensitivity": "0.0001", "monotonic": true, ' -r '"error_pf": "0\.0000[0-9]{17}", ' -- curve --epsilons 1 --json --monotonic --resolution 0.0001 --sensitivity 0.0001 "$d/decimal.csv"
expect_error curve-finer-than-unit "$d/finer.csv:3: score is not a whole multiple of the unit 0.001 (" -- curve --epsilons 1 --sensitivity 0.001 "$d/finer.csv"
# audit: the tight pair of audit-tight in units of 0.001: the same loss and
# verdict, the sensitivity and the distance as decimals.
fixture audit-a-decimal.csv 'a,0.000\nb,0.000\n'
fixture audit-b-decimal.csv 'b,0\na,0.001\n'
run audit --epsilon 1 --monotonic "$d/audit-a.csv" "$d/audit-b.csv"
audit_loss=$(grep '^loss' "$work/out")
expect_audit 0 audit-decimal "sensitivity 0.001${nl}monotonic yes" "distance 0.001${nl}direction b >= a${nl}neighbours yes" "$audit_loss" "output b${nl}ratio P_a/P_b" "decided exactly 1${nl}verdict holds" -- audit --epsilon 1 --monotonic --sensitivity 0.001 "$d/audit-a-decimal.csv" "$d/audit-b-decimal.csv"
expect_audit 0 audit-resolution-json '"sensitivity": "0.0010", "monotonic": true, "gap_cap": 89, "distance": "0.0010", "direction": "b >= a", "neighbours": true' '"verdict": "holds"}' -- audit --epsilon 1 --monotonic --resolution 0.0005 --sensitivity 0.001 --json "$d/audit-a-decimal.csv" "$d/audit-b-decimal.csv"
expect_audit 1 audit-decimal-too-small "sensitivity 0.0005" "distance 0.0010" "neighbours no" "verdict broken" -e "are not neighbours for sensitivity 0.0005, monotonic: the candidate of $d/audit-a-decimal.csv:1 moves by more;" -- audit --epsilon 1 --monotonic --sensitivity 0.0005 "$d/audit-a-decimal.csv" "$d/audit-b-decimal.csv"
# the largest distance, 2^64 - 1 units, printed exactly beyond the int64 range
fixture extreme-a-decimal.csv 'x,9223372036854775.807\ny,0\n'
fixture extreme-b-decimal.csv 'x,-9223372036854775.808\ny,0\n'
expect_audit 1 audit-decimal-extremes '"sensitivity": "0.001", "monotonic": false, "gap_cap": 89, "distance": "18446744073709551.615"' -e "the candidate of $d/extreme-a-decimal.csv:1 moves by more;" -- audit --epsilon 1 --json --sensitivity 0.001 "$d/extreme-a-decimal.csv" "$d/extreme-b-decimal.csv"
expect_error audit-finer-than-unit "$d/finer.csv:3: score is not a whole multiple of the unit 0.001 (" -- audit --epsilon 1 --sensitivity 0.001 "$d/audit-a-decimal.csv" "$d/finer.csv"
expect_error task-with-resolution "--task scores counts, which take no --resolution: '--resolution'" -- select --task mode --resolution 0.1 --epsilon 1 "$d/hist.csv"

# ====================================== quantiles (spec/quantiles.md §1-§4)

fixture ages.csv 'value\n34\n29\n41\n52\n38\n27\n45\n33\n61\n36\n'
fixture latencies.csv '# ms\n12.5\n 9.75 \n\n130.2\n11\r\n8.125\n'
fixture values-bad.csv 'value\n34\n29\nforty\n'
fixture values-label.csv '34\nalice,29\n'
fixture values-header-late.csv '34\nvalue\n'
fixture values-price.csv 'price\n34\n29\n'
fixture values-empty.csv '# none\n'
fixture values-comment.csv '#a,1\n3\n'
expect_ok quantile-median -r '^[0-9]+$' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_ok quantile-json -r '^\{"quantile": "0\.5", "value": "[0-9]+"\}$' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --json "$d/ages.csv"
expect_ok quantile-pf-stdin -r '^[0-9]+$' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --mechanism pf - < "$d/ages.csv"
expect_ok quantile-seeded -d -r '^[0-9]+$' -e 'for tests and reproducible audits only' -- quantile --quantile 0.9 --lower 0 --upper 120 --epsilon 2 --seed 7 "$d/ages.csv"
expect_ok quantile-count -r '^\{"quantile": "0\.5", "values": \["[0-9]+", "[0-9]+", "[0-9]+"\]\}$' -e 'quantile 0.5: 3 releases, each epsilon <= 1.0000000000000000' -e 'together epsilon <= 3.0000000000000000 (basic composition)' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --count 3 --json "$d/ages.csv"
expect_ok quantile-several -r '^\{"quantile": "0\.25", "value": "[0-9]+"\}$' -r '^\{"quantile": "0\.75", "value": "[0-9]+"\}$' -e 'quantile 0.25: 1 release, each epsilon <= 0.50000000000000000' -e 'together epsilon <= 1.0000000000000000 (basic composition)' -- quantile --quantile 0.25,0.75 --lower 0 --upper 120 --epsilon 0.5 --json "$d/ages.csv"
expect_ok quantile-decimals -r '^[0-9]+\.[0-9]{3}$' -- quantile --quantile 0.95 --lower 0 --upper 200.000 --epsilon 1 "$d/latencies.csv"
expect_ok quantile-resolution -r '^[0-9]+\.(00|25|50|75)$' -- quantile --quantile 0.5 --lower 0 --upper 200.00 --resolution 0.25 --epsilon 1 "$d/latencies.csv"
expect_ok quantile-no-values -r '^-?[0-9]+$' -- quantile --quantile 0.5 --lower -5 --upper 5 --epsilon 1 "$d/values-empty.csv"
expect_ok quantile-comment-like -r '^[0-9]+$' -- quantile --quantile 0.5 --lower 0 --upper 9 --epsilon 1 "$d/values-comment.csv"
expect_ok quantile-pmf -s '# quantile 0.5, mechanism em, base 2797128963144291325/2^62, epsilon <= 1.0000000000000000, sensitivity 1, gap cap 89, resolution 1' 'from,to,points,lower,upper,probability' '37,37,1,0.178312354178742523388049769398247679,0.178312354178742523388049769398247680,0.17831235417874252' '62,120,59,' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --pmf "$d/ages.csv"
expect_ok quantile-pmf-pf-json -r '^\{"quantile": "0\.5", "mechanism": "pf", .*"sensitivity": "1", "gap_cap": 89, "resolution": "1", "intervals": \[\{"lower": "0", "upper": "26", "points": "27", "probability": "0\.029968311750522491", "enclosure": \[' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --pmf --mechanism pf --json "$d/ages.csv"
expect_ok quantile-pmf-exact -r '^37,37,1,[0-9.]+,[0-9.]+,[0-9]+/[0-9]+$' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --pmf --exact "$d/ages.csv"
expect_ok quantile-em-2-to-40 -r '^[0-9]+$' -- quantile --quantile 0.5 --lower 0 --upper 1099511627775 --epsilon 1 "$d/ages.csv"
# a record more never refuses a release: b m past 2^63 for b = 10^18 (int64
# scores of the runs would take 9 values and refuse 10); only the pmf, an
# analysis, is refused
seq 1 10 > "$d/ten.csv"
expect_ok quantile-count-past-int64-scores -r '^[0-9]+$' -- quantile --quantile 0.100000000000000001 --lower 0 --upper 20 --epsilon 1 "$d/ten.csv"
expect_error quantile-pmf-past-int64-scores "$d/ten.csv: quantile 0.100000000000000001 of 10 values: the pmf's scores pass the int64 range (b m >= 2^63 for q = 100000000000000001/1000000000000000000); a release works, --pmf does not" -- quantile --quantile 0.100000000000000001 --lower 0 --upper 20 --epsilon 1 --pmf "$d/ten.csv"
expect_error quantile-line "$d/values-bad.csv:4: value is not a decimal number (" -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/values-bad.csv"
expect_error quantile-label-line "$d/values-label.csv:2: value is not a decimal number (" -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/values-label.csv"
expect_error quantile-header-late "$d/values-header-late.csv:2: value is not a decimal number (" -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/values-header-late.csv"
expect_error quantile-missing-quantile "quantile needs --quantile Q, --lower A and --upper B: '--quantile'" -- quantile --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_error quantile-missing-upper "quantile needs --quantile Q, --lower A and --upper B: '--upper'" -- quantile --quantile 0.5 --lower 0 --epsilon 1 "$d/ages.csv"
expect_error quantile-one "--quantile must be decimals strictly between 0 and 1, at most 18 fraction digits (a list Q1,Q2,...): '1'" -- quantile --quantile 0.5,1 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_error quantile-empty-item "--quantile must be decimals strictly between 0 and 1, at most 18 fraction digits (a list Q1,Q2,...): ''" -- quantile --quantile 0.5, --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_error quantile-percent "--quantile must be decimals strictly between 0 and 1, at most 18 fraction digits (a list Q1,Q2,...): '50%'" -- quantile --quantile 50% --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_error quantile-lower-text "--lower must be a decimal number: 'zero'" -- quantile --quantile 0.5 --lower zero --upper 120 --epsilon 1 "$d/ages.csv"
expect_error quantile-inverted "--lower 120 must not exceed --upper 0" -- quantile --quantile 0.5 --lower 120 --upper 0 --epsilon 1 "$d/ages.csv"
expect_error quantile-not-multiple "dpsel: --lower 0.1 is not a whole multiple of --resolution 0.25: give ends on the grid" -- quantile --quantile 0.5 --lower 0.1 --upper 120 --resolution 0.25 --epsilon 1 "$d/ages.csv"
expect_error quantile-upper-not-multiple "dpsel: --upper 10 is not a whole multiple of --resolution 7: give ends on the grid" -- quantile --quantile 0.5 --lower 0 --upper 10 --resolution 7 --epsilon 1 "$d/ages.csv"
expect_error quantile-ends-not-multiples "dpsel: --lower 1 and --upper 10 are not whole multiples of --resolution 7: give ends on the grid" -- quantile --quantile 0.5 --lower 1 --upper 10 --resolution 7 --epsilon 1 "$d/ages.csv"
expect_error quantile-upper-text "--upper must be a decimal number: '500k'" -- quantile --quantile 0.5 --lower 0 --upper 500k --epsilon 1 "$d/ages.csv"
expect_error quantile-rnm "dpsel: --mechanism rnm has no quantile form (report noisy max chooses among labelled scores): quantile takes --mechanism em or pf, not: 'rnm'" -- quantile --quantile 0.5 --lower 0 --upper 120 --mechanism rnm --epsilon 1 "$d/ages.csv"
expect_error quantile-joint-grid-too-large "dpsel: the grid from --lower 0 to --upper 9223372036854775806 has more than 2^62 points: use a coarser --resolution" -- quantile --quantile 0.25,0.75 --joint --lower 0 --upper 9223372036854775806 --epsilon 1 "$d/ages.csv"
expect_error quantile-header-not-value "$d/values-price.csv:1: value is not a decimal number (one a line: digits with an optional point and exponent, as 12.5 or -3e-7, or inf or nan; a header line, if any, must be value)" -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/values-price.csv"
expect_error quantile-resolution-zero "--resolution must be positive: '0.0'" -- quantile --quantile 0.5 --lower 0 --upper 120 --resolution 0.0 --epsilon 1 "$d/ages.csv"
expect_error quantile-em-too-large "--mechanism em takes grids of at most 4398046511103 points; this one has 4398046511104" -- quantile --quantile 0.5 --lower 0 --upper 4398046511103 --epsilon 1 "$d/ages.csv"
expect_error quantile-grid-too-large "has more than 2^62 points" -- quantile --quantile 0.5 --lower -9223372036854775808 --upper 9223372036854775807 --mechanism pf --epsilon 1 "$d/ages.csv"
# PF's distribution on a grid of 100001 points, past 32768: by quadrature
expect_ok quantile-pmf-pf-large -s '62,100000,99939,0.992316509802619858154768210855700758,0.992316509802619858154768210855700759,0.99231650980261986' -- quantile --quantile 0.5 --lower 0 --upper 100000 --mechanism pf --pmf --epsilon 1 "$d/ages.csv"
expect_error quantile-pmf-exact-too-large "quantile --pmf --exact: the exact rationals of quantile 0.5 (" "grid points) need 2^64 or more bits of weight arithmetic, beyond the limit of 17179869184 (2^34); drop --exact" -- quantile --quantile 0.5 --lower 0 --upper 5000 --mechanism pf --pmf --exact --epsilon 1 "$d/ages.csv"
expect_error quantile-pmf-count "--pmf computes the distribution and releases nothing: it takes no: '--count'" -- quantile --quantile 0.5 --lower 0 --upper 120 --pmf --count 2 --epsilon 1 "$d/ages.csv"
expect_error quantile-exact-alone "--exact applies to --pmf: '--exact'" -- quantile --quantile 0.5 --lower 0 --upper 120 --exact --epsilon 1 "$d/ages.csv"
expect_error quantile-sensitivity "option does not apply to this command: '--sensitivity'" -- quantile --quantile 0.5 --lower 0 --upper 120 --sensitivity 2 --epsilon 1 "$d/ages.csv"
expect_error quantile-hardened "option does not apply to this command: '--hardened'" -- quantile --quantile 0.5 --lower 0 --upper 120 --hardened --epsilon 1 "$d/ages.csv"
expect_error quantile-no-epsilon "a privacy parameter is required: give --epsilon E (such as --epsilon 1) or --base X/2^Y" -- quantile --quantile 0.5 --lower 0 --upper 120 "$d/ages.csv"
expect_error quantile-missing-file "$d/none.csv: cannot open: No such file or directory" -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/none.csv"
expect_ok quantile-pf-any-base -r '^[0-9]+$' -- quantile --quantile 0.5 --lower 0 --upper 120 --base 3/2^2 --gap-cap 1 --mechanism pf "$d/ages.csv"
# JointExp: all the quantiles in one release (spec/quantiles.md §8)
expect_ok quantile-joint -r '^[0-9]+$' -e 'quantiles 0.25,0.5,0.75 jointly: 1 release, each epsilon <= 1.0000000000000000 for all 3' -- quantile --joint --quantile 0.25,0.5,0.75 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_ok quantile-joint-json -r '^\{"quantile": "0\.5", "values": \["[0-9]+", "[0-9]+"\]\}$' -r '^\{"quantile": "0\.9", "values": \["[0-9]+", "[0-9]+"\]\}$' -e 'quantiles 0.5,0.9 jointly: 2 releases, each epsilon <= 2.0000000000000000 for all 2' -e 'together epsilon <= 4.0000000000000000 (basic composition)' -- quantile --joint --quantile 0.5,0.9 --lower 0 --upper 120 --epsilon 2 --count 2 --json "$d/ages.csv"
expect_ok quantile-joint-2-to-62 -r '^-?[0-9]+$' -e 'jointly: 1 release' -- quantile --joint --quantile 0.1,0.5 --lower -2305843009213693952 --upper 2305843009213693951 --epsilon 1 "$d/ages.csv"
expect_ok quantile-joint-no-values -r '^-?[0-9]+$' -e 'jointly: 1 release' -- quantile --joint --quantile 0.25,0.75 --lower -5 --upper 5 --epsilon 1 "$d/values-empty.csv"
expect_error quantile-joint-unsorted "--joint takes the quantiles in increasing order, each once: '0.5' comes after '0.9'" -- quantile --joint --quantile 0.9,0.5 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_error quantile-joint-repeated "--joint takes the quantiles in increasing order, each once: '0.50' comes after '0.5'" -- quantile --joint --quantile 0.5,0.50 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_error quantile-joint-pf "--joint is the exponential mechanism over tuples (JointExp, no PF form is defined): it takes --mechanism em only, not: 'pf'" -- quantile --joint --mechanism pf --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
# B n = 10^16 (B = 10^15, 10 values) released: a limit B n <= 2^52 would refuse it
expect_ok quantile-joint-past-2-to-52 -r '^[0-9]+$' -e 'jointly: 1 release' -- quantile --joint --quantile 0.000000000000001,0.5 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
# the one limit is public, B log2(1/beta) <= 16: the median (B = 2, D = 2) takes epsilon 22 (15.9), not 23 (16.6), whatever the values
expect_ok quantile-joint-decay-22 -r '^[0-9]+$' -e 'jointly: 1 release' -- quantile --joint --quantile 0.5 --lower 0 --upper 120 --epsilon 22 "$d/ages.csv"
expect_error quantile-joint-decay "--joint: epsilon 23 decays too fast for the quantiles 0.5 (B log2(1/beta) passes 16, B their least common denominator): use an epsilon of at most 22, which every set of quantiles takes" -- quantile --joint --quantile 0.5 --lower 0 --upper 120 --epsilon 23 "$d/ages.csv"
expect_error quantile-joint-decay-no-values "--joint: epsilon 23 decays too fast" -- quantile --joint --quantile 0.5 --lower -5 --upper 5 --epsilon 23 "$d/values-empty.csv"
expect_error quantile-joint-decay-base "--joint: base 1/2^9 decays too fast for the quantiles 0.5 (B log2(1/beta) passes 16, B their least common denominator): use a base nearer 1" -- quantile --joint --quantile 0.5 --lower 0 --upper 120 --base 1/2^9 "$d/ages.csv"
expect_error quantile-joint-grid "has more than 2^62 points" -- quantile --joint --quantile 0.5 --lower -9223372036854775808 --upper 9223372036854775807 --epsilon 1 "$d/ages.csv"
# --joint --pmf: each quantile's marginal (by hand for X = {0, 1}, q = 1/4, 3/4, base 1/2:
# tuples (0,0), (0,1), (1,1) weigh 1, 256, 16 over 273)
fixture values-0-1.csv '0\n1\n'
expect_ok quantile-joint-pmf-by-hand "# quantile 0.25 of the joint release of 0.25,0.75, mechanism em, base 1/2^1, epsilon <= 8.3177661667193438 for all 2, sensitivity 6, resolution 1, expected rank error 0.50000000000000000${nl}from,to,points,lower,upper,probability${nl}0,0,1,0.941391941391941391941391941391941391,0.941391941391941391941391941391941392,0.94139194139194139${nl}" "# quantile 0.75 of the joint release of 0.25,0.75, mechanism em, base 1/2^1, epsilon <= 8.3177661667193438 for all 2, sensitivity 6, resolution 1, expected rank error 0.50366300366300366${nl}" "1,1,1,0.996336996336996336996336996336996336,0.996336996336996336996336996336996337,0.99633699633699634${nl}" -d -- quantile --joint --pmf --quantile 0.25,0.75 --lower 0 --upper 1 --base 1/2^1 "$work/values-0-1.csv"
expect_ok quantile-joint-pmf-one -s "# quantile 0.5 of the joint release of 0.5, mechanism em" -- quantile --joint --pmf --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_ok quantile-joint-pmf-json -r '^\{"quantile": "0\.5", "joint": "0\.5,0\.9", "mechanism": "em", "base": \{"x": "[0-9]+", "y": [0-9]+\}, "epsilon": "2\.0000000000000000", "sensitivity": "18", "resolution": "1", "rank_error": "[0-9.e-]+", "rank_error_enclosure": \["[0-9.e-]+", "[0-9.e-]+"\], "intervals": \[\{"lower": "0", "upper": "[0-9]+", "points": "[0-9]+", "probability": "[0-9.e-]+", "enclosure": \["[0-9.e-]+", "[0-9.e-]+"\]\}, .*\]\}$' -r '^\{"quantile": "0\.9", "joint": "0\.5,0\.9", ' -- quantile --joint --pmf --json --quantile 0.5,0.9 --lower 0 --upper 120 --epsilon 2 "$d/ages.csv"
expect_ok quantile-joint-pmf-no-values "# quantile 0.25 of the joint release of 0.25,0.75" "expected rank error 0${nl}from,to,points,lower,upper,probability${nl}-5,5,11,1.00000000000000000000000000000000000,1.00000000000000000000000000000000000,1.0000000000000000${nl}" -- quantile --joint --pmf --quantile 0.25,0.75 --lower -5 --upper 5 --epsilon 1 "$d/values-empty.csv"
expect_error quantile-joint-pmf-exact "--joint --pmf gives enclosures (below 1e-30 relative) and correctly rounded decimals, no exact rationals: it takes no: '--exact'" -- quantile --joint --pmf --exact --quantile 0.5,0.9 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_ok quantile-joint-pmf-past-2-to-52 -s "# quantile 0.000000000000001 of the joint release of 0.000000000000001, mechanism em" -- quantile --joint --pmf --quantile 0.000000000000001 --lower 0 --upper 120 --epsilon 1 "$d/ages.csv"
expect_error quantile-joint-pmf-decay "--joint: epsilon 23 decays too fast" -- quantile --joint --pmf --quantile 0.5 --lower 0 --upper 120 --epsilon 23 "$d/ages.csv"

# One record never decides whether a release happens (spec/quantiles.md §6): every number is a value, clamped and rounded down,
# whatever its length, its exponent or its line's length; inf and nan too.
# digits N C: N copies of the character C.
digits() {
    awk -v n="$1" -v c="$2" 'BEGIN { while (n-- > 0) printf "%s", c }'
}
{
    printf 'value\n34\n29\n41\n'
    printf '1%s\n0.5%s\n-1e-1000\n1e200\n' "$(digits 200 0)" "$(digits 130 0)"
    printf -- '-0.%s1\n7.5e0\n75e-1\n' "$(digits 999 0)"
} > "$d/values-long.csv"
{ printf 'value\n34\n29\n41\n'; printf '%s\n' 120 0 0 120 0 7 7; } > "$d/values-clamped.csv"
{ printf 'value\n34\n'; printf '1%s\n2.%s\n' "$(digits 100000 0)" "$(digits 100000 9)"; } > "$d/values-long-lines.csv"
{ printf 'value\n34\n'; printf '%s\n' inf -Infinity NaN -nan +INF; } > "$d/values-special.csv"
expect_ok quantile-long-values -r '^[0-9]+$' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/values-long.csv"
expect_ok quantile-long-values-pmf -s '0,0,1,' '7,7,1,' '120,120,1,' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --pmf "$d/values-long.csv"
expect_ok quantile-long-lines -s '2,2,1,' '120,120,1,' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --pmf "$d/values-long-lines.csv"
expect_ok quantile-inf-nan -s '0,0,1,' '120,120,1,' -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --pmf "$d/values-special.csv"
expect_error quantile-not-a-number "$d/values-bad.csv:4: value is not a decimal number (one a line: digits with an optional point and exponent, as 12.5 or -3e-7, or inf or nan)" -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$d/values-bad.csv"
# The release on the long values is the release on their grid points.
problems=
run quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --seed 35 --count 20 "$d/values-long.csv"
check_ok_run
mv "$work/out" "$work/out.long"
run quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --seed 35 --count 20 "$d/values-clamped.csv"
cmp -s "$work/out" "$work/out.long" || problem "not the release of the values' grid points"
record quantile-long-values-as-points

# ============================ top-k and the accountant (spec/accounting.md)

expect_ok top-text -r '^(alice|bob|carol|dave)$' -e '1 list of the top 2 (2 selections, each epsilon <= 1.0000000000000000); together epsilon <= 2.0000000000000000 (basic composition)' -- select --epsilon 1 --top 2 "$d/basic.csv"
expect_ok top-json -r '^\{"choices": \["[a-z]+", "[a-z]+", "[a-z]+"\], "indices": \[[0-3], [0-3], [0-3]\]\}$' -e 'together epsilon <= 3.0000000000000000' -- select --epsilon 1 --top 3 --json --mechanism em "$d/basic.csv"
expect_ok top-count-json -r '^\{"choices": \[\["[a-z]+", "[a-z]+"\], \["[a-z]+", "[a-z]+"\]\], "indices": \[\[[0-3], [0-3]\], \[[0-3], [0-3]\]\]\}$' -e '2 lists of the top 2 (4 selections' -- select --epsilon 1 --top 2 --count 2 --json "$d/basic.csv"
expect_ok top-all-seeded -d -e 'for tests and reproducible audits only' -- select --epsilon 1 --top 4 --seed 5 "$d/basic.csv"
expect_ok top-one -r '^\{"choice": "[a-z]+", "index": [0-3]\}$' -- select --epsilon 1 --top 1 --json "$d/basic.csv"
expect_ok count-delta -e '3 selections, each epsilon <= 1.0000000000000000; together epsilon <= 3.0000000000000000 (basic composition); at delta 1e-6, epsilon <= 2.9999974405654831 (dp-optimal)' -- select --epsilon 1 --count 3 --delta 1e-6 "$d/basic.csv"
expect_ok count-delta-em -e 'at delta 1e-6, epsilon <= ' -e '(bounded-range)' -- select --epsilon 0.1 --count 10 --mechanism em --delta 1e-6 "$d/basic.csv"
expect_ok top-delta-adaptive -e '(zcdp)' -- select --epsilon 0.1 --top 4 --count 3 --mechanism em --delta 1e-6 "$d/basic.csv"
expect_ok quantile-delta -e '3 releases; together epsilon <= 3.0000000000000000 (basic composition); at delta 1e-5' -- quantile --quantile 0.25,0.5,0.75 --lower 0 --upper 120 --epsilon 1 --delta 1e-5 "$d/ages.csv"
expect_ok pmf-top -s 'labels,lower,upper,probability' 'alice > dave,0.235095660582725945237368694886755482,0.235095660582725945237368694886755483,0.23509566058272595' -- pmf --epsilon 1 --top 2 "$d/basic.csv"
expect_ok pmf-top-json -r '^\{"mechanism": "em", .*"top": 3, "tuples": \[\{"labels": \["alice", "bob", "carol"\], "indices": \[0, 1, 2\], "probability": "' -- pmf --epsilon 1 --top 3 --mechanism em --json "$d/basic.csv"
expect_ok pmf-top-exact -r '^dave > alice,[0-9.]+,[0-9.]+,[0-9]+/[0-9]+$' -- pmf --epsilon 1 --top 2 --exact "$d/basic.csv"
expect_error top-too-many "$d/basic.csv: --top 5 exceeds the 4 candidates" -- select --epsilon 1 --top 5 "$d/basic.csv"
expect_error pmf-top-too-many "$d/basic.csv: --top 5 exceeds the 4 candidates" -- pmf --epsilon 1 --top 5 "$d/basic.csv"
expect_error top-zero "--top must be an integer from 1 to 4294967295: '0'" -- select --epsilon 1 --top 0 "$d/basic.csv"
expect_error top-hardened "--top has no hardened mode: '--hardened'" -- select --epsilon 1 --top 2 --hardened "$d/basic.csv"
awk 'BEGIN { for (i = 0; i < 300; i++) print i % 7 }' > "$d/scores-300.csv"
expect_error pmf-top-tuples "pmf --top 2: 300 candidates give more than 65536 ordered tuples" -- pmf --epsilon 1 --top 2 "$d/scores-300.csv"
expect_error delta-bad "--delta must be a decimal strictly between 0 and 1: '1'" -- select --epsilon 1 --count 2 --delta 1 "$d/basic.csv"
expect_error delta-text "--delta must be a decimal strictly between 0 and 1: 'tiny'" -- account --delta tiny em:1
expect_ok account-text "releases 10${nl}pure epsilon <= 1.0000000000000000${nl}zcdp rho <= 0.012500000000000000${nl}delta 1e-6${nl}zcdp epsilon <= 0.70020510460121275${nl}bounded-range epsilon <= 0.84362733240915334 (adaptive)${nl}dp-optimal epsilon <= 0.99937090572175873${nl}best epsilon <= 0.70020510460121275 (zcdp)${nl}" -- account --delta 1e-6 em:0.1x10
expect_ok account-json '{"releases": "10", "pure": {"epsilon": "1.0000000000000000"}, "zcdp": {"rho": "0.012500000000000000", "epsilon": "0.70020510460121275"}, "bounded_range": {"epsilon": "0.62863683877322238", "composition": "non-adaptive"}, "dp_optimal": {"epsilon": "0.99937090572175873"}, "delta": "1e-6", "best": {"epsilon": "0.62863683877322238", "method": "bounded-range"}}' -- account --json --nonadaptive em:0.1x10 --delta 1e-6
expect_ok account-pure '{"releases": "4", "pure": {"epsilon": "2.5000000000000000"}, "zcdp": {"rho": "0.59375000000000000", "epsilon": null}, "bounded_range": null, "dp_optimal": null, "delta": null, "best": {"epsilon": "2.5000000000000000", "method": "pure"}}' -- account --json pf:1 em:0.5x3
expect_ok account-mixed-delta '"bounded_range": null, "dp_optimal": {"epsilon": ' -- account --json pf:1 em:5e-1x3 --delta 1e-9
expect_ok account-rnm 'pure epsilon <= 1.5000000000000000' 'zcdp rho <= 0.37500000000000000' 'best epsilon <= 1.4999958536309411 (dp-optimal)' -- account --delta 1e-6 rnm:0.5x3
expect_error account-mechanism "a release is em:EPS[xN], pf:EPS[xN] or rnm:EPS[xN]: 'foo:1'" -- account foo:1
expect_error account-zero "a release's epsilon must be a positive decimal: 'em:0'" -- account em:0
expect_error account-negative "a release's epsilon must be a positive decimal: 'em:-1'" -- account em:-1
expect_error account-count-zero "a release's count N (em:EPSxN) must be an integer of at least 1: 'em:1x0'" -- account em:1x0
expect_error account-count-text "a release's count N (em:EPSxN) must be an integer of at least 1: 'pf:1xten'" -- account pf:1xten
expect_error account-none "account needs at least one release" -- account --delta 1e-6
expect_error account-option "option does not apply to this command: '--epsilon'" -- account --epsilon 1 em:1
expect_error nonadaptive-select "option does not apply to this command: '--nonadaptive'" -- select --epsilon 1 --nonadaptive "$d/basic.csv"

# Figures are decimals: a bound below 0 is stated as 0 (never as a
# malformed decimal such as 0.-69314693055996093 or 0.000-57515681547921864),
# as is the least epsilon when delta allows 0 (not 2.1175823681357509e-25);
# a tiny epsilon; an epsilon of 1e20 and more, whose bounded range is a
# decimal (not 0.@Inf@ or @.Inf@e+ with an uninitialised exponent); a huge
# exponent; the select's line on stderr.
expect_ok account-negative-json '{"releases": "1", "pure": {"epsilon": "0.0010000000000000000"}, "zcdp": {"rho": "1.2500000000000000e-7", "epsilon": "0"}, "bounded_range": {"epsilon": "0.00058883001125600124", "composition": "adaptive"}, "dp_optimal": {"epsilon": "0"}, "delta": "0.5", "best": {"epsilon": "0", "method": "zcdp"}}' -- account --json --delta 0.5 em:0.001
expect_ok account-negative-text -r '^zcdp epsilon <= 0$' -r '^dp-optimal epsilon <= 0$' -r '^best epsilon <= 0 \(zcdp\)$' -- account --delta 1e-3 pf:0.001
expect_ok account-tiny 'pure epsilon <= 2.0000000000000000e-30' 'zcdp rho <= 2.5000000000000000e-61' -r '^zcdp epsilon <= 0$' -r '^bounded-range epsilon <= 0 \(non-adaptive\)$' -r '^dp-optimal epsilon <= 0$' -- account --delta 1e-6 --nonadaptive em:1e-30x2
expect_ok account-infinite-text 'zcdp epsilon <= 1.2500000000000001e+39' 'bounded-range epsilon <= 2.8584610944249193e+20 (adaptive)' 'dp-optimal epsilon <= 1.0000000000000000e+20' 'best epsilon <= 1.0000000000000000e+20 (pure)' -- account --delta 1e-3 em:1e20
expect_ok account-infinite-json '"bounded_range": {"epsilon": "2.8584610944249193e+21", "composition": "adaptive"}' -- account --json --delta 1e-3 em:1e21
expect_ok account-huge 'pure epsilon <= 2.0000000000000001e+999999999' 'zcdp rho <= 2.5000000000000001e+1999999997' 'best epsilon <= 2.0000000000000001e+999999999 (pure)' -- account --delta 1e-6 em:1e999999999x2 pf:1e-999999999
expect_ok count-delta-zero -e 'at delta 0.5, epsilon <= 0 (zcdp)' -- select --epsilon 0.001 --count 2 --delta 0.5 "$d/basic.csv"
# the bound stated is named: past 256 releases
# --nonadaptive states the adaptive bound, and says so
expect_ok account-nonadaptive-past '"bounded_range": {"epsilon": "0.42455476812646594", "composition": "adaptive"}' -- account --json --nonadaptive --delta 1e-6 em:0.01x257
expect_ok account-nonadaptive-past-text 'bounded-range epsilon <= 0.42455476812646594 (adaptive)' -- account --nonadaptive --delta 1e-6 em:0.01x257
expect_ok account-nonadaptive-at 'bounded-range epsilon <= 0.31241500967412626 (non-adaptive)' -- account --nonadaptive --delta 1e-6 em:0.01x256
# groups of K people (spec/accounting.md §8): each release
# K eps (the account of em:0.3x10 for a group of 3 of em:0.1x10), and the
# group privacy theorem on the individual best (K best, K e^((K-1) best)
# delta); group 1 is the individual figures; without --delta no theorem line
expect_ok account-group-text "group 3 pure epsilon <= 3.0000000000000000${nl}group 3 zcdp rho <= 0.11250000000000000${nl}group 3 zcdp epsilon <= 2.2838917557091758${nl}group 3 bounded-range epsilon <= 2.6057468600448059 (adaptive)${nl}group 3 dp-optimal epsilon <= 2.9997443829948873${nl}group 3 best epsilon <= 2.2838917557091758 (zcdp)${nl}group 3 theorem epsilon <= 2.1006153138036383 at delta <= 0.000012170591365268640${nl}" -- account --delta 1e-6 --group 3 em:0.1x10
expect_ok account-group-scaled 'group 3 zcdp epsilon <= 2.2838917557091758' 'group 3 best epsilon <= 2.2838917557091758 (zcdp)' -- account --delta 1e-6 --group 3 em:0.1x10
expect_ok account-group-scaled-direct 'best epsilon <= 2.2838917557091758 (zcdp)' -- account --delta 1e-6 em:0.3x10
expect_ok account-group-one 'group 1 best epsilon <= 0.70020510460121275 (zcdp)' 'group 1 theorem epsilon <= 0.70020510460121275 at delta <= 1.0000000000000000e-6' -- account --delta 1e-6 --group 1 em:0.1x10
expect_ok account-group-pure "releases 2${nl}pure epsilon <= 1.5000000000000000${nl}zcdp rho <= 0.53125000000000000${nl}best epsilon <= 1.5000000000000000 (pure)${nl}group 2 pure epsilon <= 3.0000000000000000${nl}group 2 zcdp rho <= 2.1250000000000000${nl}group 2 best epsilon <= 3.0000000000000000 (pure)${nl}" -- account --group 2 em:0.5 pf:1
expect_ok account-group-vacuous 'group 20 theorem epsilon <= 19.999972642392466 at delta <= 3569.5532463432324 (a delta of 1 or more says nothing)' -- account --delta 1e-6 --group 20 em:1
expect_ok account-group-json '"best": {"epsilon": "0.70020510460121275", "method": "zcdp"}, "group": {"size": "2", "pure": {"epsilon": "2.0000000000000000"}, "zcdp": {"rho": "0.050000000000000000", "epsilon": "1.4715947505324160"}, "bounded_range": {"epsilon": "1.7122303831589042", "composition": "adaptive"}, "dp_optimal": {"epsilon": "1.9996039316800740"}, "best": {"epsilon": "1.4715947505324160", "method": "zcdp"}, "theorem": {"epsilon": "1.4004102092024255", "delta": "4.0283315595531012e-6"}}}' -- account --json --delta 1e-6 --group 2 em:0.1x10
expect_ok account-group-json-pure '"group": {"size": "2", "pure": {"epsilon": "3.0000000000000000"}, "zcdp": {"rho": "2.1250000000000000", "epsilon": null}, "bounded_range": null, "dp_optimal": null, "best": {"epsilon": "3.0000000000000000", "method": "pure"}, "theorem": null}}' -- account --json --group 2 em:0.5 pf:1
expect_error account-group-zero "--group must be an integer from 1 to 4294967296: '0'" -- account --group 0 em:1
expect_error account-group-big "--group must be an integer from 1 to 4294967296: '4294967297'" -- account --group 4294967297 em:1
expect_error account-group-text-value "--group must be an integer from 1 to 4294967296: 'three'" -- account --group three em:1
expect_error account-group-select "option does not apply to this command: '--group'" -- select --group 2 --epsilon 1 "$d/basic.csv"

# The exact top-k pmf's limits, checked before the work:
# 111 candidates past the rationals' 2^28 bits are refused, naming both
# sizes and limits (145 PF candidates would run past 600 s and 1.96 GB); 110 at
# the limit finish, their text within the rationals' bound (2^28 bits: 81
# million digits) and the tuples' labels and enclosures.
awk 'BEGIN { for (i = 1; i <= 111; i++) printf "c%d,%d\n", i, (37 * i) % 100 }' > "$d/spread-111.csv"
head -n 110 "$d/spread-111.csv" > "$d/spread-110.csv"
awk 'BEGIN { for (i = 1; i <= 146; i++) printf "c%d,%d\n", i, (37 * i) % 100 }' > "$d/spread-146.csv"
expect_error pmf-top-exact-limit "spread-111.csv: pmf --top 2 --exact: 111 candidates need exact rationals of 272624880 bits in all and 50304984 bits of pmf work, beyond the limits of 268435456 and 4294967296 (a few seconds): give fewer candidates or a smaller --top, or leave out --exact (decimals and enclosures)" -- pmf --epsilon 1 --mechanism em --top 2 --exact "$d/spread-111.csv"
expect_error pmf-top-exact-pf "146 candidates need exact rationals of" "beyond the limits of 268435456 and 4294967296" -- pmf --epsilon 1 --top 2 --exact "$d/spread-146.csv"
# past the limits by the first round alone: refused before any pmf is made
awk 'BEGIN { for (i = 0; i < 256; i++) print "c" i "," i }' > "$d/spread-256.csv"
expect_error pmf-top-exact-before-work "spread-256.csv: pmf --top 2 --exact: 256 candidates need exact rationals of at least" "bits of pmf work, beyond the limits of 268435456 and 4294967296: give fewer" -- pmf --epsilon 0.01 --top 2 --exact "$d/spread-256.csv"
expect_ok pmf-top-decimal-past-limit -r '^c1 > c2,' -- pmf --epsilon 1 --mechanism em --top 2 "$d/spread-111.csv"
run pmf --epsilon 1 --mechanism em --top 2 --exact "$d/spread-110.csv"
problems=
check_ok_run
[ "$(wc -l < "$work/out")" -eq 11992 ] || problem "not 2 + 110 x 109 lines"
[ "$(wc -c < "$work/out")" -le 84000000 ] || problem "more than 84 MB of text"
record pmf-top-exact-at-limit

# ====================================================== help and its advice
# A bare dpsel: the usage and every command on stderr, nothing on stdout,
# exit 2.
run
problems=
[ "$status" -eq 2 ] || problem "exit status $status, expected 2"
[ ! -s "$work/out" ] || problem "stdout not empty"
for word in "usage: dpsel COMMAND" select pmf params curve audit quantile account "dpsel help COMMAND"; do
    contains "$work/err" "$word" || problem "stderr lacks '$word'"
done
record bare-usage

# help_is_own NAME ARGS...: the help of select is its own: its usage, its
# options (--count, --hardened) and examples, none of another command's
# options (--epsilons, --quantile).
help_is_own() {
    name=$1
    shift
    run "$@"
    problems=
    check_ok_run
    for want in "usage: dpsel select [OPTIONS] [FILE]" "  --count N" "  --hardened" \
                "examples:${nl}  dpsel select --epsilon 1"; do
        contains "$work/out" "$want" || problem "stdout lacks '$want'"
    done
    ! grep -q -e "--epsilons" -e "--quantile" -e "usage: dpsel pmf" "$work/out" \
        || problem "another command's help"
    record "$name"
}
help_is_own help-select-own select --help
help_is_own help-command-select help select
expect_ok help-quantile-own "usage: dpsel quantile --quantile Q --lower A --upper B" "  --lower A" "  --pmf" "one number per line (12.5, -3e-7," -- help quantile
expect_ok help-account-own "usage: dpsel account [OPTIONS] RELEASE..." "  --nonadaptive" "dpsel account em:0.1x10" -- account --help
expect_ok help-overview-commands "commands:" "  select    one private choice" "  account   the privacy of many releases together" "dpsel help COMMAND" -- help
expect_error help-unknown-command "unknown command 'selet': did you mean 'select'?" -- help selet
expect_ok help-help "commands:" "dpsel help COMMAND" -- help help
expect_error help-two-commands "unexpected argument: 'pmf'" -- help select pmf
expect_error typo-command "unknown command 'selct': did you mean 'select'?" -- selct --epsilon 1
expect_error typo-command-short "unknown command 'pfm'" -- pfm
expect_error typo-option "unknown option: '--monotnic'; did you mean '--monotonic'?" -- select --epsilon 1 --monotnic "$d/basic.csv"
expect_error option-not-for-command "option does not apply to this command: '--count' (dpsel help pmf lists its options)" -- pmf --epsilon 1 --count 3 "$d/basic.csv"
expect_error missing-value-named "option needs a value: '--top' (--top K)" -- select --epsilon 1 --top

# Messages that say the fix: a header of other names, decimal scores
# without a unit, an epsilon that is no number or too small, --top beyond
# the candidates, a file without candidates.
fixture votes.csv 'book,votes\nMiddlemarch,41\nUlysses,12\n'
expect_error header-not-score "$d/votes.csv:1: score is not an integer (a header's second column must be named score or count, as in label,score)" -- select --epsilon 1 "$d/votes.csv"
fixture one-column-header.csv 'votes\n41\n12\n'
expect_error header-one-column "$d/one-column-header.csv:1: score is not an integer (a header names two columns, as in label,score)" -- select --epsilon 1 "$d/one-column-header.csv"
expect_error header-not-decimal "$d/votes.csv:1: score is not a decimal number (a header's second column must be named score or count" -- select --epsilon 1 --resolution 0.5 "$d/votes.csv"
fixture prices.csv 'item,score\ntea,3.10\ncake,40.40\n'
expect_error decimal-score-advice "$d/prices.csv:2: score is not an integer (decimal scores: give --resolution, their unit, as 0.01 for cents, or --sensitivity with as many decimals as the scores, as 10.00)" -- select --epsilon 1 --sensitivity 10 "$d/prices.csv"
expect_error decimal-score-advice-default "(decimal scores: give --resolution, their unit, as 0.01 for cents, or --sensitivity with as many decimals as the scores, as 1.00)" -- pmf --epsilon 1 "$d/prices.csv"
expect_error decimal-score-advice-streamed "$d/prices.csv:2: score is not an integer (decimal scores: give --resolution, their unit, as 0.01 for cents, or --sensitivity with as many decimals as the scores, as 1.00)" -- select --epsilon 1 --count 2 "$d/prices.csv"
# the advice is the same whatever a score's digits (they are the record's)
fixture prices-finer.csv 'item,score\ntea,3.1234\ncake,40.40\n'
expect_error decimal-score-advice-no-digits "$d/prices-finer.csv:2: score is not an integer (decimal scores: give --resolution, their unit, as 0.01 for cents, or --sensitivity with as many decimals as the scores, as 10.00)" -- select --epsilon 1 --sensitivity 10 "$d/prices-finer.csv"
expect_ok decimal-score-advice-taken -r '^(tea|cake)$' -- select --epsilon 1 --sensitivity 10.00 "$d/prices.csv"
expect_ok decimal-score-advice-taken-resolution -r '^(tea|cake)$' -- select --epsilon 1 --sensitivity 10 --resolution 0.01 "$d/prices.csv"
fixture finer.csv 'a,0.125\nb,0.5\n'
expect_error finer-unit-advice "$d/finer.csv:1: score is not a whole multiple of the unit 0.25 (a finer --resolution reads it: a unit that every score and the sensitivity 1 are whole multiples of, as 0.001)" -- select --epsilon 1 --resolution 0.25 "$d/finer.csv"
# the sensitivity 0.25 named, the score's digits not
fixture finer-than-quarters.csv 'a,0.3\nb,0.5\n'
expect_error finer-unit-advice-sensitivity "score is not a whole multiple of the unit 0.25 (a finer --resolution reads it: a unit that every score and the sensitivity 0.25 are whole multiples of, as 0.001)" -- pmf --epsilon 1 --sensitivity 0.25 --resolution 0.25 "$d/finer-than-quarters.csv"
expect_ok finer-unit-advice-taken -r '^(a|b)$' -- select --epsilon 1 --sensitivity 0.25 --resolution 0.01 "$d/finer-than-quarters.csv"
fixture task-decimal.csv 'bin,count\n0,1.5\n'
# (an expectation holds one line: the run's stderr is read for the rest)
expect_error task-count-no-advice "$d/task-decimal.csv:2: score is not an integer${nl}" -- pmf --epsilon 1 --task mode "$d/task-decimal.csv"
grep -q "decimal scores" "$work/err" && { failed=$((failed + 1)); echo "FAIL task-count-no-advice: advice for counts"; }
expect_error epsilon-too-small "--epsilon '1e-30' is too small: the smallest epsilon for this sensitivity is about 1.09e-19" -- params --epsilon 1e-30
expect_error epsilon-too-small-monotonic "is about 5.43e-20" -- params --epsilon 1e-30 --monotonic
expect_ok epsilon-smallest-named "epsilon <= 1.0842021724855045e-19" -- params --epsilon 1.09e-19
expect_error epsilon-zero "--epsilon '0' is not a positive decimal number" -- params --epsilon 0
expect_error epsilon-negative "--epsilon '-1' is not a positive decimal number" -- params --epsilon -1
expect_error quantile-epsilon-too-small "--epsilon '1e-30' is too small" -- quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1e-30 "$d/ages.csv"
expect_error top-beyond-candidates "$d/two.csv: --top 3 exceeds the 2 candidates (give --top 2 or less)" -- select --epsilon 1 --top 3 "$d/two.csv"
expect_error pmf-top-beyond-candidates "--top 3 exceeds the 2 candidates (give --top 2 or less)" -- pmf --epsilon 1 --top 3 "$d/two.csv"
expect_error no-candidates-said "$d/empty.csv: no candidates (one per line, \`label,score\` or \`score\`)" -- select --epsilon 1 "$d/empty.csv"

# ----------------------------------------------------------------- progress

# --progress: the line on stderr, ending at 100%, and stdout and the rest
# of stderr as without it; without --progress, off a terminal, no line.
without_progress_lines() {
    tr '\r' '\n' < "$1" | grep -v -e '^dpsel [a-z]*: [0-9.]*% done' -e '^ *$'
}
progress_shown() {
    name=$1
    shift
    run "$@"
    cp "$work/out" "$work/plain-out"
    without_progress_lines "$work/err" > "$work/plain-err"
    problems=
    ! grep -q "% done" "$work/err" || problem "a progress line without --progress"
    run "$@" --progress
    [ "$status" -eq 0 ] || problem "exit status $status with --progress"
    cmp -s "$work/out" "$work/plain-out" || problem "stdout differs with --progress"
    without_progress_lines "$work/err" | cmp -s - "$work/plain-err" \
        || problem "the rest of stderr differs with --progress"
    tr '\r' '\n' < "$work/err" | grep -q "^dpsel $1: 100.0% done in [0-9]" \
        || problem "no final line 'dpsel $1: 100.0% done in ...': $(shown "$(cat "$work/err")")"
    record "$name"
}
awk 'BEGIN { for (i = 0; i < 500; i++) print "c" i "," i }' > "$d/spread.csv"
progress_shown progress-pmf-pf pmf --epsilon 0.01 "$d/spread.csv"
progress_shown progress-pmf-em pmf --epsilon 0.01 --mechanism em "$d/spread.csv"
progress_shown progress-curve curve --epsilons 0.01,0.1 "$d/spread.csv"
progress_shown progress-audit audit --epsilon 1 "$d/basic.csv" "$d/basic.csv"
progress_shown progress-quantile quantile --quantile 0.5,0.9 --lower 0 --upper 120 --pmf --epsilon 1 "$d/ages.csv"
progress_shown progress-select-streamed select --epsilon 1 --count 5 --seed 1 "$d/basic.csv"
progress_shown progress-select-em select --epsilon 1 --count 5 --seed 1 --mechanism em "$d/basic.csv"

# On a terminal (script(1)'s pseudo-terminal as stderr), without
# --progress: a command that ends within a second shows nothing; one that
# runs for more than two shows the line.  Its length depends on the
# machine: a run between the two checks neither.
on_terminal() {
    start=$(date +%s%N)
    script -qec "'$tool' $* > '$work/out'" "$work/typescript" > /dev/null 2>&1
    elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
}
if command -v script > /dev/null 2>&1; then
    awk 'BEGIN { for (i = 0; i < 4000; i++) print "c" i "," i }' > "$d/spread-long.csv"
    for args in "pmf --epsilon 1 $d/basic.csv" "pmf --epsilon 0.01 $d/spread-long.csv"; do
        case $args in *long*) name=progress-terminal-long ;; *) name=progress-terminal-short ;; esac
        on_terminal "$args"
        problems=
        if [ "$elapsed_ms" -lt 1000 ]; then
            ! grep -q "% done" "$work/typescript" || problem "a line for a run of $elapsed_ms ms"
        elif [ "$elapsed_ms" -gt 2000 ]; then
            grep -q "dpsel pmf: 100.0% done in " "$work/typescript" \
                || problem "no line for a run of $elapsed_ms ms"
        else
            echo "skip $name: a run of $elapsed_ms ms, between 1 and 2 s"
        fi
        record "$name"
    done
else
    echo "skip progress-terminal: script(1) (util-linux) is not installed"
fi

# quantile --joint states its cost before the work, where the progress
# line is shown (--progress, or a terminal): the sizes, the steps of
# dpsel_quantiles_joint_select_cost (9 quantiles of 10 values, 2 releases:
# 4 9 17 11 + 6 11 + 2 9 (6 11 + 72) = 9282) and the memory, then the progress
# line; without either, stderr and stdout as before.
joint_cost='dpsel quantile --joint: 9 quantiles of 10 values, 2 releases: 9282 MPFR operations (a few tens of ns each) and at most 1 MB'
joint_args="quantile --joint --quantile 0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9 --lower 0 --upper 120 --epsilon 1 --count 2 --seed 1 $d/ages.csv"
# shellcheck disable=SC2086 # the arguments, split
run $joint_args
cp "$work/out" "$work/plain-out"
problems=
! grep -q -e "MPFR operations" -e "% done" "$work/err" || problem "a cost or progress line off a terminal"
# shellcheck disable=SC2086
run $joint_args --progress
[ "$status" -eq 0 ] || problem "exit status $status with --progress"
cmp -s "$work/out" "$work/plain-out" || problem "stdout differs with --progress"
first=$(tr '\r' '\n' < "$work/err" | grep -n -e "MPFR operations" -e "% done" | head -n 1)
case $first in
    *":$joint_cost") ;;
    *) problem "not the cost first: $(shown "$first")" ;;
esac
tr '\r' '\n' < "$work/err" | grep -q "^dpsel quantile --joint: 100.0% done in [0-9]" \
    || problem "no final progress line: $(shown "$(cat "$work/err")")"
record quantile-joint-cost-and-progress
if command -v script > /dev/null 2>&1; then
    on_terminal "$joint_args"
    problems=
    grep -q "$joint_cost" "$work/typescript" || problem "no cost line on a terminal"
    record quantile-joint-cost-on-a-terminal
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
