#!/usr/bin/env bash
# Differential test of `tap crypto batch` against pyemv 1.5.0 and psec 1.3.0: 10,000 random cases per operation
# (the seed is printed; rerun one with DIFF_SEED=<seed>), zero mismatches; both rates and their ratio are printed (target 50x, a figure rather than a test).
# scripts/test exports ROOT, VENV and TAP (a release build) before running this.
set -euo pipefail
cd "${ROOT:-$(dirname "$0")/../..}"
"${VENV:-.venv}/bin/python" scripts/differential.py
