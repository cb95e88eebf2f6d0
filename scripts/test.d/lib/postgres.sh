# shellcheck shell=bash
# Sourced by scripts/test: a private PostgreSQL 15 for the tests, without systemd, on a free loopback port with its
# data directory, socket and log under .build/postgres; stopped by postgres_stop, which the caller's EXIT trap runs
# whatever the outcome.
#
#   postgres_start   initdb (trust auth, user postgres) and start; exports CONTACTLESS_POSTGRES_URL
#                    (postgres://postgres@127.0.0.1:PORT/postgres) for the tests and every later step
#   postgres_stop    pg_ctl -m fast stop (killed if it does not stop in time); safe to call twice or before start
#
# PostgreSQL refuses to run as root: as root every server command runs as the postgres user (runuser).

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PG_ROOT=${PG_ROOT:-$ROOT/.build/postgres}
PG_DATA=$PG_ROOT/data
PG_LOG=$PG_ROOT/postgres.log
PG_STARTED=""

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

postgres_start() {
    [ -x "$PG_BIN/initdb" ] || { echo "PostgreSQL 15 is not installed ($PG_BIN)" >&2; return 1; }
    # A server left by an interrupted run owns the old data directory: stop it before starting afresh.
    if [ -f "$PG_DATA/postmaster.pid" ]; then
        as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$PG_ROOT"
    mkdir -p "$PG_DATA"
    if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$PG_ROOT"; fi
    chmod 700 "$PG_DATA"
    # A port the kernel hands out as free (bound, never connected to); PG_PORT overrides it.
    local port=${PG_PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    as_postgres "$PG_BIN/initdb" -D "$PG_DATA" -A trust -U postgres --no-sync >"$PG_ROOT/initdb.log" 2>&1 \
        || { tail -n 20 "$PG_ROOT/initdb.log" >&2; return 1; }
    # fsync off: the tests crash gateways, never this server, and every test creates and drops a database.
    # 500 connections: suites run in parallel, each live gateway with a pool of up to 20 (200 ran out, SQLSTATE 53300).
    if ! as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -l "$PG_LOG" -w -t 60 \
        -o "-p $port -k $PG_ROOT -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=500" start >/dev/null; then
        echo "PostgreSQL did not start" >&2
        tail -n 20 "$PG_LOG" >&2
        return 1
    fi
    PG_STARTED=1
    export CONTACTLESS_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/postgres
    echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, data in $PG_DATA"
}

postgres_stop() {
    [ -n "$PG_STARTED" ] || return 0
    PG_STARTED=""
    if ! as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m fast -w -t 30 stop >/dev/null 2>&1; then
        echo "PostgreSQL did not stop in 30 s: killing it" >&2
        as_postgres "$PG_BIN/pg_ctl" -D "$PG_DATA" -m immediate -w -t 10 stop >/dev/null 2>&1 || true
    fi
    rm -rf "$PG_DATA"
}
