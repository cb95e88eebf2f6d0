#!/usr/bin/env python3
"""The point of sale (/pos) in a real browser: headless Chromium (Debian's) driven by Selenium, every screen scanned
by axe-core, against a live `tap serve --virtual-reader` and `tap reader --loopback` processes.

The story, each part named as README's HIG table cites it:
  onboarding   staff see who can enable and are refused; the admin accepts the terms; "try a test transaction"
  readiness    the home screen checks the readers when it opens and when it comes back to the foreground
  approved     a virtual reader: 12.00 + 10 % tip, the customer taps a Visa card; approved, receipt QR code (decoded
               from a screenshot with zbarimg: the receipt URL), the receipt e-mailed (aiosmtpd receives it), the
               customer's receipt page
  declined     a card without funds: declined, the reason, the merchant's alternatives
  pin          a card that asks for its PIN: entered on the reader's PIN pad, approved
  limit        600.00, over the contactless limit: the reason and alternatives
  cancel       the cashier cancels on the tap screen
  reader       `tap reader --loopback mastercard` (another process): approved
  busy         two cashiers on one reader: the second is told the reader is busy
  disconnect   a `tap reader` killed mid-payment: the screen says the reader lost its connection
  reads        refund, look up, verify: generic labels, results
  settings     the admin turns off "Take cash" (a failed tap no longer offers it) and sets the loyalty program
  loyalty      the loyalty button reads the phone's pass; a payment reads pass and card in one tap
  pcsc         (with --pcsc-reader) `tap reader --pcsc` with a card in the reader's field: approved
  help         the education and support screens
Screenshots at phone width of every screen in .build/pos-screenshots/. The server's log never holds a PAN.

usage: pos_test.py --tap PATH --data-dir DIR [--database URL] --port N --screenshots DIR --label NAME
Exit 1 with the reason on any failure.
"""

import glob
import json
import os
import re
import socket
import subprocess
import time

from aiosmtpd.controller import Controller

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from browserlib import (PHONE, Failure, Scanner, Tap, arguments, browser, check, fill, run_story, sign_in,
                        submit)

ADMIN_PASSWORD = "pos-admin-password-1"
STAFF_PASSWORD = "pos-staff-password-1"
# The shipped test profiles' PANs (the cards the readers tap): none may reach the server's log or an e-mail.
TEST_PANS = tuple(json.load(open(path))["pan"] for path in glob.glob(
    os.path.join(os.path.dirname(__file__), "../../Sources/CardEmulator/Profiles/*-test.json")))


class Mailbox:
    """The SMTP relay the gateway e-mails receipts through (aiosmtpd): keeps what it is sent."""

    def __init__(self):
        self.messages = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.rcpt_tos, envelope.content.decode("utf-8", "replace")))
        return "250 OK"


