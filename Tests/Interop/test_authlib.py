"""Authlib's OpenID client (the base of its Flask/Django/Starlette integrations) against the mock.

Authlib reads the discovery document, builds the authorization URL, redeems the code with
client_secret_post, verifies the id_token from the JWKS (joserfc) and validates its claims
(nonce, at_hash; c_hash for the front-channel id_token).
"""

from __future__ import annotations

import json

import pytest
import requests
from authlib.integrations.base_client import BaseApp, OAuth2Mixin, OAuthError, OpenIDMixin
from authlib.integrations.requests_client import OAuth2Session
from authlib.oidc.core import HybridIDToken
from joserfc import jwt as jose_jwt
from joserfc.errors import InvalidClaimError
from joserfc.jwk import KeySet

from siwa import ALICE, ISSUER, REDIRECT_URI, WEB_CLIENT, authorize_form_post, make_client_secret, parse_forms


class _NoFramework:
    """Authlib calls framework.update_token after a refresh; there is no web framework here."""

    def __init__(self) -> None:
        self.updated: list[dict] = []

    def update_token(self, token, refresh_token=None, access_token=None) -> None:
        self.updated.append(token)


class AppleApp(OAuth2Mixin, OpenIDMixin, BaseApp):
    """What `oauth.register("apple", ...)` builds inside Authlib's Flask/Django integrations."""

    client_cls = OAuth2Session


def make_app(base: str) -> AppleApp:
    return AppleApp(
        _NoFramework(),
        name="apple",
        client_id=WEB_CLIENT,
        client_secret=make_client_secret(),
        server_metadata_url=f"{base}/.well-known/openid-configuration",
        # Apple takes client credentials only in the body; Authlib defaults revocation to HTTP Basic.
        client_kwargs={"scope": "openid email name", "token_endpoint_auth_method": "client_secret_post",
                       "revocation_endpoint_auth_method": "client_secret_post"},
        authorize_params={"response_mode": "form_post"},
    )


def start(app: AppleApp, base: str, login: str = "alice") -> tuple[dict, dict[str, str]]:
    """Authorization request built by Authlib; the browser part is the mock's headless form."""
    request = app.create_authorization_url(redirect_uri=REDIRECT_URI, login_hint=login,
                                           response_type="code id_token")
    url = request["url"]
    assert url.startswith(f"{base}/auth/authorize?"), url
    page = requests.get(url, allow_redirects=False, timeout=10)
    assert page.status_code == 200, page.text[:500]
    forms = [f for f in parse_forms(page.text) if f.method == "post"]
    assert len(forms) == 1 and forms[0].action == REDIRECT_URI, page.text[:500]
    return request, forms[0].fields


def test_authlib_openid_code_flow(base: str) -> None:
    app = make_app(base)
    request, fields = start(app, base)
    assert fields["state"] == request["state"]
    assert json.loads(fields["user"])["name"] == {"firstName": "Alice", "lastName": "Appleseed"}

    # The front-channel id_token of `code id_token`: Authlib's hybrid-flow claims check (c_hash, nonce).
    keys = KeySet.import_key_set(app.fetch_jwk_set())
    front = jose_jwt.decode(fields["id_token"], keys)
    HybridIDToken(front.claims, front.header,
                  {"iss": {"essential": True, "values": [ISSUER]}, "aud": {"essential": True, "values": [WEB_CLIENT]}},
                  {"nonce": request["nonce"], "client_id": WEB_CLIENT, "code": fields["code"]}).validate()

    token = app.fetch_access_token(redirect_uri=REDIRECT_URI, code=fields["code"])
    assert token["token_type"] == "Bearer"
    assert {"access_token", "refresh_token", "id_token", "expires_at"} <= set(token)

    userinfo = app.parse_id_token(token, nonce=request["nonce"], claims_options={
        "iss": {"essential": True, "values": [ISSUER]},
        "aud": {"essential": True, "values": [WEB_CLIENT]},
    })
    assert userinfo["sub"] == ALICE.sub
    assert userinfo["email"] == ALICE.email
    assert userinfo["email_verified"] is True


def test_authlib_wrong_nonce_is_rejected(base: str) -> None:
    """The mock's nonce is really checked by Authlib: a different expected nonce must fail."""
    app = make_app(base)
    _, fields = start(app, base)
    token = app.fetch_access_token(redirect_uri=REDIRECT_URI, code=fields["code"])
    with pytest.raises(InvalidClaimError):
        app.parse_id_token(token, nonce="some-other-nonce")


def test_authlib_refresh_and_revoke(base: str) -> None:
    app = make_app(base)
    _, fields = start(app, base)
    token = app.fetch_access_token(redirect_uri=REDIRECT_URI, code=fields["code"])
    metadata = app.load_server_metadata()

    with app._get_oauth_client(**metadata) as session:
        refreshed = session.refresh_token(metadata["token_endpoint"], refresh_token=token["refresh_token"])
        # Apple sends no new refresh_token; Authlib keeps the old one.
        assert refreshed["refresh_token"] == token["refresh_token"]
        assert refreshed["access_token"] != token["access_token"]
        assert "id_token" in refreshed

        revoked = session.revoke_token(metadata["revocation_endpoint"], token=token["refresh_token"],
                                       token_type_hint="refresh_token")
        assert revoked.status_code == 200 and revoked.content == b"", revoked.text

        with pytest.raises(OAuthError) as failure:
            session.refresh_token(metadata["token_endpoint"], refresh_token=token["refresh_token"])
        assert failure.value.error == "invalid_grant"


def test_authlib_sends_client_secret_post(base: str) -> None:
    """A code redeemed by Authlib with the wrong secret surfaces Apple's invalid_client."""
    app = make_app(base)
    _, fields = start(app, base)
    app.client_secret = "not-a-jwt"
    with pytest.raises(OAuthError) as failure:
        app.fetch_access_token(redirect_uri=REDIRECT_URI, code=fields["code"])
    assert failure.value.error == "invalid_client"
