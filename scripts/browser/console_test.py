#!/usr/bin/env python3
"""The merchant console in a real browser: headless Chromium (Debian's) driven by Selenium, pages scanned by axe-core
(axe-selenium-python), against a live `tap serve` this script starts on the data directory or PostgreSQL URL given.

invite -> set password -> sign in -> accept the terms as admin -> a device (`tap reader`, the TapToPay SDK on the
loopback) prepares and pays a payment the merchant's server sends it -> the payment is listed -> refund part of it -> capture part of a manual-capture payment -> invite staff ->
staff signs in, is told who may accept the terms and is refused a refund without a limit -> a form with a wrong CSRF
token is refused -> five wrong passwords throttle sign-in -> the idle staff session ends. Every page: zero serious
or critical axe violations, a screenshot at desktop and phone width. The server's log never holds a password, a full
PAN, an API key secret or a session token.

usage: console_test.py --tap PATH --data-dir DIR [--database URL] --port N --screenshots DIR --label NAME
Exit 1 with the reason on any failure.
"""

import hashlib
import hmac
import http.server
import json
import os
import re
import subprocess
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

from browserlib import Failure, Scanner, Tap, arguments, browser, check, fill, run_story, sign_in, submit

PASSWORD = "correct-horse-battery-staple"
STAFF_PASSWORD = "staff-password-for-tests"
# The server's console idle timeout (tap serve --console-idle-timeout): short, so that the story sees a session end.
IDLE_TIMEOUT_SECONDS = 45


