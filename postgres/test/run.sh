#!/bin/sh
# SPDX-License-Identifier: ISC
# The PostgreSQL extension on a real server (`make postgres-test`, after
# `make install-postgres`):
#   PG_INSTALLCHECK=COMMAND sh postgres/test/run.sh TOOL README DOCS_PAGE
# starts a server of its own (server.sh: initdb in a temporary folder, an
# unprivileged user, a Unix socket only; stopped on every exit), then checks:
#   - the pg_regress suites (postgres/sql/<suite>.sql against
#     postgres/expected/<suite>.out: the bad arguments and their messages,
#     and the releases the data fix), run by PG_INSTALLCHECK (the command
#     `make postgres-test` gives: postgres/Makefile's installcheck), one
#     check a suite;
#   - fits: one selection per group over 10^4 groups of the same 8
#     candidates (so 10^4 independent draws from one distribution), in a
#     forced parallel plan whose own plan (auto_explain, with ANALYZE) must
#     show a Partial and a Finalize aggregate, 2 workers, and more partial
#     groups than groups
#     (groups split between the workers, so their states were merged), or
#     for dpsel_quantile and dpsel_percentile, whose state is not partial,
#     no Partial aggregate and every row gathered from the 2 workers into
#     the leader's (a worker's state would be limited to 1 GB: 134 million
#     values; postgres/test/large.sh runs that many);
#     the chosen labels fitted to TOOL's exact pmf by chi-square (chisq.awk,
#     false alarm 1e-6 per fit): dpsel_pf (hashed), dpsel_em (sorted),
#     dpsel_pf with a sensitivity of 2, dpsel_quantile with EM and PF,
#     dpsel_pf over numeric scores with a numeric epsilon and dpsel_em with
#     a float8 one, dpsel_pf over decimal scores in units of a resolution
#     and dpsel_em with a float8 decimal sensitivity (against TOOL pmf
#     --resolution), dpsel_mode over raw rows (a candidate without rows, rows
#     of no candidate and NULLs among them) by PF and EM, dpsel_percentile
#     with EM and PF;
#   - two rows of a group with one label in two parallel workers' states
#     are an error that does not show the label;
#   - the median and the 0.9 quantile of 100 100 values at epsilon 50 land on
#     the true ones, in a parallel plan (every row gathered into the leader);
#   - dpsel_pf and dpsel_em in one query do not share a state;
#   - a selection's state that a worker could not pass on (half of 1 GB:
#     8200 labels of 65536 bytes) is refused from its labels alone, alike
#     without workers, split between two and in one worker, and 8101 labels
#     release without workers and from one worker; dpsel_mode's candidates
#     past it are refused;
#   - a final function working on 10^7 values stops, through the library's
#     interrupt check, on pg_cancel_backend, pg_terminate_backend and a
#     statement_timeout, within 2 s (the latencies printed), and PF on grids
#     of 10^12 and 2^62 points releases within a 2 s statement_timeout;
#   - epsilon changing between the rows of two parallel workers is an
#     error, and after every error of the run the server is up (no backend
#     crashed: its log says so);
#   - no leak: the bytes a backend's malloc holds in use (malloc_in_use.c,
#     built here, never installed) after runs 3 to 6 over 10^6 rows (10^5
#     groups, about 250 MB of states per run) are within 4 MB of those after
#     run 2, hashed, sorted, parallel, for the quantile and the mode;
#   - the SQL examples run as written: README's quick start (its PostgreSQL
#     section) and DOCS_PAGE's (docs/postgresql.md: every sql block).
set -u
export LC_ALL=C
usage="usage: PG_INSTALLCHECK=COMMAND sh postgres/test/run.sh TOOL README DOCS_PAGE"
tool=${1:?$usage}
readme=${2:?$usage}
docs_page=${3:?$usage}
: "${PG_INSTALLCHECK:?$usage}"
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=postgres/test/server.sh
. "$here/server.sh"
work=$(mktemp -d) || exit 1
trap 'pg_stop; rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

passed=0
failed=0
pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

groups=10000
# The settings that force a parallel plan whose two workers do all the
# scanning (the leader only gathers), so that groups are split between them.
parallel="SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;"

pg_start || exit 1
echo "server: PostgreSQL $("$PG_BIN/postgres" -V | awk '{print $3}') in $PG_DIR (socket only)"

# ------------------------------------------------------ pg_regress suites
# pg_regress creates its database on this server and prints a line a suite
# ("test NAME ... ok" or "... FAILED"); the differences of a failed one are
# printed from its regression.diffs.
# shellcheck disable=SC2086
$PG_INSTALLCHECK EXTRA_REGRESS_OPTS="--host=$PG_DIR --port=$PG_PORT --user=postgres" \
    > "$work/regress.out" 2>&1
