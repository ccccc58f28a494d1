#!/bin/sh
# SPDX-License-Identifier: ISC
# Debian packages (debian/):
#   sh tests/deb.sh build OUT   builds the five binary packages from a copy of
#                               the tree (dpkg-buildpackage -us -uc -b) into
#                               OUT, then checks them: lintian (no error, no
#                               warning; its notes are printed), blhc on the
#                               build log (nothing), and that a symbol missing
#                               from the library fails dpkg-gensymbols
#   sh tests/deb.sh test OUT    installs OUT's packages on this machine (root:
#                               a throwaway machine, as CI's), runs the
#                               autopkgtests of debian/tests against them, and
#                               removes the packages again
# Prints "N passed, N failed"; exits 1 on any failure.
set -eu
mode=$1
out=$(realpath -m "$2")
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "deb: ok: $1"; }
fail() { failed=$((failed + 1)); echo "deb: FAILED: $1" >&2; }
finish() {
    echo "deb: $passed passed, $failed failed"
    [ "$failed" = 0 ]
}

build() {
    rm -rf "$out"
    mkdir -p "$out/src"
    # the tracked files and the new ones git does not ignore, as in the tree
    (cd "$top" && git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "$out/src")
    if (cd "$out/src" && dpkg-buildpackage -us -uc -b) > "$out/build.log" 2>&1; then
        pass "dpkg-buildpackage"
    else
        tail -40 "$out/build.log" >&2
        fail "dpkg-buildpackage (log: $out/build.log)"
        finish
        return
    fi
    ls -l "$out"/*.deb
    lintian --fail-on error,warning --display-info "$out"/*.changes > "$out/lintian.txt" 2>&1 &&
        pass "lintian: no error, no warning" ||
        fail "lintian: $(grep -c '^[EW]:' "$out/lintian.txt") errors and warnings"
    sed 's/^/deb: lintian: /' "$out/lintian.txt"
    # The library's prelink (ld -r, see the Makefile) makes an object, not a
    # program: the link flags apply where that object is linked.
    if blhc --all --ignore-line '.*-flinker-output=dyn -r -o .*' "$out/build.log" > "$out/blhc.txt" 2>&1; then
        pass "blhc: every compile and link has Debian's hardening flags"
    else
        fail "blhc:"
        cat "$out/blhc.txt" >&2
    fi
    gensymbols_catches_a_missing_symbol
    finish
}

# The symbols file fails the build when a symbol goes: give dpkg-gensymbols,
# at check level 4 as debian/rules sets it, a symbols file with one symbol
# more than the library exports.  (Every symbol is recorded at 0.1.0~, before
# the first release: dpkg-gensymbols lets a symbol of the version being built
# go unremarked, one of an earlier version not.)
gensymbols_catches_a_missing_symbol() {
    work=$(mktemp -d)
    dpkg-deb -x "$out"/libdpsel0_*.deb "$work/root"
    mkdir -p "$work/debian"
    cp "$top/debian/control" "$top/debian/changelog" "$work/debian/"
    { cat "$top/debian/libdpsel0.symbols"; echo " dpsel_symbol_that_went@Base 0.1.0~"; } \
        > "$work/debian/libdpsel0.symbols"
    if (cd "$work" && DPKG_GENSYMBOLS_CHECK_LEVEL=4 dpkg-gensymbols -plibdpsel0 -Proot) \
            > "$work/log" 2>&1; then
        fail "dpkg-gensymbols accepted a library without a symbol of its symbols file"
    elif grep -q 'MISSING.*dpsel_symbol_that_went' "$work/log"; then
        pass "dpkg-gensymbols fails on a missing symbol"
    else
        cat "$work/log" >&2
        fail "dpkg-gensymbols failed for another reason"
    fi
    rm -rf "$work"
}

run_autopkgtests() {
    tmp=$(mktemp -d)
    for t in $(sed -n 's/^Tests: //p' "$top/debian/tests/control"); do
        if (cd "$top" && AUTOPKGTEST_TMP=$tmp sh "debian/tests/$t"); then
            pass "autopkgtest $t"
        else
            fail "autopkgtest $t"
        fi
    done
    rm -rf "$tmp"
}

test_installed() {
    if [ "$(id -u)" != 0 ]; then
        echo "deb: not root: the packages are installed only on a throwaway machine as root" >&2
        fail "deb test needs root"
        finish
        return
    fi
    export DEBIAN_FRONTEND=noninteractive
    # the five packages and their debug symbols, as built
    packages=$(for deb in "$out"/*.deb; do dpkg-deb -f "$deb" Package; done)
    # shellcheck disable=SC2086
    apt-get purge -y -q $packages > /dev/null 2>&1 || true
    if apt-get install -y -q --no-install-recommends "$out"/*.deb > "$out/install.log" 2>&1; then
        pass "apt-get install of the packages"
        run_autopkgtests
        man -w dpsel > /dev/null && pass "man dpsel" || fail "man dpsel"
        pkg-config --cflags --libs dpsel > /dev/null && pass "pkg-config dpsel" ||
            fail "pkg-config dpsel"
    else
        cat "$out/install.log" >&2
        fail "apt-get install of the packages"
    fi
    # shellcheck disable=SC2086
    apt-get purge -y -q $packages > /dev/null 2>&1 && pass "the packages removed" ||
        fail "apt-get purge"
    finish
}

case $mode in
    build) build ;;
    test) test_installed ;;
    *) echo "usage: sh tests/deb.sh build|test OUT" >&2; exit 2 ;;
esac
