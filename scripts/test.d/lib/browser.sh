# The browser steps' runner: a story (scripts/browser/*_test.py) against a live gateway on SQLite, then on a database
# of its own in the PostgreSQL server scripts/test started (SQLite only without one). Screenshots go to SHOTS.
# usage: browser_story STORY SHOTS NAME [ARGUMENT…]   (the arguments go to the SQLite run only)
browser_story() {
    local story=$1 shots=$2 name=$3 work previous
    shift 3
    local venv=${VENV:-$ROOT/.venv}
    rm -rf "$shots"
    work=$(mktemp -d)
    # Cleaned up on exit, after whatever the step already cleans up (pcscd, say).
    previous=$(trap -p EXIT | sed "s/^trap -- '\(.*\)' EXIT\$/\1/")
    # shellcheck disable=SC2064 # the directory is fixed now
    trap "rm -rf '$work'; $previous" EXIT
    free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
    mkdir -p "$work/sqlite"
    timeout 600 "$venv/bin/python" "$story" --tap "$TAP" --data-dir "$work/sqlite" --port "$(free_port)" \
        --screenshots "$shots" --label sqlite "$@"
    if [ -n "${CONTACTLESS_POSTGRES_URL:-}" ]; then
        local database=${name}_browser_$$
        source scripts/test.d/lib/postgres.sh
        "$PG_BIN/psql" -q "$CONTACTLESS_POSTGRES_URL" -c "CREATE DATABASE $database"
        mkdir -p "$work/postgres"
        timeout 600 "$venv/bin/python" "$story" --tap "$TAP" --data-dir "$work/postgres" \
            --database "${CONTACTLESS_POSTGRES_URL%/*}/$database" --port "$(free_port)" --screenshots "$shots" \
            --label postgres
    else
        echo "$name browser test: no PostgreSQL (CONTACTLESS_POSTGRES_URL unset): SQLite only" >&2
    fi
}