regress_rc=$?
sed -n 's/^test \([a-z_]*\) *\.\.\. \([A-Za-z]*\).*/\1 \2/p' "$work/regress.out" > "$work/suites"
[ -s "$work/suites" ] || fail "pg_regress: no suite ran: $(cat "$work/regress.out")"
while read -r suite outcome; do
    if [ "$outcome" = ok ]; then pass "pg_regress suite $suite"; else fail "pg_regress suite $suite: $outcome"; fi
done < "$work/suites"
if [ "$regress_rc" -ne 0 ]; then
    fail "pg_regress: exit status $regress_rc"
    sed -n '/regression.diffs/s/.*"\(.*regression.diffs\)".*/\1/p' "$work/regress.out" | xargs -r cat
fi

# ---------------------------------------------------------------- data
candidates="apple,12 banana,11 cherry,11 date,10 elder,9 fig,8 grape,6 kiwi,3"
values="3 5 5 7 9"
printf '%s\n' $candidates > "$work/candidates.csv"
printf '%s\n' $values > "$work/values.csv"
# dpsel_mode's candidates: the same and lime, which no row names
mode_candidates="ARRAY['apple', 'banana', 'cherry', 'date', 'elder', 'fig', 'grape', 'kiwi', 'lime']"
printf '%s\n' $candidates lime,0 > "$work/mode.csv"
candidate_rows=$(printf "('%s'),\n" $candidates | sed "s/,\([0-9]*\)')/', \1)/" | sed '$s/,$//')
value_rows=$(printf '(%s),\n' $values | sed '$s/,$//')
# the quantile's plan (plan_ok): every row of qv gathered into the leader
# shellcheck disable=SC2086
quantile_plan="gathered $(($(printf '%s\n' $values | wc -l) * groups))"
# Rows in candidate (value) order, not group order: each group's rows lie
# far apart in the table, in the blocks of both workers; `pad` makes the
# tables a few thousand pages, so that both workers start before the scan
# ends.
pg_sql <<EOF || exit 1
CREATE EXTENSION dpsel;
CREATE TABLE cand (grp int, label text, score bigint, pad text DEFAULT repeat('x', 300));
INSERT INTO cand (grp, label, score) SELECT g, c.label, c.score
    FROM (VALUES $candidate_rows) c(label, score), generate_series(1, $groups) g
    ORDER BY c.label, g;
CREATE TABLE qv (grp int, v numeric, pad text DEFAULT repeat('x', 300));
INSERT INTO qv (grp, v) SELECT g, q.v FROM (VALUES $value_rows) q(v), generate_series(1, $groups) g
    ORDER BY q.v, g;
CREATE TABLE raw (grp int, v text, pad text DEFAULT repeat('x', 20));
INSERT INTO raw (grp, v) SELECT g, c.label
    FROM (VALUES $candidate_rows, ('zzz', 4), (NULL, 2)) c(label, score),
         generate_series(1, $groups) g, generate_series(1, c.score) r
    ORDER BY c.label, g;
CREATE TABLE vals (v numeric, pad text DEFAULT repeat('x', 100));
INSERT INTO vals (v) SELECT g % 1001 FROM generate_series(1, 100100) g;
ANALYZE;
EOF

# ---------------------------------------------------------------- fits

# pmf_of ARGS...: TOOL pmf's `label<TAB>probability` on the candidates
pmf_of() {
    "$tool" pmf "$@" "$work/candidates.csv" | awk -F, '!/^#/ && $1 != "label" { print $1 "\t" $NF }'
}

# runs_of ARGS...: TOOL quantile --pmf's runs as `from..to<TAB>probability`
runs_of() {
    "$tool" quantile --pmf "$@" "$work/values.csv" \
        | awk -F, '!/^#/ && $1 != "from" { print $1 ".." $2 "\t" $NF }'
}

