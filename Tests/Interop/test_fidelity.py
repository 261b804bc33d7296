"""requests + PyJWT against the mock's answers that captures of appleid.apple.com pin down.

Each test names the capture its expectation comes from; docs/fidelity.md has the full table.
"""

from __future__ import annotations

import base64
import json
import re

import jwt
import requests

from siwa import (NATIVE_CLIENT, REDIRECT_URI, WEB_CLIENT, authorize_form_post, authorize_params, describe,
                  error_body, make_client_secret, redeem_code, token_request)

FAKE_CLIENT = "com.fake.client"
BOGUS = "c0f4d18d62a124c9482dec72e9b647f6d.0.nwus.L-JUin6NT_fZPDn4B8oYaA"


def payload_keys(id_token: str) -> list[str]:
    """The id_token's claim names in the order they appear on the wire."""
    segment = id_token.split(".")[1]
    return list(json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))))


def test_grant_is_checked_before_the_client(base: str) -> None:
    """a-tokyo/apple-signin-auth __tests__/index.test.js: a fake client gets the grant's answer."""
    fake = {"client_id": FAKE_CLIENT, "client_secret": "fake-secret"}
    code = token_request(base, {**fake, "grant_type": "authorization_code", "code": BOGUS})
    assert error_body(code) == {"error": "invalid_grant",
                                "error_description": "The code has expired or has been revoked."}, describe(code)
    refresh = token_request(base, {**fake, "grant_type": "refresh_token", "refresh_token": "r" + BOGUS})
    assert error_body(refresh) == {"error": "invalid_grant",
                                   "error_description": "The token has expired or has been revoked."}
    revoke = requests.post(f"{base}/auth/revoke", data={**fake, "token": "r" + BOGUS}, timeout=10)
    assert revoke.status_code == 200 and revoke.content == b"", describe(revoke)


def test_real_code_with_bad_secret_is_invalid_client_and_stays_redeemable(base: str) -> None:
    """aboutyou/dart_packages#108: a real code with one letter of the secret changed → invalid_client."""
    code = authorize_form_post(base).fields["code"]
    secret = make_client_secret()
    tampered = secret[:-2] + ("A" if secret[-2] != "A" else "B") + secret[-1]
    response = redeem_code(base, code, secret=tampered)
    assert error_body(response) == {"error": "invalid_client"}, describe(response)
    mismatch = redeem_code(base, code, client_id=NATIVE_CLIENT)
    expected = f"client_id mismatch. The code was not issued to {NATIVE_CLIENT}."
    assert error_body(mismatch) == {"error": "invalid_grant", "error_description": expected}, describe(mismatch)
    retry = redeem_code(base, code)
    assert retry.status_code == 200, describe(retry)


def test_basic_only_credentials_are_invalid_client(base: str) -> None:
    """nhosoya/omniauth-apple#68, #85: HTTP Basic instead of body credentials → {"error":"invalid_client"}."""
    code = authorize_form_post(base).fields["code"]
    response = requests.post(f"{base}/auth/token", timeout=10,
                             auth=(WEB_CLIENT, make_client_secret()),
                             data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI})
    assert response.status_code == 400 and response.json() == {"error": "invalid_client"}, describe(response)
    assert redeem_code(base, code).status_code == 200


def test_scope_without_form_post_has_apples_text(base: str) -> None:
    """oauth-io/oauth-js#104, nov/apple_id#6, getfider/fider#1357."""
    params = authorize_params(response_type="code", response_mode="query")
    response = requests.get(f"{base}/auth/authorize", params=params, allow_redirects=False, timeout=10)
    assert error_body(response) == {
        "error": "invalid_request",
        "error_description": "response_mode must be form_post when name or email scope is requested."}


