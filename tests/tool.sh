# SPDX-License-Identifier: ISC
# Sourced by the shell tests that run the tool on files (cli.sh,
# data-in-messages.sh, valgrind.sh).  tool_test_start NAME "$@": the one
# argument TOOL, an executable, as $tool; the C locale; a fresh temporary
# directory $work, removed at exit; standard input /dev/null.
tool_test_start() {
    name=$1
    shift
    LC_ALL=C
    export LC_ALL
    [ $# -eq 1 ] || { echo "usage: sh tests/$name TOOL" >&2; exit 1; }
    tool=$1
    [ -x "$tool" ] || { echo "$name: $tool is not an executable" >&2; exit 1; }
    work=$(mktemp -d) || exit 1
    trap 'rm -rf "$work"' EXIT
    trap 'exit 1' HUP INT TERM
    exec < /dev/null
}