# plan_ok PLAN SHAPE: PLAN has the SHAPE expected, with 2 workers; says so.
# SHAPE "partial N": a Partial and a Finalize aggregate, more partial
# groups gathered than N; "gathered N": no Partial aggregate, the N rows
# scanned by the workers gathered into the leader's aggregate (the
# quantile's state is not partial: dpsel--0.1.0.sql).
plan_ok() {
    gathered=$(sed -n 's/.*Gather.*actual rows=\([0-9]*\).*/\1/p' "$1" | head -n 1)
    grep -q 'Workers Launched: 2' "$1" || return 1
    case $2 in
        partial\ *)
            finalize=$(sed -n 's/.*\(Finalize [A-Za-z]*\).*/\1/p' "$1" | head -n 1)
            grep -q 'Partial [A-Za-z]*Aggregate' "$1" && [ -n "$finalize" ] \
                && [ "${gathered:-0}" -gt "${2#partial }" ] \
                && echo "$finalize over 2 workers, $gathered partial groups for ${2#partial }"
            ;;
        gathered\ *)
            ! grep -q 'Partial [A-Za-z]*Aggregate' "$1" && [ "${gathered:-0}" -eq "${2#gathered }" ] \
                && echo "no Partial aggregate: $gathered rows from 2 workers into the leader's"
            ;;
        *) return 1 ;;
    esac
}

# planned NAME SETTINGS QUERY SHAPE: runs QUERY under the parallel settings
# and SETTINGS into $work/out, its own plan (auto_explain, into the server's
# log) into $work/plan, and checks the plan (plan_ok); a plan where one
# worker started too late to share the groups is run again, up to 3 times
# in all (the outputs are not looked at in between).  Fails NAME otherwise.
planned() {
    for attempt in 1 2 3; do
        logged=$(wc -c < "$PG_DIR/server.log")
        printf "LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0;
SET auto_explain.log_analyze = on; SET auto_explain.log_timing = off;
%s %s\n%s;\n" "$parallel" "$2" "$3" | pg_sql > "$work/out" 2>&1 \
            || { fail "$1: $(cat "$work/out")"; return 1; }
        tail -c +$((logged + 1)) "$PG_DIR/server.log" > "$work/plan"
        plan=$(plan_ok "$work/plan" "$4") && { echo "     $1: $plan"; return 0; }
    done
    fail "$1: not the parallel plan expected:"
    cat "$work/plan"
    return 1
}

# selections CALL, quantiles CALL: the query counting CALL's releases per group
selections() {
    echo "SELECT c, count(*) FROM (SELECT grp, $1 c FROM cand GROUP BY grp) s GROUP BY c"
}
quantiles() {
    echo "SELECT c, count(*) FROM (SELECT grp, $1 c FROM qv GROUP BY grp) s GROUP BY c"
}

# fit NAME SETTINGS QUERY PMF [SHAPE]: QUERY returns (output, count) over
# the groups' releases, in a parallel plan of SHAPE (plan_ok; by default
# "partial $groups"); the counts must fit PMF
fit() {
    planned "$1" "$2" "$3" "${5:-partial $groups}" || return
    if result=$(awk -f "$here/chisq.awk" "$4" "$work/out"); then
        pass "$1: $result"
    else
        fail "$1: $result"
    fi
}

pmf_of --epsilon 1 --monotonic > "$work/pf.pmf"
fit "dpsel_pf(label, score, '1', 1, true), hashed" "SET enable_sort = off;" \
    "$(selections "dpsel_pf(label, score, '1', 1, true)")" "$work/pf.pmf"
pmf_of --epsilon 1 --mechanism em > "$work/em.pmf"
fit "dpsel_em(label, score, '1'), sorted" "SET enable_hashagg = off;" \
    "$(selections "dpsel_em(label, score, '1')")" "$work/em.pmf"
pmf_of --epsilon 2 --sensitivity 2 > "$work/pf2.pmf"
fit "dpsel_pf(label, score, '2', 2)" "" "$(selections "dpsel_pf(label, score, '2', 2)")" \
    "$work/pf2.pmf"
runs_of --quantile 0.5 --lower 0 --upper 10 --epsilon 1 > "$work/median.pmf"
fit "dpsel_quantile(v, '0.5', '0', '10', '1')" "" \
    "$(quantiles "dpsel_quantile(v, '0.5', '0', '10', '1')")" "$work/median.pmf" "$quantile_plan"
runs_of --quantile 0.25 --lower 0 --upper 10 --resolution 0.5 --epsilon 2 --mechanism pf \
    > "$work/quartile.pmf"
fit "dpsel_quantile(v, '0.25', '0', '10', '2', '0.5', 'pf')" "" \
    "$(quantiles "dpsel_quantile(v, '0.25', '0', '10', '2', '0.5', 'pf')")" "$work/quartile.pmf" \
    "$quantile_plan"

# Numeric scores (rounded down: score + 0.75 is score), numeric
# and float8 epsilons (1.0 and 1 give the parameters of "1")
fit "dpsel_pf(label, score + 0.75, 1.0, 1, true): numeric score and epsilon" "" \
    "$(selections "dpsel_pf(label, score + 0.75, 1.0, 1, true)")" "$work/pf.pmf"
