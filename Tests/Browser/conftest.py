"""End-to-end fixtures: a real `wishlist serve` on a free port with a fresh data directory,
and headless Chromium driven through Debian's chromedriver.

Both are made once and reused, since making them is most of a test's time: the seeded data
folder is made once per test run and copied for each test (the seed draws 12 photos), and one
Chromium serves every test that needs no special one, reset between tests (see `browser`)."""

import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("WISHLIST_BINARY", ROOT / ".build" / "release" / "wishlist"))
SCREENSHOTS = ROOT / "Tests" / "Browser" / "screenshots"
PHONE = (390, 844)
DESKTOP = (1280, 900)
STARTUP_SECONDS = 60


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WishlistServer:
    """One server process over one data directory; restartable to prove persistence.
    `environment` adds variables (e.g. WISHLIST_PASSWORD); `arguments` adds `serve` options;
    `ready_path` answers 200 once it serves."""

    def __init__(self, data_dir: Path, environment=None, ready_path="/", arguments=(), template: Path | None = None):
        """`template`: a data folder copied to `data_dir` before the first start (see `seeded_folder`)."""
        self.data_dir = data_dir
        self.template = template
        self.arguments = list(arguments)
        self.environment = {**os.environ, **(environment or {})}
        self.ready_path = ready_path
        self.port = free_port()
        self.process = None
        self.log = data_dir.parent / "server.log"

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self):
        if self.template and not self.data_dir.exists():
            shutil.copytree(self.template, self.data_dir)
        self.process = subprocess.Popen(
            [str(BINARY), "serve", "--port", str(self.port), "--data-dir", str(self.data_dir), "--resources", str(ROOT),
             *self.arguments],
            stdout=open(self.log, "a"), stderr=subprocess.STDOUT, cwd=ROOT, env=self.environment)
        # A fresh data folder is seeded (the sample photos go through libvips) before the port
        # answers: seconds on a CI host busy with the rest of the suite, so the wait is generous.
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                log = self.log.read_text()
                # free_port() closes the port it found; another program may take it before the
                # server binds it. Only a first start may move to another port.
                if "is already in use" in log and not self.data_dir.exists():
                    self.port = free_port()
                    return self.start()
                raise RuntimeError(f"server exited: {log}")
            try:
                urllib.request.urlopen(self.url + self.ready_path, timeout=1).read()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"server did not answer {self.ready_path} in {STARTUP_SECONDS} s; its log:\n{self.log.read_text()}")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def restart(self):
        self.stop()
        self.start()


@pytest.fixture(scope="session")
def seeded_folder(tmp_path_factory):
    """A data folder as a first start leaves it (12 sample trips, their photos, 18 goals), made
    once per run: copying it is ~50x faster than seeding again. Dates are the seed's, minutes old."""
    server = WishlistServer(tmp_path_factory.mktemp("seeded") / "data")
    server.start()
    server.stop()
    (server.data_dir / "wishlist.lock").unlink(missing_ok=True)
    return server.data_dir


@pytest.fixture
def server(tmp_path, seeded_folder):
    server = WishlistServer(tmp_path / "data", template=seeded_folder)
    server.start()
    yield server
    server.stop()


def make_driver(size=DESKTOP, download_dir=None, javascript=True):
    """`download_dir`: where downloads are saved, without asking; `javascript=False`: scripts off."""
    options = webdriver.ChromeOptions()
    prefs = {}
    if not javascript:
        prefs["profile.managed_default_content_settings.javascript"] = 2
    if download_dir:
        prefs.update({"download.default_directory": str(download_dir), "download.prompt_for_download": False})
    if prefs:
        options.add_experimental_option("prefs", prefs)
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={size[0]},{size[1]}", "--force-prefers-reduced-motion"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_window_size(*size)
    # A page that has not loaded by then never will (say, blocked behind held connections): fail,
    # rather than wait Selenium's five minutes. How fast pages load is for Benchmarks/.
    driver.set_page_load_timeout(30)
    return driver


def reset(driver):
    """Leaves `driver` as a new one would be: one fresh tab (emulation, blocked URLs, request
    interception and injected scripts belong to a tab, so they go with the old ones), no cookies,
    nothing cached, the default size. Each test's server has a port of its own, so what a page
    stored for another origin cannot be seen."""
    old = driver.window_handles
    driver.switch_to.new_window("tab")
    for handle in old:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(driver.window_handles[0])
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    driver.set_window_size(*DESKTOP)
    return driver


@pytest.fixture(scope="session")
def _shared_drivers():
    """Chromium instances reused across tests, started on first use (each is a profile of its own)."""
    drivers = {}
    yield drivers
    for driver in drivers.values():
        driver.quit()


def _shared_driver(drivers, name):
    if name not in drivers:
        drivers[name] = make_driver()
    return reset(drivers[name])


@pytest.fixture
def browser(_shared_drivers):
    return _shared_driver(_shared_drivers, "first")


@pytest.fixture
def second_browser(_shared_drivers):
    """Another browser, with cookies of its own: a second person, or the same one elsewhere."""
    return _shared_driver(_shared_drivers, "second")


# What chromedriver says when a read lands mid-navigation: the node it found left the document.
MID_NAVIGATION = ("does not belong to the document", "No node with given id", "Cannot find context with specified id")


def wait_until(driver, condition, timeout=5):
    # A live page replaces elements and a form post replaces the document at any moment:
    # one read mid-swap or mid-navigation is retried, not a failure.
    def settled(d):
        try:
            return condition(d)
        except (StaleElementReferenceException, NoSuchElementException):
            return False
        except WebDriverException as error:
            if any(phrase in str(error) for phrase in MID_NAVIGATION):
                return False
            raise
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(settled)


def screenshot(driver, name):
    """Saves the page at phone and desktop width (kept out of git) for a person to look at."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    original = driver.get_window_size()
    for label, (width, height) in (("phone", PHONE), ("desktop", DESKTOP)):
        driver.set_window_size(width, height)
        time.sleep(0.15)
        full_height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, min(max(height, full_height), 4000))
        time.sleep(0.1)
        driver.save_screenshot(str(SCREENSHOTS / f"{name}-{label}.png"))
    driver.set_window_size(original["width"], original["height"])
