"""The plugin's own suite, against the real binary (clients/run.sh sets SIWA_MOCK_BINARY)."""

import json
import re
import smtplib
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from email.message import EmailMessage
from pathlib import Path

import pytest

from siwa_mock_pytest import SiwaMock, SiwaMockError
from siwa_mock_pytest import mock as mock_module


def test_sign_in_returns_verified_tokens_with_scopes_and_nonce(siwa_mock):
    result = siwa_mock.sign_in("alice", scopes=["name", "email"], nonce="n-1")
    assert result["claims"]["email"] == "alice@example.com"
    assert result["claims"]["nonce"] == "n-1"
    assert result["claims"]["aud"] == "com.example.web"
    assert result["user"]["name"]["firstName"] == "Alice"
    claims = siwa_mock.verify(result["token_response"]["id_token"], audience="com.example.web", nonce="n-1")
    assert claims["sub"] == result["claims"]["sub"]


def test_a_tampered_token_fails_verification(siwa_mock):
    alice = siwa_mock.sign_in("alice")["token_response"]["id_token"].split(".")
    bob = siwa_mock.sign_in("bob")["token_response"]["id_token"].split(".")
    with pytest.raises(SiwaMockError, match="verify failed"):
        siwa_mock.verify(".".join([alice[0], bob[1], alice[2]]))  # bob's claims under alice's signature


def test_client_secret_is_accepted_by_the_token_endpoint(siwa_mock):
    secret = siwa_mock.client_secret("com.example.web")
    assert secret.count(".") == 2
    form = urllib.parse.urlencode({"grant_type": "client_credentials", "scope": "user.migration",
                                   "client_id": "com.example.web", "client_secret": secret}).encode()
    with urllib.request.urlopen(siwa_mock.url + "/auth/token", data=form, timeout=10) as response:
        assert "access_token" in json.load(response)


def test_a_fault_makes_sign_in_fail_with_the_mocks_answer(siwa_mock):
    siwa_mock.add_fault({"id": "token-down", "match": "POST /auth/token", "status": 503})
    with pytest.raises(SiwaMockError, match="503"):
        siwa_mock.sign_in("alice")
    siwa_mock.remove_fault("token-down")
    assert siwa_mock.sign_in("alice")["claims"]["aud"] == "com.example.web"


def test_clock_users_and_journal(siwa_mock):
    before = siwa_mock.clock()["epoch_seconds"]
    siwa_mock.advance_clock("1d")
    assert siwa_mock.clock()["epoch_seconds"] >= before + 86400
    siwa_mock.add_user({"id": "dave", "email": "dave@example.com"})
    assert siwa_mock.sign_in("dave")["claims"]["sub"] == siwa_mock.user("dave")["sub"]
    siwa_mock.revoke_user("dave")
    assert siwa_mock.requests(path="/auth/token", user="dave")[-1]["status"] == 200
    siwa_mock.clear_requests()
    assert siwa_mock.requests() == []


def test_each_test_starts_from_the_scenario(siwa_mock):
    assert siwa_mock.requests() == []
    with pytest.raises(SiwaMockError, match="404"):
        siwa_mock.user("dave")


def test_a_wrong_binary_path_says_how_to_get_one(tmp_path):
    with pytest.raises(SiwaMockError) as raised:
        SiwaMock.start(binary=str(tmp_path / "no-such-siwa-mock"))
    assert "siwa-mock binary not found" in str(raised.value)
    assert "SIWA_MOCK_BINARY" in str(raised.value) and "swift build" in str(raised.value)


def test_a_mock_that_cannot_start_shows_its_stderr(tmp_path):
    (tmp_path / "broken.yaml").write_text("users:\n  - id: [\n")
    with pytest.raises(SiwaMockError, match=r"did not start[\s\S]*broken.yaml"):
        SiwaMock.start(scenario=str(tmp_path / "broken.yaml"))


# scenarios/relay-mail.yaml registers shop.example for team ABCDE12345, whose user bob has this relay
# address (the built-in scenario registers no sender, so every message there is refused).
RELAY_SCENARIO = Path(__file__).resolve().parents[3] / "scenarios" / "relay-mail.yaml"
BOB = "k7x2m9q4ab@privaterelay.appleid.com"


@pytest.fixture(scope="module")
def relay():
    with SiwaMock.start(scenario=str(RELAY_SCENARIO), smtp=True) as mock:
        yield mock


def send(mock, subject, errors=None):
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "Shop <hello@shop.example>", BOB, subject
    message.set_content("Hello Bob")
    try:
        with smtplib.SMTP(mock.smtp_host, mock.smtp_port, timeout=10) as smtp:
            smtp.send_message(message)
    except Exception as error:  # from a timer thread: handed to the test
        if errors is None:
            raise
        errors.append(error)


