"""Server-to-server notifications received by a real HTTP endpoint and verified like a backend does:
the `payload` JWS checked with PyJWT against /auth/keys (aud = the primary App ID), `events` parsed a
second time because Apple sends it as a JSON string; `event_time` in milliseconds and `account-deleted`
as in Apple's captured events (docs/fidelity.md#server-to-server-notifications); non-200 answers are retried.
"""

from __future__ import annotations

import base64
import json
import re
import time

import jwt
import pytest
import requests

from siwa import ALICE, BOB, ISSUER, NATIVE_CLIENT, describe
from siwatest.receiver import Receiver


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
    assert re.fullmatch(r"[A-Za-z0-9_-]{21}[AQgw]", claims["jti"]), f"16 bytes in base64url: {claims['jti']}"
    assert claims["exp"] == claims["iat"] + 86400
    segment = json.loads(receiver.wait_for(1)[0])["payload"].split(".")[1]
    order = list(json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))))
    assert order == ["iss", "aud", "exp", "iat", "jti", "events"], f"nov/apple_id event_token_spec.rb: {order}"
    assert isinstance(claims["events"], str), claims
    events = json.loads(claims["events"])
    assert events["type"] == "consent-revoked" and events["sub"] == ALICE.sub
    assert events["event_time"] > 10**12, "event_time in milliseconds by default"
    assert abs(events["event_time"] / 1000 - time.time()) < 300


def test_email_disabled_carries_the_relay_address(base: str, receiver_factory) -> None:
    receiver = receiver_factory()
    point_mock_at(base, receiver, events_as_string=False, event_time_ms=False, account_deletion_type="account-delete")
    notify(base, type="email-disabled", user="bob", client_id=NATIVE_CLIENT)
    events = decode(base, receiver.wait_for(1)[0])["events"]
    assert events == {"type": "email-disabled", "sub": BOB.sub, "email": BOB.email, "is_private_email": "true",
                      "event_time": events["event_time"]}
    assert abs(events["event_time"] - time.time()) < 300, "seconds when switched"
    notify(base, type="account-deleted", user="bob", client_id=NATIVE_CLIENT)
    assert decode(base, receiver.wait_for(2)[1])["events"]["type"] == "account-delete", "older name when switched"


def test_failing_receiver_is_retried_and_every_attempt_is_journaled(base: str, receiver_factory) -> None:
    receiver = receiver_factory(failures=2)
    point_mock_at(base, receiver)
    notify(base, type="account-delete", user="alice")
    bodies = receiver.wait_for(3)
    assert len({json.loads(body)["payload"] for body in bodies}) == 1, "retries resend the same JWS"
    assert json.loads(decode(base, bodies[-1])["events"])["type"] == "account-deleted", "Apple's name by default"
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


def test_user_changes_notify_by_default(base: str, receiver_factory) -> None:
    receiver = receiver_factory()
    point_mock_at(base, receiver)
    assert requests.post(f"{base}/mock/credentials", json={"client_id": NATIVE_CLIENT, "user": "bob"}, timeout=10).ok
    expected = []
    for change, event in [({"email_forwarding": False}, "email-disabled"), ({"email_forwarding": True}, "email-enabled"),
                          ({"credential_state": "revoked"}, "consent-revoked")]:
        response = requests.patch(f"{base}/mock/users/bob", json=change, timeout=10)
        assert response.status_code == 200, describe(response)
        expected.append(event)
        receiver.wait_for(len(expected))
    assert requests.delete(f"{base}/mock/users/bob", timeout=10).status_code == 200
    expected.append("account-deleted")
    bodies = receiver.wait_for(len(expected))
    events = [json.loads(decode(base, body)["events"]) for body in bodies]
    assert [event["type"] for event in events] == expected
    assert {event["sub"] for event in events} == {BOB.sub}
    assert all(event["event_time"] > 10**12 for event in events), "milliseconds"


def test_duplicate_delivery_sends_the_same_event_again(base: str, receiver_factory) -> None:
    receiver = receiver_factory()
    point_mock_at(base, receiver)
    queued = notify(base, type="consent-revoked", user="alice", deliveries=3)["queued"]
    assert len(queued) == 3 and len({entry["jti"] for entry in queued}) == 1
    bodies = receiver.wait_for(3)
    assert len(set(bodies)) == 1, "identical bodies: a receiver deduplicates on jti"
    assert decode(base, bodies[0])["jti"] == queued[0]["jti"]
