#!/bin/sh
# SPDX-License-Identifier: ISC
# The extension on groups too large for one bytea, in parallel plans
# (`make postgres-test-large`, after `make install-postgres`; not in check:
# minutes of work and gigabytes of memory):
#   sh postgres/test/large.sh
# starts a server of its own (server.sh) and checks that the number of rows
# never decides whether a release happens, whatever the plan:
#   - dpsel_quantile over 135 million values, every one of them read by one
#     parallel worker, releases (a worker's state passed on as one bytea
#     would hold at most 1 GB, 134 million values: the quantile's state is
#     not partial, and its leader takes every row);
#   - a group of dpsel_pf's candidates, and dpsel_mode's candidates, whose
#     state a worker could not pass on (10^6 labels of 600 bytes: more
#     than half of 1 GB) are refused with one error in a plain plan and in
#     a parallel one, all rows read by one worker.
# Each check prints its time.  The last line is "N passed, M failed".
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=postgres/test/server.sh
. "$here/server.sh"
pg_stop_at_exit

passed=0
failed=0
pass() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Two workers, the leader only gathering; jit off (it only adds its
# compilation to these plans).
parallel="SET jit = off; SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;"

pg_start || exit 1
echo "server: PostgreSQL $("$PG_BIN/postgres" -V | awk '{print $3}') in $PG_DIR (socket only)"
# block: 135 rows in one page, so that one worker reads them all (a parallel
# scan hands out whole pages), each joined to 10^6 values
pg_sql <<'EOF' || exit 1
CREATE EXTENSION dpsel;
CREATE TABLE block (b int) WITH (parallel_workers = 2);
INSERT INTO block SELECT generate_series(0, 134);
ANALYZE block;
EOF

# 135 x 10^6 values g mod 1001 (g = 0 .. 134999999, nearly as many of each
# of 0 .. 1000): the median is 500 and every point more than 1 away is
# about 10^5 score units below it (probability below 10^-1000 at epsilon 1)
values="FROM block, generate_series(b * 1000000, b * 1000000 + 999999) g"
query="SELECT dpsel_quantile(g % 1001, '0.5', '0', '1000', '1') $values"
started=$(now_ms)
plan=$(printf '%s\nEXPLAIN %s;\n' "$parallel" "$query" | pg_sql 2>&1)
output=$(printf '%s\n%s;\n' "$parallel" "$query" | pg_sql 2>&1)
took=$(($(now_ms) - started))
case "$plan" in
    *Gather*"Workers Planned: 2"*) ;;
    *) fail "135 million values of a quantile: not a parallel plan: $plan" ;;
esac
case "$plan" in
    *Partial*) fail "135 million values of a quantile: a Partial aggregate: $plan" ;;
esac
case "$output" in
    499 | 500 | 501) pass "135 million values of a quantile, one worker's share: $output ($took ms)" ;;
    *) fail "135 million values of a quantile: $output ($took ms)" ;;
esac

# refused_in_both NAME QUERY ERROR: QUERY fails with ERROR without workers
# and in the parallel plan
refused_in_both() {
    for settings in "SET max_parallel_workers_per_gather = 0;" "$parallel"; do
        started=$(now_ms)
        output=$(printf 'SET jit = off; %s\n%s;\n' "$settings" "$2" | pg_sql 2>&1)
        took=$(($(now_ms) - started))
        case "$output" in
            *"$3"*) ;;
            *) fail "$1 ($settings): $(echo "$output" | head -c 300)"; return 1 ;;
        esac
        echo "     $1: refused in $took ms ($settings)"
    done
    pass "$1: refused alike without and with workers: $3"
}
refused_in_both "dpsel_pf over 10^6 labels of 600 bytes" \
    "SELECT dpsel_pf(lpad(g::text, 600, 'x'), 1, '1')
        FROM block, generate_series(b * 10000, b * 10000 + 9999) g WHERE b < 100" \
    "dpsel_pf: a group's candidates take more than"
refused_in_both "dpsel_mode of 10^6 candidates of 600 bytes" \
    "SELECT dpsel_mode(b::text, (SELECT array_agg(lpad(g::text, 600, 'x'))
        FROM generate_series(1, 1000000) g), 1) FROM block" \
    "dpsel_mode: the candidates take more than"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
