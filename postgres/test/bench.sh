#!/bin/sh
# SPDX-License-Identifier: ISC
# The extension on 10^7 rows (`make bench-postgres`, after
# `make install-postgres`): a server of its own (server.sh), one table of
# 10^7 candidates (label `page-I`, score (7919 I) mod 1000, and a value
# `v-(I mod 10)` for dpsel_mode), grouped two ways: 10^5 groups of 100 and
# 100 groups of 10^5.  Each aggregate's query (one release per group,
# counted) is timed without parallel workers and with 2, beside the plain
# max(score), in one run of this script; the median of RUNS runs (default
# 3) from psql's \timing, its ratio to max()'s in the same plan setting,
# and the gain from the workers (no workers / 2 workers).  Without workers
# the backend's CPU time is given too (utime + stime from /proc, 10 ms
# ticks: the one figure a loaded machine leaves alone; with workers their
# time is not the backend's).  work_mem is 1GB so that the planner may hash
# the groups.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=postgres/test/server.sh
. "$here/server.sh"
pg_stop_at_exit
runs=${RUNS:-3}

pg_start || exit 1
echo "PostgreSQL $("$PG_BIN/postgres" -V | awk '{print $3}'), $(nproc) cores; loading 10^7 rows"
pg_sql <<'EOF' || exit 1
CREATE EXTENSION dpsel;
CREATE TABLE views AS SELECT g / 100 AS small, g % 100 AS large, 'page-' || g AS label,
    g::bigint * 7919 % 1000 AS score, 'v-' || g % 10 AS v FROM generate_series(0, 9999999) g;
VACUUM ANALYZE views;
CREATE FUNCTION bench_cpu_ms() RETURNS bigint LANGUAGE sql AS $$
    SELECT (split_part(s, ' ', 12)::bigint + split_part(s, ' ', 13)::bigint) * 10
    FROM (SELECT split_part(pg_read_file('/proc/self/stat'), ') ', 2) s) t $$;
EOF

# median: the median of the numbers on standard input
median() { sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'; }

# timed GROUPING WORKERS CALL: the median time (ms) of the query into
# $time, the median CPU time of the backend into $cpu, and its top
# aggregate node into $node
timed() {
    settings="SET work_mem = '1GB'; SET max_parallel_workers_per_gather = $2;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;"
    query="SELECT count(c) FROM (SELECT $1, $3 c FROM views GROUP BY $1) s"
    node=$(printf '%s\nEXPLAIN (COSTS OFF) %s;\n' "$settings" "$query" | pg_sql \
        | grep -o '\(Finalize \|Partial \)*[A-Za-z]*Aggregate' | sed -n 2p)
    (echo "$settings"; i=0
        while [ "$i" -lt "$runs" ]; do
            printf '%s\n' 'SELECT bench_cpu_ms() AS cpu0 \gset' '\timing on' "$query \g /dev/null" \
                '\timing off' "SELECT 'cpu', bench_cpu_ms() - :cpu0;"
            i=$((i + 1))
        done) | pg_sql > "$PG_DIR/timed.out"
    time=$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' "$PG_DIR/timed.out" | median)
    cpu=$(awk '$1 == "cpu" { print $2 }' "$PG_DIR/timed.out" | median)
}

# ratio A B: A / B to 2 decimals
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo
echo "| aggregate | groups | no workers | / max() | CPU, no workers | / max() | 2 workers | / max() | gain from workers |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
for grouping in small large; do
    [ "$grouping" = small ] && groups="10^5 of 100" || groups="100 of 10^5"
    for call in "max(score)" "dpsel_pf(label, score, '1', 1, true)" "dpsel_em(label, score, '1', 1, true)" \
        "dpsel_mode(v, ARRAY['v-0', 'v-1', 'v-2', 'v-3', 'v-4', 'v-5', 'v-6', 'v-7', 'v-8', 'v-9'], 1)" \
        "dpsel_quantile(score, '0.5', '0', '1000', '1')" "dpsel_percentile(score, 0.5, 0, 1000, 1)"; do
        timed "$grouping" 0 "$call"
        serial=$time serial_cpu=$cpu serial_node=$node
        timed "$grouping" 2 "$call"
        if [ "$call" = "max(score)" ]; then
            max_serial=$serial max_cpu=$serial_cpu max_parallel=$time
        fi
        echo "| \`$call\` | $groups | $serial ms ($serial_node) | $(ratio "$serial" "$max_serial") | $serial_cpu ms | $(ratio "$serial_cpu" "$max_cpu") | $time ms ($node) | $(ratio "$time" "$max_parallel") | $(ratio "$serial" "$time") |"
    done
done
