"""Onboards a merchant on a running `tap serve` the way a PSP's customer does, and prints the credentials of the
API's three security schemes as shell assignments for schemathesis (scripts/test.d/72-schemathesis.sh):
API_KEY (the merchant's secret key, from `tap merchant key create`), READER_TOKEN (an admin's reader token from
POST /v1/reader-tokens, after the account is linked) and READER_SESSION (the session of a device prepared through
POST /v1/devices/{id}/prepare), and PROVISIONING_FILE, that prepare's answer, which `tap seal` seals reads to.

Usage: setup_gateway.py TAP DATA_DIR BASE_URL
"""
import json
import os
import subprocess
import sys
import urllib.request


def tap(binary, *arguments):
    return json.loads(subprocess.run([binary, *arguments, "--json"], check=True, capture_output=True, text=True).stdout)


def call(base, method, path, bearer, body):
    request = urllib.request.Request(
        base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {bearer}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read().decode()


def main():
    binary, data, base = sys.argv[1:4]
    store = ["--data-dir", data]
    merchant = tap(binary, "merchant", "create", "--name", "Schemathesis Shop", "--country", "DE", "--currency", "EUR",
                   *store)["id"]
    admin = tap(binary, "merchant", "user", "add", "--merchant", merchant, "--email", "owner@fuzz.example",
                "--role", "admin", *store)["id"]
    api_key = tap(binary, "merchant", "key", "create", "--merchant", merchant, *store)["secret"]
    reader_token = json.loads(call(base, "POST", "/v1/reader-tokens", api_key, {"userId": admin, "lifetime": 86400}))
    reader_token = reader_token["token"]
    call(base, "POST", "/v1/account-links", reader_token, {"deviceId": "fuzz-phone"})
    answer = call(base, "POST", "/v1/devices/fuzz-phone/prepare", reader_token, None)
    provisioning_file = os.path.join(data, "fuzz-phone-prepare.ndjson")
    with open(provisioning_file, "w") as file:
        file.write(answer)
    session = json.loads(answer.splitlines()[-1])["provisioning"]["session"]["token"]
    print(f"API_KEY={api_key}")
    print(f"READER_TOKEN={reader_token}")
    print(f"READER_SESSION={session}")
    print(f"PROVISIONING_FILE={provisioning_file}")


if __name__ == "__main__":
    main()
