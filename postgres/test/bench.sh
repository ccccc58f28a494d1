#!/bin/sh
# SPDX-License-Identifier: ISC
# The extension on 10^7 rows (`make bench-postgres`, after
# `make install-postgres`): a server of its own (server.sh), one table of
# 10^7 candidates (label `page-I`, score (7919 I) mod 1000), grouped two ways:
# 10^5 groups of 100 and 100 groups of 10^5.  Each aggregate's query (one
# release per group, counted) is timed without parallel workers and with 2,
# beside the plain max(score); the median of RUNS runs (default 3) from
# psql's \timing.  work_mem is 1GB so that the planner may hash the groups.
set -u
export LC_ALL=C
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=postgres/test/server.sh
. "$here/server.sh"
trap pg_stop EXIT
trap 'exit 1' HUP INT TERM
runs=${RUNS:-3}

pg_start || exit 1
echo "PostgreSQL $("$PG_BIN/postgres" -V | awk '{print $3}'), $(nproc) cores; loading 10^7 rows"
pg_sql <<'EOF' || exit 1
CREATE EXTENSION dpsel;
CREATE TABLE views AS SELECT g / 100 AS small, g % 100 AS large, 'page-' || g AS label,
    g::bigint * 7919 % 1000 AS score FROM generate_series(0, 9999999) g;
VACUUM ANALYZE views;
EOF

# timed GROUPING WORKERS CALL: the median time (ms) of the query, and its
# top aggregate node
timed() {
    settings="SET work_mem = '1GB'; SET max_parallel_workers_per_gather = $2;
SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;"
    query="SELECT count(c) FROM (SELECT $1, $3 c FROM views GROUP BY $1) s"
    node=$(printf '%s\nEXPLAIN (COSTS OFF) %s;\n' "$settings" "$query" | pg_sql \
        | grep -o '\(Finalize \|Partial \)*[A-Za-z]*Aggregate' | sed -n 2p)
    time=$( (echo "$settings"; printf '%s\n' '\timing on'; i=0
        while [ "$i" -lt "$runs" ]; do echo "$query;"; i=$((i + 1)); done) | pg_sql \
        | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }')
    printf '%s ms (%s)' "$time" "$node"
}

echo
echo "| aggregate | groups | no workers | 2 workers |"
echo "| --- | --- | --- | --- |"
for grouping in small large; do
    [ "$grouping" = small ] && groups="10^5 of 100" || groups="100 of 10^5"
    for call in "max(score)" "dpsel_pf(label, score, '1', 1, true)" "dpsel_em(label, score, '1', 1, true)" \
        "dpsel_quantile(score, '0.5', '0', '1000', '1')"; do
        echo "| \`$call\` | $groups | $(timed "$grouping" 0 "$call") | $(timed "$grouping" 2 "$call") |"
    done
done