fit "dpsel_em(label, score::int, 1::float8): float8 epsilon" "" \
    "$(selections "dpsel_em(label, score::int, 1::float8)")" "$work/em.pmf"
# Decimal scores (spec/quantiles.md §5), against TOOL's pmf --resolution:
# the scores / 4 in units of 0.25 with a sensitivity of 0.5 (2 units),
# less 2.1, which puts 3 of the 8 below 0 and none on the grid: rounded
# down (floor, not towards 0) they are the scores less 9, the same gaps;
# and integer scores with a float8 sensitivity of 0.5, in units of 0.1.
awk -F, '{ printf "%s,%.2f\n", $1, $2 / 4 }' "$work/candidates.csv" > "$work/quarters.csv"
"$tool" pmf --epsilon 1 --sensitivity 0.5 --resolution 0.25 --monotonic "$work/quarters.csv" \
    | awk -F, '!/^#/ && $1 != "label" { print $1 "\t" $NF }' > "$work/quarters.pmf"
fit "dpsel_pf(label, score * 0.25 - 2.1, '1', 0.5, true, 0.25): decimal scores" "" \
    "$(selections "dpsel_pf(label, score * 0.25 - 2.1, '1', 0.5, true, 0.25)")" \
    "$work/quarters.pmf"
pmf_of --epsilon 1 --sensitivity 0.5 --mechanism em > "$work/em-half.pmf"
fit "dpsel_em(label, score::int, 1::float8, 0.5::float8): decimal sensitivity" "" \
    "$(selections "dpsel_em(label, score::int, 1::float8, 0.5::float8)")" "$work/em-half.pmf"
# dpsel_mode over raw rows: each group's rows name its candidates as many
# times as their scores above, and also 'zzz' (no candidate) 4 times and
# NULL twice, dropped; lime counts 0
"$tool" pmf --epsilon 1 --monotonic "$work/mode.csv" \
    | awk -F, '!/^#/ && $1 != "label" { print $1 "\t" $NF }' > "$work/mode-pf.pmf"
"$tool" pmf --epsilon 0.5 --monotonic --mechanism em "$work/mode.csv" \
    | awk -F, '!/^#/ && $1 != "label" { print $1 "\t" $NF }' > "$work/mode-em.pmf"
modes() {
    echo "SELECT c, count(*) FROM (SELECT grp, $1 c FROM raw GROUP BY grp) s GROUP BY c"
}
fit "dpsel_mode(v, candidates, '1'), hashed" "SET enable_sort = off;" \
    "$(modes "dpsel_mode(v, $mode_candidates, '1')")" "$work/mode-pf.pmf"
fit "dpsel_mode(v, candidates, 0.5, 'em'), sorted" "SET enable_hashagg = off;" \
    "$(modes "dpsel_mode(v, $mode_candidates, 0.5, 'em')")" "$work/mode-em.pmf"
fit "dpsel_percentile(v, 0.5, 0, 10, 1)" "" \
    "$(quantiles "dpsel_percentile(v, 0.5, 0, 10, 1)")" "$work/median.pmf" "$quantile_plan"
fit "dpsel_percentile(v, 0.25, 0, 10, 2::float8, 0.5, 'pf')" "" \
    "$(quantiles "dpsel_percentile(v, 0.25, 0, 10, 2::float8, 0.5, 'pf')")" "$work/quartile.pmf" \
    "$quantile_plan"

# ------------------------------------------------------ known quantiles
# 100 copies of each of 0 .. 1000: the median is 500 and the 0.9 quantile
# 900, every other grid point at least 50 score units below (probability
# below 10^-500 at epsilon 50).
# exact NAME QUERY EXPECTED: QUERY (one aggregate over vals, in a parallel
# plan) returns EXPECTED
exact() {
    planned "$1" "" "$2" "gathered 100100" || return
    if [ "$(cat "$work/out")" = "$3" ]; then pass "$1: $3"; else fail "$1: $(cat "$work/out"), expected $3"; fi
}
exact "median, EM" "SELECT dpsel_quantile(v, '0.5', '0', '2000', '50', '0.5') FROM vals" "500.0"
exact "0.9 quantile, PF" "SELECT dpsel_quantile(v, '0.9', '0', '2000', '50', NULL, 'pf') FROM vals" "900"
exact "dpsel_percentile, 0.9, resolution 0.5" \
    "SELECT dpsel_percentile(v, 0.9, 0, 2000, 50, 0.5) FROM vals" "900.0"

