"""A full Sign in with Apple through python-social-auth's AppleIdAuth with its Apple URLs untouched.

Usage: tls_signin.py TLS_PORT CA_PEM

The backend calls https://appleid.apple.com/auth/authorize, /auth/token and /auth/keys exactly as it
would in production. Only name resolution is redirected (appleid.apple.com:443 → 127.0.0.1:TLS_PORT, what
a compose network alias does) and the mock's CA is trusted through REQUESTS_CA_BUNDLE, so the TLS
handshake, SNI and hostname verification are real.
"""

from __future__ import annotations

import os
import re
import socket
import sys
from html import unescape

from siwatest.scenario import ALICE_SUB, CLIENT_KEY_PATH, ISSUER, KEY_ID, REDIRECT_URI, TEAM_ID, WEB_CLIENT


def redirect_apple_to(port: int) -> None:
    real = socket.getaddrinfo

    def getaddrinfo(host, service, *args, **kwargs):
        if host == "appleid.apple.com":
            return real("127.0.0.1", port, *args, **kwargs)
        return real(host, service, *args, **kwargs)

    socket.getaddrinfo = getaddrinfo


def main(port: int, ca: str) -> None:
    redirect_apple_to(port)
    os.environ["REQUESTS_CA_BUNDLE"] = ca

    import requests
    from social_core.backends.apple import AppleIdAuth
    from social_core.strategy import BaseStrategy, BaseTemplateStrategy

    class Nonce:
        """social-auth keeps its OAuth2 state as single-use nonces."""

        used: dict[tuple, tuple] = {}

        @classmethod
        def use(cls, server_url, timestamp, salt):
            key = (server_url, timestamp, salt)
            if key in cls.used:
                return False
            cls.used[key] = key
            return True

        @classmethod
        def get(cls, server_url, salt):
            return next((k for k in cls.used if k[0] == server_url and k[2] == salt), None)

        @classmethod
        def delete(cls, nonce):
            cls.used.pop(nonce, None)

        @classmethod
        def consume(cls, server_url, timestamp, salt):
            return cls.used.pop((server_url, timestamp, salt), None) is not None

    class Storage:
        nonce = Nonce

    class Templates(BaseTemplateStrategy):
        def render_template(self, tpl, context):
            return tpl

        def render_string(self, html, context):
            return html

    class Strategy(BaseStrategy):
        """What a web framework provides: settings, the callback's data and a session."""

        DEFAULT_TEMPLATE_STRATEGY = Templates

        def __init__(self, settings):
            self.settings, self.data, self.session = settings, {}, {}
            super().__init__(Storage)

        def get_setting(self, name):
            return self.settings[name]

        def request_data(self, merge=True):
            return self.data

        def get_request_data(self, merge=True):
            return self.data

        def session_get(self, name, default=None):
            return self.session.get(name, default)

        def session_set(self, name, value):
            self.session[name] = value

        def session_pop(self, name):
            return self.session.pop(name, None)

        def build_absolute_uri(self, path=None):
            return path or ""

        def redirect(self, url):
            return url

        def authenticate(self, backend, *args, **kwargs):
            return kwargs["response"]  # the verified id_token claims; a site would run its pipeline here

    strategy = Strategy({
        "SOCIAL_AUTH_APPLE_ID_CLIENT": WEB_CLIENT,
        "SOCIAL_AUTH_APPLE_ID_TEAM": TEAM_ID,
        "SOCIAL_AUTH_APPLE_ID_KEY": KEY_ID,
        "SOCIAL_AUTH_APPLE_ID_SECRET": CLIENT_KEY_PATH.read_text(),
        "SOCIAL_AUTH_APPLE_ID_SCOPE": ["name", "email"],
    })
    backend = AppleIdAuth(strategy, redirect_uri=REDIRECT_URI)
    url = backend.auth_url()
    assert url.startswith("https://appleid.apple.com/auth/authorize?"), url
    page = requests.get(url + "&login_hint=alice", timeout=10)  # the browser, over TLS to "Apple"
    assert page.status_code == 200, (page.status_code, page.text[:300])
    fields = {unescape(name): unescape(value) for name, value in
              re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.text)}
    assert "code" in fields and "state" in fields, page.text[:500]
    strategy.data = fields
    backend.data = fields
    claims = backend.complete()  # POST /auth/token, GET /auth/keys, id_token verification
    assert claims["sub"] == ALICE_SUB and claims["iss"] == ISSUER, claims
    assert claims["email"] == "alice@example.com", claims
    print(f"social-auth-core AppleIdAuth signed in {claims['email']} over TLS as appleid.apple.com")


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
