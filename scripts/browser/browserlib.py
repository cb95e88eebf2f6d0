"""What the browser tests share: a live `tap serve`, `tap` commands, headless Chromium (Debian's) driven by
Selenium, axe-core scans (axe-selenium-python) with screenshots, and form helpers.

Each test is one story against one server; a failure raises Failure with the reason.
"""

import argparse
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

DESKTOP = (1280, 900)
PHONE = (390, 844)


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Tap:
    """`tap` commands on the test's data directory or PostgreSQL database, and the gateway `tap serve` runs."""

    def __init__(self, binary, data_dir, database, port):
        self.binary = binary
        self.data_dir = data_dir
        self.base = f"http://127.0.0.1:{port}"
        self.port = port
        self.store = ["--data-dir", data_dir] + (["--database", database] if database else [])
        self.server = None

    def run(self, *arguments):
        result = subprocess.run([self.binary, *arguments], capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise Failure(f"tap {' '.join(arguments[:3])} failed: {result.stderr.strip()[-400:]}")
        return result.stdout

    def serve(self, *options):
        self.log = open(os.path.join(self.data_dir, "serve.log"), "w")
        self.server = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), *options, *self.store], stdout=self.log, stderr=self.log)
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/health", timeout=1).read()
                return
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        raise Failure("tap serve did not answer /health in 30 s")

    def stop(self):
        if self.server:
            self.server.terminate()
            self.server.wait(timeout=30)
            self.log.close()

    def server_log(self):
        with open(os.path.join(self.data_dir, "serve.log")) as f:
            return f.read()


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                 f"--window-size={DESKTOP[0]},{DESKTOP[1]}", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Scanner:
    """axe-core on each page as it is (no serious or critical violation), then screenshots at the given widths."""

    def __init__(self, directory, label, sizes=(("desktop", DESKTOP), ("phone", PHONE))):
        self.directory = directory
        self.label = label
        self.sizes = sizes
        self.pages = 0
        os.makedirs(directory, exist_ok=True)

    def scan(self, driver, name):
        axe = Axe(driver)
        axe.inject()
        results = axe.run()
        serious = [v for v in results["violations"] if v.get("impact") in ("serious", "critical")]
        if serious:
            detail = "; ".join(f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
                               for v in serious)
            raise Failure(f"axe on {name}: {detail}")
        for label, (width, height) in self.sizes:
            self.screenshot(driver, f"{self.label}-{name}-{label}.png", width, height)
        driver.set_window_size(*DESKTOP)
        self.pages += 1

    def screenshot(self, driver, filename, width, height):
        """The whole page: the window as tall as the document at this width."""
        driver.set_window_size(width, height)
        full = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, max(height, min(full + 120, 6000)))
        driver.execute_script("window.scrollTo(0, 0)")
        path = os.path.join(self.directory, filename)
        driver.save_screenshot(path)
        return path


def fill(driver, fields):
    for name, value in fields.items():
        element = driver.find_element(By.NAME, name)
        element.clear()
        element.send_keys(value)


def submit(driver, button_text, accept_confirm=False):
    """Clicks the button labelled `button_text` and waits for the next page."""
    button = driver.find_element(By.XPATH, f"//button[normalize-space()='{button_text}']")
    old = driver.find_element(By.TAG_NAME, "html")
    button.click()
    if accept_confirm:
        WebDriverWait(driver, 5).until(lambda d: d.switch_to.alert).accept()
    WebDriverWait(driver, 10).until(lambda d: old != d.find_element(By.TAG_NAME, "html"))


def sign_in(driver, base, email, password, path="/console/sign-in"):
    driver.get(base + path)
    fill(driver, {"email": email, "password": password})
    submit(driver, "Sign in")


def arguments():
    """The command line every story takes: the tap binary, where its gateway keeps state, the port, screenshots."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--tap", required=True)
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--database")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--screenshots", required=True)
    parser.add_argument("--label", required=True)
    parser.add_argument("--pcsc-reader", help="a PC/SC reader with a card in its field, for a story that uses one")
    return parser.parse_args()


def run_story(name, story):
    """Runs `story()`; a Failure exits 1 with the reason."""
    try:
        story()
    except Failure as error:
        sys.exit(f"{name} browser test: {error}")
