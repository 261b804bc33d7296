"""The dashboard at /mock/ui in real Chromium, with --admin-token: sign in through the form, revoke a user
and see the credential state change through the control API, advance the clock, switch a fault off and
on, watch a refused request's reason arrive in the live journal, and run no script that users, client
ids or request parameters carry. A page on another origin cannot drive the control API with the
dashboard's cookie. Takes docs/images/dashboard.png (with --screenshots)."""

from __future__ import annotations

import http.server
import json
import re
import smtplib
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from siwatest.process import MockProcess
from siwatest.scenario import REPO_ROOT

from conftest import no_alert, wait_for

TOKEN = "dashboard-admin-token"
# Each payload records that it ran in window.__xss (and would open a dialog).
PAYLOADS = [
    '<img src=x onerror="window.__xss=1;alert(1)">',
    "<script>window.__xss=2;alert(2)</script>",
    '"><svg onload="window.__xss=3">',
]


class Mock:
    """The mock under --admin-token and calls to its control API with the bearer token."""

    def __init__(self, process: MockProcess) -> None:
        self.process = process
        self.base = f"http://127.0.0.1:{process.port}"

    def call(self, method: str, path: str, body: object | None = None, bearer: bool = True) -> tuple[int, object]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        if bearer:
            request.add_header("Authorization", f"Bearer {TOKEN}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, raw.decode(errors="replace")

    def ok(self, method: str, path: str, body: object | None = None) -> object:
        status, answer = self.call(method, path, body)
        assert 200 <= status < 300, f"{method} {path}: {status} {answer}"
        return answer


@pytest.fixture
def mock(binary: Path, tmp_path: Path):
    process = MockProcess(binary, ["--admin-token", TOKEN], tmp_path / "siwa-mock.log")
    yield Mock(process)
    rc = process.stop()
    log = process.log_path.read_text(errors="replace")
    assert rc == 0, f"siwa-mock exited with {rc}; log tail:\n{log[-2000:]}"
    # Expected: the 503s of the test's own fault rule; any other 5xx (a key rotation refused because no
    # pre-made key was ready, as before issue #22) is a server error.
    errors = [line for line in log.splitlines()
              if re.match(r"\S+ \S+ [A-Z]+ \S+ 5\d\d\b", line) and " fault=keys-down " not in line]
    assert not errors, f"a 5xx in the mock's log: {errors}"


@pytest.fixture
def relay_mock(binary: Path, tmp_path: Path):
    """The mock with the private email relay listening (scenarios/relay-mail.yaml, --smtp-port 0)."""
    scenario = REPO_ROOT / "scenarios" / "relay-mail.yaml"
    process = MockProcess(binary, ["--admin-token", TOKEN, "--scenario", str(scenario), "--smtp-port", "0"],
                          tmp_path / "siwa-mock.log")
    yield Mock(process)
    assert process.stop() == 0, process.log_path.read_text(errors="replace")[-2000:]


def cell_texts(driver, table: str, key: str, value: str) -> list[str]:
    """The rendered text of each cell of the row whose data-KEY is VALUE, read in one step (the page
    replaces its rows when the data changes, so element handles go stale)."""
    return driver.execute_script(
        "const row = [...document.querySelectorAll(`#${arguments[0]} tbody tr`)]"
        "  .find((r) => r.dataset[arguments[1]] === arguments[2]);"
        "return row ? [...row.cells].map((c) => c.innerText) : [];", table, key, value)


def click(driver, selector: str) -> None:
    """Clicks the element, finding it again if a re-render replaced it in between."""
    for _ in range(5):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            continue
    raise AssertionError(f"{selector} kept being replaced")


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def no_injected_script(driver) -> None:
    assert no_alert(driver), "a dialog opened"
    assert driver.execute_script("return window.__xss === undefined"), "an injected script ran"
    injected = driver.execute_script(
        "return document.querySelectorAll('main img, main svg, main script, main iframe:not(#mail-frame)').length")
    assert injected == 0, "a payload became markup"


def sign_in(driver, mock: Mock) -> None:
    driver.get(f"{mock.base}/mock/ui")
    field = driver.find_element(By.ID, "admin-token")
    assert "admin_token" not in driver.current_url
    field.send_keys(TOKEN)
    driver.find_element(By.CSS_SELECTOR, "#sign-in button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#users tbody tr[data-user='alice']"), "users shown")
    assert TOKEN not in driver.current_url


