#!/bin/sh
# SPDX-License-Identifier: ISC
# The bash completion (completion/dpsel.bash): sourced in bash with the
# tool first on PATH, each case completes a command line and compares the
# offers with the expected ones.
#   sh tests/completion.sh build/dpsel
set -u
[ $# -eq 1 ] || { echo "usage: sh tests/completion.sh TOOL" >&2; exit 1; }
tool=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
script=$(pwd)/completion/dpsel.bash
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/files" "$work/files/examples"
ln -s "$tool" "$work/bin/dpsel"
: > "$work/files/votes.csv"
: > "$work/files/votes-2024.csv"
cd "$work/files" || exit 1
PATH=$work/bin:$PATH bash --norc --noprofile -c '
    . "$1"
    passed=0 failed=0
    # expect "LINE" OFFERS...: completing the last word of LINE (after a
    # trailing space: an empty word) offers exactly OFFERS, sorted.
    expect() {
        read -r -a COMP_WORDS <<< "$1"
        case $1 in *" ") COMP_WORDS+=("") ;; esac
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        shift
        _dpsel 2> /dev/null
        got=$(printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " ")
        want=$(printf "%s\n" "$@" | sort | tr "\n" " ")
        [ ${#COMPREPLY[@]} -eq 0 ] && got=" "
        [ $# -eq 0 ] && want=" "
        if [ "$got" = "$want" ]; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1)); echo "FAIL \"$line\": got [$got], expected [$want]"
        fi
    }
    line="dpsel sel";                         expect "$line" select
    line="dpsel ";                            expect "$line" select pmf params curve audit quantile account help --help --version
    line="dpsel --v";                         expect "$line" --version
    line="dpsel help qu";                     expect "$line" quantile
    line="dpsel help select ";                expect "$line"
    line="dpsel select --mon";                expect "$line" --monotonic
    line="dpsel select --eps";                expect "$line" --epsilon
    line="dpsel curve --eps";                 expect "$line" --epsilons
    line="dpsel select --quan";               expect "$line"
    line="dpsel quantile --quan";             expect "$line" --quantile
    line="dpsel select --h";                  expect "$line" --hardened --help
    line="dpsel select --mechanism ";         expect "$line" em pf rnm
    line="dpsel pmf --pro";                   expect "$line" --progress
    line="dpsel params --pro";                expect "$line"
    line="dpsel quantile --progress --pm";    expect "$line" --pmf
    line="dpsel quantile --jo";               expect "$line" --joint
    line="dpsel select --jo";                 expect "$line"
    line="dpsel pmf --task m";                expect "$line" median mode
    line="dpsel select --epsilon ";           expect "$line"
    line="dpsel select --monotonic vo";       expect "$line" votes.csv votes-2024.csv
    line="dpsel audit --epsilon 1 votes.csv e"; expect "$line" examples
    line="dpsel params --epsilon 1 v";        expect "$line"
    line="dpsel account e";                   expect "$line" em:
    line="dpsel account r";                   expect "$line" rnm:
    line="dpsel frob --";                     expect "$line"
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
' completion "$script"
