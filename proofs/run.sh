#!/bin/sh
# SPDX-License-Identifier: ISC
# make proofs: Frama-C WP (with -wp-rte) on the whole verified core (every
# function, static helpers and lemmas included), with z3 and cvc4 through
# Why3.  Fails on any unproved goal, or on an ACSL admit/axiom outside
# spec/.  Writes the goals per function and per prover to
# build/proofs/results.md and fails when it differs from the committed
# proofs/results.md (no times; nor the split between z3 and cvc4, which race
# for each goal); UPDATE=1 rewrites the committed table instead.  Then checks that a broken bound is caught
# (proofs/mutation.sh).
#   FILE=src/core/race.c   WP on that file only (the functions it calls are
#                          taken by their contracts in its headers): its rows are
#                          compared with the committed table's rows of that
#                          file (lemma and assumed rows are the whole run's).
set -eu
export LC_ALL=C
cd "$(dirname "$0")/.."
out=build/proofs
mkdir -p "$out"
sources=${FILE:-src/core/*.c proofs/lemmas.c}
if [ -n "${FILE:-}" ] && [ -n "${UPDATE:-}" ]; then
    echo "proofs: UPDATE=1 rewrites the table of the whole core: run it without FILE" >&2
    exit 1
fi

if grep -rnE '\b(admit|axiom|axiomatic)\b' src include | grep -q .; then
    echo "proofs: ACSL admit/axiom outside spec/ (every assumption belongs in spec/):" >&2
    grep -rnE '\b(admit|axiom|axiomatic)\b' src include >&2
    exit 1
fi

[ -f "$HOME/.why3.conf" ] || why3 config detect > /dev/null 2>&1

# cvc4's time limit is wall-clock: 60 s leaves room for a loaded machine (the
# slowest goal took 22.6 s of 3000 on 2026-11-25).  Two provers at a time,
# one per core: with four (1137 s for the whole core against 1180 s with two,
# 2026-11-25) each prover gets half a core, and on a loaded machine goals
# that take 20 s timed out (3 of 3119 unproved in three runs of four on
# 2026-11-26; both runs with two proved every goal, 1364 s).  Running one
# prover first and the other on what it left took longer (1322 s: cvc4 for
# 10 s, then z3 and cvc4 for 60 s) and left 4 goals unproved that the race
# proves.

start=$(date +%s)
# shellcheck disable=SC2086
frama-c -cpp-extra-args="-Iinclude -Ispec" \
    -kernel-warn-key annot:missing-spec=abort \
    -warn-unsigned-overflow -warn-unsigned-downcast -warn-signed-downcast \
    $sources \
    -wp -wp-rte -wp-prover cvc4,z3 -wp-timeout "${WP_TIMEOUT:-60}" -wp-par "${WP_PAR:-2}" \
    -save "$out/core.sav" > "$out/wp.log" 2>&1 || { cat "$out/wp.log"; exit 1; }
end=$(date +%s)
frama-c -load "$out/core.sav" -report-csv "$out/report.csv" > /dev/null 2>&1
echo "== WP on $sources ($((end - start)) s): goals per prover"
sed -n '/Proved goals/,$p' "$out/wp.log"

# The table: one row per function WP ran on (its file found by its
# definition), per lemma, and per function whose contract is assumed (spec/).
# A goal typed_F_... belongs to the longest such F.
sed -n 's/^\[rte:annot\] annotating function //p' "$out/wp.log" | sort -u | while read -r f; do
    # shellcheck disable=SC2086
    file=$(grep -HE "^ *(static )?[A-Za-z_0-9]+ \**$f\([^;]*$" $sources |
           grep -v ': *return ' | head -1 | cut -d: -f1)
    printf 'F\t%s\t%s\n' "$f" "${file:--}"
done > "$out/functions.tsv"
{ cat "$out/functions.tsv"
  awk -F'\t' 'NR > 1 && $1 ~ /^spec/ && $6 == "Considered valid" {
                  printf "A\t%s\t%s/%s\n", $4, $1, $2 }' "$out/report.csv"
  sed -n 's/^\[wp\] \[\([A-Za-z0-9-]*\)[^]]*\] Goal typed_\([A-Za-z0-9_]*\) : \([A-Za-z]*\).*/G\t\2\t\1\t\3/p' \
      "$out/wp.log"
} | awk -F'\t' '
    $1 == "F" { file[$2] = $3; next }
    $1 == "A" { assumed[$2]++; file[$2] = $3; next }
    { f = ""
      if ($2 ~ /^lemma_/) { f = "lemma " substr($2, 7); file[f] = "-" }
      else for (g in file) if (index($2, g "_") == 1 && length(g) > length(f)) f = g
      if (f == "") { f = "?"; file[f] = "-" }
      goals[f]++; if ($4 == "Valid") { proved[f]++; by[f, $3]++; provers[$3] = 1 } }
    END {
      # Qed first; then the SMT provers, which race for each goal
      n = 0; for (p in provers) if (p != "Qed") cols[++n] = p
      for (i = 2; i <= n; i++) for (j = i; j > 1 && cols[j - 1] > cols[j]; j--) {
          t = cols[j]; cols[j] = cols[j - 1]; cols[j - 1] = t }
      printf "| function | file | goals | proved | Qed | assumed |"
      for (i = 1; i <= n; i++) printf " %s |", cols[i]
      printf "\n| --- | --- | ---: | ---: | ---: | ---: |"
      for (i = 1; i <= n; i++) printf " ---: |"
      printf "\n"
      for (f in file) if (goals[f] || assumed[f]) {
          row = sprintf("| %s | %s | %d | %d | %d | %d |", f, file[f], goals[f], proved[f],
                        by[f, "Qed"], assumed[f])
          for (i = 1; i <= n; i++) row = row sprintf(" %d |", by[f, cols[i]])
          print row | "sort"
          tg += goals[f]; tp += proved[f]; tq += by[f, "Qed"]; ta += assumed[f]
          for (i = 1; i <= n; i++) tby[i] += by[f, cols[i]] }
      close("sort")
      printf "| total | | %d | %d | %d | %d |", tg, tp, tq, ta
      for (i = 1; i <= n; i++) printf " %d |", tby[i]
      printf "\n" }' > "$out/results.table"
{ echo "<!-- SPDX-License-Identifier: ISC -->"
  echo "# Proof results"
  echo
  echo "Written by \`make proofs UPDATE=1\` (proofs/run.sh). Per function of the verified core"
  echo "(and per lemma): its WP goals, those proved, those Qed proved, the properties assumed"
  echo "(the trusted base, spec/), then the goals each SMT prover proved. \`make proofs\` fails"
  echo "when its run differs in the columns up to *assumed*; the SMT provers race for each goal,"
  echo "so which one answers first varies between runs, like times, and is not compared."
  echo
  cat "$out/results.table"
} > "$out/results.md"

