#!/bin/sh
# SPDX-License-Identifier: ISC
# Extracts the C example from the README (its section "C"), installs dpsel into a temporary
# prefix, and compiles (with pkg-config, as the README says), links and runs it:
# against the shared library, then against the static library alone.
set -eu
readme=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sh "$(dirname "$0")/doc-blocks.sh" c "$readme" C > "$work/example.c"
make -s install PREFIX="$work/prefix" > /dev/null
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
export PKG_CONFIG_PATH
passed=0
failed=0
# try NAME FLAGS: compiles the example with FLAGS (pkg-config's) as NAME, runs it
# and checks its output.  It runs as a user's program would, without
# LD_LIBRARY_PATH: the rpath pkg-config gives for this prefix finds the library.
try() {
    # shellcheck disable=SC2086
    cc -std=c11 -Wall -Wextra -Werror -o "$work/$1" "$work/example.c" $2
    output=$(env -u LD_LIBRARY_PATH "$work/$1")
    echo "readme-example ($1): $output"
    case "$output" in
        "book "[0-4]", epsilon <= 1.0000000000000000") passed=$((passed + 1)) ;;
        *) echo "readme-example: unexpected output"; failed=$((failed + 1)) ;;
    esac
}
try shared "$(pkg-config --cflags --libs dpsel)"
# Where only the static library is installed, `pkg-config --static` links it
# and the libraries it needs: libdpsel.a alone must hold what the example uses.
rm "$work/prefix/lib"/libdpsel.so*
try static "$(pkg-config --static --cflags --libs dpsel)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