# ------------------------------------------------- a label given twice
# One label given twice to a (label, score) aggregate would be taken as two
# candidates: an error that does not show the label (it may be a record),
# here with the duplicates in both workers' states (cand's rows are in label
# order); the raw rows' case is the suite messages'.
twice() {
    output=$(printf '%s\n%s;\n' "$2" "$3" | pg_sql 2>&1)
    case "$output" in
        *"$5"*) fail "$1: the label $5 shown: $output" ;;
        *"ERROR:  $4: two rows of a group have one label"*) pass "$1: refused, $5 not shown" ;;
        *) fail "$1: expected the repeated label refused, got: $output" ;;
    esac
}
twice "one label twice, in two workers' states" "$parallel SET enable_sort = off;" \
    "SELECT count(c) FROM (SELECT grp % 2 AS g, dpsel_em(label, score, '1') c FROM cand WHERE label = 'kiwi' OR grp < 3 GROUP BY 1) s" \
    dpsel_em kiwi

# Two selections in one query draw apart: over 100 groups of 1000 candidates
# of one score, dpsel_pf and dpsel_em agree about 0.1 times (independent
# states); at least 10 has probability below 1e-16, and Postgres sharing
# one state between them (READ_ONLY final functions) gives 100.
agree=$(echo "SELECT count(*) FILTER (WHERE p = e) FROM (SELECT g / 1000 AS grp,
    dpsel_pf('c' || g % 1000, 7, '1') p, dpsel_em('c' || g % 1000, 7, '1') e
    FROM generate_series(0, 99999) g GROUP BY 1) s;" | pg_sql 2>&1)
if [ "$agree" -lt 10 ] 2>/dev/null; then
    pass "dpsel_pf and dpsel_em in one query keep their own states: $agree agreements of 100"
else
    fail "dpsel_pf and dpsel_em in one query share a state: $agree agreements of 100"
fi

# ------------------------------------------- states past a worker's room
# A worker passes a state on as one value (at most 1 GB), so a selection's
# state is bounded by half of it from its candidates alone, alike in every
# plan.  Labels of 65536 bytes with scores 1, 2, ... (at epsilon 1, gap cap
# 89: 90 levels, each holding a label, the bound's worst case) take 65540
# bytes each and 5900144 more: 8101 release without workers and from one
# worker (a one-page table), which passes its whole state on (537 MB, 31200
# bytes under the bound); 8200, whose labels alone take more than half of
# 1 GB, are refused without workers, split between two workers (each under
# the bound: the leader's merge refuses) and all read by one worker (its
# transition refuses).  dpsel_mode's candidates, 9 of 60 MB, are refused at
# the first row (large.sh: also in a parallel plan).
pg_sql <<'EOF2' || exit 1
CREATE TABLE wide (g int, pad text DEFAULT repeat('x', 300));
INSERT INTO wide (g) SELECT generate_series(1, 8200);
CREATE TABLE page (b int) WITH (parallel_workers = 2);
INSERT INTO page SELECT generate_series(0, 81);
ANALYZE wide, page;
EOF2
# in_plan NAME SETTINGS QUERY EXPECTED: QUERY under SETTINGS gives EXPECTED
# (its output, or the start of its error), in a Partial aggregate over 2
# workers when SETTINGS are the parallel ones; prints its time and, for an
# error, whether a worker raised it
in_plan() {
    if [ "$2" = "$parallel" ]; then
        plan=$(printf '%s\nEXPLAIN %s;\n' "$2" "$3" | pg_sql 2>&1)
        case "$plan" in
            *"Workers Planned: 2"*"Partial Aggregate"*) ;;
            *) fail "$1: not a Partial aggregate over 2 workers: $plan"; return ;;
        esac
    fi
    started=$(date +%s%N)
    output=$(printf 'SET jit = off; %s\n%s;\n' "$2" "$3" | pg_sql 2>&1)
    took=$((($(date +%s%N) - started) / 1000000))
    case "$output" in
        *"CONTEXT:  parallel worker"*) raised=" (in a worker)" ;;
        ERROR*) raised=" (in the leader)" ;;
        *) raised= ;;
    esac
    case "$output" in
        "$4"*) pass "$1: $(echo "$output" | head -n 1 | cut -c 1-100)$raised, $took ms" ;;
        *) fail "$1: expected $4, got $(echo "$output" | head -c 300)" ;;
    esac
}
plain="SET max_parallel_workers_per_gather = 0;"
label="lpad(g::text, 8, '0') || repeat('x', 65528)"
wide_labels() {
    echo "SELECT length(dpsel_pf($label, g, '1')) FROM wide WHERE g <= $1"
}
page_labels() {
    echo "SELECT length(dpsel_pf($label, g, '1'))
        FROM page, generate_series(b * 100 + 1, b * 100 + 100) g WHERE g <= $1"
}
room="ERROR:  dpsel_pf: a group's candidates take more than 536870884 bytes of state"
in_plan "8101 labels of 65536 bytes, no workers" "$plain" "$(wide_labels 8101)" 65536
in_plan "8101 labels of 65536 bytes, one worker" "$parallel" "$(page_labels 8101)" 65536
in_plan "8200 labels of 65536 bytes, no workers" "$plain" "$(wide_labels 8200)" "$room"
in_plan "8200 labels of 65536 bytes, two workers" "$parallel" "$(wide_labels 8200)" "$room"
in_plan "8200 labels of 65536 bytes, one worker" "$parallel" "$(page_labels 8200)" "$room"
# 60 MB each, made by the query rather than folded into its plan
in_plan "dpsel_mode, 9 candidates of 60 MB" "" \
    "SELECT dpsel_mode('1', (SELECT array_agg(repeat(g || repeat('x', 59999), 1000))
        FROM generate_series(1, 9) g), 1)" \
    "ERROR:  dpsel_mode: the candidates take more than 536870886 bytes of state"

