#!/usr/bin/env bash
# The point of sale (issue 31) in a real browser: scripts/browser/pos_test.py drives Debian's headless Chromium with
# Selenium against a live `tap serve --virtual-reader` and `tap reader --loopback` processes, once on SQLite and once
# on the PostgreSQL server scripts/test started (a database of its own): onboarding (staff refused, admin accepts),
# readiness, approved with tip and a receipt QR code decoded by zbarimg, declined, online PIN, over the contactless
# limit, cancel, two cashiers on one reader, a reader killed mid-payment, refund / look-up / verify, settings, help.
# axe-core scans every screen; phone-width screenshots go to .build/pos-screenshots/.
set -euo pipefail
cd "$ROOT"
source scripts/test.d/lib/browser.sh
browser_story scripts/browser/pos_test.py "$ROOT/.build/pos-screenshots" pos