def test_wait_for_mail_returns_as_soon_as_the_message_arrives(relay):
    relay.clear_mail()
    assert relay.mail(relay_address=BOB) == []
    errors = []
    timer = threading.Timer(0.3, send, (relay, "Your code is 123456", errors))
    began = time.monotonic()
    timer.start()
    try:
        messages = relay.wait_for_mail(relay_address=BOB, status="delivered", timeout="10s")
    finally:
        timer.join()
    elapsed = time.monotonic() - began
    assert errors == []
    assert 0.3 <= elapsed < 3, f"answered after {elapsed:.2f}s for mail sent after 0.3s"
    assert [(m["subject"], m["delivered_to"]) for m in messages] == [("Your code is 123456", "bob@example.com")]
    assert relay.mail(status="delivered") == messages


def test_wait_for_mail_that_never_comes_says_what_the_mailbox_holds(relay):
    relay.clear_mail()
    send(relay, "Welcome")
    began = time.monotonic()
    with pytest.raises(SiwaMockError) as raised:
        relay.wait_for_mail(relay_address=BOB, status="rejected", timeout=1.0)  # seconds: the mock says "1s"
    assert time.monotonic() - began >= 1
    assert re.fullmatch(r"no mail matching relay_address=k7x2m9q4ab@privaterelay.appleid.com status=rejected in 1s; "
                        r'the mailbox has 1 record: m\d+ delivered hello@shop.example -> k7x2m9q4ab@privaterelay.appleid.com "Welcome"',
                        str(raised.value)), str(raised.value)
    with pytest.raises(SiwaMockError, match="expected a duration"):  # the mock's reason, passed on
        relay.wait_for_mail(timeout="5")
    # The text is the mock's own no_mail, unchanged.
    answer = relay.request("GET", f"/mock/mail?relay_address={BOB}&status=rejected&wait=100ms")
    with pytest.raises(SiwaMockError) as again:
        relay.wait_for_mail(relay_address=BOB, status="rejected", timeout="100ms")
    assert str(again.value) == answer["no_mail"]


def test_a_running_mocks_smtp_address_comes_from_the_environment(relay, monkeypatch):
    monkeypatch.delenv("SIWA_MOCK_SMTP", raising=False)
    with pytest.raises(SiwaMockError, match="set SIWA_MOCK_SMTP"):
        SiwaMock.connect(relay.url, smtp=True)
    monkeypatch.setenv("SIWA_MOCK_SMTP", f"{relay.smtp_host}:{relay.smtp_port}")
    assert SiwaMock.connect(relay.url, smtp=True).smtp_port == relay.smtp_port


# -- a hostile server (clients/spec/hostile_server.py; issue 36, findings 5 and 6) ---------------------


@pytest.fixture(scope="module")
def hostile():
    server = subprocess.Popen([sys.executable, str(Path(__file__).parents[2] / "spec" / "hostile_server.py")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    line = server.stdout.readline().strip()
    assert line.startswith("hostile listening on "), line
    yield SiwaMock(line[len("hostile listening on "):], admin_token="t0ken")
    server.stdin.close()
    server.wait(timeout=10)


def test_a_server_dripping_one_byte_per_half_second_meets_the_overall_deadline(hostile):
    began = time.monotonic()
    with pytest.raises(SiwaMockError, match=r"GET .*/mock/drip: no complete answer within 1s"):
        hostile.request("GET", "/mock/drip", timeout=1)
    assert time.monotonic() - began < 10  # a per-read timeout would wait for the server's 20 s of drip


def test_an_endless_answer_is_cut_at_16_mib(hostile):
    with pytest.raises(SiwaMockError, match="GET /mock/endless: the answer is larger than 16 MiB; refused"):
        hostile.request("GET", "/mock/endless", timeout=30)


def test_a_redirect_is_not_followed_and_the_token_stays(hostile):
    with pytest.raises(SiwaMockError, match=r"GET /mock/redirect answered 302 \(a redirect to http://127\.0\.0\.1:\d+/mock/landing\): not followed"):
        hostile.request("GET", "/mock/redirect")
    assert hostile.request("GET", "/mock/stolen") == {"authorization": [], "requests": 0}


def test_stop_leaves_no_files_behind():
    mock = SiwaMock.start()
    log = Path(mock.log_path)
    assert log.exists()
    mock.stop()
    assert not log.exists() and mock.log_path is None


def test_a_run_of_the_binary_has_a_deadline(tmp_path, monkeypatch):
    binary = tmp_path / "siwa-mock"
    binary.write_text("#!/bin/sh\nexec sleep 30\n")
    binary.chmod(0o755)
    monkeypatch.setattr(mock_module, "RUN_TIMEOUT", 0.2)
    began = time.monotonic()
    with pytest.raises(SiwaMockError, match=r"^siwa-mock client-secret did not finish within 0.2s"):
        SiwaMock("http://127.0.0.1:9", binary=str(binary)).client_secret()
    assert time.monotonic() - began < 10