# ------------------------------------------------------- bad arguments
# The bad arguments are the suites arguments and messages'; here, epsilon
# changing between the rows that two parallel workers read (which of the two
# values comes first depends on the workers, hence no pinned message).  Then
# the server must answer, and its log show no crash.
output=$(printf '%s\n%s;\n' "$parallel" "SELECT count(c) FROM (SELECT grp, dpsel_pf(label, score, CASE WHEN label = 'kiwi' THEN '2' ELSE '1' END) c FROM cand GROUP BY grp) s" | pg_sql 2>&1)
case "$output" in
    *"ERROR:  dpsel_pf: epsilon must be the same on every row of a group"*)
        pass "epsilon changing between parallel workers: refused" ;;
    *) fail "epsilon changing between parallel workers: got $output" ;;
esac
if [ "$(echo 'SELECT 1;' | pg_sql 2>&1)" = 1 ] \
    && ! grep -q 'terminated by signal\|server process .* was terminated' "$PG_DIR/server.log"; then
    pass "the server is up after the errors, no backend crashed"
else
    fail "the server after the errors: $(grep 'terminated' "$PG_DIR/server.log")"
fi

# ------------------------------------------------------------- cancel
# A long final function stops when asked: 10^7 values into
# dpsel_quantile, whose final function clamps, sorts and cuts them (about
# 1.3 s here) after the scan (about 8 s).  The backend's resident memory
# shows when the final has started: the library's two arrays (16 bytes a
# value) come on top of the state's points (8 bytes a value), so it passes
# the scan's by more than 150 MB.  pg_cancel_backend and
# pg_terminate_backend from a second session at that moment, and a
# statement_timeout that ends just after it, must each end the query with
# Postgres's own error, raised through the library's interrupt check (the
# CONTEXT line: the final function stopped, not the scan).  The latency
# from the signal to the error is printed.
slow="SELECT dpsel_quantile(g % 1000001, '0.5', '0', '1000000', '1')
    FROM generate_series(1, 10000000) g"
now_ms() { echo $(($(date +%s%N) / 1000000)); }
rss_kb() { awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status" 2> /dev/null; }
# final_started PID: waits (up to 120 s) until PID's resident memory is 150
# MB above the first reading; true if it got there
final_started() {
    base=$(rss_kb "$1")
    for _ in $(seq 2400); do
        rss=$(rss_kb "$1")
        [ -n "$rss" ] || return 1
        [ "$rss" -gt $((${base:-0} + 153600)) ] && return 0
        sleep 0.05
    done
    return 1
}
# stopped NAME OUTPUT EXPECTED: OUTPUT holds the error EXPECTED and the
# CONTEXT line of the library's interrupt check
stopped() {
    case "$2" in
        *"$3"*"dpsel_quantile: the release, stopped by its interrupt check"*) return 0 ;;
    esac
    fail "$1: expected $3 from the interrupt check, got: $2"
    return 1
}
# signal_in_final NAME FUNCTION EXPECTED: runs the slow query in the
# background, FUNCTION(its pid) from this session once its final has
# started; the query must end with EXPECTED within 2 s.  Sets final_at (ms
# from the query's start to its final).
signal_in_final() {
    rm -f "$work/slow.done"
    started=$(now_ms)
    (printf "SET application_name = 'dpsel-slow';\n%s;\n" "$slow" | pg_sql > "$work/slow.out" 2>&1
        touch "$work/slow.done") &
    pid=
    for _ in $(seq 200); do
        pid=$(echo "SELECT pid FROM pg_stat_activity WHERE application_name = 'dpsel-slow'" | pg_sql)
        [ -n "$pid" ] && break
        sleep 0.05
    done
    if [ -z "$pid" ] || ! final_started "$pid"; then
        wait
        fail "$1: the final function not seen (pid ${pid:-none}): $(cat "$work/slow.out")"
        return 1
    fi
    final_at=$(($(now_ms) - started))
    signalling=$(now_ms)
    echo "SELECT $2($pid);" | pg_sql > /dev/null
    sent=$(now_ms)
    wait
    ended=$(now_ms)
    latency=$((ended - signalling))
    stopped "$1" "$(cat "$work/slow.out")" "$3" || return 1
    if [ "$latency" -lt 2000 ]; then
        # the signal left between the signalling psql's start and its end
        pass "$1, $final_at ms after the start: stopped $((ended - sent)) to $latency ms after the signal"
    else
        fail "$1: stopped in $latency ms"
    fi
}
signal_in_final "pg_cancel_backend in the final function" pg_cancel_backend \
    "ERROR:  canceling statement due to user request"
