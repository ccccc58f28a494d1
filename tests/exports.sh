#!/bin/sh
# SPDX-License-Identifier: ISC
# The symbols of the libraries (`make exports`):
#   sh tests/exports.sh SHARED STATIC INTERNAL OBJECT...
# - the shared library exports dpsel_ functions only, every function the
#   header marks DPSEL_API among them, and has its SONAME;
# - the static library defines exactly the DPSEL_API functions as global
#   symbols: its internal functions are local (see the Makefile);
# - debian/libdpsel0.symbols (the package's ABI record, docs/abi.md) names
#   exactly the functions the shared library exports;
# - in the internal archive (the library's objects, which the tests link),
#   every other global symbol is named as internal: dpsel_core_ (src/core/),
#   dpsel_exact_ (src/exact/) or dpsel_internal_ (src/base/, src/api/);
# - each of the library's objects (OBJECT..., build/pic/src/<folder>/*.o)
#   names its other global symbols with its own folder's prefix, and lies
#   in one of those folders.
# Prints one line per failed check, then "N passed, N failed".
set -eu
shared=$1
static=$2
internal=$3
shift 3
header=$(dirname "$0")/../include/dpsel.h
declared=$(grep -o '^DPSEL_API [^(]*(' "$header" | sed 's/.*[ *]\([a-z_0-9]*\)($/\1/')
passed=0
failed=0
# check NAME PROBLEMS: the check NAME passes when PROBLEMS is empty.
check() {
    if [ -z "$2" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "exports: $1: ${2%; }"
    fi
}
# problem WHAT NAMES: "WHAT: NAMES; " on one line, nothing when NAMES is empty.
problem() {
    [ -z "$2" ] || printf '%s: %s; ' "$1" "$(printf '%s\n' "$2" | paste -s -d ' ' -)"
}
# defined ARCHIVE: every global symbol ARCHIVE defines, of any kind (functions,
# data, weak), one a line.
defined() {
    nm -g --defined-only "$1" | awk 'NF == 3 { print $3 }'
}
# not_in LIST OTHER: the names of LIST that are not in OTHER (lists one a line).
not_in() {
    printf '%s\n' "$1" | grep -vxF -e "$2" || true
}

exported=$(nm -D --defined-only "$shared" | awk '$2 == "T" { print $3 }')
bad=$(nm -D --defined-only "$shared" | awk '$2 ~ /[TDBR]/ && $3 !~ /^dpsel_/ { print $3 }')
soname=$(objdump -p "$shared" | awk '/SONAME/ { print $2 }')
wrong_soname=
[ "$soname" = "libdpsel.so.0" ] || wrong_soname=${soname:-none}
check "$shared" "$(problem 'not dpsel_' "$bad")$(
    problem 'not exported' "$(not_in "$declared" "$exported")")$(
    problem SONAME "$wrong_soname")"

symbols_file=$(dirname "$0")/../debian/libdpsel0.symbols
recorded=$(sed -n 's/^ \(dpsel_[a-z0-9_]*\)@Base .*/\1/p' "$symbols_file")
check "$symbols_file" "$(problem 'exported but not recorded (add its line with the coming version)' \
                             "$(not_in "$exported" "$recorded")")$(
    problem 'recorded but not exported (an ABI break: see docs/abi.md)' \
            "$(not_in "$recorded" "$exported")")"

static_defined=$(defined "$static")
check "$static" "$(problem 'not API' "$(not_in "$static_defined" "$declared")")$(
    problem 'not defined' "$(not_in "$declared" "$static_defined")")"

unmarked=$(not_in "$(defined "$internal")" "$declared" \
           | grep -vE '^dpsel_(core|exact|internal)_' || true)
check "$internal" "$(problem 'neither API nor named as internal' "$unmarked")"

# prefix OBJECT: the prefix the internal symbols of OBJECT's folder carry.
prefix() {
    case $(basename "$(dirname "$1")") in
    core) echo dpsel_core_ ;;
    exact) echo dpsel_exact_ ;;
    base | api) echo dpsel_internal_ ;;
    *) echo none ;;
    esac
}
misnamed=
for object in "$@"; do
    wrong=$(not_in "$(defined "$object")" "$declared" | grep -v "^$(prefix "$object")" || true)
    [ -z "$wrong" ] || misnamed="$misnamed$(problem "$object" "$wrong")"
done
check "the objects' folders" "$misnamed"

echo "exports: $(printf '%s\n' "$exported" | grep -c '^dpsel_') dpsel_ functions in $shared" \
     "(SONAME $soname), $(printf '%s\n' "$static_defined" | grep -c .) global symbols in $static," \
     "$(printf '%s\n' "$declared" | wc -l) declared DPSEL_API"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
