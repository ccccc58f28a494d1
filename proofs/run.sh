#!/bin/sh
# make proofs: Frama-C WP (with -wp-rte) on the whole verified core (every
# function, static helpers and lemmas included), with z3 and cvc4 through
# Why3.  Prints a summary (goals per function, per prover) and fails on any
# unproved goal, or on an ACSL admit/axiom outside spec/.  Then checks that a
# broken bound is caught (proofs/mutation.sh).
set -eu
cd "$(dirname "$0")/.."
out=build/proofs
mkdir -p "$out"

if grep -rnE '\b(admit|axiom|axiomatic)\b' src include | grep -q .; then
    echo "proofs: ACSL admit/axiom outside spec/ (every assumption belongs in spec/):" >&2
    grep -rnE '\b(admit|axiom|axiomatic)\b' src include >&2
    exit 1
fi

[ -f "$HOME/.why3.conf" ] || why3 config detect > /dev/null 2>&1

# cvc4's time limit is wall-clock: 60 s leaves room for a loaded machine (the
# slowest goal takes about 6 s of CPU).

start=$(date +%s)
frama-c -cpp-extra-args="-Iinclude -Ispec" \
    -kernel-warn-key annot:missing-spec=abort \
    -warn-unsigned-overflow -warn-unsigned-downcast -warn-signed-downcast \
    src/core/*.c \
    -wp -wp-rte -wp-prover cvc4,z3 -wp-timeout "${WP_TIMEOUT:-60}" -wp-par 2 \
    -save "$out/core.sav" > "$out/wp.log" 2>&1 || { cat "$out/wp.log"; exit 1; }
end=$(date +%s)

frama-c -load "$out/core.sav" -report-csv "$out/report.csv" > /dev/null 2>&1
echo "== WP on the verified core ($((end - start)) s): goals per prover"
sed -n '/Proved goals/,$p' "$out/wp.log"
echo "== properties per function (proved / total; assumed = trusted base, spec/)"
awk -F'\t' 'NR > 1 && $4 != "" { total[$4]++; if ($6 == "Valid") ok[$4]++;
                                  if ($6 == "Considered valid") assumed[$4]++ }
     END { for (f in total) printf "  %-32s %4d / %4d%s\n", f, ok[f], total[f],
                                   assumed[f] ? sprintf("  (%d assumed)", assumed[f]) : "" }' \
    "$out/report.csv" | sort
echo "== lemmas"
sed -n 's/^\[wp\] \[\(.*\)\] Goal typed_lemma_\([A-Za-z0-9_]*\) : \([A-Za-z]*\).*/  \2: \3 (\1)/p' "$out/wp.log" | sort
# "[wp] Proved goals:  P / T": every goal must be proved
summary=$(grep 'Proved goals' "$out/wp.log" | tail -1)
proved=$(echo "$summary" | awk -F'[:/]' '{ gsub(/ /, ""); print $2 }')
total=$(echo "$summary" | awk -F'/' '{ gsub(/ /, ""); print $2 }')
if [ -z "$proved" ] || [ "$proved" != "$total" ]; then
    echo "proofs: FAILED: ${proved:-?} of ${total:-?} goals proved:" >&2
    grep -E '^\[wp\] \[(Failed|Unknown|Timeout)' "$out/wp.log" >&2 || true
    exit 1
fi
echo "proofs: every goal proved"
sh proofs/mutation.sh
