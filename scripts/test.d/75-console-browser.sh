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
source scripts/test.d/lib/browser.sh
browser_story scripts/browser/console_test.py "$ROOT/.build/console-screenshots" console