class PointOfSale:
    def __init__(self, args):
        self.args = args
        self.gateway = Tap(args.tap, args.data_dir, args.database, args.port)
        self.scanner = Scanner(args.screenshots, args.label, sizes=(("phone", PHONE),))
        self.base = self.gateway.base
        self.readers = []

    def run(self):
        tap = self.gateway.run
        store = self.gateway.store
        merchant = json.loads(tap("merchant", "create", "--name", "Corner Café", "--country", "DE", "--currency",
                                  "EUR", "--json", *store))["id"]
        admin = json.loads(tap("merchant", "user", "add", "--merchant", merchant, "--email", "owner@cafe.example",
                               "--role", "admin", "--invite", "--console-url", self.base, "--json", *store))
        staff = json.loads(tap("merchant", "user", "add", "--merchant", merchant, "--email", "barista@cafe.example",
                               "--role", "staff", "--invite", "--console-url", self.base, "--json", *store))
        self.key = json.loads(tap("merchant", "key", "create", "--merchant", merchant, "--json", *store))["secret"]
        self.admin_id = admin["user"]["id"]
        self.mailbox = Mailbox()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            relay_port = probe.getsockname()[1]
        relay = Controller(self.mailbox, hostname="127.0.0.1", port=relay_port)
        relay.start()
        self.gateway.serve("--virtual-reader", "--reader-timeout", "3", "--smtp", f"127.0.0.1:{relay_port}",
                           "--smtp-from", "receipts@cafe.example")
        cashier = browser()
        barista = browser()
        try:
            self.set_password(cashier, admin["invitationLink"], ADMIN_PASSWORD)
            self.set_password(barista, staff["invitationLink"], STAFF_PASSWORD)
            self.story(cashier, barista)
        finally:
            cashier.quit()
            barista.quit()
            for reader in self.readers:
                reader.terminate()
            self.gateway.stop()
            relay.stop()
        log = self.gateway.server_log()
        for pan in TEST_PANS:
            check(pan not in log, "the server's log holds a full PAN")

    # --- helpers ---------------------------------------------------------------------------------------------------

    def set_password(self, driver, link, password):
        driver.get(link)
        fill(driver, {"password": password})
        submit(driver, "Set password")
        check("Password set" in driver.page_source, "setting a password did not succeed")

    def scan(self, driver, name):
        self.scanner.scan(driver, name)

    def start_reader(self, device, card, *options):
        """`tap reader` as `device`, on the loopback with `card` (None: on the PC/SC reader, options say which)."""
        log = open(os.path.join(self.args.data_dir, f"reader-{device}.log"), "w")
        process = subprocess.Popen(
            [self.args.tap, "reader", "--gateway", self.base, "--device-id", device, "--api-key", self.key,
             "--user", self.admin_id, *(["--loopback", card] if card else []), *options], stdout=log, stderr=log)
        self.readers.append(process)
        return process

    def wait_online(self, driver, device):
        for _ in range(300):
            driver.get(self.base + "/pos/status")
            if re.search(r'"id":"%s","lastPreparedAt":"[^"]+","lastSeenAt":"[^"]+","online":true' % re.escape(device),
                         driver.page_source):
                return
            time.sleep(0.1)
        raise Failure(f"reader {device} did not come online")

    def charge(self, driver, amount, reader, tip=None):
        driver.get(self.base + f"/pos?reader={reader}")
        fill(driver, {"amount": amount})
        if tip is not None:
            driver.find_element(By.CSS_SELECTOR, f"input[name=tip][value='{tip}']").click()
        submit(driver, "Tap to Pay")
        check("/pos/commands/" in driver.current_url, f"the charge went to {driver.current_url}: {self.problem(driver)}")

    @staticmethod
    def problem(driver):
        found = re.search(r'<p class="problem" role="alert">([^<]*)</p>', driver.page_source)
        return found.group(1) if found else "(no problem shown)"

    def pick(self, driver, label):
        """The virtual reader's customer taps the card labelled `label`, once the reader waits for it."""
        WebDriverWait(driver, 10).until(lambda d: "Ready: the customer can tap now." in d.page_source)
        submit(driver, label)

    @staticmethod
    def result(driver, timeout=15):
        WebDriverWait(driver, timeout).until(lambda d: "New checkout" in d.page_source)
        return driver.page_source

    # --- the story -------------------------------------------------------------------------------------------------

    def story(self, cashier, barista):
        # onboarding: staff first, then the admin.
        sign_in(barista, self.base, "barista@cafe.example", STAFF_PASSWORD, path="/console/sign-in?next=/pos")
        check(barista.current_url.endswith("/pos"), f"staff sign-in went to {barista.current_url}")
        check("only an admin can enable it" in barista.page_source and "owner@cafe.example" in barista.page_source,
              "staff are not told who can enable Tap to Pay")
        self.scan(barista, "onboarding-staff")
        csrf = barista.find_element(By.NAME, "_csrf").get_attribute("value")
        barista.execute_script(
            "const f = document.createElement('form'); f.method = 'post'; f.action = '/pos/enable';"
            "for (const [k, v] of [['_csrf', arguments[0]], ['version', '2026-11']]) {"
            "  const i = document.createElement('input'); i.type = 'hidden'; i.name = k; i.value = v; f.append(i); }"
            "document.body.append(f); f.submit();", csrf)
        WebDriverWait(barista, 10).until(lambda d: "An admin enables Tap to Pay" in d.page_source)

        cashier.get(self.base + "/pos")
        check("/console/sign-in" in cashier.current_url, "the point of sale did not ask a stranger to sign in")
        sign_in(cashier, self.base, "owner@cafe.example", ADMIN_PASSWORD, path="/console/sign-in?next=/pos")
        check("Accept and enable" in cashier.page_source, "the admin is not offered the terms")
        self.scan(cashier, "onboarding-admin")
        submit(cashier, "Accept and enable")
        check("Tap to Pay is on" in cashier.page_source and "Try a test transaction" in cashier.page_source,
              "enabling did not offer a test transaction")
        check(cashier.find_element(By.NAME, "amount").get_attribute("value") == "1.00",
              "the test transaction is not prefilled")
        self.scan(cashier, "enabled")

        # readiness: the virtual reader, checked on open and on coming back to the foreground.
        submit(cashier, "Start a virtual reader (test cards)")
        virtual = re.search(r"reader=(virtual-[a-z0-9]+)", cashier.current_url)
        check(virtual, f"no virtual reader started: {cashier.current_url}")
        virtual = virtual.group(1)
        self.wait_online(cashier, virtual)
        cashier.get(self.base + f"/pos?reader={virtual}")
        WebDriverWait(cashier, 10).until(lambda d: "1 reader ready." in d.find_element(By.ID, "readiness").text)
        cashier.execute_script(
            "document.getElementById('readiness').textContent = '';"
            "Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});"
            "document.dispatchEvent(new Event('visibilitychange'));")
        WebDriverWait(cashier, 10).until(lambda d: "reader ready." in d.find_element(By.ID, "readiness").text)
        self.scan(cashier, "checkout")

        # approved, with a tip; the receipt's QR code decodes to its link.
        cashier.get(self.base + f"/pos?reader={virtual}")
        fill(cashier, {"amount": "12.00"})
        cashier.find_element(By.CSS_SELECTOR, "input[name=tip][value='10']").click()
        check(cashier.find_element(By.ID, "total").text == "13.20 EUR", "the total with the tip is not shown")
        submit(cashier, "Tap to Pay")
        check("13.20 EUR" in cashier.page_source, "the tap screen does not show the total")
        WebDriverWait(cashier, 10).until(lambda d: "Ready: the customer can tap now." in d.page_source)
        self.scan(cashier, "tap")
        submit(cashier, "Visa card")
        page = self.result(cashier)
        check("Approved" in page and "13.20 EUR" in page, "the Visa payment was not approved")
        receipt = cashier.find_element(By.ID, "receipt-link").get_attribute("href")
        self.scan(cashier, "approved")
        shot = self.scanner.screenshot(cashier, "qr-check.png", *PHONE)
        decoded = subprocess.run(["zbarimg", "--raw", "-q", shot], capture_output=True, text=True).stdout.strip()
        check(decoded == receipt, f"the receipt QR code reads {decoded!r}, not {receipt!r}")
        fill(cashier, {"email": "customer@example.org"})
        submit(cashier, "E-mail receipt")
        check("Receipt sent to c•••@example.org." in cashier.page_source, "the receipt was not e-mailed")
        check(len(self.mailbox.messages) == 1, f"the relay got {len(self.mailbox.messages)} messages")
        recipients, mail = self.mailbox.messages[0]
        check(recipients == ["customer@example.org"] and "Subject: Your receipt from Corner Caf" in mail,
              "the receipt e-mail went elsewhere or lacks its subject")
        check(receipt in mail and "13.20 EUR" in mail and not any(pan in mail for pan in TEST_PANS),
              "the receipt e-mail lacks its link or amount, or holds a PAN")
        barista.get(receipt)
        check("13.20 EUR" in barista.page_source and "Corner Café" in barista.page_source,
              "the receipt page does not show the payment")
        self.scan(barista, "receipt")

        # declined: the reason and the alternatives.
        self.charge(cashier, "20.00", virtual)
        self.pick(cashier, "Card without funds")
        page = self.result(cashier)
        check("Declined" in page and "not enough funds" in page, "the decline and its reason are not shown")
        check("Try again" in page and "Use another reader" in page and "Take cash" in page,
              "the alternatives are not offered")
        self.scan(cashier, "declined")

        # pin: the card asks for its PIN, entered on the reader.
        self.charge(cashier, "30.00", virtual)
        self.pick(cashier, "Card that asks for its PIN")
        check("Approved" in self.result(cashier), "the PIN payment was not approved")

        # limit: over the contactless limit.
        self.charge(cashier, "600.00", virtual)
        self.pick(cashier, "Visa card")
        page = self.result(cashier)
        check("contactless limit" in page and "Not completed" in page, "the contactless limit is not explained")
        self.scan(cashier, "over-limit")

        # cancel on the tap screen.
        self.charge(cashier, "4.00", virtual)
        WebDriverWait(cashier, 10).until(lambda d: "Ready: the customer can tap now." in d.page_source)
        submit(cashier, "Cancel")
        check("Canceled" in self.result(cashier), "canceling did not end the checkout")

        # reader: a `tap reader` process; busy: a second cashier on the same reader.
        self.start_reader("till-1", "load-5", "--tap-delay", "2")
        self.wait_online(cashier, "till-1")
        self.charge(cashier, "7.50", "till-1")
        sign_in(barista, self.base, "barista@cafe.example", STAFF_PASSWORD, path="/console/sign-in?next=/pos")
        barista.get(self.base + "/pos?reader=till-1")
        fill(barista, {"amount": "3.00"})
        submit(barista, "Tap to Pay")
        check("That reader is busy" in barista.page_source, "a second cashier on a busy reader was not refused")
        self.scan(barista, "reader-busy")
        check("Approved" in self.result(cashier), "the payment on tap reader was not approved")

        # disconnect: a reader killed mid-payment.
        slow = self.start_reader("till-2", "visa", "--tap-delay", "60")
        self.wait_online(cashier, "till-2")
        self.charge(cashier, "9.00", "till-2")
        WebDriverWait(cashier, 10).until(lambda d: "Ready: the customer can tap now." in d.page_source)
        slow.kill()
        page = self.result(cashier, timeout=30)
        check("lost its connection" in page, "a disconnected reader's checkout does not say so")
        self.scan(cashier, "disconnected")

        # reads without an amount (and a refund).
        cashier.get(self.base + f"/pos?reader={virtual}")
        fill(cashier, {"amount": ""})
        refund_amount = cashier.find_element(By.ID, "refund-amount")
        refund_amount.send_keys("2.00")
        submit(cashier, "Refund")
        self.pick(cashier, "Visa card")
        check("Refunded" in self.result(cashier), "the refund read did not refund")
        self.scan(cashier, "refunded")
        cashier.get(self.base + f"/pos?reader={virtual}")
        submit(cashier, "Look up")
        self.pick(cashier, "Visa card")
        page = self.result(cashier)
        check("Card read" in page and "13.20 EUR" in page, "the look-up does not list the card's payment")
        self.scan(cashier, "look-up")
        cashier.get(self.base + f"/pos?reader={virtual}")
        submit(cashier, "Verify card")
        self.pick(cashier, "Phone wallet")
        page = self.result(cashier)
        check("Card verified" in page, "the card was not verified: " + re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))[-700:])

        # settings: no cash offered any more.
        cashier.get(self.base + "/pos/settings")
        self.scan(cashier, "settings")
        cashier.find_element(By.NAME, "alt-cash").click()
        fill(cashier, {"loyaltyPass": "pass.dev.contactless.test.coffee"})
        submit(cashier, "Save")
        check("Saved." in cashier.page_source, "the settings were not saved")

        # loyalty: its own button, then with a payment in one tap.
        cashier.get(self.base + f"/pos?reader={virtual}")
        submit(cashier, "Read loyalty card")
        self.pick(cashier, "Phone with loyalty card")
        page = self.result(cashier)
        check("Loyalty card read" in page and "member-1001" in page, "the loyalty card was not read")
        self.scan(cashier, "loyalty")
        self.charge(cashier, "6.00", virtual)
        self.pick(cashier, "Phone with loyalty card")
        page = self.result(cashier)
        check("Approved" in page and "Loyalty member member-1001" in page,
              "the payment with the loyalty card did not show both: " + re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))[-500:])
        self.charge(cashier, "20.00", virtual)
        self.pick(cashier, "Card without funds")
        page = self.result(cashier)
        check("Declined" in page and "Take cash" not in page, "a turned-off alternative is still offered")

        # pcsc: a countertop reader on PC/SC, the card in its field.
        if self.args.pcsc_reader:
            self.start_reader("counter", None, "--pcsc", self.args.pcsc_reader, "--pin-pad", "test")
            self.wait_online(cashier, "counter")
            self.charge(cashier, "5.50", "counter")
            page = self.result(cashier, timeout=30)
            check("Approved" in page and "Mastercard" in page, "the PC/SC reader's checkout was not approved")

        # help.
        cashier.get(self.base + "/pos/help")
        check("PIN entry" in cashier.page_source and "Contact support" in cashier.page_source,
              "the help screen lacks PIN entry or support")
        self.scan(cashier, "help")


def main():
    args = arguments()
    pos = PointOfSale(args)
    pos.run()
    print(f"point of sale in Chromium ({args.label}): {pos.scanner.pages} screens scanned by axe-core with no "
          f"serious or critical violation, screenshots in {args.screenshots}")


if __name__ == "__main__":
    run_story("point of sale", main)
