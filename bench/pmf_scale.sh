#!/bin/sh
# SPDX-License-Identifier: ISC
# The exact distributions at scale (part of `make bench`): the tool's pmf,
# curve, quantile --pmf and audit on large inputs, each run
# RUNS times (median wall and user seconds, the largest peak resident
# memory).  PF's enclosures come from certified quadrature
# (spec/mechanisms.md §8).  Inputs are written to a temporary directory by
# awk from fixed seeds.
#
# usage: bench/pmf_scale.sh TOOL [RUNS]
set -eu

tool=$1
runs=${2:-3}
here=$(cd "$(dirname "$0")" && pwd)
examples=$here/../examples
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# 10^6 scores: uniform in [0, 10^4], and Zipf-like (10^4 / rank, rank >= 1).
awk 'BEGIN { srand(39); for (i = 0; i < 1000000; i++) print int(rand() * 10001) }' \
    > "$work/uniform.txt"
awk 'BEGIN { srand(40); for (i = 0; i < 1000000; i++) { r = int(1 / (rand() + 1e-9)); print (r > 10000 ? 10000 : r) } }' \
    > "$work/zipf.txt"
# 10^6 values on a grid of 2^40 points.
awk 'BEGIN { srand(41); for (i = 0; i < 1000000; i++) printf "%.0f\n", int(rand() * 1099511627776) }' \
    > "$work/values.txt"
# Two neighbouring files of 10^5 scores (one score moved by 1).
awk 'BEGIN { srand(42); for (i = 0; i < 100000; i++) print int(rand() * 10001) }' > "$work/a.txt"
awk 'NR == 8 { print $1 + 1; next } { print }' "$work/a.txt" > "$work/b.txt"

# measure NAME ARGS...: RUNS runs of the tool, output discarded; one row.
measure() {
    name=$1
    shift
    : > "$work/times"
    i=0
    while [ "$i" -lt "$runs" ]; do
        /usr/bin/time -f '%e %U %M' -o "$work/one" "$tool" "$@" > /dev/null
        cat "$work/one" >> "$work/times"
        i=$((i + 1))
    done
    sort -n "$work/times" | awk -v name="$name" -v runs="$runs" '
        { wall[NR] = $1 }
        END { printf "| %s | %s |", name, wall[int((runs + 1) / 2)] }'
    sort -n -k2 "$work/times" | awk -v runs="$runs" '
        { user[NR] = $2; memory = $3 > memory ? $3 : memory }
        END { printf " %s | %.0f |\n", user[int((runs + 1) / 2)], memory / 1024 }'
}

echo "# exact distributions at scale: median of $runs runs (load average $(cut -d' ' -f1-3 /proc/loadavg))"
echo "| case | wall s | user s | peak MB |"
echo "| --- | --- | --- | --- |"
measure "pmf, HEPTH 4096 bins, epsilon 0.01, PF" pmf --epsilon 0.01 "$examples/hepth.csv"
measure "pmf, 10^6 uniform in [0, 10^4], epsilon 0.01, PF" pmf --epsilon 0.01 "$work/uniform.txt"
measure "pmf, 10^6 Zipf in [1, 10^4], epsilon 0.01, PF" pmf --epsilon 0.01 "$work/zipf.txt"
measure "curve, HEPTH, 40 epsilons, PF and EM" curve --epsilons 0.001:10:40 "$examples/hepth.csv"
measure "quantile --pmf PF, 2000 latencies, p95, epsilon 0.1" quantile --quantile 0.95 \
    --lower 0 --upper 20 --resolution 0.01 --epsilon 0.1 --mechanism pf --pmf \
    "$examples/latencies.csv"
measure "quantile --pmf PF, grid of 2^40, 10^6 values, p95, epsilon 0.1" quantile \
    --quantile 0.95 --lower 0 --upper 1099511627775 --epsilon 0.1 --mechanism pf --pmf \
    "$work/values.txt"
measure "audit PF, two files of 10^5, epsilon 0.01" audit --epsilon 0.01 "$work/a.txt" "$work/b.txt"
