#!/usr/bin/env bash
# The point of sale's latency (issue 31): `tap bench pos` (release) times 200 checkouts over a server-driven reader,
# charge (the command) to approved (the reader's event stream), against the SDK's own purchase measured in the same
# run; target median <= 150 ms. The text report is the output; a checkout not approved fails the step.
set -euo pipefail
cd "$ROOT"
timeout 600 "$TAP" bench pos --count 200 --warmup 10
