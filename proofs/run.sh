#!/bin/sh
# SPDX-License-Identifier: ISC
# make proofs: Frama-C WP (with -wp-rte) on the whole verified core (every
# function, static helpers and lemmas included), with z3 and cvc4 through
# Why3.  Fails on any unproved goal, or on an ACSL admit/axiom outside
# spec/.  Writes the goals per function and per prover to
# build/proofs/results.md, each goal's steps to build/proofs/goal-steps.md,
# and fails when the table differs from the committed proofs/results.md in
# the goals, proved, Qed and assumed columns (not in the split between z3 and
# cvc4, which race for each goal, nor in the steps of the one that answered
# first); UPDATE=1 rewrites the committed files instead.  Then checks that a
# broken bound is caught (proofs/mutation.sh).
#   FILE=src/core/race.c   WP on that file only (the functions it calls are
#                          taken by their contracts in its headers): its rows are
#                          compared with the committed table's rows of that
#                          file (lemma and assumed rows are the whole run's).
#   WP_PAR=6               provers run at once (default 4)
#   CACHE=replay           take each SMT goal's verdict from the committed cache
#                          (proofs/wp-cache.txt) where the goal, as sent to the
#                          prover, is there word for word; prove the others
#                          (make check).  Without it every goal is proved, and
#                          UPDATE=1 rewrites the cache from that run.
# The cache is WP's own (-wp-cache): an entry's key is the MD5 of the prover's
# name and version and the whole task Why3 sends it (every hypothesis and
# definition, and the goal), so a changed goal has another key and is proved,
# never replayed.  The file holds the key of proofs/why3.conf and the tools'
# versions (cache_key): entries made with other prover limits are not used.
# The verdict does not depend on the machine's load: each prover stops on its
# own step counter (the limits are in proofs/why3.conf), so a goal is proved
# when z3 or cvc4 proves it within its steps, on any machine with these
# versions.  The time limit (WP_TIMEOUT, 3600 s) is only a backstop, which
# WP applies to wall-clock time: it lies past the step limits (z3's 3 billion
# units are at most 1500 s of CPU at the slowest 2 million a second, four
# provers sharing two cores double that), so that a goal the steps allow is
# proved on a loaded machine too.  At 600 s, three goals (geometric's
# below_limit: 174 million z3 units, 249 s alone) failed at load 3 to 4.
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
if [ -n "${CACHE:-}" ] && [ -n "${UPDATE:-}" ]; then
    echo "proofs: UPDATE=1 records a run that proves every goal: run it without CACHE" >&2
    exit 1
fi

if grep -rnE '\b(admit|axiom|axiomatic)\b' src include | grep -q .; then
    echo "proofs: ACSL admit/axiom outside spec/ (every assumption belongs in spec/):" >&2
    grep -rnE '\b(admit|axiom|axiomatic)\b' src include >&2
    exit 1
fi

# The step counts, and so the verdicts, are those of these versions.
check_version() { # name, version, the command that prints it on its first line
    name=$1; version=$2; shift 2
    if ! "$@" 2>&1 | head -1 | grep -qwF "$version"; then
        echo "proofs: $name $version expected, found: $("$@" 2>&1 | head -1)" \
             "(proofs/why3.conf's step limits and proofs/results.md are theirs)" >&2
        exit 1
    fi
}
check_version z3 4.8.12 z3 --version
check_version cvc4 1.8 cvc4 --version
check_version why3 1.5.1 why3 --version
check_version frama-c 25.0 frama-c -version
export WHY3CONFIG="$PWD/proofs/why3.conf"

# What a cache entry's verdict depends on beyond its goal: the provers' limits
# and commands, and the versions of the tools (checked above).
cache_key() {
    { cat proofs/why3.conf; z3 --version; cvc4 --version | head -1; why3 --version
      frama-c -version; } 2>&1 | sha256sum | cut -d' ' -f1
}

# Four provers at a time: 1137 s for the whole core against 1180 s with two
# (2026-11-25, an idle machine).  When the limits were wall-clock (60 s), four
# left goals that take 20 s unproved on a loaded machine (3 of 3119 in three
# runs on 2026-11-26); with step limits the number only changes the time.
# Running one prover first and the other on what it left took longer (1322 s:
# cvc4 for 10 s, then z3 and cvc4 for 60 s) and left 4 goals unproved that
# the race proves.

# The prover results of this run go to $out/cache (one JSON file per entry).
# Replayed, it starts as the committed cache when that was made with this
# key; otherwise it starts empty and WP's rebuild mode proves every goal.
cache_mode=rebuild
rm -rf "$out/cache"
mkdir -p "$out/cache"
if [ "${CACHE:-}" = replay ]; then
    cache_mode=replay
    if [ "$(sed -n 's/^# key: //p' proofs/wp-cache.txt 2>/dev/null)" = "$(cache_key)" ]; then
        grep -v '^#' proofs/wp-cache.txt | while read -r hash entry; do
            case $hash in
                *[!0-9a-f]*) md5=;;
                *) md5=$hash;;
            esac
            if [ "${#md5}" -ne 32 ]; then
                echo "proofs: proofs/wp-cache.txt: not an entry (an MD5 in hex, then JSON):" \
                     "$(printf '%.60s' "$hash $entry")" >&2
                exit 1
            fi
            printf '%s\n' "$entry" > "$out/cache/$hash.json"
        done
    else
        echo "proofs: proofs/wp-cache.txt is not of this proofs/why3.conf and these tools:" \
             "every goal is proved (make proofs UPDATE=1 rewrites it)"
    fi
