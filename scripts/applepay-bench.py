#!/usr/bin/env python3
"""Decrypt throughput of an independent Apple Pay decryptor, PyPI `applepay` 0.3.0, on Apple's real EC_v1 token of
Tests/ApplePayTests/Fixtures/gala-2021, for comparison with ApplePayBenchmarks (the Swift verify + decrypt).

`applepay` 0.3.0 (2016) decrypts EC_v1 only and checks no signature, chain or time (its signature path calls an
undefined function), so it does less work than the Swift verifier: one ECDH, the KDF, one AES-GCM open. The script
first checks that it decrypts the token to the known answer of SOURCES.md, then times `Payment.decrypt` for
--rounds rounds of --seconds CPU seconds each on one thread and prints the median in operations per CPU second.

Usage: $VENV/bin/python scripts/applepay-bench.py [--seconds S] [--rounds N] [--json]
"""

import argparse
import json
import os
import statistics
import sys
import time

from applepay.payment import Payment
from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
FIXTURES = os.path.join(ROOT, "Tests", "ApplePayTests", "Fixtures")


def read(*path):
    with open(os.path.join(FIXTURES, *path), "rb") as file:
        return file.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()

    root_der = x509.load_pem_x509_certificate(read("AppleRootCA-G3.pem")).public_bytes(Encoding.DER)
    # The package loads its CA files from a relative path unless given them; it never uses them.
    payment = Payment(read("gala-2021", "certificate.pem"), read("gala-2021", "private_key.pem"), root_der, root_der)
    token = json.loads(read("gala-2021", "token.json"))
    key, data = token["header"]["ephemeralPublicKey"], token["data"]

    payload = json.loads(payment.decrypt(key, data))
    if payload["applicationPrimaryAccountNumber"][-4:] != "1169" or payload["transactionAmount"] != 100:
        print("applepay 0.3.0 did not decrypt the token to its known answer", file=sys.stderr)
        return 1

    rates = []
    for _ in range(arguments.rounds):
        count = 0
        start = time.process_time()
        while time.process_time() - start < arguments.seconds:
            for _ in range(100):
                payment.decrypt(key, data)
            count += 100
        rates.append(count / (time.process_time() - start))
    median = statistics.median(rates)
    if arguments.json:
        print(json.dumps({"decryptor": "applepay 0.3.0", "ops_per_cpu_second": round(median), "rounds": rates}))
    else:
        print(f"applepay 0.3.0 decrypt (EC_v1, no signature check): median {median:,.0f} per CPU second, "
              f"{1e6 / median:.1f} µs per token ({arguments.rounds} rounds of {arguments.seconds:g} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
