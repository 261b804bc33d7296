"""python-social-auth's AppleIdAuth backend (what Django/Flask sites use) against the mock.

Only ACCESS_TOKEN_URL, AUTHORIZATION_URL and JWK_URL change; the backend builds the authorization
URL, mints its own ES256 client secret from the settings, redeems the code, verifies the id_token
with the JWKS and runs the default auth pipeline to create the site user.
"""

from __future__ import annotations

import urllib.parse

import pytest
import requests
from social_core.backends.apple import AppleIdAuth
from social_core.exceptions import AuthException
from social_core.pipeline import DEFAULT_AUTH_PIPELINE

import social_support
from siwa import ALICE, BOB, KEY_ID, REDIRECT_URI, TEAM_ID, WEB_CLIENT, client_key_pem, describe, parse_forms
from social_support import Strategy, UserSocialAuth


def make_backend(base: str) -> AppleIdAuth:
    class MockAppleIdAuth(AppleIdAuth):
        AUTHORIZATION_URL = f"{base}/auth/authorize"
        ACCESS_TOKEN_URL = f"{base}/auth/token"
        JWK_URL = f"{base}/auth/keys"

    strategy = Strategy({
        "SOCIAL_AUTH_APPLE_ID_CLIENT": WEB_CLIENT,
        "SOCIAL_AUTH_APPLE_ID_TEAM": TEAM_ID,
        "SOCIAL_AUTH_APPLE_ID_KEY": KEY_ID,
        "SOCIAL_AUTH_APPLE_ID_SECRET": client_key_pem(),
        "SOCIAL_AUTH_APPLE_ID_SCOPE": ["name", "email"],
        "SOCIAL_AUTH_PIPELINE": (*DEFAULT_AUTH_PIPELINE, "social_support.record_details"),
    })
    return MockAppleIdAuth(strategy, redirect_uri=REDIRECT_URI)


@pytest.fixture(autouse=True)
def fresh_site() -> None:
    UserSocialAuth.reset()
    social_support.DETAILS.clear()


def browser(backend: AppleIdAuth, login: str) -> dict[str, str]:
    """What the user's browser does: follow the backend's redirect, pick the user, post the form back."""
    url = backend.start().url
    assert url.startswith(backend.AUTHORIZATION_URL + "?"), url
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
    assert query["response_mode"] == "form_post" and query["client_id"] == WEB_CLIENT, query
    page = requests.get(url + "&" + urllib.parse.urlencode({"login_hint": login}), allow_redirects=False,
                        timeout=10)
    assert page.status_code == 200, describe(page)
    forms = [f for f in parse_forms(page.text) if f.method == "post"]
    assert len(forms) == 1 and forms[0].action == REDIRECT_URI, describe(page)
    return forms[0].fields


def sign_in(backend: AppleIdAuth, login: str):
    fields = browser(backend, login)
    backend.strategy.set_request_data(fields, backend)
    return backend.complete(), fields


def test_social_auth_first_sign_in_creates_user(base: str) -> None:
    backend = make_backend(base)
    user, fields = sign_in(backend, "alice")
    assert "user" in fields

    assert user is not None and user.__class__.__name__ == "User", user
    assert user.email == ALICE.email
    assert (user.first_name, user.last_name) == (ALICE.first_name, ALICE.last_name)
    assert user.username == ALICE.sub  # AppleIdAuth uses the sub unless EMAIL_AS_USERNAME
    [social] = user.social
    assert social.provider == "apple-id" and social.uid == ALICE.sub
    # The access token from POST /auth/token is stored with the association (load_extra_data).
    assert isinstance(social.extra_data.get("access_token"), str) and social.extra_data["access_token"], \
        social.extra_data
    [record] = social_support.DETAILS
    assert record["is_new"] is True
    assert record["details"]["email"] == ALICE.email
    assert record["response"]["email_verified"] is True


def test_social_auth_second_sign_in_finds_same_user(base: str) -> None:
    first, _ = sign_in(make_backend(base), "alice")
    second, fields = sign_in(make_backend(base), "alice")
    assert "user" not in fields, "the name is sent only on the first authorization"
    assert second is first
    assert social_support.DETAILS[-1]["is_new"] is False
    assert second.first_name == ALICE.first_name, "the stored name is kept"


def test_social_auth_relay_user(base: str) -> None:
    user, _ = sign_in(make_backend(base), "bob")
    assert user.email == BOB.email
    assert user.social[0].uid == BOB.sub
    assert social_support.DETAILS[-1]["response"]["is_private_email"] is True


def test_social_auth_rejects_forged_state(base: str) -> None:
    backend = make_backend(base)
    fields = browser(backend, "alice")
    fields["state"] = "forged"
    backend.strategy.set_request_data(fields, backend)
    with pytest.raises(AuthException):
        backend.complete()
