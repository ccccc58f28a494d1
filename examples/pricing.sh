#!/bin/sh
# SPDX-License-Identifier: ISC
# The lecture notes' Example 1: a private price.  Each bid in BIDS is the
# most one buyer would pay; at a price p the revenue is p x #{bids >= p} (a
# bid equal to p buys).  One buyer more or less moves each revenue by at
# most p, and adding one never lowers it: the scores are monotonic with
# sensitivity max(price).  This script counts the buyers at each price of a
# decimal grid in exact integer cents (shell arithmetic, no floating point),
# writes the revenues as decimal scores in units of 0.01, and for each
# mechanism prints dpsel's exact distribution over the prices (pmf: the
# chance of each price and the expected revenue lost) and one release
# (select, reading the revenues from a pipe: the in-memory selection,
# the one dpsel.best_price makes in Python), for PF, EM and report noisy
# max.
#
#   sh examples/pricing.sh [TOOL]
# Environment: BIDS (default examples/pricing.csv: a 'bid' column of
# decimals with two fraction digits, '#' comments), EPSILON (default 1),
# SEED (hex digits: the releases replay with --seed, FOR TESTS ONLY).
set -eu
tool=${1:-build/dpsel}
here=$(cd "$(dirname "$0")" && pwd)
bids=${BIDS:-$here/pricing.csv}
epsilon=${EPSILON:-1}
[ -x "$tool" ] || { echo "pricing.sh: $tool is not an executable (run make first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

# The price grid in cents: 1.00 to 10.00 by 0.50.
lowest=100 highest=1000 step=50

# cents TEXT: a decimal with two fraction digits ("4.07") as integer cents.
cents() {
    case $1 in
        [0-9]*.[0-9][0-9]) ;;
        *) echo "pricing.sh: $bids: a bid must be a decimal with two fraction digits: '$1'" >&2
           exit 2 ;;
    esac
    digits=$(printf '%s' "$1" | tr -d .)
    case $digits in *[!0-9]*) echo "pricing.sh: $bids: not a bid: '$1'" >&2; exit 2 ;; esac
    digits=${digits#"${digits%%[!0]*}"}     # no leading zeros: not octal
    echo "${digits:-0}"
}

# decimal CENTS: "4.07" back from 407.
decimal() {
    printf '%d.%02d' $(($1 / 100)) $(($1 % 100))
}

grep -v '^#' "$bids" | tail -n +2 | tr -d '\r' | while read -r bid; do
    [ -z "$bid" ] || cents "$bid"
done > "$work/cents"
count=$(wc -l < "$work/cents")

echo "# $count bids ($(basename "$bids")), prices $(decimal $lowest) to $(decimal $highest) by $(decimal $step), epsilon $epsilon"
echo "# revenue = price x buyers (bids >= price); sensitivity $(decimal $highest) (the highest price), monotonic"
echo "price,buyers,revenue"
echo "label,score" > "$work/revenues.csv"
price=$lowest
while [ "$price" -le "$highest" ]; do
    buyers=0
    while read -r bid; do
        [ "$bid" -lt "$price" ] || buyers=$((buyers + 1))
    done < "$work/cents"
    echo "$(decimal $price),$buyers,$(decimal $((price * buyers)))"
    echo "$(decimal $price),$(decimal $((price * buyers)))" >> "$work/revenues.csv"
    price=$((price + step))
done

# The same parameters for every mechanism: dpsel params states them.
set -- --epsilon "$epsilon" --monotonic --sensitivity "$(decimal $highest)" --resolution 0.01
for mechanism in pf em rnm; do
    "$tool" pmf "$@" --mechanism "$mechanism" "$work/revenues.csv" > "$work/pmf"
    lost=$(sed -n 's/^# expected error \([^ ]*\) in .*/\1/p' "$work/pmf")
    echo "# $mechanism: the chance of each price (dpsel pmf); expected revenue lost $lost"
    echo "price,probability"
    grep -v '^#' "$work/pmf" | tail -n +2 | cut -d, -f1,5
    # (--seed's warning to stderr is dropped: SEED is for tests)
    chosen=$("$tool" select "$@" --mechanism "$mechanism" ${SEED:+--seed "$SEED"} - \
             < "$work/revenues.csv" 2>/dev/null)
    echo "$mechanism chose $chosen"
done
