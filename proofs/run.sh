#!/bin/sh
# make proofs: Frama-C WP (with -wp-rte) on the whole verified core, with z3
# and cvc4 through Why3.  Prints a summary (goals per function, per prover)
# and fails on any unproved goal, or on an ACSL admit/axiom outside spec/.
set -eu
cd "$(dirname "$0")/.."
out=build/proofs
mkdir -p "$out"

if grep -rnE '\b(admit|axiom|axiomatic)\b' src include | grep -q .; then
    echo "proofs: ACSL admit/axiom outside spec/ (every assumption belongs in spec/):" >&2
    grep -rnE '\b(admit|axiom|axiomatic)\b' src include >&2
    exit 1
fi

[ -f "$HOME/.why3.conf" ] || why3 config detect > /dev/null

frama-c -cpp-extra-args="-Iinclude -Ispec" \
    -kernel-warn-key annot:missing-spec=abort \
    -warn-unsigned-overflow -warn-unsigned-downcast -warn-signed-downcast \
    src/core/*.c \
    -wp -wp-rte -wp-prover cvc4,z3 -wp-timeout "${WP_TIMEOUT:-30}" -wp-par 2 \
    -wp-session proofs/session -wp-cache update \
    -save "$out/core.sav" > "$out/wp.log" 2>&1 || { cat "$out/wp.log"; exit 1; }

frama-c -load "$out/core.sav" -report-csv "$out/report.csv" > /dev/null 2>&1
echo "== WP: goals per prover"
sed -n '/Proved goals/,$p' "$out/wp.log"
echo "== properties per function (valid / total)"
awk -F'\t' 'NR > 1 { f = $2 == "" ? "(global)" : $2; total[f]++;
             if ($6 ~ /^Valid/ || $6 ~ /Considered valid/) ok[f]++ }
     END { for (f in total) printf "  %-32s %4d / %4d\n", f, ok[f], total[f] }' \
    "$out/report.csv" | sort
frama-c -load "$out/core.sav" -report-classify -report-unclassified-unknown ERROR \
    -report-unclassified-invalid ERROR -report-unclassified-untried REVIEW > "$out/classify.log" 2>&1 || {
    echo "proofs: FAILED: some goals are not proved" >&2
    grep -E "Unknown|Invalid|ERROR|Timeout|Failed" "$out/wp.log" "$out/classify.log" | head -40 >&2
    exit 1
}
echo "proofs: every goal proved"
