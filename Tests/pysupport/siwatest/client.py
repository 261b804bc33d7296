"""A well-behaved keep-alive client (JWKS, health, the full headless code flow) and client-secret minting.

Standard library only: the client secret is minted by the binary itself (`siwa-mock client-secret`).
"""

from __future__ import annotations

import http.client
import json
import subprocess
import urllib.parse
from pathlib import Path

from .scenario import CLIENT_KEY_PATH, KEY_ID, REDIRECT_URI, TEAM_ID, WEB_CLIENT


def mint_client_secret(binary: Path, client_id: str = WEB_CLIENT) -> str:
    out = subprocess.run(
        [str(binary), "client-secret", "--team-id", TEAM_ID, "--client-id", client_id,
         "--key-id", KEY_ID, "--key", str(CLIENT_KEY_PATH), "--expires-in", "86400"],
        check=True, capture_output=True, text=True, timeout=30)
    return out.stdout.strip()


class Client:
    """A well-behaved keep-alive client: JWKS, health and the full headless code flow."""

    def __init__(self, host: str, port: int, secret: str, timeout: float = 5.0, retry: bool = True) -> None:
        self.host, self.port, self.secret, self.timeout = host, port, secret, timeout
        # Retry once on a keep-alive connection the server closed while idle (never for load, where a
        # lost request must count as lost).
        self.retry = retry
        self.connection: http.client.HTTPConnection | None = None

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                json_body: object | None = None) -> tuple[int, dict, bytes]:
        """Sends `form` url-encoded, or `json_body` as JSON (the control API's bodies), or no body."""
        body = urllib.parse.urlencode(form) if form is not None else None
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
        if json_body is not None:
            body, headers = json.dumps(json_body), {"Content-Type": "application/json"}
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

    def authorize_request(self, login: str = "alice") -> tuple[int, dict, bytes]:
        """A headless GET /auth/authorize as it is answered (302 with the code in Location, or an error)."""
        query = urllib.parse.urlencode({
            "client_id": WEB_CLIENT, "redirect_uri": REDIRECT_URI, "response_type": "code",
            "response_mode": "query", "state": "s", "login_hint": login})
        return self.request("GET", f"/auth/authorize?{query}")

    def authorize(self, login: str = "alice") -> str:
        status, headers, body = self.authorize_request(login)
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
