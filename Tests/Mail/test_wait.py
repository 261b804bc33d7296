"""`GET /mock/mail?wait=`: a test waits for mail instead of polling. Over a real socket with a real
mailer: the wait returns as soon as smtplib's message is stored, times out empty, frees its place when
its client goes away, and `siwa-mock mail list --wait` does the same from the command line."""

from __future__ import annotations

import json
import smtplib
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from email.message import EmailMessage

from conftest import BOB_RELAY


def welcome(sender: str = "hello@shop.example") -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = f"Shop <{sender}>"
    mail["To"] = BOB_RELAY
    mail["Subject"] = "Welcome"
    mail.set_content("Hello Bob")
    return mail


def get(relay, path: str, timeout: float = 70) -> tuple[int, dict, float]:
    """GET on the control API; the status, the JSON body and the seconds it took."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"http://{relay.host}:{relay.process.port}{path}", timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    return status, json.loads(raw), time.monotonic() - started


def waiting(relay) -> int:
    status, body, _ = get(relay, "/mock/mail?relay_address=nobody@example.com")
    assert status == 200, body
    return body["waiting"]


def until(predicate, seconds: float = 5) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_a_wait_returns_as_soon_as_smtplib_delivers(relay) -> None:
    result: dict = {}

    def wait() -> None:
        result["answer"] = get(relay, f"/mock/mail?relay_address={BOB_RELAY}&status=delivered&wait=20s")

    waiter = threading.Thread(target=wait)
    waiter.start()
    assert until(lambda: waiting(relay) == 1), "the request is parked before mail is sent"
    sent = time.monotonic()
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        assert client.send_message(welcome()) == {}
    waiter.join(30)
    status, body, _ = result["answer"]
    assert status == 200
    assert time.monotonic() - sent < 5, "answered when the message was stored, not after 20 s"
    [record] = body["messages"]
    assert record["status"] == "delivered" and record["relay_address"] == BOB_RELAY
    assert record["subject"] == "Welcome"
    assert waiting(relay) == 0


def test_a_refused_attempt_wakes_a_wait_for_refusals(relay) -> None:
    result: dict = {}
    waiter = threading.Thread(target=lambda: result.setdefault("answer", get(relay, "/mock/mail?status=rejected&wait=20s")))
    waiter.start()
    assert until(lambda: waiting(relay) == 1)
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        try:
            client.send_message(welcome("ceo@evil.example"))
            raise AssertionError("an unregistered sender is refused")
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError) as error:
            assert "unauthorized sender" in str(error)
    waiter.join(30)
    status, body, elapsed = result["answer"]
    assert status == 200 and elapsed < 10
    assert [record["status"] for record in body["messages"]] == ["rejected"]


def test_a_wait_with_no_mail_times_out_empty(relay) -> None:
    status, body, elapsed = get(relay, f"/mock/mail?relay_address={BOB_RELAY}&wait=1s")
    assert status == 200
    assert body["messages"] == [] and body["waiting"] == 0
    assert 0.9 <= elapsed < 3, elapsed
    assert body["no_mail"] == f"no mail matching relay_address={BOB_RELAY} in 1s; the mailbox is empty"


def test_no_mail_names_what_the_mailbox_holds(relay) -> None:
    """The text the test helpers fail with: smtplib's delivered message and a refused attempt, newest last."""
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        client.send_message(welcome())
        try:
            client.send_message(welcome("ceo@evil.example"))
        except (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError):
            pass
    status, body, _ = get(relay, f"/mock/mail?status=deferred&relay_address={BOB_RELAY}&wait=300ms")
    assert status == 200 and body["messages"] == []
    head, records = body["no_mail"].split(": ", 1)
    assert head == f"no mail matching relay_address={BOB_RELAY} status=deferred in 300ms; the mailbox has 2 records"
    delivered, refused = records.split("; ")
    assert delivered == f'm1 delivered hello@shop.example -> {BOB_RELAY} "Welcome"', delivered
    assert refused.startswith(f'm2 rejected ceo@evil.example -> {BOB_RELAY} "Welcome" (550 '), refused


def test_mail_already_there_answers_at_once(relay) -> None:
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        client.send_message(welcome())
    status, body, elapsed = get(relay, f"/mock/mail?relay_address={BOB_RELAY}&wait=30s")
    assert status == 200 and len(body["messages"]) == 1
    assert elapsed < 2


def test_a_client_that_goes_away_frees_its_place(relay) -> None:
    connection = socket.create_connection((relay.host, relay.process.port), timeout=5)
    connection.sendall(b"GET /mock/mail?relay_address=nobody@example.com&wait=60s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert until(lambda: waiting(relay) == 1)
    connection.close()
    assert until(lambda: waiting(relay) == 0, 3), "the closed connection's waiter left at once, not after 60 s"


def test_bad_waits_are_refused_precisely(relay) -> None:
    for value, message in [
        ("5", "expected a duration like 500ms, 30s, 10m or 2h, found '5' (add a unit)"),
        ("61m", "at most 1h, found '61m'"),
        ("1.5s", "expected a duration like 500ms, 30s, 10m or 2h, found '1.5s'"),
    ]:
        status, body, _ = get(relay, f"/mock/mail?wait={value}")
        assert status == 400, body
        assert body == {"error": "invalid_request", "field": "wait", "message": message}


def test_the_cli_waits_with_mail_list_wait(relay, binary) -> None:
    url = f"http://{relay.host}:{relay.process.port}"
    command = subprocess.Popen([str(binary), "mail", "list", "--url", url, "--relay-address", BOB_RELAY,
                                "--wait", "20s"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert until(lambda: waiting(relay) == 1)
    with smtplib.SMTP(relay.host, relay.smtp_port, timeout=10) as client:
        client.send_message(welcome())
    out, err = command.communicate(timeout=15)
    assert command.returncode == 0, err
    assert [record["relay_address"] for record in json.loads(out)["messages"]] == [BOB_RELAY]
    usage = subprocess.run([str(binary), "mail", "show", "m1", "--url", url, "--wait", "1s"],
                           capture_output=True, text=True)
    assert usage.returncode == 64 and "apply to 'mail list' only" in usage.stderr
