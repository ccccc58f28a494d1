#!/bin/sh
# SPDX-License-Identifier: ISC
# Many quantiles at one total epsilon: JointExp (`dpsel quantile --joint`,
# one release at epsilon) against independent releases (EM and PF, each
# quantile at epsilon / m), by each quantile's expected rank error E|k - p n|
# (the number of values between the release and the true quantile), over
# epsilon.  Exact distributions, no sampling: the joint marginals' expected
# rank errors come from `--joint --pmf` (the library's enclosures, printed
# to 17 digits); an independent release's is summed here from its `--pmf`
# table, each run's probability times |L - p n|, L the values below the run
# (display only: doubles from the 17-digit probabilities, relative error
# about 1e-16; the probabilities are exact).  Writes into OUT:
#   results.csv  dataset,quantile,epsilon,joint,em,pf (epsilon the total)
#   README.md    the table, and where JointExp wins
#   joint.png    the curves (if gnuplot is installed)
#
#   sh examples/joint.sh [TOOL]      (`make plots` runs it)
# Environment: EPSILONS (LOW:HIGH:COUNT, log-spaced; default 0.01:10:13),
# OUT (default examples/joint).
set -eu
tool=${1:-build/dpsel}
here=$(cd "$(dirname "$0")" && pwd)
epsilons=${EPSILONS:-0.01:10:13}
out=${OUT:-$here/joint}
[ -x "$tool" ] || { echo "joint.sh: $tool is not an executable (run make first)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

# The data sets: name, values file, grid (lower upper resolution), quantiles.
# MEDCOST's histogram (DPBench, 4096 bins) becomes one value per record: its bin.
awk -F, '/^[0-9]/ { for (i = 0; i < $2; i++) print $1 }' "$here/paper/data/medcost.csv" \
    > "$work/medcost.txt"
datasets="latencies:$here/latencies.csv:0:20.000:0.001:0.5,0.95,0.99
medcost:$work/medcost.txt:0:4095:1:0.25,0.5,0.75"

# The total epsilons: COUNT values log-spaced from LOW to HIGH.
list=$(echo "$epsilons" | awk -F: '{
    for (i = 0; i < $3; i++) printf "%.6g\n", $3 == 1 ? $1 : exp(log($1) + i * (log($2) - log($1)) / ($3 - 1)) }')

# The values on the grid, sorted (floor(clamp(v) / R), as dpsel maps them;
# the files' values have at most the resolution's digits).
grid_values() {
    grep -v '^#' "$1" | grep -v '^value' | sed '/^[[:space:]]*$/d' | awk -v lower="$2" \
        -v upper="$3" -v step="$4" '{ v = $1 < lower ? lower : $1 > upper ? upper : $1
                                      print int((v - lower) / step + 1e-9) }' | sort -n
}

# rank_errors PMF VALUES QS: each quantile's E|L - p n| from a --pmf file of
# one table per quantile (in the order of QS), L the values below a run's
# first point (VALUES: the sorted grid points, in units from lower).
rank_errors() {
    awk -F, -v qs="$3" -v lower="$4" -v step="$5" '
        FNR == NR { value[++n] = $1; next }
        /^# quantile/ { table++; next }
        /^from/ { next }
        { first = int(($1 - lower) / step + 1e-9)
          while (below < n && value[below + 1] < first) below++
          if (first < last) { below = 0; while (below < n && value[below + 1] < first) below++ }
          last = first
          d = below - q[table] * n; if (d < 0) d = -d
          error[table] += $6 * d }
        END { for (t = 1; t <= table; t++) printf "%.6g\n", error[t] }
        BEGIN { split(qs, q, ",") }' "$2" "$1"
}

results=$work/results.csv
echo "dataset,quantile,epsilon,joint,em,pf" > "$results"
echo "$datasets" | while IFS=: read -r name file lower upper resolution quantiles; do
    grid_values "$file" "$lower" "$upper" "$resolution" > "$work/values"
    m=$(echo "$quantiles" | tr ',' '\n' | wc -l)
    echo "joint.sh: $name, quantiles $quantiles" >&2
    for e in $list; do
        # each of the m releases at epsilon / m, rounded down
        share=$(awk -v e="$e" -v m="$m" 'BEGIN { printf "%.12f", int(e / m * 1e12) / 1e12 }')
        grid="--lower $lower --upper $upper --resolution $resolution"
        # shellcheck disable=SC2086 # grid is three options
        nice "$tool" quantile --joint --pmf --quantile "$quantiles" $grid --epsilon "$e" \
            "$file" | sed -n 's/^# .*expected rank error \(.*\)$/\1/p' > "$work/joint"
        for mech in em pf; do
            # shellcheck disable=SC2086
            nice "$tool" quantile --pmf --mechanism $mech --quantile "$quantiles" $grid \
                --epsilon "$share" "$file" > "$work/$mech.pmf"
            rank_errors "$work/$mech.pmf" "$work/values" "$quantiles" "$lower" "$resolution" \
                > "$work/$mech"
        done
        echo "$quantiles" | tr ',' '\n' | paste -d, - "$work/joint" "$work/em" "$work/pf" \
            | sed "s/^/$name,/; s/^\([^,]*,[^,]*\),/\1,$e,/" >> "$results"
    done
