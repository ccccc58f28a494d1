# SPDX-License-Identifier: ISC
# What examples/quantiles.sh and examples/joint.sh share, sourced once they
# have set `script` (their name, for messages and the default OUT) and `here`
# (their folder): the tool (their first argument), EPSILONS and OUT, a work
# folder removed at the end, MEDCOST as one value per record
# ($work/medcost.txt), the epsilons as a list ($list) and gnuplot_or_stop.
# shellcheck shell=sh disable=SC2034 # the variables are the sourcing script's
tool=${1:-build/dpsel}
epsilons=${EPSILONS:-0.01:10:13}
out=${OUT:-$here/$script}
[ -x "$tool" ] || { echo "$script.sh: $tool is not an executable (run make first)" >&2; exit 2; }
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

# MEDCOST's histogram (DPBench, 4096 bins) becomes one value per record: its bin.
awk -F, '/^[0-9]/ { for (i = 0; i < $2; i++) print $1 }' "$here/paper/data/medcost.csv" \
    > "$work/medcost.txt"

# The epsilons: COUNT values log-spaced from LOW to HIGH.
list=$(echo "$epsilons" | awk -F: '{
    for (i = 0; i < $3; i++) printf "%.6g\n", $3 == 1 ? $1 : exp(log($1) + i * (log($2) - log($1)) / ($3 - 1)) }')

# gnuplot_or_stop: returns when gnuplot is installed; else says so and ends
# the script with success (the tables are written; the PNG is not).
gnuplot_or_stop() {
    command -v gnuplot > /dev/null 2>&1 && return 0
    echo "$script.sh: gnuplot not found (apt-get install gnuplot-nox): no $script.png" >&2
    exit 0
}
