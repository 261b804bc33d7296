"""Server-to-server notifications received by a real HTTP endpoint and verified like a backend does:
the `payload` JWS checked with PyJWT against /auth/keys (aud = the primary App ID), `events` parsed a
second time because Apple sends it as a JSON string; non-200 answers are retried.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
import pytest
import requests

from siwa import ALICE, BOB, ISSUER, NATIVE_CLIENT, describe


class Receiver:
    """Collects POSTed bodies; the first `failures` requests get 503."""

    def __init__(self, failures: int = 0) -> None:
        self.bodies: list[bytes] = []
        self.failures = failures
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.bodies.append(body)
                    fail = receiver.failures > 0
                    receiver.failures -= 1 if fail else 0
                self.send_response(503 if fail else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/apple/notifications"

    def wait_for(self, count: int, timeout: float = 15.0) -> list[bytes]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.bodies) >= count:
                    return list(self.bodies)
            time.sleep(0.02)
        raise AssertionError(f"expected {count} notification POSTs, got {len(self.bodies)}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver_factory():
    made: list[Receiver] = []

    def make(failures: int = 0) -> Receiver:
        receiver = Receiver(failures)
        made.append(receiver)
        return receiver

    yield make
    for receiver in made:
        receiver.close()


def point_mock_at(base: str, receiver: Receiver, **settings) -> None:
    response = requests.patch(f"{base}/mock/app-groups/{NATIVE_CLIENT}", json={"notification_url": receiver.url}, timeout=10)
    assert response.status_code == 200, describe(response)
    response = requests.patch(f"{base}/mock/notifications/settings", json={"retry_delay_ms": 50, **settings}, timeout=10)
    assert response.status_code == 200, describe(response)


def decode(base: str, body: bytes) -> dict:
    payload = json.loads(body)["payload"]
    key = jwt.PyJWKClient(f"{base}/auth/keys").get_signing_key_from_jwt(payload)
    return jwt.decode(payload, key.key, algorithms=["RS256"], audience=NATIVE_CLIENT, issuer=ISSUER,
                      options={"require": ["iss", "aud", "iat", "exp", "jti"]})


def notify(base: str, **body) -> dict:
    response = requests.post(f"{base}/mock/notifications", json=body, timeout=10)
    assert response.status_code == 202, describe(response)
    return response.json()


def test_consent_revoked_verifies_with_pyjwt_and_events_is_a_string(base: str, receiver_factory) -> None:
    receiver = receiver_factory()
    point_mock_at(base, receiver)
    queued = notify(base, type="consent-revoked", user="alice")
    claims = decode(base, receiver.wait_for(1)[0])
    assert claims["jti"] == queued["queued"][0]["jti"]
    assert isinstance(claims["events"], str), claims
    events = json.loads(claims["events"])
    assert events["type"] == "consent-revoked" and events["sub"] == ALICE.sub
    assert abs(events["event_time"] - time.time()) < 300, "event_time in seconds by default"


def test_email_disabled_carries_the_relay_address(base: str, receiver_factory) -> None:
    receiver = receiver_factory()
    point_mock_at(base, receiver, events_as_string=False, event_time_ms=True)
    notify(base, type="email-disabled", user="bob", client_id=NATIVE_CLIENT)
    events = decode(base, receiver.wait_for(1)[0])["events"]
    assert events == {"type": "email-disabled", "sub": BOB.sub, "email": BOB.email, "is_private_email": "true",
                      "event_time": events["event_time"]}
    assert events["event_time"] > 10**12, "milliseconds when switched"


def test_failing_receiver_is_retried_and_every_attempt_is_journaled(base: str, receiver_factory) -> None:
    receiver = receiver_factory(failures=2)
    point_mock_at(base, receiver, account_deletion_type="account-deleted")
    notify(base, type="account-delete", user="alice")
    bodies = receiver.wait_for(3)
    assert len({json.loads(body)["payload"] for body in bodies}) == 1, "retries resend the same JWS"
    assert json.loads(decode(base, bodies[-1])["events"])["type"] == "account-deleted"
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        record = requests.get(f"{base}/mock/notifications", timeout=10).json()["notifications"][0]
        if record["status"] != "pending":
            break
        time.sleep(0.02)
    assert record["status"] == "delivered"
    assert [attempt["outcome"] for attempt in record["attempts"]] == ["http_503", "http_503", "delivered"]
    journal = requests.get(f"{base}/mock/requests", params={"user": "alice"}, timeout=10).json()["requests"]
    assert [entry["status"] for entry in journal if entry["kind"] == "notification"] == [503, 503, 200]


def test_user_changes_notify_when_switched_on(base: str, receiver_factory) -> None:
    receiver = receiver_factory()
    point_mock_at(base, receiver, send_on_user_changes=True)
    assert requests.post(f"{base}/mock/credentials", json={"client_id": NATIVE_CLIENT, "user": "alice"}, timeout=10).ok
    response = requests.patch(f"{base}/mock/users/alice", json={"credential_state": "revoked"}, timeout=10)
    assert response.status_code == 200, describe(response)
    events = json.loads(decode(base, receiver.wait_for(1)[0])["events"])
    assert events["type"] == "consent-revoked" and events["sub"] == ALICE.sub
