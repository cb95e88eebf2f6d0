#!/usr/bin/env bash
# The point of sale (issue 31) in a real browser: scripts/browser/pos_test.py drives Debian's headless Chromium with
# Selenium against a live `tap serve --virtual-reader` and `tap reader --loopback` processes, once on SQLite and once
# on the PostgreSQL server scripts/test started (a database of its own): onboarding (staff refused, admin accepts),
# readiness, approved with tip and a receipt QR code decoded by zbarimg, declined, online PIN, over the contactless
# limit, cancel, two cashiers on one reader, a reader killed mid-payment, refund / look-up / verify, settings, help.
# axe-core scans every screen; phone-width screenshots go to .build/pos-screenshots/.
set -euo pipefail
cd "$ROOT"
VENV=${VENV:-$ROOT/.venv}
shots=$ROOT/.build/pos-screenshots
rm -rf "$shots"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

mkdir -p "$work/sqlite"
timeout 600 "$VENV/bin/python" scripts/browser/pos_test.py --tap "$TAP" --data-dir "$work/sqlite" \
    --port "$(free_port)" --screenshots "$shots" --label sqlite

if [ -n "${CONTACTLESS_POSTGRES_URL:-}" ]; then
    database=pos_browser_$$
    source scripts/test.d/lib/postgres.sh
    "$PG_BIN/psql" -q "$CONTACTLESS_POSTGRES_URL" -c "CREATE DATABASE $database"
    mkdir -p "$work/postgres"
    timeout 600 "$VENV/bin/python" scripts/browser/pos_test.py --tap "$TAP" --data-dir "$work/postgres" \
        --database "${CONTACTLESS_POSTGRES_URL%/*}/$database" --port "$(free_port)" --screenshots "$shots" \
        --label postgres
else
    echo "point of sale browser test: no PostgreSQL (CONTACTLESS_POSTGRES_URL unset): SQLite only" >&2
fi
