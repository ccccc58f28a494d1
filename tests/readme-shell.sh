#!/bin/sh
# SPDX-License-Identifier: ISC
# The README's shell sessions, run as written: in its sections "The command
# line" and "Auditors", each indented `$ COMMAND` line runs (sh, from a
# folder whose examples/ is the repository's, with TOOL first on PATH as
# `dpsel`) and its output must be the indented lines under it, exactly; a
# `dpsel select` prints a random book, so its output must be one line naming
# a candidate of examples/poll.csv instead.
#   sh tests/readme-shell.sh TOOL
set -eu
tool=$(cd "$(dirname "${1:?usage: sh tests/readme-shell.sh TOOL}")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/run"
ln -s "$tool" "$work/bin/dpsel"
ln -s "$root/examples" "$work/run/examples"
# session.N.sh and session.N.out: each command and the output shown under it.
for section in "The command line" "Auditors"; do
    awk -v section="$section" -v dir="$work" '
        /^```/ { fenced = !fenced; next }
        fenced { next }
        /^#+ / { inside = (substr($0, index($0, " ") + 1) == section); next }
        !inside { next }
        /^    \$ / { n = ++count[0]; file = dir "/" section "." n
                    print substr($0, 7) > (file ".sh"); printf "" > (file ".out"); next }
        /^    / && n { print substr($0, 5) > (file ".out"); next }
        { n = 0 }' "$root/README.md"
done
ls "$work"/*.sh > /dev/null 2>&1 || { echo "readme-shell: no session in README.md" >&2; exit 1; }
labels=$(grep -v '^#' "$root/examples/poll.csv" | tail -n +2 | cut -d, -f1)
passed=0
failed=0
for command in "$work"/*.sh; do
    expected=${command%.sh}.out
    output=$(cd "$work/run" && PATH="$work/bin:$PATH" sh "$command" 2>&1) || true
    case "$(cat "$command")" in
        "dpsel select "*) printf '%s\n' "$labels" | grep -qxF -- "$output" ;;
        *) [ "$output" = "$(cat "$expected")" ] ;;
    esac && { passed=$((passed + 1)); continue; }
    failed=$((failed + 1))
    echo "readme-shell: \$ $(cat "$command")" >&2
    printf '%s\n' "$output" | diff "$expected" - | sed 's/^/readme-shell:   /' >&2 || true
done
echo "readme-shell: $passed passed, $failed failed" >&2
[ "$failed" -eq 0 ] && [ "$passed" -ge 4 ]
