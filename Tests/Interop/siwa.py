"""Shared helpers for the interop suite: the built-in scenario's values (docs/CONTRACTS.md),
client-secret minting, the headless authorize flow and form parsing.

Only URLs are pointed at the mock; everything else is what a real backend would send to Apple.
"""

from __future__ import annotations

import base64
import hashlib
import json
import time
import urllib.parse
from dataclasses import dataclass, field
from html.parser import HTMLParser

import jwt
import requests

from siwatest.scenario import (  # noqa: F401 - re-exported for the tests
    CLIENT_KEY_PATH,
    ISSUER,
    KEY_ID,
    KEYS_DIR,
    NATIVE_CLIENT,
    REDIRECT_URI,
    REPO_ROOT,
    TEAM_ID,
    WEB_CLIENT,
)

SIGNING_KID = "Aj3F8kLq2X"
PUBLISHED_KIDS = {"Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"}
ID_TOKEN_LIFETIME = 86400
CLIENT_SECRET_MAX_LIFETIME = 15777000


@dataclass(frozen=True)
class User:
    """A user of the built-in scenario."""

    login: str
    sub: str
    email: str
    first_name: str
    last_name: str
    private: bool


ALICE = User("alice", "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111", "alice@example.com", "Alice", "Appleseed", False)
BOB = User("bob", "001234.1b2c3d4e5f60718293a4b5c6d7e8f90a.2222", "k7x2m9q4ab@privaterelay.appleid.com", "Bob", "Bobson", True)
CAROL = User("carol", "001234.2c3d4e5f60718293a4b5c6d7e8f90a1b.3333", "carol@example.net", "Carol", "Cole", False)


def client_key_pem() -> str:
    return CLIENT_KEY_PATH.read_text()


def make_client_secret(
    client_id: str = WEB_CLIENT,
    *,
    key: str | None = None,
    kid: str = KEY_ID,
    team: str = TEAM_ID,
    lifetime: int = 3600,
    iat: int | None = None,
    aud: str = ISSUER,
) -> str:
    """An ES256 client secret as Apple documents it (header kid; iss/iat/exp/aud/sub)."""
    now = int(time.time()) if iat is None else iat
    claims = {"iss": team, "iat": now, "exp": now + lifetime, "aud": aud, "sub": client_id}
    return jwt.encode(claims, key or client_key_pem(), algorithm="ES256", headers={"kid": kid})


def half_hash(value: str) -> str:
    """OIDC at_hash/c_hash for RS256: base64url(left half of SHA-256(ascii value)), unpadded."""
    digest = hashlib.sha256(value.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest[:16]).rstrip(b"=").decode("ascii")


@dataclass
class Form:
    """An HTML form found in a page: its action, method and named input values."""

    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)
    choices: dict[str, list[str]] = field(default_factory=dict)
    buttons: list[tuple[str, str]] = field(default_factory=list)


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self._current: Form | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            self._current = Form(action=a.get("action", ""), method=a.get("method", "get").lower())
            self.forms.append(self._current)
        elif tag == "input" and self._current is not None and a.get("name"):
            if a.get("type", "").lower() in ("radio", "checkbox"):
                self._current.choices.setdefault(a["name"], []).append(a.get("value", ""))
                if "checked" in a:
                    self._current.fields[a["name"]] = a.get("value", "")
            else:
                self._current.fields[a["name"]] = a.get("value", "")
        elif tag == "button" and self._current is not None:
            self._current.buttons.append((a.get("name", ""), a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._current = None


def parse_forms(html: str) -> list[Form]:
    parser = _FormParser()
    parser.feed(html)
    parser.close()
    return parser.forms


def authorize_params(
    *,
    login_hint: str | None = "alice",
    response_type: str = "code id_token",
    response_mode: str = "form_post",
    scope: str | None = "name email",
    state: str | None = "st-123",
    nonce: str | None = "n-0S6_WzA2Mj",
    client_id: str = WEB_CLIENT,
    redirect_uri: str = REDIRECT_URI,
) -> dict[str, str]:
    params = {"client_id": client_id, "redirect_uri": redirect_uri, "response_type": response_type,
              "response_mode": response_mode}
    for name, value in (("scope", scope), ("state", state), ("nonce", nonce), ("login_hint", login_hint)):
        if value is not None:
            params[name] = value
    return params


def describe(response: requests.Response) -> str:
    """The request and response in one line each, for failure messages and the report."""
    req = response.request
    body = req.body.decode() if isinstance(req.body, bytes) else (req.body or "")
    return (f"REQUEST {req.method} {req.url} body={body[:600]!r}\n"
            f"RESPONSE {response.status_code} headers={dict(response.headers)} body={response.text[:800]!r}")


def authorize_form_post(base: str, **overrides) -> Form:
    """GET /auth/authorize headlessly in form_post mode and return the auto-submitting form."""
    params = authorize_params(**overrides)
    response = requests.get(f"{base}/auth/authorize", params=params, allow_redirects=False, timeout=10)
    assert response.status_code == 200, describe(response)
    assert response.headers.get("Content-Type", "").startswith("text/html"), describe(response)
    forms = [f for f in parse_forms(response.text) if f.method == "post"]
    assert len(forms) == 1, f"expected one POST form\n{describe(response)}"
    assert forms[0].action == params["redirect_uri"], describe(response)
    return forms[0]


def authorize_redirect(base: str, url: str | None = None, **overrides) -> tuple[str, dict[str, str]]:
    """GET /auth/authorize (query or fragment mode); return the Location and its parameters."""
    if url is None:
        response = requests.get(f"{base}/auth/authorize", params=authorize_params(**overrides),
                                allow_redirects=False, timeout=10)
    else:
        response = requests.get(url, allow_redirects=False, timeout=10)
    assert response.status_code == 302, describe(response)
    location = response.headers["Location"]
    parts = urllib.parse.urlsplit(location)
    raw = parts.fragment if parts.fragment else parts.query
    values = dict(urllib.parse.parse_qsl(raw, keep_blank_values=True, strict_parsing=True))
    return location, values


def token_request(base: str, data: dict[str, str]) -> requests.Response:
    return requests.post(f"{base}/auth/token", data=data, timeout=10)


def redeem_code(base: str, code: str, *, redirect_uri: str | None = REDIRECT_URI,
                client_id: str = WEB_CLIENT, secret: str | None = None) -> requests.Response:
    data = {"client_id": client_id, "client_secret": secret or make_client_secret(client_id),
            "code": code, "grant_type": "authorization_code"}
    if redirect_uri is not None:
        data["redirect_uri"] = redirect_uri
    return token_request(base, data)


def error_body(response: requests.Response) -> dict:
    assert response.status_code == 400, describe(response)
    try:
        return response.json()
    except json.JSONDecodeError as error:  # pragma: no cover - reported as a failure
        raise AssertionError(f"error body is not JSON: {error}\n{describe(response)}") from error
