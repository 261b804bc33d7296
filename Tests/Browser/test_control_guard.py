"""Without --admin-token on loopback, web pages cannot use the control API (issue #22): a page on another
origin posting text/plain to /mock/ is refused (403 cross_origin) and changes nothing, and a page reached
through a rebound DNS name (Chromium's --host-resolver-rules maps it to 127.0.0.1, as a rebinding attack
would) is refused (403 forbidden_host); the dashboard's own origin keeps working, at 127.0.0.1 and
localhost."""

from __future__ import annotations

import http.server
import json
import threading
import urllib.request
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from siwatest.process import MockProcess

from conftest import WAIT, wait_for

REBOUND = "rebind.test"


@pytest.fixture
def open_mock(binary: Path, tmp_path: Path):
    process = MockProcess(binary, [], tmp_path / "siwa-mock.log")
    yield process
    assert process.stop() == 0, process.log_path.read_text(errors="replace")[-2000:]


def control(port: int, path: str) -> object:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return json.loads(response.read())


class OtherOrigin(http.server.BaseHTTPRequestHandler):
    """A page on another origin (same host, other port): a text/plain form to /mock/clock and a no-cors
    fetch adding a user, the two writes a page can send without a CORS preflight."""

    mock = ""

    def do_GET(self) -> None:  # noqa: N802 (http.server's spelling)
        name = '{"advance":"3650d","x":"'
        user = json.dumps({"id": "mallory", "email": "mallory@example.com"})
        body = (f'<!DOCTYPE html><script>fetch("{self.mock}/mock/users", {{method: "POST", mode: "no-cors",'
                f' headers: {{"Content-Type": "text/plain"}}, body: {json.dumps(user)}}})'
                '.then(() => { window.__sent = true; }, () => { window.__sent = true; });</script>'
                f'<form id="csrf" method="post" enctype="text/plain" action="{self.mock}/mock/clock">'
                f"<input type=\"hidden\" name='{name}' value='\"}}'><button>go</button></form>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def test_a_page_on_another_origin_cannot_change_the_mock(driver, open_mock) -> None:
    port = open_mock.port
    before = control(port, "/mock/clock")["epoch_seconds"]
    handler = type("Handler", (OtherOrigin,), {"mock": f"http://127.0.0.1:{port}"})
    page = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=page.serve_forever, daemon=True).start()
    try:
        driver.get(f"http://127.0.0.1:{page.server_address[1]}/")
        wait_for(driver, lambda d: d.execute_script("return window.__sent === true"), "the fetch was sent")
        driver.find_element(By.CSS_SELECTOR, "#csrf button").click()
        wait_for(driver, lambda d: "cross_origin" in d.execute_script(
            "return document.body ? document.body.innerText : ''"), "the refusal shown")
        text = driver.execute_script("return document.body.innerText")
        assert "is not this server" in text, text
    finally:
        page.shutdown()
        page.server_close()
    assert control(port, "/mock/clock")["epoch_seconds"] < before + 86400, "the clock did not move"
    users = [user["id"] for user in control(port, "/mock/users")["users"]]
    assert "mallory" not in users, "no user was added"
    refused = [entry for entry in control(port, "/mock/requests?include=mock")["requests"]
               if entry["outcome"] == "cross_origin"]
    assert sorted(entry["path"] for entry in refused) == ["/mock/clock", "/mock/users"], refused
    assert all(entry["status"] == 403 for entry in refused)


@pytest.fixture
def rebinding_browser(request: pytest.FixtureRequest):
    """Chromium resolving rebind.test to 127.0.0.1: what a DNS rebinding attack achieves."""
    options = webdriver.ChromeOptions()
    options.binary_location = request.config.getoption("--chromium")
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", f"--host-resolver-rules=MAP {REBOUND} 127.0.0.1"):
        options.add_argument(argument)
    service = Service(executable_path=request.config.getoption("--chromedriver"))
    driver = webdriver.Chrome(options=options, service=service)
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()


def test_a_rebound_name_cannot_read_the_control_api(rebinding_browser, open_mock) -> None:
    driver = rebinding_browser
    port = open_mock.port
    driver.get(f"http://{REBOUND}:{port}/mock/users")
    text = driver.execute_script("return document.body.innerText")
    answer = json.loads(text)
    assert answer["error"] == "forbidden_host" and answer["field"] == "Host", answer
    assert answer["message"].startswith(f"Host {REBOUND}:{port} is not a loopback name"), answer
    assert "alice" not in text
    # Apple's endpoints are not the control API (a page may fetch /auth/keys from anywhere).
    driver.get(f"http://{REBOUND}:{port}/auth/keys")
    assert '"keys"' in driver.execute_script("return document.body.innerText")
    # The dashboard at its own origin works, by IP and by localhost.
    for host in ("127.0.0.1", "localhost"):
        driver.get(f"http://{host}:{port}/mock/ui")
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#users tbody tr[data-user='alice']"),
                 f"users shown at {host}")
