"""PyJWT against the mock: JWKS by kid, id_token verification, and the token endpoint's grants and errors.

This is what a hand-rolled backend does: POST /auth/token with an ES256 client secret, then
`PyJWKClient(jwks_uri)` + `jwt.decode(..., audience=client_id, issuer=Apple)`.
"""

from __future__ import annotations

import json

import jwt
import pytest
import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from siwa import (ALICE, BOB, CAROL, ID_TOKEN_LIFETIME, ISSUER, NATIVE_CLIENT, REDIRECT_URI, SIGNING_KID, WEB_CLIENT,
                  authorize_form_post, authorize_redirect, describe, error_body, half_hash, make_client_secret, redeem_code,
                  token_request)

NONCE = "n-0S6_WzA2Mj"


def verify(base: str, id_token: str, audience: str = WEB_CLIENT) -> dict:
    """Verify an id_token exactly as a PyJWT backend does: key by kid from the JWKS URL."""
    signing_key = jwt.PyJWKClient(f"{base}/auth/keys").get_signing_key_from_jwt(id_token)
    return jwt.decode(id_token, signing_key.key, algorithms=["RS256"], audience=audience, issuer=ISSUER,
                      options={"require": ["iss", "aud", "exp", "iat", "sub"]})


def sign_in(base: str, user: str = "alice", **overrides) -> tuple[dict[str, str], dict]:
    """Run the web code flow through form_post; return the form fields and the token response."""
    form = authorize_form_post(base, login_hint=user, **overrides)
    response = redeem_code(base, form.fields["code"])
    assert response.status_code == 200, describe(response)
    return form.fields, response.json()


def test_code_flow_id_tokens_verify_with_pyjwt(base: str) -> None:
    form = authorize_form_post(base, login_hint="alice", nonce=NONCE, state="st-123")
    fields = form.fields
    assert set(fields) == {"code", "id_token", "state", "user"}, fields
    assert fields["state"] == "st-123"
    assert json.loads(fields["user"]) == {"name": {"firstName": "Alice", "lastName": "Appleseed"},
                                          "email": "alice@example.com"}

    front = verify(base, fields["id_token"])
    assert jwt.get_unverified_header(fields["id_token"])["kid"] == SIGNING_KID
    assert front["sub"] == ALICE.sub
    assert front["nonce"] == NONCE
    assert front["c_hash"] == half_hash(fields["code"])

    response = redeem_code(base, fields["code"])
    assert response.status_code == 200, describe(response)
    assert response.headers["Content-Type"].startswith("application/json"), describe(response)
    assert "no-store" in response.headers.get("Cache-Control", ""), describe(response)
    tokens = response.json()
    assert set(tokens) == {"access_token", "token_type", "expires_in", "refresh_token", "id_token"}, tokens
    assert tokens["token_type"] == "Bearer"
    assert tokens["expires_in"] == 3600 and type(tokens["expires_in"]) is int

    claims = verify(base, tokens["id_token"])
    header = jwt.get_unverified_header(tokens["id_token"])
    assert header["alg"] == "RS256" and header["kid"] == SIGNING_KID and set(header) <= {"alg", "kid", "typ"}
    assert claims["iss"] == ISSUER and claims["aud"] == WEB_CLIENT
    assert claims["sub"] == ALICE.sub
    assert claims["email"] == ALICE.email
    assert claims["email_verified"] is True
    assert claims.get("is_private_email", False) is False
    assert claims["nonce"] == NONCE
    assert claims["nonce_supported"] is True
    assert claims["exp"] - claims["iat"] == ID_TOKEN_LIFETIME
    assert claims["at_hash"] == half_hash(tokens["access_token"])
    if "c_hash" in claims:
        assert claims["c_hash"] == half_hash(fields["code"])
    assert "real_user_status" not in claims, "Apple sends real_user_status only to native apps, never web"
    assert "name" not in claims and "given_name" not in claims, "the name is never in an id_token"


def test_relay_user_gets_private_email(base: str) -> None:
    fields, tokens = sign_in(base, user="bob")
    assert json.loads(fields["user"])["email"] == BOB.email
    claims = verify(base, tokens["id_token"])
    assert claims["sub"] == BOB.sub
    assert claims["email"] == BOB.email
    assert claims["is_private_email"] is True
    assert claims["email_verified"] is True


def test_login_hint_accepts_email(base: str) -> None:
    _, tokens = sign_in(base, user=CAROL.email)
    claims = verify(base, tokens["id_token"])
    assert claims["sub"] == CAROL.sub and claims["email"] == CAROL.email