def test_dashboard_drives_the_control_api(driver, mock, screenshot) -> None:
    # Setup through the API: a user and journal entries carrying payloads, a consent to revoke, a fault.
    status, answer = mock.call("POST", "/mock/users", {
        "id": "mallory", "email": "mallory@example.com", "first_name": PAYLOADS[0], "last_name": PAYLOADS[1]})
    assert status == 201, answer
    # An email must be an RFC 5322 addr-spec (docs/security.md): markup fits in a quoted local part.
    status, answer = mock.call("POST", "/mock/users", {"id": PAYLOADS[2], "email": f'"x{PAYLOADS[1]}"@example.com'})
    assert status == 201, answer
    mock.ok("POST", "/mock/credentials", {"client_id": "com.example.app", "user": "alice"})
    mock.ok("POST", "/mock/faults", {"id": "keys-down", "match": "GET /auth/keys", "status": 503})

    sign_in(driver, mock)
    assert "com.example.app: authorized" in cell_texts(driver, "users", "user", "alice")[5]
    assert PAYLOADS[0] in " ".join(cell_texts(driver, "users", "user", "mallory")), "payload shown as text"

    # Revoke: the state changes for the API too.
    click(driver, "#users tr[data-user='alice'] button[data-action='revoke']")
    wait_for(driver, lambda d: "com.example.app: revoked" in cell_texts(d, "users", "user", "alice")[5],
             "revoked on the page")
    user = mock.ok("GET", "/mock/users/alice")
    assert user["credential_states"]["com.example.app"] == "revoked" and user["credential_state"] == "revoked"
    state = mock.ok("GET", "/mock/credential-state?user=alice&client_id=com.example.app")
    assert state["state"] == "revoked"

    # The other user actions, each seen through the API.
    click(driver, "#users tr[data-user='bob'] button[data-action='forwarding']")
    wait_for(driver, lambda d: mock.ok("GET", "/mock/users/bob")["email_forwarding"] is False, "forwarding off")
    wait_for(driver, lambda d: cell_texts(d, "users", "user", "bob")[6:7] == ["off"], "shown off")
    click(driver, "#users tr[data-user='carol'] button[data-action='transfer']")
    wait_for(driver, lambda d: mock.ok("GET", "/mock/users/carol")["credential_state"] == "transferred", "transferred")
    click(driver, "#users tr[data-user='carol'] button[data-action='delete']")
    wait_for(driver, lambda d: mock.call("GET", "/mock/users/carol")[0] == 404, "carol deleted")
    wait_for(driver, lambda d: not cell_texts(d, "users", "user", "carol"), "carol's row gone")

    # Keys: rotate once; with no pre-made key ready the call waits for one (docs/control-api.md).
    signing = mock.ok("GET", "/mock/keys")["signing_kid"]
    click(driver, "#keys-rotate")
    wait_for(driver, lambda d: mock.ok("GET", "/mock/keys")["signing_kid"] != signing, "rotated", 10.0)
    rotated = mock.ok("GET", "/mock/keys")["signing_kid"]
    assert rotated != signing
    wait_for(driver, lambda d: cell_texts(d, "keys", "kid", rotated)[1:] == ["yes", "yes"], "new key shown")

    # A notification to a closed port: its failed attempt appears with its outcome.
    mock.ok("PATCH", "/mock/app-groups/com.example.app", {"notification_url": f"http://127.0.0.1:{closed_port()}/apple"})
    mock.ok("POST", "/mock/credentials", {"client_id": "com.example.app", "user": "bob"})
    queued = mock.ok("POST", "/mock/notifications",
                     {"type": "email-disabled", "user": "bob", "client_id": "com.example.app"})["queued"][0]
    wait_for(driver, lambda d: "connection_failed" in "".join(cell_texts(d, "notifications", "notification",
                                                                         str(queued["id"]))), "the failed attempt")

    # Clock: advance by a day.
    before = mock.ok("GET", "/mock/clock")["epoch_seconds"]
    advance = driver.find_element(By.CSS_SELECTOR, "#clock-advance input[name=advance]")
    advance.clear()
    advance.send_keys("1d")
    driver.find_element(By.CSS_SELECTOR, "#clock-advance button").click()
    wait_for(driver, lambda d: mock.ok("GET", "/mock/clock")["epoch_seconds"] >= before + 86400, "clock advanced")
    now = mock.ok("GET", "/mock/clock")["now"]
    wait_for(driver, lambda d: d.find_element(By.ID, "clock-now").text[:10] == now[:10], "the new day shown")

    # Faults: off through the page (the rule stops firing), on again (it fires, the counter goes up live).
    assert mock.call("GET", "/auth/keys", bearer=False)[0] == 503
    wait_for(driver, lambda d: cell_texts(d, "faults", "fault", "keys-down")[5:6] == ["1"], "fired counter")
    click(driver, "#faults tr[data-fault='keys-down'] button[data-action='toggle']")
    wait_for(driver, lambda d: cell_texts(d, "faults", "fault", "keys-down")[3:4] == ["off"], "shown off")
    assert mock.ok("GET", "/mock/faults/keys-down")["enabled"] is False
    assert mock.call("GET", "/auth/keys", bearer=False)[0] == 200
    click(driver, "#faults tr[data-fault='keys-down'] button[data-action='toggle']")
    wait_for(driver, lambda d: cell_texts(d, "faults", "fault", "keys-down")[3:4] == ["on"], "shown on")
    assert mock.call("GET", "/auth/keys", bearer=False)[0] == 503
    wait_for(driver, lambda d: cell_texts(d, "faults", "fault", "keys-down")[5:6] == ["2"], "live counter")

    # A refused sign-in with payloads in the client id and parameters: its reason appears live.
    query = urllib.parse.urlencode({"client_id": PAYLOADS[0], "redirect_uri": "https://example.com/cb",
                                    "response_type": "code", "state": PAYLOADS[1], "login_hint": PAYLOADS[2]})
    status, _ = mock.call("GET", f"/auth/authorize?{query}", bearer=False)
    assert status == 400
    entry = mock.ok("GET", "/mock/requests?path=/auth/authorize")["requests"][-1]
    assert entry["reason"]
    sequence = str(entry["sequence"])
    wait_for(driver, lambda d: cell_texts(d, "journal", "sequence", sequence), "the refusal in the live journal")
    cells = cell_texts(driver, "journal", "sequence", sequence)
    assert cells[3] == PAYLOADS[0] and cells[7] == entry["reason"], cells
    assert PAYLOADS[1] in cells[8], "parameters shown as text"

    driver.find_element(By.CSS_SELECTOR, "#journal-filters input[name=refusals]").click()
    wait_for(driver, lambda d: d.execute_script(
        "const rows = [...document.querySelectorAll('#journal tbody tr')];"
        "return rows.length > 0 && rows.every((row) => row.classList.contains('refused'));"), "refusals only")
    no_injected_script(driver)

    # The screenshot of docs/browser.md: a fresh load (the cookie still signs in), a refused token request.
    status, _ = mock.call("POST", "/auth/token", bearer=False)
    assert status == 400
    driver.set_window_size(1440, 1000)
    try:
        driver.get(f"{mock.base}/mock/ui")
        wait_for(driver, lambda d: cell_texts(d, "users", "user", "alice"), "users shown")
        wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#journal tbody tr")) >= 4, "journal shown")
        no_injected_script(driver)
        screenshot(driver, "dashboard")
    finally:
        driver.set_window_size(820, 900)


