"""A siwa-mock process and a well-behaved client for the adversarial suite and the load test.

Standard library only: the client secret is minted by the binary itself (`siwa-mock client-secret`).
"""

from __future__ import annotations

import http.client
import json
import os
import resource
import select
import signal
import subprocess
import time
import urllib.parse
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
KEY = REPO_ROOT / "scenarios" / "keys" / "AuthKey_KEY1234567.p8"
WEB_CLIENT = "com.example.web"
REDIRECT_URI = "http://127.0.0.1:8000/callback"
READY_PREFIX = "siwa-mock listening on http://"


def raise_fd_limit() -> int:
    """Raises this process's (and its children's) open-file soft limit to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def mint_client_secret(binary: Path, client_id: str = WEB_CLIENT) -> str:
    out = subprocess.run(
        [str(binary), "client-secret", "--team-id", "ABCDE12345", "--client-id", client_id,
         "--key-id", "KEY1234567", "--key", str(KEY), "--expires-in", "86400"],
        check=True, capture_output=True, text=True, timeout=30)
    return out.stdout.strip()


class MockProcess:
    """Starts `siwa-mock serve --port 0 EXTRA...`, waits for the ready line, stops it with SIGTERM."""

    def __init__(self, binary: Path, extra: list[str], log_path: Path) -> None:
        self.log_path = log_path
        with open(log_path, "wb") as log:
            self.proc = subprocess.Popen([str(binary), "--host", "127.0.0.1", "--port", "0", *extra],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log)
        deadline = time.monotonic() + 15
        buffer = b""
        fd = self.proc.stdout.fileno()
        # With --tls a second ready line names the HTTPS port.
        wanted = 2 if "--tls" in extra else 1
        while buffer.count(b"\n") < wanted:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self.proc.poll() is not None:
                self.proc.kill()
                raise RuntimeError(f"siwa-mock did not start: {buffer!r}\n{log_path.read_text()[-2000:]}")
            if select.select([fd], [], [], remaining)[0]:
                chunk = os.read(fd, 4096)
                if not chunk:
                    continue
                buffer += chunk
        line = buffer.split(b"\n")[0].decode()
        assert line.startswith(READY_PREFIX), line
        host, _, port = line[len(READY_PREFIX):].rpartition(":")
        self.host, self.port = host, int(port)
        self.tls_port = int(buffer.split(b"\n")[1].decode().rpartition(":")[2]) if wanted == 2 else None

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return -1

    def open_fds(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return -9
        self.proc.stdout.close()
        return self.proc.returncode


class Client:
    """A well-behaved keep-alive client: JWKS, health and the full headless code flow."""

    def __init__(self, host: str, port: int, secret: str, timeout: float = 5.0, retry: bool = True) -> None:
        self.host, self.port, self.secret, self.timeout = host, port, secret, timeout
        # Retry once on a keep-alive connection the server closed while idle (never for load, where a
        # lost request must count as lost).
        self.retry = retry
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, form: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
        body = urllib.parse.urlencode(form) if form is not None else None
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
        for attempt in (0, 1):
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.close()
                return response.status, {k.lower(): v for k, v in response.getheaders()}, data
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                # A keep-alive connection the server closed while idle: retry once on a new one.
                self.close()
                if attempt == 1 or not self.retry:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def authorize(self, login: str = "alice") -> str:
        query = urllib.parse.urlencode({
            "client_id": WEB_CLIENT, "redirect_uri": REDIRECT_URI, "response_type": "code",
            "response_mode": "query", "state": "s", "login_hint": login})
        status, headers, body = self.request("GET", f"/auth/authorize?{query}")
        assert status == 302, (status, body[:300])
        values = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(headers["location"]).query))
        assert values.get("state") == "s" and values.get("code"), headers["location"]
        return values["code"]

    def token(self, grant: dict[str, str]) -> tuple[int, dict]:
        form = {"client_id": WEB_CLIENT, "client_secret": self.secret, **grant}
        status, _, body = self.request("POST", "/auth/token", form)
        return status, json.loads(body) if body else {}

    def revoke(self, token: str, hint: str) -> int:
        form = {"client_id": WEB_CLIENT, "client_secret": self.secret, "token": token, "token_type_hint": hint}
        return self.request("POST", "/auth/revoke", form)[0]

    def check_keys(self) -> None:
        status, _, body = self.request("GET", "/auth/keys")
        assert status == 200, (status, body[:200])
        assert len(json.loads(body)["keys"]) >= 1

    def check_health(self) -> None:
        status, _, body = self.request("GET", "/mock/health")
        assert status == 200, (status, body[:200])

    def check_code_flow(self) -> None:
        code = self.authorize()
        status, tokens = self.token({"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI})
        assert status == 200 and "id_token" in tokens and "refresh_token" in tokens, (status, tokens)