# "[wp] Proved goals:  P / T": every goal must be proved
summary=$(grep 'Proved goals' "$out/wp.log" | tail -1)
proved=$(echo "$summary" | awk -F'[:/]' '{ gsub(/ /, ""); print $2 }')
total=$(echo "$summary" | awk -F'/' '{ gsub(/ /, ""); print $2 }')
if [ -z "$proved" ] || [ "$proved" != "$total" ]; then
    cat "$out/results.table"
    echo "proofs: FAILED: ${proved:-?} of ${total:-?} goals proved:" >&2
    grep -E '^\[wp\] \[(Failed|Unknown|Timeout)' "$out/wp.log" >&2 || true
    exit 1
fi
echo "proofs: every goal proved"

if [ -n "${UPDATE:-}" ]; then
    cp "$out/results.md" proofs/results.md
    echo "proofs: proofs/results.md rewritten"
else
    if [ -n "${FILE:-}" ]; then
        what="the rows of $FILE"
        awk -F' [|] ' -v f="$FILE" '$2 == f' proofs/results.md | cut -d'|' -f1-7 > "$out/expected.md"
        awk -F' [|] ' -v f="$FILE" '$2 == f' "$out/results.md" | cut -d'|' -f1-7 > "$out/got.md"
    else
        what="the table"
        grep '^|' proofs/results.md | cut -d'|' -f1-7 > "$out/expected.md"
        grep '^|' "$out/results.md" | cut -d'|' -f1-7 > "$out/got.md"
    fi
    if ! diff -u "$out/expected.md" "$out/got.md"; then
        echo "proofs: FAILED: $what: not as in proofs/results.md (-: committed, +: this run;" \
             "make proofs UPDATE=1 records a deliberate change)" >&2
        exit 1
    fi
    echo "proofs: $what: as in proofs/results.md"
fi
sh proofs/mutation.sh
