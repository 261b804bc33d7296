"""Fixtures: a fresh siwa-mock per test with scenarios/relay-mail.yaml, SMTP on a free port and TLS
(so STARTTLS is offered with the mock's local CA), stopped with SIGTERM."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from siwatest.process import MockProcess
from siwatest.receiver import Receiver
from siwatest.scenario import REPO_ROOT

SCENARIO = REPO_ROOT / "scenarios" / "relay-mail.yaml"
BOB_RELAY = "k7x2m9q4ab@privaterelay.appleid.com"
DANA_RELAY = "d4n4off123@privaterelay.appleid.com"


pytest_plugins = ("siwatest.pytest_binary",)


class Relay:
    """A running siwa-mock with the relay's SMTP listener: `smtp_port`, `api()` for /mock/."""

    def __init__(self, process: MockProcess, tls_dir: Path) -> None:
        self.process = process
        self.host = process.host
        self.smtp_port = process.smtp_port
        self.tls_dir = tls_dir

    def api(self, method: str, path: str, body: dict | None = None) -> tuple[int, object]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://{self.host}:{self.process.port}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"} if data else {})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw, status = response.read(), response.status
                kind = response.headers.get("Content-Type", "")
        except urllib.error.HTTPError as error:
            raw, status, kind = error.read(), error.code, error.headers.get("Content-Type", "")
        return status, (json.loads(raw) if "json" in kind else raw)

    def messages(self, **filters: str) -> list[dict]:
        query = "&".join(f"{key}={value}" for key, value in filters.items())
        status, body = self.api("GET", "/mock/mail" + ("?" + query if query else ""))
        assert status == 200, body
        return body["messages"]

    def ca_pem(self) -> str:
        status, body = self.api("GET", "/mock/tls/ca.pem")
        assert status == 200
        return body.decode()


@pytest.fixture
def relay(binary: Path, tmp_path: Path):
    log_path = tmp_path / "siwa-mock.stderr"
    process = MockProcess(binary, ["--scenario", str(SCENARIO), "--smtp-port", "0", "--tls", "--tls-port", "0",
                                   "--tls-dir", str(tmp_path / "tls")], log_path)
    yield Relay(process, tmp_path / "tls")
    assert process.stop() == 0, log_path.read_text()[-2000:]


@pytest.fixture
def receiver():
    made = Receiver()
    yield made
    made.close()