signal_in_final "pg_terminate_backend in the final function" pg_terminate_backend \
    "FATAL:  terminating connection due to administrator command"
# statement_timeout: the final's start as just measured plus 300 ms; a run
# where the timeout fell in the scan or after the final (the machine's load
# changed: make check runs other tests beside this one) is run again, up to
# 6 times, each with the final's start measured anew
timeout_in_final() {
    for attempt in 1 2 3 4 5 6; do
        timeout=$((final_at + 300))
        started=$(now_ms)
        output=$(printf "SET statement_timeout = %s;\n%s;\n" "$timeout" "$slow" | pg_sql 2>&1)
        latency=$(($(now_ms) - started - timeout))
        case "$output" in
            *"stopped by its interrupt check"*) break ;;
        esac
        echo "     statement_timeout $timeout ms, attempt $attempt: not in the final function"
        # measures the final's start anew; part of this test, not a pass of
        # its own (the count of passes must not depend on the machine's load)
        counted=$passed
        signal_in_final "pg_cancel_backend in the final function, again" pg_cancel_backend \
            "ERROR:  canceling statement due to user request" > /dev/null || return 1
        passed=$counted
    done
    stopped "statement_timeout = $timeout ms" "$output" \
        "ERROR:  canceling statement due to statement timeout" || return 1
    if [ "$latency" -lt 2000 ]; then
        pass "statement_timeout = $timeout ms in the final function: stopped $latency ms after it"
    else
        fail "statement_timeout = $timeout ms: stopped $latency ms after it"
    fi
}
timeout_in_final
# PF over a grid of 10^12 points (and one of 2^62), from two rows, under a
# statement_timeout of 2 s.  PF over runs costs O(runs), so the release
# comes at once (racing every point would take 16 s and more).
for upper in 1000000000000 4611686018427387903; do
    output=$(printf "SET statement_timeout = '2s';
SELECT dpsel_quantile(v, '0.5', '0', '%s', '1', NULL, 'pf') FROM (VALUES (1), (2)) t(v);\n" \
        "$upper" | pg_sql 2>&1)
    case "$output" in
        '' | *[!0-9]*) fail "PF on the grid 0..$upper: $output" ;;
        *) pass "PF on the grid 0..$upper within the 2 s statement_timeout: $output" ;;
    esac
done

# ---------------------------------------------------------------- leaks
# One session runs an aggregate over 10^6 rows (10^5 groups of 10) 6 times
# and reads, after each, the bytes its malloc holds in use (mallinfo2, through
# the test-only function malloc_in_use.c): the most after runs 3 to 6 must be
# within 4 MB of those after run 2 (run 1 fills the server's caches).  One
# run's states take about 250 MB of the library's malloc (2.5 KB a group at
# epsilon 1); a block left behind for every group fails (a malloc block takes
# at least 32 bytes: 3.2 MB a run, 12.8 MB by run 6).  The server itself
# was seen to keep up to 0.5 MB more after a run, once.  The resident
# size (printed beside it) is no measure: glibc keeps or returns freed memory
# as the heap's layout falls, and it was seen to swing by 100 MB between runs
# of one query with the bytes in use unchanged to within 2 KB.
"${CC:-cc}" -O2 -shared -fPIC -I"$("$PG_CONFIG" --includedir-server)" \
    -o "$work/malloc_in_use.so" "$here/malloc_in_use.c" || exit 1