class Receiver(http.server.BaseHTTPRequestHandler):
    """A merchant's webhook endpoint on this machine: keeps what it is sent, answers 200."""

    received = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        Receiver.received.append((self.headers.get("Contactless-Signature", ""), body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *arguments):
        pass


def verify_signature(header, body, secret, tolerance=300):
    """The documented recipe, written here: t and v1 from the header, HMAC-SHA256 of "t." + body, compared in
    constant time, t within five minutes."""
    parts = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    if "t" not in parts or "v1" not in parts or abs(time.time() - int(parts["t"])) > tolerance:
        return False
    expected = hmac.new(secret.encode(), parts["t"].encode() + b"." + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"])


class Console:
    def __init__(self, args):
        self.args = args
        self.gateway = Tap(args.tap, args.data_dir, args.database, args.port)
        self.scanner = Scanner(args.screenshots, args.label)
        self.base = self.gateway.base
        self.store = self.gateway.store
        self.secrets = []

    # --- the gateway -----------------------------------------------------------------------------------------------

    def tap(self, *arguments):
        return self.gateway.run(*arguments)

    def start(self):
        self.gateway.serve("--allow-local-webhooks", "--console-idle-timeout", str(IDLE_TIMEOUT_SECONDS / 60))

    def stop(self):
        if getattr(self, "reader", None):
            self.reader.terminate()
            self.reader.wait(timeout=30)
        self.gateway.stop()

    def pay_on_reader(self, key, command):
        """Sends `command` to the phone-1 reader once it is online; the payment it ended with."""
        for _ in range(300):
            readers = json.loads(self.api("GET", "/v1/readers", key))["data"]
            if any(reader["id"] == "phone-1" and reader["online"] for reader in readers):
                break
            time.sleep(0.1)
        sent = json.loads(self.api("POST", "/v1/readers/phone-1/commands", key, command))
        for _ in range(300):
            status = [r for r in json.loads(self.api("GET", "/v1/readers", key))["data"] if r["id"] == "phone-1"]
            if status and "command" not in status[0]:
                break
            time.sleep(0.1)
        payments = json.loads(self.api("GET", "/v1/payments?limit=1", key))["data"]
        check(payments and payments[0]["deviceId"] == "phone-1", f"command {sent['id']} made no payment")
        return payments[0]

    def api(self, method, path, token, body=None, idempotency=None):
        request = urllib.request.Request(self.base + path, method=method)
        request.add_header("Authorization", f"Bearer {token}")
        if idempotency:
            request.add_header("Idempotency-Key", idempotency)
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            request.add_header("Content-Type", "application/json")
        with urllib.request.urlopen(request, data=data, timeout=30) as response:
            return response.read().decode()

    # --- the browser -----------------------------------------------------------------------------------------------

    @staticmethod
    def browser():
        return browser()

    def visit(self, driver, path, name):
        driver.get(self.base + path)
        self.scan(driver, name)

    def scan(self, driver, name):
        self.scanner.scan(driver, name)

    fill = staticmethod(fill)
    submit = staticmethod(submit)

    def sign_in(self, driver, email, password):
        sign_in(driver, self.base, email, password)

    # --- the story -------------------------------------------------------------------------------------------------

    def run(self):
        merchant = json.loads(self.tap("merchant", "create", "--name", "Browser Shop", "--country", "DE",
                                       "--currency", "EUR", "--json", *self.store))["id"]
        invited = json.loads(self.tap("merchant", "user", "add", "--merchant", merchant, "--email", "owner@shop.example",
                                      "--role", "admin", "--invite", "--console-url", self.base, "--json", *self.store))
        admin_id = invited["user"]["id"]
        key = json.loads(self.tap("merchant", "key", "create", "--merchant", merchant, "--json", *self.store))["secret"]
        self.start()
        driver = self.browser()
        try:
            self.story(driver, invited["invitationLink"], admin_id, key)
        finally:
            driver.quit()
            self.stop()
        self.check_log(key)

    def story(self, driver, invitation, admin_id, key):
        driver.get(self.base + "/console")
        check(driver.current_url.endswith("/console/sign-in"), "the console did not send a stranger to sign in")
        self.scan(driver, "sign-in")

        driver.get(invitation)
        self.scan(driver, "invitation")
        self.fill(driver, {"password": PASSWORD})
        self.submit(driver, "Set password")
        check("Password set" in driver.page_source, "setting the password did not succeed")
        driver.get(invitation)
        check("unknown, used or expired" in driver.page_source, "the invitation worked twice")

        self.sign_in(driver, "owner@shop.example", PASSWORD)
        check(driver.current_url.endswith("/console"), f"sign-in went to {driver.current_url}")
        self.scan(driver, "overview")

        self.visit(driver, "/console/tap-to-pay", "tap-to-pay")
        self.submit(driver, "Accept the Terms and Conditions")
        check("Every device of the account can accept payments." in driver.page_source, "the terms were not accepted")
        self.scan(driver, "tap-to-pay-accepted")

        self.visit(driver, "/console/developers", "developers")
        self.fill(driver, {"name": "checkout server"})
        self.submit(driver, "Create API key")
        secret = re.search(r"sk_[A-Za-z0-9_-]+", driver.page_source)
        check(secret, "no new API key shown")
        self.scan(driver, "developers-created")
        self.api("GET", "/v1/payments", secret.group(0))
        driver.get(self.base + "/console/developers")
        check(secret.group(0) not in driver.page_source, "the key's secret was shown twice")
        self.secrets.append(secret.group(0))

        # A webhook endpoint on this machine, its signing secret shown once.
        receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=receiver.serve_forever, daemon=True).start()
        self.fill(driver, {"url": f"http://127.0.0.1:{receiver.server_address[1]}/hook"})
        self.submit(driver, "Add endpoint")
        hook_secret = re.search(r"whsec_[A-Za-z0-9_-]+", driver.page_source)
        check(hook_secret, "no webhook signing secret shown")
        hook_secret = hook_secret.group(0)
        self.secrets.append(hook_secret)
        self.scan(driver, "developers-webhook")
        endpoint_link = re.search(r'href="(/console/developers/webhooks/we_[a-z0-9]+)"', driver.page_source)
        check(endpoint_link, "the endpoint is not listed")

        # A device of the merchant links and pays through the TapToPay SDK: `tap reader` prepares it with an
        # admin's reader token, and the merchant's server sends it the payment.
        self.reader = subprocess.Popen(
            [self.args.tap, "reader", "--gateway", self.base, "--device-id", "phone-1", "--api-key", key,
             "--user", admin_id, "--loopback", "visa"],
            stdout=open(os.path.join(self.args.data_dir, "reader.log"), "w"), stderr=subprocess.STDOUT)
        payment = self.pay_on_reader(key, {"type": "payment", "amount": 1234, "currency": "EUR"})
        check(payment["status"] == "succeeded", f"the payment was {payment['status']}")

        self.visit(driver, "/console/payments", "payments")
        check(payment["id"] in driver.page_source and "12.34 EUR" in driver.page_source, "the payment is not listed")
        driver.get(self.base + "/console/payments?status=declined")
        check(payment["id"] not in driver.page_source, "the status filter did not filter")
        self.visit(driver, f"/console/payments/{payment['id']}", "payment")
        self.fill(driver, {"amount": "5.00", "reason": "damaged item"})
        self.submit(driver, "Refund", accept_confirm=True)
        check("Refunded 5.00 EUR" in driver.page_source, "the refund did not go through")
        check("refunded" in driver.page_source, "the timeline has no refund")
        self.scan(driver, "payment-refunded")
        api_view = json.loads(self.api("GET", f"/v1/payments/{payment['id']}", key))
        check(api_view["refundedAmount"] == 500, f"the API shows {api_view['refundedAmount']} refunded")

        # A payment authorized for manual capture: the admin captures part of it from its page.
        held = self.pay_on_reader(key, {"type": "payment", "amount": 800, "currency": "EUR", "captureMethod": "manual"})
        check(held["status"] == "requiresCapture", f"the manual-capture payment was {held}")
        self.visit(driver, f"/console/payments/{held['id']}", "payment-uncaptured")
        check("ARQC verified by the issuer" in driver.page_source, "the timeline does not tell the issuer's check")
        self.fill(driver, {"amount": "6.00"})
        self.submit(driver, "Capture", accept_confirm=True)
        check("Captured 6.00 EUR" in driver.page_source, "the capture did not go through")
        held = json.loads(self.api("GET", f"/v1/payments/{held['id']}", key))
        check(held["capturedAmount"] == 600, f"the API shows {held['capturedAmount']} captured")

        # The endpoint got the payment and the refund, each signed; then a test event from the console.
        self.await_events(["payment.succeeded", "refund.created"], hook_secret)
        self.visit(driver, endpoint_link.group(1), "webhook")
        self.submit(driver, "Send test event")
        self.await_events(["payment.succeeded", "refund.created", "test"], hook_secret)
        driver.get(self.base + endpoint_link.group(1))
        check(driver.page_source.count("HTTP 200") >= 2, "the delivery log does not show the 200 answers")
        self.scan(driver, "webhook-delivered")

        self.visit(driver, "/console", "overview-with-payments")
        check("18.34 EUR" in driver.page_source, "the overview does not count the two payments (12.34 + 6.00 captured)")

        self.visit(driver, "/console/apple-pay", "apple-pay")
        fixtures = "Tests/ApplePayTests/Fixtures/gala-2021"
        with open(f"{fixtures}/certificate.pem") as c, open(f"{fixtures}/private_key.pem") as k:
            apple_pay_key = k.read()
            self.fill(driver, {"certificate": c.read(), "key": apple_pay_key})
        self.submit(driver, "Add certificate")
        check("Added certificate apc_" in driver.page_source, "the Apple Pay certificate was not added")
        check("expired on" in driver.page_source, "no warning for the expired certificate")
        check(apple_pay_key.splitlines()[1] not in driver.page_source, "the page shows the private key")
        self.secrets.append(apple_pay_key.splitlines()[1])
        self.scan(driver, "apple-pay-added")

        self.visit(driver, "/console/audit", "audit")
        for action in ("signedIn", "termsAccepted", "refunded"):
            check(f"<td>{action}</td>" in driver.page_source, f"the audit log has no {action}")

        self.visit(driver, "/console/team", "team")
        self.fill(driver, {"email": "staff@shop.example"})
        self.submit(driver, "Invite")
        link = re.search(r"(http://[^<\s]*/console/invitations/[A-Za-z0-9_-]+)", driver.page_source)
        check(link, "no invitation link shown")
        self.scan(driver, "team-invited")

        # CSRF: the session's cookie with a wrong token changes nothing.
        cookies = {c["name"]: c["value"] for c in driver.get_cookies()}
        request = urllib.request.Request(
            self.base + "/console/team/invitations", method="POST",
            data=urllib.parse.urlencode({"_csrf": "wrong", "email": "csrf@shop.example", "role": "admin"}).encode())
        request.add_header("Cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()))
        request.add_header("Content-Type", "application/x-www-form-urlencoded")
        try:
            urllib.request.urlopen(request, timeout=10)
            raise Failure("a form with a wrong CSRF token was accepted")
        except urllib.error.HTTPError as error:
            check(error.code == 403, f"a wrong CSRF token got {error.code}")
        driver.get(self.base + "/console/team")
        check("csrf@shop.example" not in driver.page_source, "the refused form invited a user")

        staff = self.browser()
        try:
            staff.get(link.group(1))
            self.fill(staff, {"password": STAFF_PASSWORD})
            self.submit(staff, "Set password")
            self.sign_in(staff, "staff@shop.example", STAFF_PASSWORD)
            self.visit(staff, f"/console/payments/{payment['id']}", "payment-staff")
            check("Staff may not refund" in staff.page_source, "staff are not told they may not refund")
            self.fill(staff, {"amount": "1.00"})
            self.submit(staff, "Refund", accept_confirm=True)
            check("Staff may not refund this much" in staff.page_source, "staff refunded without a limit")
            staff.get(self.base + "/console/audit")
            check("Only admins read the audit log." in staff.page_source, "staff read the audit log")
            staff_last_seen = time.monotonic()

            # Five wrong passwords, then the right one is refused too.
            driver.delete_all_cookies()
            for _ in range(5):
                self.sign_in(driver, "owner@shop.example", "not-the-password")
                check("The email or password is wrong." in driver.page_source, "a wrong password was not refused")
            self.sign_in(driver, "owner@shop.example", PASSWORD)
            check("Too many failed attempts" in driver.page_source, "sign-in was not throttled")
            self.scan(driver, "sign-in-throttled")

            # The staff member left the console idle longer than the server's idle timeout: signed out.
            time.sleep(max(0.0, staff_last_seen + IDLE_TIMEOUT_SECONDS + 1 - time.monotonic()))
            staff.get(self.base + "/console/payments")
            check(staff.current_url.endswith("/console/sign-in"), "an idle session still opened the console")
        finally:
            staff.quit()

    @staticmethod
    def await_events(types, secret):
        for _ in range(100):
            got = [json.loads(body)["type"] for _, body in Receiver.received]
            if all(kind in got for kind in types):
                break
            time.sleep(0.1)
        got = [json.loads(body)["type"] for _, body in Receiver.received]
        check(all(kind in got for kind in types), f"the webhook endpoint got {got}, expected {types}")
        for header, body in Receiver.received:
            check(verify_signature(header, body, secret), "a webhook's signature does not verify")
            check(not verify_signature(header, body + b" ", secret), "a changed body still verifies")

    def check_log(self, key):
        log = self.gateway.server_log()
        for secret, name in ((PASSWORD, "a password"), (STAFF_PASSWORD, "a password"), (key, "the API key"),
                             ("4761739001010119", "a full PAN"), *((s, "an API key") for s in self.secrets)):
            check(secret not in log, f"the server's log holds {name}")


def main():
    args = arguments()
    console = Console(args)
    console.run()
    print(f"console in Chromium ({args.label}): {console.scanner.pages} pages scanned by axe-core with no serious or "
          f"critical violation, screenshots in {args.screenshots}")


if __name__ == "__main__":
    run_story("console", main)
