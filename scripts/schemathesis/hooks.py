"""schemathesis hooks for the gateway (scripts/test.d/72-schemathesis.sh): a schema-valid POST /v1/payments gets
real card data, so the fuzzer reaches the payment success paths and, through openapi.yaml's links, capture, void
and refunds of real payments.

The card data is what a prepared reader sends: `tap seal` taps a load-test card on the loopback and seals each read
to the gateway's provisioning (TAP and PROVISIONING_FILE in the environment). Reads are used in the order they were
made (the issuer refuses an ATC it has seen) and within 45 s (the gateway takes them for 60 s); each batch taps the
next load-test card. Negative cases are left as generated: their point is to be refused.
"""
import json
import os
import subprocess
import threading
import time

import schemathesis

BATCH = 10
MAXIMUM_AGE = 45
LOAD_TEST_CARDS = 128
AMOUNT_MINOR_UNITS = 1000

_pool = []
_lock = threading.Lock()
_next_card = 0


def _sealed_read():
    """A fresh sealed read of 10.00 EUR, oldest first."""
    global _next_card
    with _lock:
        while _pool and time.monotonic() - _pool[0][0] > MAXIMUM_AGE:
            _pool.pop(0)
        if not _pool:
            card = f"load-{_next_card % LOAD_TEST_CARDS}"
            _next_card += 1
            output = subprocess.run(
                [os.environ["TAP"], "seal", "--provisioning", os.environ["PROVISIONING_FILE"], "--card", card,
                 "--amount", "10.00", "--currency", "EUR", "--count", str(BATCH)],
                check=True, capture_output=True, text=True).stdout
            made = time.monotonic()
            _pool.extend((made, json.loads(line)) for line in output.splitlines() if line.strip())
        return _pool.pop(0)[1]


@schemathesis.hook
def map_case(context, case):
    operation = case.operation
    positive = case.meta is None or not case.meta.generation.mode.is_negative
    if (operation.method.upper() == "POST" and operation.path == "/v1/payments" and positive
            and isinstance(case.body, dict)):
        case.body["cardData"] = _sealed_read()
        case.body["amount"] = AMOUNT_MINOR_UNITS
        case.body["currency"] = "EUR"
        case.body.pop("kind", None)
        case.body.pop("verificationReason", None)
    return case