def test_id_token_claims_in_captured_order_and_refresh_without_auth_time(base: str) -> None:
    """Claim order of Apple's captured tokens; a refresh id_token without auth_time (AzimoLabs#12)."""
    form = authorize_form_post(base, login_hint="bob", response_type="code")
    tokens = redeem_code(base, form.fields["code"]).json()
    assert payload_keys(tokens["id_token"]) == [
        "iss", "aud", "exp", "iat", "sub", "nonce", "at_hash", "email", "email_verified", "is_private_email",
        "auth_time", "nonce_supported"]
    refreshed = token_request(base, {"client_id": WEB_CLIENT, "client_secret": make_client_secret(),
                                     "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]})
    assert refreshed.status_code == 200, describe(refreshed)
    body = refreshed.json()
    assert list(body) == ["access_token", "token_type", "expires_in", "id_token"]
    claims = jwt.decode(body["id_token"], options={"verify_signature": False})
    assert "auth_time" not in claims and claims["sub"] == jwt.decode(
        tokens["id_token"], options={"verify_signature": False})["sub"]
    assert payload_keys(body["id_token"]) == [
        "iss", "aud", "exp", "iat", "sub", "at_hash", "email", "email_verified", "is_private_email"]


def test_relay_user_without_is_private_email_claim(base: str) -> None:
    """Apple Developer Forums thread 808653 (Nov 2025): a relay user's id_token without is_private_email.

    The scenario is sent over HTTP (a users-only file gets the built-in team, clients and keys); PyJWT
    verifies the token against /auth/keys as a backend would.
    """
    scenario = "users:\n  - {id: rita, email: rita@example.com, private_email: true, is_private_email_claim: false}\n"
    put = requests.put(f"{base}/mock/scenario", data=scenario.encode(), timeout=10)
    assert put.status_code == 200, describe(put)
    form = authorize_form_post(base, login_hint="rita", response_type="code")
    tokens = redeem_code(base, form.fields["code"]).json()
    key = jwt.PyJWKClient(f"{base}/auth/keys").get_signing_key_from_jwt(tokens["id_token"]).key
    claims = jwt.decode(tokens["id_token"], key, algorithms=["RS256"], audience=WEB_CLIENT,
                        issuer="https://appleid.apple.com")
    assert claims["email"].endswith("@privaterelay.appleid.com"), claims
    assert "is_private_email" not in claims, claims


def test_refresh_id_token_of_a_shared_email_has_exactly_the_captured_claims(base: str) -> None:
    """douxindong/SignInWithApple applelogin/log/log_debug.log (2020): a refresh grant's id_token is
    exactly iss, aud, exp, iat, sub, at_hash, email, email_verified: no nonce_supported, no auth_time."""
    form = authorize_form_post(base, login_hint="alice", response_type="code")
    tokens = redeem_code(base, form.fields["code"]).json()
    refreshed = token_request(base, {"client_id": WEB_CLIENT, "client_secret": make_client_secret(),
                                     "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"]})
    assert refreshed.status_code == 200, describe(refreshed)
    assert payload_keys(refreshed.json()["id_token"]) == [
        "iss", "aud", "exp", "iat", "sub", "at_hash", "email", "email_verified"]


def test_keys_body_is_pretty_printed_like_apples(base: str) -> None:
    """The 2020 wire log of GET /auth/keys (douxindong/SignInWithApple log_debug.log): two-space indent,
    `": "` after keys, no final newline; its Content-Length 966 is json.dumps(indent=2) of its two keys."""
    response = requests.get(f"{base}/auth/keys", timeout=10)
    assert response.status_code == 200, describe(response)
    assert response.content == json.dumps(response.json(), indent=2).encode(), response.text[:200]
    assert response.headers["Content-Length"] == str(len(response.content))
    assert response.headers["Server"] == "Apple", describe(response)


def test_tokens_carry_four_letters_after_zero(base: str) -> None:
    """douxindong/SignInWithApple README (2020): `ae920…5.0.msxx.…`, `ra788…4.0.msxx.…`."""
    form = authorize_form_post(base, login_hint="bob", response_type="code")
    tokens = redeem_code(base, form.fields["code"]).json()
    for name, prefix in (("access_token", "a"), ("refresh_token", "r")):
        assert re.fullmatch(prefix + r"[0-9a-f]{32}\.0\.[a-z]{4}\.[A-Za-z0-9_-]{22}", tokens[name]), tokens[name]


def test_form_post_sends_state_code_user_with_compact_user(base: str) -> None:
    """Two Express req.body logs of Apple's POST: `state, code, user`, `user` compact JSON."""
    form = authorize_form_post(base, login_hint="bob", response_type="code")
    assert list(form.fields) == ["state", "code", "user"], form.fields
    assert form.fields["user"] == json.dumps(json.loads(form.fields["user"]), separators=(",", ":"))


def test_bundle_id_at_authorize_is_invalid_request(base: str) -> None:
    """Reports 2024-2026 (e.g. faraon87/Web-Team-Wellness-Prototype docs/archived/APPLE_SSO_FIX.md)."""
    params = authorize_params(client_id=NATIVE_CLIENT)
    response = requests.get(f"{base}/auth/authorize", params=params, allow_redirects=False, timeout=10)
    assert error_body(response) == {"error": "invalid_request",
                                    "error_description": "Invalid client id or web redirect url."}
    assert response.headers["Server"] == "Apple", describe(response)


def test_apple_endpoints_say_server_apple_and_the_control_api_does_not(base: str) -> None:
    """aspnet-contrib/AspNet.Security.OAuth.Providers#353, #390: `Server: Apple` on the token endpoint."""
    token = token_request(base, {"client_id": WEB_CLIENT, "client_secret": "x", "grant_type": "authorization_code",
                                 "code": BOGUS})
    discovery = requests.get(f"{base}/.well-known/openid-configuration", timeout=10)
    assert token.headers.get("Server") == "Apple" and discovery.headers.get("Server") == "Apple"
    assert "Server" not in requests.get(f"{base}/mock/health", timeout=10).headers


def test_fault_answers_say_server_apple_and_the_control_api_does_not(base: str) -> None:
    """A fault rule's answer stands for Apple's error answer, which says `Server: Apple` (#353, #390)."""
    rules = [{"id": "down", "match": "POST /auth/token", "times": 1, "status": 503},
             {"id": "slow", "match": "GET /auth/keys", "times": 1, "status": 500, "error": "server_error",
              "delay": "10ms"}]
    for rule in rules:
        added = requests.post(f"{base}/mock/faults", json=rule, timeout=10)
        assert added.status_code == 201 and "Server" not in added.headers, describe(added)
    token = token_request(base, {"client_id": WEB_CLIENT, "client_secret": "x", "grant_type": "authorization_code",
                                 "code": BOGUS})
    keys = requests.get(f"{base}/auth/keys", timeout=10)
    assert token.status_code == 503 and token.headers.get("Server") == "Apple", describe(token)
    assert keys.status_code == 500 and keys.headers.get("Server") == "Apple", describe(keys)
    assert "Server" not in requests.get(f"{base}/mock/faults", timeout=10).headers
