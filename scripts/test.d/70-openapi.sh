#!/usr/bin/env bash
# openapi.yaml against the gateway as it is (scripts/test.d/lib/openapi_check.py): a valid OpenAPI 3.1 document
# (openapi-spec-validator) that names exactly the routes the router serves, and GatewayAPIError's problem codes each
# under its HTTP status; and every HTTP exchange the live gateway tests recorded during the unit-test step matches
# it (openapi-core): each response, each accepted request and its credential, the idempotent replays, and prepare's
# NDJSON stream line by line. Any mismatch fails with the exchange, the test that made it and what differs.
# scripts/test exports ROOT, VENV and CONTACTLESS_API_SAMPLES before running this.
set -euo pipefail
cd "${ROOT:-$(dirname "$0")/../..}"
samples=${CONTACTLESS_API_SAMPLES:-.build/api-samples}
[ -d "$samples" ] || { echo "no recorded exchanges in $samples: run the unit tests with CONTACTLESS_API_SAMPLES=$samples" >&2; exit 1; }
"${VENV:-.venv}/bin/python" scripts/test.d/lib/openapi_check.py openapi.yaml Sources/Gateway "$samples"
