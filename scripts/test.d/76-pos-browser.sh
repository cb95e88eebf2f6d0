#!/usr/bin/env bash
# The point of sale (issue 31) in a real browser: scripts/browser/pos_test.py drives Debian's headless Chromium with
# Selenium against a live `tap serve --virtual-reader` and `tap reader --loopback` processes, once on SQLite and once
# on the PostgreSQL server scripts/test started (a database of its own): onboarding (staff refused, admin accepts),
# readiness, approved with tip and a receipt QR code decoded by zbarimg, declined, online PIN, over the contactless
# limit, cancel, two cashiers on one reader, a reader killed mid-payment, refund / look-up / verify, settings, help,
# and (SQLite) a checkout on `tap reader --pcsc` with `tap emulate`'s card in the vpcd reader.
# axe-core scans every screen; phone-width screenshots go to .build/pos-screenshots/.
set -euo pipefail
cd "$ROOT"
VENV=${VENV:-$ROOT/.venv}
# A countertop reader too: `tap reader --pcsc` on a private pcscd's vpcd reader, `tap emulate`'s Mastercard in the
# field (the SQLite run).
source scripts/test.d/lib/pcscd.sh
pcscd_start
card_start emulate-mastercard "$TAP" emulate --vpcd "$VPCD" --card mastercard
source scripts/test.d/lib/browser.sh
browser_story scripts/browser/pos_test.py "$ROOT/.build/pos-screenshots" pos --pcsc-reader "Virtual PCD 00 00"
