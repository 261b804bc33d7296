"""Scenario files against real client libraries: requests/urllib3 retries on the flaky token endpoint,
PyJWT on private-relay tokens, and PyJWKClient refetching the JWKS after a timeline key rotation.

Each test starts the binary with `--scenario scenarios/<file>` (the files' own comment blocks say
what they reproduce).
"""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import jwt
import pytest
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from siwa import ISSUER, WEB_CLIENT, authorize_form_post, describe, make_client_secret
from siwatest.process import READY_PREFIX, STARTUP_TIMEOUT, read_ready_line
from siwatest.scenario import SCENARIOS_DIR as SCENARIOS

CALLBACK = "https://app.example.com/auth/apple/callback"


@pytest.fixture
def serve(binary: Path, tmp_path: Path):
    """`serve("flaky-token-endpoint.yaml")` → base URL of a mock running that scenario."""
    procs: list[subprocess.Popen] = []

    def start(name: str) -> str:
        with open(tmp_path / f"{name}.stderr", "wb") as stderr:
            proc = subprocess.Popen([str(binary), "--port", "0", "--scenario", str(SCENARIOS / name)],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr)
        procs.append(proc)
        line = read_ready_line(proc, time.monotonic() + STARTUP_TIMEOUT)
        assert line.startswith(READY_PREFIX), line
        return "http://" + line[len(READY_PREFIX):]

    yield start
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=5) == 0
        proc.stdout.close()


def verify(base: str, id_token: str, jwks: jwt.PyJWKClient | None = None, leeway: int = 0) -> dict:
    client = jwks or jwt.PyJWKClient(f"{base}/auth/keys")
    key = client.get_signing_key_from_jwt(id_token)
    return jwt.decode(id_token, key.key, algorithms=["RS256"], audience=WEB_CLIENT, issuer=ISSUER, leeway=leeway)


def test_urllib3_retries_through_503_and_429_with_retry_after(serve) -> None:
    base = serve("flaky-token-endpoint.yaml")
    code = authorize_form_post(base, login_hint="alice", redirect_uri=CALLBACK).fields["code"]
    session = requests.Session()
    retry = Retry(total=3, status_forcelist=[429, 503], allowed_methods=["POST"], backoff_factor=0,
                  respect_retry_after_header=True, raise_on_status=False)
    session.mount("http://", HTTPAdapter(max_retries=retry))
    response = session.post(f"{base}/auth/token", timeout=10, data={
        "grant_type": "authorization_code", "code": code, "redirect_uri": CALLBACK,
        "client_id": WEB_CLIENT, "client_secret": make_client_secret()})
    assert response.status_code == 200, describe(response)
    assert verify(base, response.json()["id_token"])["email"] == "alice@example.com"
    faults = {f["id"]: f for f in requests.get(f"{base}/mock/faults", timeout=10).json()["faults"]}
    assert faults["token-503"]["fired"] == 1 and faults["token-429"]["fired"] == 1


def test_pyjwt_sees_the_private_relay_address(serve) -> None:
    base = serve("private-relay.yaml")
    claims = verify(base, authorize_form_post(base, login_hint="priya", redirect_uri=CALLBACK).fields["id_token"])
    assert claims["email"].endswith("@privaterelay.appleid.com") and len(claims["email"]) == 35
    assert claims["is_private_email"] is True
    again = verify(base, authorize_form_post(base, login_hint="priya", redirect_uri=CALLBACK).fields["id_token"])
    assert again["email"] == claims["email"] and again["sub"] == claims["sub"]


def test_pyjwkclient_refetches_after_the_timeline_rotates_keys(serve) -> None:
    base = serve("key-rotation.yaml")
    # PyJWKClient refetches on an unknown kid, but at most once per cooldown (30 s by default).
    jwks = jwt.PyJWKClient(f"{base}/auth/keys", cache_keys=True, cooldown_duration=0)
    before = authorize_form_post(base, login_hint="alice", redirect_uri=CALLBACK).fields["id_token"]
    assert jwt.get_unverified_header(before)["kid"] == "Aj3F8kLq2X"
    verify(base, before, jwks)
    clock = requests.post(f"{base}/mock/clock", json={"advance": "10m"}, timeout=10)
    assert clock.status_code == 200, describe(clock)
    after = authorize_form_post(base, login_hint="alice", redirect_uri=CALLBACK).fields["id_token"]
    assert jwt.get_unverified_header(after)["kid"] == "Pb7Yt1ZcQ9"
    # Unknown kid → PyJWKClient refetches /auth/keys. The mock clock is 10 min ahead of this machine's,
    # so iat lies in the future here: allow for it.
    verify(base, after, jwks, leeway=900)