done
# one series (data set and quantile) after another, by epsilon: the curves' lines
{ head -n 1 "$results"; tail -n +2 "$results" | sort -t, -k1,1 -k2,2g -k3,3g; } > "$out/results.csv"

awk -F, -v epsilons="$epsilons" '
    NR == 1 { next }
    { key = $1 " | " $2
      if (!(key in seen)) { order[++keys] = key; seen[key] = 1 }
      row[key, ++count[key]] = sprintf("%s: %.3g / %.3g / %.3g", $3, $4, $5, $6)
      best = $5 < $6 ? $5 : $6
      if ($4 < best) wins[key] = wins[key] (wins[key] == "" ? "" : ", ") $3 }
    END {
        print "# Many quantiles at one total epsilon: JointExp against independent releases"
        print ""
        print "Generated by `examples/joint.sh` (`make plots`): each quantile'"'"'s expected rank"
        print "error E|k - p n| (the number of values between the release and the true quantile),"
        print "exactly from the distributions, for JointExp (`dpsel quantile --joint`, one release"
        print "at the total epsilon) and for independent EM and PF releases (each quantile at"
        print "epsilon / m), on 2000 real write latencies (`examples/latencies.csv`, grid 0 to 20"
        print "ms in steps of 0.001) and MEDCOST (DPBench, one value per record: its bin, 0 to"
        print "4095), at the total epsilons `" epsilons "`. Every point is in `results.csv`, the"
        print "curves in `joint.png`."
        print ""
        print "| data set | quantile | JointExp wins at (total epsilon) | epsilon: joint / EM / PF |"
        print "| --- | --- | --- | --- |"
        for (i = 1; i <= keys; i++) {
            k = order[i]; split(k, part, " \\| ")
            printf "| %s | %s | %s | %s; %s; %s |\n", part[1], part[2],
                wins[k] == "" ? "nowhere" : wins[k], row[k, 1], row[k, int((count[k] + 1) / 2)],
                row[k, count[k]]
        }
    }' "$out/results.csv" > "$out/README.md"

if ! command -v gnuplot > /dev/null 2>&1; then
    echo "joint.sh: gnuplot not found (apt-get install gnuplot-nox): no joint.png" >&2
    exit 0
fi
gnuplot > "$out/joint.png" <<EOF
set terminal pngcairo size 1400,1000 font "sans,10"
set datafile separator ","
set logscale xy
set format x "%.0e"
set format y "%g"
set key top right
set grid
set xlabel "total epsilon"
set ylabel "expected rank error E|k - p n|"
set multiplot layout 2,3 title "Expected rank error per quantile: JointExp (solid) against independent EM (dashed) and PF (dotted) at the same total epsilon"
file = "$out/results.csv"
pick(d, q, c) = (strcol(1) eq d && strcol(2) eq q) ? column(c) : 1/0
do for [k in "latencies:0.5 latencies:0.95 latencies:0.99 medcost:0.25 medcost:0.5 medcost:0.75"] {
    d = k[1:strstrt(k, ":") - 1]
    q = k[strstrt(k, ":") + 1:]
    set title sprintf("%s, quantile %s", d, q)
    plot file using 3:(pick(d, q, 4)) with linespoints lw 2 pt 7 ps 0.5 lc rgb "#1b9e77" title "JointExp", \
         file using 3:(pick(d, q, 5)) with linespoints lw 2 dt 2 pt 7 ps 0.5 lc rgb "#d95f02" title "EM, eps/m each", \
         file using 3:(pick(d, q, 6)) with linespoints lw 2 dt 3 pt 7 ps 0.5 lc rgb "#7570b3" title "PF, eps/m each"
}
unset multiplot
EOF
echo "joint.sh: wrote $out/results.csv, README.md, joint.png" >&2
