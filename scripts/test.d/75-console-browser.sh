#!/usr/bin/env bash
# The merchant console (issue 30) in a real browser: scripts/browser/console_test.py drives Debian's headless
# Chromium with Selenium against a live `tap serve`, once on SQLite and once on the PostgreSQL server scripts/test
# started (a database of its own): invite -> set password -> sign in -> accept the terms -> a device (`tap reader`,
# the TapToPay SDK) links and pays -> the payment is listed -> refund, partial capture -> staff invited, refused ->
# CSRF refused -> sign-in throttled -> an idle session ends.
# axe-core scans every page (zero serious or critical violations); screenshots of every page at desktop and phone
# width go to .build/console-screenshots/. The server's log is grepped for passwords, the API key and the PAN.
set -euo pipefail
cd "$ROOT"
VENV=${VENV:-$ROOT/.venv}
shots=$ROOT/.build/console-screenshots
rm -rf "$shots"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

mkdir -p "$work/sqlite"
timeout 600 "$VENV/bin/python" scripts/browser/console_test.py --tap "$TAP" --data-dir "$work/sqlite" \
    --port "$(free_port)" --screenshots "$shots" --label sqlite

if [ -n "${CONTACTLESS_POSTGRES_URL:-}" ]; then
    database=console_browser_$$
    source scripts/test.d/lib/postgres.sh
    "$PG_BIN/psql" -q "$CONTACTLESS_POSTGRES_URL" -c "CREATE DATABASE $database"
    mkdir -p "$work/postgres"
    timeout 600 "$VENV/bin/python" scripts/browser/console_test.py --tap "$TAP" --data-dir "$work/postgres" \
        --database "${CONTACTLESS_POSTGRES_URL%/*}/$database" --port "$(free_port)" --screenshots "$shots" \
        --label postgres
else
    echo "console browser test: no PostgreSQL (CONTACTLESS_POSTGRES_URL unset): SQLite only" >&2
fi