elif [ -n "${CACHE:-}" ]; then
    echo "proofs: CACHE=$CACHE: only CACHE=replay is known" >&2
    exit 1
fi

start=$(date +%s)
# shellcheck disable=SC2086
frama-c -cpp-extra-args="-Iinclude -Ispec" \
    -kernel-warn-key annot:missing-spec=abort \
    -warn-unsigned-overflow -warn-unsigned-downcast -warn-signed-downcast \
    $sources \
    -wp -wp-rte -wp-prover cvc4,z3 -wp-timeout "${WP_TIMEOUT:-3600}" -wp-par "${WP_PAR:-4}" \
    -wp-cache "$cache_mode" -wp-cache-dir "$PWD/$out/cache" \
    -save "$out/core.sav" > "$out/wp.log" 2>&1 || { cat "$out/wp.log"; exit 1; }
end=$(date +%s)
frama-c -load "$out/core.sav" -report-csv "$out/report.csv" > /dev/null 2>&1
echo "== WP on $sources ($((end - start)) s, cache: $cache_mode): goals per prover"
grep '^\[wp\] \[Cache\]' "$out/wp.log" || true
sed -n '/Proved goals/,$p' "$out/wp.log"

# proofs/wp-cache.txt: the key, then one line per entry (its file name's hash
# and its JSON text), sorted so that a refresh's diff shows what changed
write_cache() {
    echo "# SPDX-License-Identifier: ISC"
    echo "# WP's prover results (-wp-cache) from make proofs UPDATE=1, replayed by"
    echo "# make proofs CACHE=replay (make check): proofs/run.sh"
    echo "# key: $(cache_key)"
    for entry in "$out"/cache/*.json; do
        [ -e "$entry" ] || continue
        printf '%s %s\n' "$(basename "$entry" .json)" "$(tr -d '\n' < "$entry")"
    done | sort
}

# A prover's step limit, from its command in proofs/why3.conf
limit() { sed -n "s/^command = \"$1 .*$2\([0-9]*\).*/\1/p" proofs/why3.conf; }

# The table: one row per function WP ran on (its file found by its
# definition), per lemma, and per function whose contract is assumed (spec/).
# A goal typed_F_... belongs to the longest such F.
sed -n 's/^\[rte:annot\] annotating function //p' "$out/wp.log" | sort -u | while read -r f; do
    # shellcheck disable=SC2086
    file=$(grep -HE "^ *(static )?[A-Za-z_0-9]+ \**$f\([^;]*$" $sources |
           grep -v ': *return ' | head -1 | cut -d: -f1)
    printf 'F\t%s\t%s\n' "$f" "${file:--}"
done > "$out/functions.tsv"
: > "$out/goal-steps.rows"
: > "$out/streams.rows"
{ cat "$out/functions.tsv"
  awk -F'\t' 'NR > 1 && $1 ~ /^spec/ && $6 == "Considered valid" {
                  printf "A\t%s\t%s/%s\n", $4, $1, $2 }' "$out/report.csv"
  # "[wp] [CVC4 1.8] Goal typed_G : Valid (Qed:7ms) (50ms) (27081)": the
  # last number is the prover's steps (none for Qed); " (cached)" follows it
  # when the verdict was replayed from the cache
  awk '/^\[wp\] \[[A-Za-z0-9-]+[^]]*\] Goal typed_[A-Za-z0-9_]+ : [A-Za-z]+/ {
           for (i = 2; $i != "Goal"; i++) ;
           prover = substr($2, 2); sub(/\]$/, "", prover)
           steps = "-"; last = ($NF == "(cached)") ? $(NF - 1) : $NF
           if (prover != "Qed" && last ~ /^\([0-9]+\)$/) steps = substr(last, 2, length(last) - 2)
           printf "G\t%s\t%s\t%s\t%s\n", substr($(i + 1), 7), prover, $(i + 3), steps }' \
      "$out/wp.log"
} | awk -F'\t' -v steps_file="$out/goal-steps.rows" -v streams_file="$out/streams.rows" '
    $1 == "F" { file[$2] = $3; next }
    $1 == "A" { assumed[$2]++; file[$2] = $3; next }
    { f = ""
      if ($2 ~ /^lemma_/) { f = "lemma " substr($2, 7); file[f] = "-" }
      else for (g in file) if (index($2, g "_") == 1 && length(g) > length(f)) f = g
      if (f == "") { f = "?"; file[f] = "-" }
      goals[f]++
      # the clause stream: the release and the cursor equal the reference
      if ($2 ~ /_ensures_stream(_part[0-9]+)?$/)
          printf "| %s | %s | %s | %s |\n", f, file[f], $2, $4 | "sort > " streams_file
      if ($4 == "Valid") {
          proved[f]++; by[f, $3]++; provers[$3] = 1
          if ($5 != "-") {
              if ($5 + 0 > most[f, $3]) most[f, $3] = $5 + 0
              if ($5 + 0 > most_all[$3]) most_all[$3] = $5 + 0
              printf "| %s | %s | %s | %d |\n", $2, f, $3, $5 | "sort > " steps_file } } }
    END {
      # Qed first; then the SMT provers, which race for each goal
      n = 0; for (p in provers) if (p != "Qed") cols[++n] = p
      for (i = 2; i <= n; i++) for (j = i; j > 1 && cols[j - 1] > cols[j]; j--) {
          t = cols[j]; cols[j] = cols[j - 1]; cols[j - 1] = t }
      printf "| function | file | goals | proved | Qed | assumed |"
      for (i = 1; i <= n; i++) printf " %s |", cols[i]
      for (i = 1; i <= n; i++) printf " %s steps |", cols[i]
      printf "\n| --- | --- | ---: | ---: | ---: | ---: |"
      for (i = 1; i <= 2 * n; i++) printf " ---: |"
      printf "\n"
      for (f in file) if (goals[f] || assumed[f]) {
          row = sprintf("| %s | %s | %d | %d | %d | %d |", f, file[f], goals[f], proved[f],
                        by[f, "Qed"], assumed[f])
          for (i = 1; i <= n; i++) row = row sprintf(" %d |", by[f, cols[i]])
          for (i = 1; i <= n; i++) row = row steps_cell(most[f, cols[i]])
          print row | "sort"
          tg += goals[f]; tp += proved[f]; tq += by[f, "Qed"]; ta += assumed[f]
          for (i = 1; i <= n; i++) tby[i] += by[f, cols[i]] }
      close("sort")
      printf "| total | | %d | %d | %d | %d |", tg, tp, tq, ta
      for (i = 1; i <= n; i++) printf " %d |", tby[i]
      for (i = 1; i <= n; i++) printf "%s", steps_cell(most_all[cols[i]])
      printf "\n" }
    # the most steps a goal took (none when the prover proved no goal)
    function steps_cell(steps) { return steps ? sprintf(" %d |", steps) : " - |" }' \
    > "$out/results.table"
{ echo "<!-- SPDX-License-Identifier: ISC -->"
  echo "# Proof results"
  echo
  echo "Written by \`make proofs UPDATE=1\` (proofs/run.sh). Per function of the verified core"
  echo "(and per lemma): its WP goals, those proved, those Qed proved, the properties assumed"
  echo "(the trusted base, spec/), then the goals each SMT prover proved and the most steps one"
  echo "of them took. \`make proofs\` fails when its run differs in the columns up to *assumed*."
  echo "Each prover stops at its step limit (proofs/why3.conf: cvc4 $(limit cvc4 'rlimit=') units,"
  echo "z3 $(limit z3 'rlimit=')), never on the clock, so the verdicts are the same on any load;"
  echo "the steps a prover takes on a goal are fixed for its version. The SMT provers race for"
  echo "each goal, so which one answers first, and whose steps are counted, varies between runs"
  echo "and is not compared. Each goal's steps: [goal-steps.md](goal-steps.md)."
  echo
  echo "The distributions of the coins, the uniform integer, the shuffle, EM by trials and PF by"
  echo "permutation are proved in Coq (\`make coq-proofs\`, part of \`make proofs\`): the theorems,"
  echo "and what each states, in [coq/README.md](coq/README.md). The race, the first visits, EM"
  echo "by levels, block thinning and the hardened samplers are tested to distribution, not proved."
  echo
  cat "$out/results.table"
  echo
  echo "## The release as a function of the random bits"
  echo
  echo "Each function below states, in its contract's clause \`stream\`, that its result and the"
  echo "random source's cursor after the call equal its reference function of the bits from the"
  echo "cursor before it (spec/references.h; the bit-stream model: spec/trusted-base.md, entry 0)."
  echo "That clause's goal and its verdict, compared as the table above is:"
  echo
  echo "| function | file | goal | verdict |"
  echo "| --- | --- | --- | --- |"
  cat "$out/streams.rows"
} > "$out/results.md"
{ echo "<!-- SPDX-License-Identifier: ISC -->"
  echo "# Steps per goal"
  echo
  echo "Written by \`make proofs UPDATE=1\` (proofs/run.sh) with [results.md](results.md): each goal"
  echo "an SMT prover proved (the others are Qed's), the prover that answered first and the"
  echo "steps it took (cvc4: resource units, z3: rlimit)."
  echo
  echo "| goal | function | prover | steps |"
  echo "| --- | --- | --- | ---: |"
  cat "$out/goal-steps.rows"
} > "$out/goal-steps.md"

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
    cp "$out/results.md" "$out/goal-steps.md" proofs/
    write_cache > proofs/wp-cache.txt
    echo "proofs: proofs/results.md, proofs/goal-steps.md and proofs/wp-cache.txt rewritten"
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
