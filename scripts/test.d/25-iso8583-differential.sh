#!/usr/bin/env bash
# Differential test of the ISO8583 codec (`tap iso8583 batch`) against pyiso8583 4.0.1: 1,000 random valid messages
# per specification (default, default_ascii, contactless, packed), byte-identical in both directions, and truncated
# messages rejected by both (the seed is printed; rerun one with ISO_SEED=<seed>).
# scripts/test exports ROOT, VENV and TAP (a release build) before running this.
set -euo pipefail
cd "${ROOT:-$(dirname "$0")/../..}"
"${VENV:-.venv}/bin/python" scripts/iso8583_differential.py