def test_user_json_only_on_first_authorization(base: str) -> None:
    first, _ = sign_in(base)
    assert "user" in first
    second, tokens = sign_in(base)
    assert "user" not in second, second
    assert verify(base, tokens["id_token"])["email"] == ALICE.email, "email stays in every id_token"


def test_refresh_revoke_then_refresh_fails(base: str) -> None:
    _, tokens = sign_in(base)
    secret = make_client_secret()
    refresh = {"client_id": WEB_CLIENT, "client_secret": secret, "grant_type": "refresh_token",
               "refresh_token": tokens["refresh_token"]}

    response = token_request(base, refresh)
    assert response.status_code == 200, describe(response)
    assert "no-store" in response.headers.get("Cache-Control", ""), describe(response)
    refreshed = response.json()
    assert "refresh_token" not in refreshed, "Apple returns no new refresh_token on refresh"
    assert refreshed["token_type"] == "Bearer" and refreshed["expires_in"] == 3600
    assert refreshed["access_token"] != tokens["access_token"]
    claims = verify(base, refreshed["id_token"])
    assert claims["sub"] == ALICE.sub
    if "at_hash" in claims:
        assert claims["at_hash"] == half_hash(refreshed["access_token"])

    revoke = requests.post(f"{base}/auth/revoke", timeout=10, data={
        "client_id": WEB_CLIENT, "client_secret": secret, "token": tokens["refresh_token"],
        "token_type_hint": "refresh_token"})
    assert revoke.status_code == 200, describe(revoke)
    assert revoke.content == b"", describe(revoke)

    again = requests.post(f"{base}/auth/revoke", timeout=10, data={
        "client_id": WEB_CLIENT, "client_secret": secret, "token": tokens["refresh_token"]})
    assert again.status_code == 200 and again.content == b"", "revoke is idempotent\n" + describe(again)

    after = token_request(base, refresh)
    assert error_body(after)["error"] == "invalid_grant", describe(after)


def test_revoke_resets_consent(base: str) -> None:
    _, tokens = sign_in(base)
    revoke = requests.post(f"{base}/auth/revoke", timeout=10, data={
        "client_id": WEB_CLIENT, "client_secret": make_client_secret(), "token": tokens["refresh_token"],
        "token_type_hint": "refresh_token"})
    assert revoke.status_code == 200, describe(revoke)
    fields, _ = sign_in(base)
    assert "user" in fields, "after revoke the next sign-in is a first sign-in again"


def test_code_reuse_is_invalid_grant(base: str) -> None:
    form = authorize_form_post(base)
    first = redeem_code(base, form.fields["code"])
    assert first.status_code == 200, describe(first)
    second = redeem_code(base, form.fields["code"])
    assert error_body(second) == {"error": "invalid_grant",
                                  "error_description": "The code has already been used."}, describe(second)
    assert "no-store" in second.headers.get("Cache-Control", ""), describe(second)


def test_redirect_uri_mismatch_is_invalid_grant(base: str) -> None:
    form = authorize_form_post(base)
    response = redeem_code(base, form.fields["code"], redirect_uri="https://app.example.com/auth/apple/callback")
    assert error_body(response)["error"] == "invalid_grant", describe(response)


def test_web_code_redeemed_by_native_client_is_invalid_grant(base: str) -> None:
    form = authorize_form_post(base)
    response = redeem_code(base, form.fields["code"], client_id=NATIVE_CLIENT)
    body = error_body(response)
    assert body["error"] == "invalid_grant", describe(response)
    assert body.get("error_description", "").startswith("client_id mismatch."), describe(response)


@pytest.mark.parametrize("mode", ["form_post", "query"])
def test_state_round_trips_byte_for_byte(base: str, mode: str) -> None:
    state = "a b&c=d/é+%#?x"
    if mode == "form_post":
        returned = authorize_form_post(base, state=state).fields["state"]
    else:
        _, values = authorize_redirect(base, response_type="code", response_mode="query", scope=None,
                                       nonce=None, state=state)
        returned = values["state"]
    assert returned == state


def _other_key_pem() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def _der_signed_secret() -> str:
    """The right key and claims, but the signature is ASN.1 DER instead of JOSE R||S."""
    header_b64, payload_b64, sig_b64 = make_client_secret().split(".")
    raw = jwt.utils.base64url_decode(sig_b64)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    return f"{header_b64}.{payload_b64}.{jwt.utils.base64url_encode(der).decode()}"