cp "$work/malloc_in_use.so" "$PG_DIR/"
[ "$(id -u)" = 0 ] && chown postgres: "$PG_DIR/malloc_in_use.so"
pg_sql <<EOF || exit 1
CREATE FUNCTION malloc_in_use() RETURNS bigint
    AS '$PG_DIR/malloc_in_use.so', 'dpsel_test_malloc_in_use' LANGUAGE C;
CREATE TABLE big AS SELECT g / 10 AS grp, 'item-' || (g % 10) AS label,
    g::bigint * 7919 % 1000 AS score FROM generate_series(0, 999999) g;
ANALYZE big;
EOF
# leak NAME SETTINGS CALL: 6 runs of CALL per group of big
leak() {
    readings=$( (echo "$2"; for run in 1 2 3 4 5 6; do
        echo "SELECT count(c) FROM (SELECT grp, $3 c FROM big GROUP BY grp) s;"
        echo "SELECT 'in use', malloc_in_use(),
            substring(pg_read_file('/proc/self/status') FROM 'VmRSS:\s+(\d+)');"
    done) | pg_sql 2>&1 | awk -F '\t' '$1 == "in use" { print $2, $3; next } $1 != 100000')
    in_use=$(echo "$readings" | awk '{ printf "%s ", $1 }')
    resident=$(echo "$readings" | awk '{ printf "%s ", $2 }')
    # shellcheck disable=SC2086
    set -- "$1" $in_use
    most=$(printf '%s\n' "$4" "$5" "$6" "$7" | sort -n | tail -n 1)
    if [ $# -eq 7 ] && [ $((most - $3)) -lt 4194304 ]; then
        pass "no leak, $1: bytes in use after runs 1-6: $2 $3 $4 $5 $6 $7 (resident kB: $resident)"
    else
        name=$1
        shift
        fail "leak, $name: bytes in use after runs 1-6: $* (resident kB: $resident; output: $readings)"
    fi
}
leak "dpsel_pf hashed" "SET max_parallel_workers_per_gather = 0; SET work_mem = '2GB';
SET enable_sort = off;" "dpsel_pf(label, score, '1')"
leak "dpsel_em sorted" "SET max_parallel_workers_per_gather = 0; SET enable_hashagg = off;" \
    "dpsel_em(label, score, '1')"
leak "dpsel_pf parallel (the leader's merges)" "$parallel SET work_mem = '2GB'; SET enable_sort = off;" \
    "dpsel_pf(label, score, '1')"
leak "dpsel_quantile hashed" "SET max_parallel_workers_per_gather = 0; SET work_mem = '2GB';
SET enable_sort = off;" "dpsel_quantile(score, '0.5', '0', '1000', '1')"
leak "dpsel_mode parallel" "$parallel SET work_mem = '2GB'; SET enable_sort = off;" \
    "dpsel_mode(label, ARRAY['item-0', 'item-1', 'item-2', 'item-3', 'item-4', 'item-5'], 1)"

# ------------------------------------------------------ the documents' examples
# example NAME FILE SECTION CHECK: runs the sql blocks of FILE (under the heading
# SECTION if not empty: tests/doc-blocks.sh) in a database of their own; the
# output must pass CHECK (a function given the output on stdin).
example() {
    echo "CREATE DATABASE $1;" | pg_sql > /dev/null 2>&1
    if ! sh "$here/../../tests/doc-blocks.sh" sql "$2" "$3" > "$work/$1.sql"; then
        fail "$2: its sql blocks"
    elif output=$(pg_sql -d "$1" < "$work/$1.sql" 2>&1) && echo "$output" | "$4"; then
        pass "$2's example: $(echo "$output" | tr '\t\n' ' ;')"
    else
        fail "$2's example: $output"
    fi
}
# The quick start: one book of the poll.
one_book() {
    case "$(cat)" in
        Middlemarch | Moby-Dick | Beloved | Dracula) true ;;
        *) false ;;
    esac
}
# The page's: one row per day (3 days), each a page, and a median in 0 .. 600.
days_and_median() {
    output=$(cat)
    [ "$(echo "$output" | grep -c '^2026-11-0[123]	/[a-z]*$')" -eq 3 ] \
        && [ "$(echo "$output" | tail -n 1 | grep -c '^[0-9][0-9]*$')" -eq 1 ] \
        && [ "$(echo "$output" | tail -n 1)" -le 600 ]
}
example quickstart "$readme" PostgreSQL one_book
example page "$docs_page" "" days_and_median

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