class AttackerPage(http.server.BaseHTTPRequestHandler):
    """Another origin (same host, other port): a form that posts JSON-looking text to the control API."""

    target = ""

    def do_GET(self) -> None:  # noqa: N802 (http.server's spelling)
        name = '{"advance":"3650d","x":"'
        body = (f'<!DOCTYPE html><form id="csrf" method="post" enctype="text/plain" action="{self.target}">'
                f"<input type=\"hidden\" name='{name}' value='\"}}'><button>go</button></form>").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


def test_another_origin_cannot_use_the_dashboards_cookie(driver, mock) -> None:
    sign_in(driver, mock)
    before = mock.ok("GET", "/mock/clock")["epoch_seconds"]
    handler = type("Handler", (AttackerPage,), {"target": f"{mock.base}/mock/clock"})
    attacker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=attacker.serve_forever, daemon=True)
    thread.start()
    try:
        driver.get(f"http://127.0.0.1:{attacker.server_address[1]}/")
        driver.find_element(By.CSS_SELECTOR, "#csrf button").click()
        wait_for(driver, lambda d: "cross_origin" in d.execute_script(
            "return document.body ? document.body.innerText : ''"), "the refusal")
    finally:
        attacker.shutdown()
        attacker.server_close()
    assert mock.ok("GET", "/mock/clock")["epoch_seconds"] < before + 86400, "the clock did not move"
    posts = [entry for entry in mock.ok("GET", "/mock/requests?path=/mock/clock")["requests"]
             if entry["method"] == "POST"]
    assert [entry["status"] for entry in posts] == [403], posts
    assert "X-SIWA-Mock-Dashboard" in posts[0]["reason"]