BAD_SECRETS = {
    "garbage": lambda: "not-a-jwt",
    "wrong-key": lambda: make_client_secret(key=_other_key_pem()),
    "unknown-kid": lambda: make_client_secret(kid="ZZZZZZZZZZ"),
    "wrong-team": lambda: make_client_secret(team="ZYXWV98765"),
    "wrong-aud": lambda: make_client_secret(aud="https://example.com"),
    "sub-is-other-client": lambda: make_client_secret("com.example.app"),
    "expired": lambda: make_client_secret(iat=1_600_000_000, lifetime=3600),
    "exp-beyond-6-months": lambda: make_client_secret(lifetime=15_777_000 + 3600),
    "der-signature": _der_signed_secret,
}


@pytest.mark.parametrize("kind", sorted(BAD_SECRETS))
def test_bad_client_secret_is_invalid_client(base: str, kind: str) -> None:
    form = authorize_form_post(base)
    response = redeem_code(base, form.fields["code"], secret=BAD_SECRETS[kind]())
    body = error_body(response)
    if kind == "sub-is-other-client":
        # TN3107: a client_secret sub that differs from client_id may surface as invalid_request.
        assert body["error"] in {"invalid_client", "invalid_request"}, describe(response)
    else:
        assert body == {"error": "invalid_client"}, describe(response)
    # The code must survive a failed client authentication.
    retry = redeem_code(base, form.fields["code"])
    assert retry.status_code == 200, describe(retry)


def test_json_body_is_invalid_client(base: str) -> None:
    """a-tokyo/apple-signin-auth#28: Apple answers a JSON body invalid_client (no form credentials)."""
    form = authorize_form_post(base)
    response = requests.post(f"{base}/auth/token", timeout=10, json={
        "client_id": WEB_CLIENT, "client_secret": make_client_secret(), "code": form.fields["code"],
        "grant_type": "authorization_code", "redirect_uri": REDIRECT_URI})
    assert error_body(response) == {"error": "invalid_client"}, describe(response)


def test_form_content_type_with_charset_is_accepted(base: str) -> None:
    """Java/Spring and Node clients send `application/x-www-form-urlencoded;charset=UTF-8`."""
    form = authorize_form_post(base)
    body = {"client_id": WEB_CLIENT, "client_secret": make_client_secret(), "code": form.fields["code"],
            "grant_type": "authorization_code", "redirect_uri": REDIRECT_URI}
    response = requests.post(f"{base}/auth/token", data=body, timeout=10,
                             headers={"Content-Type": "application/x-www-form-urlencoded;charset=UTF-8"})
    assert response.status_code == 200, describe(response)


def test_unknown_grant_type(base: str) -> None:
    response = token_request(base, {"client_id": WEB_CLIENT, "client_secret": make_client_secret(),
                                    "grant_type": "password"})
    assert error_body(response)["error"] == "unsupported_grant_type", describe(response)


def test_pyjwkclient_follows_a_rotation_right_after_start(base: str) -> None:
    """A JWKS-cache test as users write it (issue #22): on a fresh server, rotate first thing (one call,
    no retry loop: 200 with the new kid), then a cached PyJWKClient meets a token signed by a key it has
    not seen, refetches /auth/keys and verifies it; the token signed before still verifies."""
    jwks = jwt.PyJWKClient(f"{base}/auth/keys", cache_keys=True, cooldown_duration=0)
    first = requests.post(f"{base}/mock/keys/rotate", json={}, timeout=30)
    assert first.status_code == 200, describe(first)
    kid = first.json()["signing_kid"]
    assert kid != SIGNING_KID
    _, before = sign_in(base)
    assert jwt.get_unverified_header(before["id_token"])["kid"] == kid
    key = jwks.get_signing_key_from_jwt(before["id_token"])  # fetched and cached
    jwt.decode(before["id_token"], key.key, algorithms=["RS256"], audience=WEB_CLIENT, issuer=ISSUER)
    second = requests.post(f"{base}/mock/keys/rotate", json={"kid": "Rotated002"}, timeout=30)
    assert second.status_code == 200 and second.json()["signing_kid"] == "Rotated002", describe(second)
    _, after = sign_in(base)
    assert jwt.get_unverified_header(after["id_token"])["kid"] == "Rotated002"
    key = jwks.get_signing_key_from_jwt(after["id_token"])  # unknown kid: refetched
    claims = jwt.decode(after["id_token"], key.key, algorithms=["RS256"], audience=WEB_CLIENT, issuer=ISSUER)
    assert claims["sub"] == ALICE.sub
    assert verify(base, before["id_token"])["sub"] == ALICE.sub, "the previous signer stays published"
