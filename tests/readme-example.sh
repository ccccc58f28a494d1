#!/bin/sh
# Extracts the C example from the README, installs dpsel into a temporary
# prefix, and compiles (with pkg-config, as the README says), links and runs it.
set -eu
readme=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk '/^```c$/ { inside = 1; next } /^```$/ { inside = 0 } inside' "$readme" > "$work/example.c"
[ -s "$work/example.c" ] || { echo "readme-example: no C block in $readme" >&2; exit 1; }
make -s install PREFIX="$work/prefix" > /dev/null
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
export PKG_CONFIG_PATH
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -o "$work/example" "$work/example.c" $(pkg-config --cflags --libs dpsel)
output=$(LD_LIBRARY_PATH="$work/prefix/lib" "$work/example")
echo "readme-example: $output"
case "$output" in
    "book "[0-4]", epsilon <= 1.0000000000000000") echo "1 passed, 0 failed" ;;
    *) echo "readme-example: unexpected output"; echo "0 passed, 1 failed"; exit 1 ;;
esac
