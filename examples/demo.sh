#!/bin/sh
# SPDX-License-Identifier: ISC
# The main job of dpsel, on the shipped examples: exact private selection,
# from the tool and then from Python (the README's quick start, as written):
#   sh examples/demo.sh [TOOL [LIBRARY]]
set -eu
tool=${1:-build/dpsel}
library=${2:-build/libdpsel.so}
here=$(dirname "$0")
run() {
    printf '\n$ dpsel %s\n' "$*"
    "$tool" "$@"
}

echo "== Privacy parameters: epsilon 1 for vote counts (monotonic, sensitivity 1)"
run params --epsilon 1 --monotonic

echo
echo "== A reading club picks its next book from the votes, privately"
run pmf --epsilon 1 --monotonic "$here/poll.csv"
run pmf --epsilon 1 --monotonic --mechanism em "$here/poll.csv"
run select --epsilon 1 --monotonic "$here/poll.csv"
run select --epsilon 1 --monotonic --mechanism em --json "$here/poll.csv"

echo
echo "== The mode of the real HEPTH histogram (4096 bins, DPBench)"
printf 'true mode (not private): bin %s\n' \
    "$(grep -v '^#' "$here/hepth.csv" | tail -n +2 | sort -t, -k2 -n -r | head -1)"
run select --epsilon 0.1 --monotonic --count 5 "$here/hepth.csv"
run select --epsilon 0.1 --monotonic --count 5 --mechanism em "$here/hepth.csv"

echo
echo "== The median age of a small survey, on the grid 0, 1, ..., 120, privately"
run quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 "$here/ages.csv"
run quantile --quantile 0.5 --lower 0 --upper 120 --epsilon 1 --pmf "$here/ages.csv"

echo
echo "== Percentiles of 2000 real write latencies (ms, to the microsecond), privately"
run quantile --quantile 0.5,0.95,0.99 --lower 0 --upper 20.000 --epsilon 1 --json \
    "$here/latencies.csv"

echo
echo "== The README's Python quick start (the package from the source tree): the poll from Python"
script=$(mktemp)
trap 'rm -f "$script"' EXIT
sh "$here/../tests/doc-blocks.sh" python "$here/../README.md" Python > "$script"
printf '\n$ python3 <<EOF\n%s\nEOF\n' "$(cat "$script")"
PYTHONPATH="$here/../python" DPSEL_LIBRARY="$library" /usr/bin/python3 "$script"
