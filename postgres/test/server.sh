# SPDX-License-Identifier: ISC
# A PostgreSQL server of its own for the tests and the benchmark (sourced by
# run.sh and bench.sh): initdb in a temporary folder, run by an unprivileged
# user (as root: Debian's `postgres` user, through runuser; otherwise the
# caller), listening only on a Unix socket in that folder.
#   pg_start          creates and starts it (PG_DIR is its folder)
#   pg_stop           stops it and removes the folder; safe to call twice
#   pg_stop_at_exit   pg_stop when the script ends, interrupted or not
#   pg_sql [ARGS]     psql as its superuser, SQL on standard input (the caller's
#                     shell opens the files, so the server's user needs no access)
# PG_CONFIG picks the server's binaries (default: Debian's PostgreSQL 15).

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
PG_BIN=$("$PG_CONFIG" --bindir) || exit 1
PG_PORT=54329
PG_DIR=

# pg_as COMMAND...: COMMAND as the server's user, from its folder
pg_as() {
    if [ "$(id -u)" = 0 ]; then
        (cd "$PG_DIR" && runuser -u postgres -- "$@")
    else
        (cd "$PG_DIR" && "$@")
    fi
}

pg_stop_at_exit() {
    trap pg_stop EXIT
    trap 'exit 1' HUP INT TERM
}

pg_start() {
    PG_DIR=$(mktemp -d /tmp/dpsel-pg.XXXXXX) || return 1
    if [ "$(id -u)" = 0 ]; then
        id postgres > /dev/null 2>&1 || { echo "server.sh: no user postgres (install postgresql-15)" >&2; return 1; }
        chown postgres: "$PG_DIR"
    fi
    pg_as "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres -A trust -E UTF8 --locale=C --no-sync \
        > "$PG_DIR/initdb.log" 2>&1 || { cat "$PG_DIR/initdb.log" >&2; return 1; }
    # no TCP: listen_addresses empty; the socket in PG_DIR alone
    pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -s \
        -o "-c listen_addresses= -k $PG_DIR -p $PG_PORT -c fsync=off" start \
        || { cat "$PG_DIR/server.log" >&2; return 1; }
}

pg_stop() {
    if [ -n "$PG_DIR" ] && [ -d "$PG_DIR" ]; then
        [ -f "$PG_DIR/data/postmaster.pid" ] && pg_as "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -s stop
        rm -rf "$PG_DIR"
    fi
    PG_DIR=
}

pg_sql() {
    pg_as "$PG_BIN/psql" -X -q -A -t -F "$(printf '\t')" -h "$PG_DIR" -p "$PG_PORT" -U postgres \
        -d postgres -v ON_ERROR_STOP=1 "$@"
}
