#!/bin/sh
# SPDX-License-Identifier: ISC
# The expected error of private quantiles, EM against PF, over epsilon: for
# each data set and quantile, `dpsel quantile --pmf` gives the exact
# distribution over the runs of the grid, and the expected absolute error
# E|V - t| (t the grid point of best score, the true quantile) is summed
# from it: the mean distance of a run's points to t times the run's
# probability.  That sum is display only (doubles from the 17-digit
# probabilities: relative error about 1e-16); the probabilities are exact.
# Writes into OUT:
#   results.csv   dataset,quantile,epsilon,epsilon_realised,error_pf,error_em,ratio
#   README.md     a summary
#   quantiles.png the curves (if gnuplot is installed)
#
#   sh examples/quantiles.sh [TOOL]      (`make plots` runs it)
# Environment: EPSILONS (LOW:HIGH:COUNT, log-spaced; default 0.01:10:13),
# OUT (default examples/quantiles).
set -eu
tool=${1:-build/dpsel}
here=$(cd "$(dirname "$0")" && pwd)
epsilons=${EPSILONS:-0.01:10:13}
out=${OUT:-$here/quantiles}
[ -x "$tool" ] || { echo "quantiles.sh: $tool is not an executable (run make first)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

# The data sets: name, values file, grid (lower upper resolution), quantiles.
# MEDCOST's histogram (DPBench, 4096 bins) becomes one value per record: its bin.
awk -F, '/^[0-9]/ { for (i = 0; i < $2; i++) print $1 }' "$here/paper/data/medcost.csv" \
    > "$work/medcost.txt"
datasets="latencies:$here/latencies.csv:0:20.00:0.01:0.5,0.95
medcost:$work/medcost.txt:0:4095:1:0.5,0.9"

# The requested epsilons: COUNT values log-spaced from LOW to HIGH.
list=$(echo "$epsilons" | awk -F: '{
    for (i = 0; i < $3; i++) printf "%.6g\n", $3 == 1 ? $1 : exp(log($1) + i * (log($2) - log($1)) / ($3 - 1)) }')

# true_quantile FILE Q LOWER RESOLUTION: the first grid point of best score
# -|(1 - q) L - q G| (the values lie inside the grid and are rounded down to
# it, as dpsel does), as a number: a value's point, or the first point after
# one (between two values, or above all).
true_quantile() {
    grep -v '^#' "$1" | grep -v '^value' | sed '/^[[:space:]]*$/d' | sort -g | awk \
        -v q="$2" -v lower="$3" -v step="$4" '
        function consider(point, below, above,   u) {
            u = (1 - q) * below - q * above; if (u < 0) u = -u
            if (best < 0 || u < best - 1e-9) { best = u; t = point }
        }
        { v[NR] = lower + int(($1 - lower) / step + 1e-9) * step }
        END {
            n = NR; best = -1
            if (n == 0 || v[1] > lower) consider(lower, 0, n)
            for (i = 1; i <= n; i = j) {
                for (j = i; j <= n && v[j] == v[i]; j++) ;
                consider(v[i], i - 1, n - j + 1)
                if (j > n || v[j] - v[i] > step * 1.5) consider(v[i] + step, j - 1, n - j + 1)
            }
            printf "%.10g\n", t
        }'
}

# expected_error PMF T STEP: sum over the runs of probability x the mean
# |v - t| over the run's points a, a + STEP, ..., b.
expected_error() {
    awk -F, -v t="$2" -v step="$3" '
        /^#/ || /^from/ { next }
        { a = $1 + 0; b = $2 + 0; k = $3 + 0; p = $6 + 0
          if (a >= t) d = (a + b) / 2 - t
          else if (b <= t) d = t - (a + b) / 2
          else { j = int((t - a) / step + 0.5)
                 d = step * (j * (j + 1) / 2 + (k - 1 - j) * (k - j) / 2) / k }
          sum += p * d }
        END { printf "%.6g\n", sum }' "$1"
}

results=$work/results.csv
echo "dataset,quantile,epsilon,epsilon_realised,error_pf,error_em,ratio" > "$results"
echo "$datasets" | while IFS=: read -r name file lower upper resolution quantiles; do
    for q in $(echo "$quantiles" | tr ',' ' '); do
        t=$(true_quantile "$file" "$q" "$lower" "$resolution")
        echo "quantiles.sh: $name, quantile $q (true value $t)" >&2
        for e in $list; do
            for m in pf em; do
                nice "$tool" quantile --quantile "$q" --lower "$lower" --upper "$upper" \
                    --resolution "$resolution" --epsilon "$e" --mechanism $m --pmf "$file" \
                    > "$work/$m.pmf"
            done
            realised=$(sed -n 's/.*epsilon <= \([^,]*\),.*/\1/p' "$work/pf.pmf")
            pf=$(expected_error "$work/pf.pmf" "$t" "$resolution")
            em=$(expected_error "$work/em.pmf" "$t" "$resolution")
            ratio=$(awk -v a="$em" -v b="$pf" 'BEGIN { if (b > 0) printf "%.4f", a / b }')
            echo "$name,$q,$e,$realised,$pf,$em,$ratio" >> "$results"
        done
    done
done
cp "$results" "$out/"

awk -F, -v epsilons="$epsilons" '
    NR == 1 { next }
    { key = $1 " | " $2
      if (!(key in first)) { order[++keys] = key; first[key] = $7; first_eps[key] = $3;
                             first_pf[key] = $5; first_em[key] = $6 }
      last[key] = $7; last_eps[key] = $3; last_pf[key] = $5; last_em[key] = $6 }
    END {
        print "# Private quantiles: expected error of PF and EM over epsilon"
        print ""
        print "Generated by `examples/quantiles.sh` (`make plots`): `dpsel quantile --pmf` on"
        print "2000 real write latencies (`examples/latencies.csv`, ms, grid 0 to 20 in steps of"
        print "0.01) and MEDCOST (DPBench, one value per record: its bin, grid 0 to 4095), at the"
        print "epsilons `" epsilons "`. The error is the expected absolute distance of the"
        print "released value to the true quantile (the grid point of best score), summed from the"
        print "exact distribution over the runs; every point is in `results.csv`, the curves in"
        print "`quantiles.png`."
        print ""
        print "| data set | quantile | epsilon | PF | EM | EM / PF | epsilon | PF | EM | EM / PF |"
        print "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
        for (i = 1; i <= keys; i++) {
            k = order[i]; split(k, part, " \\| ")
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", part[1], part[2],
                first_eps[k], first_pf[k], first_em[k], first[k], last_eps[k], last_pf[k],
                last_em[k], last[k]
        }
    }' "$out/results.csv" > "$out/README.md"

if ! command -v gnuplot > /dev/null 2>&1; then
    echo "quantiles.sh: gnuplot not found (apt-get install gnuplot-nox): no quantiles.png" >&2
    exit 0
fi
gnuplot > "$out/quantiles.png" <<EOF
set terminal pngcairo size 1400,1000 font "sans,10"
set datafile separator ","
set logscale x
set format x "%.0e"
set key top right
set grid
set xlabel "epsilon"
set multiplot layout 2,2 title "Private quantiles: exact expected absolute error of PF (solid) and EM (dashed)"
file = "$out/results.csv"
pick(d, q, c) = (strcol(1) eq d && strcol(2) eq q) ? column(c) : 1/0
do for [d in "latencies medcost"] {
    q2 = d eq "latencies" ? "0.95" : "0.9"
    set title (d eq "latencies" ? "2000 real write latencies (ms)" : "MEDCOST (DPBench, 9415 records, bins 0 to 4095)")
    set logscale y
    set format y "%.0e"
    set ylabel "expected |released - true|"
    plot file using 4:(pick(d, "0.5", 5)) with lines lw 2 lc rgb "#1b9e77" title "median, PF", \
         file using 4:(pick(d, "0.5", 6)) with lines lw 2 dt 2 lc rgb "#1b9e77" title "median, EM", \
         file using 4:(pick(d, q2, 5)) with lines lw 2 lc rgb "#d95f02" title "q ".q2.", PF", \
         file using 4:(pick(d, q2, 6)) with lines lw 2 dt 2 lc rgb "#d95f02" title "q ".q2.", EM"
}
unset logscale y
set format y "%.2f"
set yrange [0.9:2.1]
set ylabel "EM / PF"
do for [d in "latencies medcost"] {
    q2 = d eq "latencies" ? "0.95" : "0.9"
    set title sprintf("%s: ratio EM / PF of the expected errors", d)
    plot file using 4:(pick(d, "0.5", 7)) with linespoints lw 2 pt 7 ps 0.6 lc rgb "#1b9e77" title "median", \
         file using 4:(pick(d, q2, 7)) with linespoints lw 2 pt 7 ps 0.6 lc rgb "#d95f02" title "q ".q2
}
unset multiplot
EOF
echo "quantiles.sh: wrote $out/results.csv, README.md, quantiles.png" >&2