def test_the_mail_panel_shows_delivered_and_refused_messages(driver, relay_mock) -> None:
    """Two messages sent with smtplib appear in the Mail panel, each with its SMTP reply and reason;
    a subject carrying markup is shown as text."""
    mock = relay_mock
    driver.get(f"{mock.base}/mock/ui")
    driver.find_element(By.ID, "admin-token").send_keys(TOKEN)
    driver.find_element(By.CSS_SELECTOR, "#sign-in button[type=submit]").click()
    wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#users tbody tr[data-user='bob']"), "users shown")
    assert cell_texts(driver, "mail", "mail", "m1") == []

    relay = "k7x2m9q4ab@privaterelay.appleid.com"
    with smtplib.SMTP("127.0.0.1", mock.process.smtp_port, timeout=10) as client:
        text = f"From: hello@shop.example\r\nTo: {relay}\r\nSubject: {PAYLOADS[0]}\r\n\r\nHi.\r\n"
        assert client.sendmail("hello@shop.example", [relay], text) == {}
        with pytest.raises(smtplib.SMTPDataError) as refusal:
            client.sendmail("spam@evil.example", [relay],
                            f"From: spam@evil.example\r\nTo: {relay}\r\nSubject: no\r\n\r\nBuy.\r\n")
        assert refusal.value.smtp_code == 550
    messages = mock.ok("GET", "/mock/mail")["messages"]
    delivered, refused = [next(m for m in messages if m["status"] == s) for s in ("delivered", "rejected")]

    wait_for(driver, lambda d: cell_texts(d, "mail", "mail", refused["id"]), "the refused message in the panel")
    cells = cell_texts(driver, "mail", "mail", delivered["id"])
    assert cells[2] == "delivered" and cells[5] == "bob@example.com" and cells[6] == PAYLOADS[0], cells
    assert cells[9] == delivered["smtp_reply"] and cells[9].startswith("250"), cells
    cells = cell_texts(driver, "mail", "mail", refused["id"])
    assert cells[2] == "rejected" and "unauthorized sender" in cells[9] and cells[10] == refused["reason"], cells
    assert "spam@evil.example" in cells[3] and cells[10], cells
    no_injected_script(driver)
