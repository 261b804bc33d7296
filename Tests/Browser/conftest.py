"""Fixtures of the browser suite: the mock started from --binary with --port 0 and a scenario registering
the sample app's redirect URI, the sample web app served by the test, and one headless Chromium."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait
from siwatest.client import mint_client_secret
from siwatest.process import MockProcess
from siwatest.runner import DEFAULT_BINARY
from siwatest.scenario import KEYS_DIR, SCENARIOS_DIR, WEB_CLIENT

from sample_app import SampleApp

WAIT = 10.0


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--binary", default=os.environ.get("SIWA_MOCK_BINARY"),
                     help="siwa-mock executable (default: .build/release/siwa-mock)")
    parser.addoption("--screenshots", default=None, help="save screenshots of the pages into this folder")
    parser.addoption("--chromium", default="/usr/bin/chromium", help="the Chromium binary")
    parser.addoption("--chromedriver", default="/usr/bin/chromedriver", help="the chromium-driver binary")


@pytest.fixture(scope="session")
def binary(request: pytest.FixtureRequest) -> Path:
    path = Path(request.config.getoption("--binary") or DEFAULT_BINARY)
    if not os.access(path, os.X_OK):
        pytest.fail(f"siwa-mock binary not found or not executable: {path}")
    return path


@pytest.fixture(scope="session")
def client_secret(binary: Path) -> str:
    return mint_client_secret(binary, WEB_CLIENT)


def scenario_text(redirect_uri: str, client_name: str | None) -> str:
    """The built-in scenario plus the sample app's redirect URI (and the web client's display name)."""
    text = (SCENARIOS_DIR / "default.yaml").read_text()
    text = text.replace("pem_file: keys/", f"pem_file: {KEYS_DIR}/")
    text = text.replace("    redirect_uris:\n", f"    redirect_uris:\n      - {redirect_uri}\n", 1)
    if client_name is not None:
        text = text.replace("    kind: services\n", f"    kind: services\n    name: {json.dumps(client_name)}\n", 1)
    return text


class Site:
    """The sample app and the mock it signs in with."""

    def __init__(self, app: SampleApp, mock: MockProcess) -> None:
        self.app = app
        self.mock = mock
        self.mock_base = f"http://127.0.0.1:{mock.port}"

    def log(self) -> str:
        return self.mock.log_path.read_text(errors="replace")


def start_site(binary: Path, tmp_path: Path, secret: str, client_name: str | None = "Sample App") -> Site:
    app = SampleApp(WEB_CLIENT)
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(scenario_text(app.redirect_uri, client_name))
    try:
        mock = MockProcess(binary, ["--scenario", str(scenario)], tmp_path / "siwa-mock.log")
    except BaseException:
        app.stop()
        raise
    site = Site(app, mock)
    app.configure(site.mock_base, secret)
    return site


@pytest.fixture
def site(binary: Path, tmp_path: Path, client_secret: str):
    site = start_site(binary, tmp_path, client_secret)
    yield site
    site.app.stop()
    rc = site.mock.stop()
    log = site.log()
    assert rc == 0, f"siwa-mock exited with {rc}; log tail:\n{log[-2000:]}"
    assert not re.search(r"^\S+ \S+ [A-Z]+ \S+ 5\d\d\b", log, re.M), f"a 5xx in the mock's log:\n{log[-3000:]}"


@pytest.fixture(scope="session")
def browser(request: pytest.FixtureRequest):
    options = webdriver.ChromeOptions()
    options.binary_location = request.config.getoption("--chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=820,900", "--no-first-run", "--disable-extensions"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=request.config.getoption("--chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()


@pytest.fixture
def driver(browser):
    """The session's Chromium with one blank window; extra windows (popups) are closed afterwards."""
    yield browser
    main = browser.window_handles[0]
    for handle in browser.window_handles[1:]:
        browser.switch_to.window(handle)
        browser.close()
    browser.switch_to.window(main)
    browser.get("about:blank")
    browser.get_log("browser")  # drop this test's console messages


@pytest.fixture
def screenshot(request: pytest.FixtureRequest):
    """screenshot(driver, name): saves NAME.png into --screenshots, when given; at a phone-like width
    unless keep_size."""
    folder = request.config.getoption("--screenshots")

    def take(driver, name: str, keep_size: bool = False) -> None:
        if folder:
            if not keep_size:
                driver.set_window_size(560, 1000)  # the whole sheet, at a phone-like width
            driver.save_screenshot(str(Path(folder) / f"{name}.png"))
    return take


def wait_for(driver, condition, message: str, timeout: float = WAIT):
    return WebDriverWait(driver, timeout).until(lambda d: condition(d), message)


def no_alert(driver) -> bool:
    try:
        driver.switch_to.alert
    except NoAlertPresentException:
        return True
    return False


def wait_for_window_count(driver, count: int, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while len(driver.window_handles) != count:
        if time.monotonic() > deadline:
            raise AssertionError(f"expected {count} windows, have {len(driver.window_handles)}")
        time.sleep(0.05)
