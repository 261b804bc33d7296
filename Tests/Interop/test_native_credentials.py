"""The native-app flow: POST /mock/credentials gives what ASAuthorizationAppleIDCredential gives an iPhone
app; the backend verifies the identityToken with PyJWT and redeems the authorizationCode at /auth/token
with the bundle ID and no redirect_uri, exactly as it would against Apple.
"""

from __future__ import annotations

import jwt
import requests

from siwa import ALICE, BOB, ISSUER, NATIVE_CLIENT, WEB_CLIENT, describe, error_body, half_hash, make_client_secret, token_request

NONCE = "native-nonce-7"


def credential(base: str, **body) -> dict:
    response = requests.post(f"{base}/mock/credentials", json={"client_id": NATIVE_CLIENT, **body}, timeout=10)
    assert response.status_code == 200, describe(response)
    return response.json()


def verify(base: str, token: str, audience: str = NATIVE_CLIENT) -> dict:
    key = jwt.PyJWKClient(f"{base}/auth/keys").get_signing_key_from_jwt(token)
    return jwt.decode(token, key.key, algorithms=["RS256"], audience=audience, issuer=ISSUER,
                      options={"require": ["iss", "aud", "exp", "iat", "sub"]})


def redeem_native(base: str, code: str, client_id: str = NATIVE_CLIENT) -> requests.Response:
    return token_request(base, {"grant_type": "authorization_code", "code": code, "client_id": client_id,
                                "client_secret": make_client_secret(client_id)})


def test_backend_verifies_identity_token_and_redeems_code(base: str) -> None:
    cred = credential(base, user="alice", nonce=NONCE, state="st-native")
    assert set(cred) == {"user", "identityToken", "authorizationCode", "fullName", "email", "realUserStatus",
                         "authorizedScopes", "state"}, cred
    assert cred["user"] == ALICE.sub
    assert cred["fullName"] == {"givenName": "Alice", "familyName": "Appleseed"}
    assert cred["email"] == ALICE.email
    assert cred["realUserStatus"] == 2
    assert cred["authorizedScopes"] == ["full_name", "email"]
    assert cred["state"] == "st-native"

    claims = verify(base, cred["identityToken"])
    assert claims["sub"] == ALICE.sub
    assert claims["nonce"] == NONCE
    assert claims["c_hash"] == half_hash(cred["authorizationCode"])
    assert claims["real_user_status"] == 2
    assert claims["nonce_supported"] is True

    response = redeem_native(base, cred["authorizationCode"])
    assert response.status_code == 200, describe(response)
    tokens = response.json()
    assert set(tokens) == {"access_token", "token_type", "expires_in", "refresh_token", "id_token"}
    backend = verify(base, tokens["id_token"])
    assert backend["sub"] == ALICE.sub and backend["at_hash"] == half_hash(tokens["access_token"])
    assert backend.get("real_user_status") == 2, "the first authorization's code carries it to the backend too"

    again = redeem_native(base, cred["authorizationCode"])
    assert error_body(again) == {"error": "invalid_grant", "error_description": "The code has already been used."}


def test_native_code_with_redirect_uri_or_services_id_is_refused(base: str) -> None:
    cred = credential(base, user="bob")
    with_redirect = token_request(base, {"grant_type": "authorization_code", "code": cred["authorizationCode"],
                                         "client_id": NATIVE_CLIENT, "client_secret": make_client_secret(NATIVE_CLIENT),
                                         "redirect_uri": "http://127.0.0.1:8000/callback"})
    assert error_body(with_redirect)["error"] == "invalid_grant", describe(with_redirect)
    wrong_client = redeem_native(base, cred["authorizationCode"], client_id=WEB_CLIENT)
    assert error_body(wrong_client) == {"error": "invalid_grant",
                                        "error_description": f"client_id mismatch. The code was not issued to {WEB_CLIENT}."}
    # The mismatches did not consume the code.
    assert redeem_native(base, cred["authorizationCode"]).status_code == 200


def test_second_authorization_has_no_name_email_or_real_user_status(base: str) -> None:
    first = credential(base, user="bob")
    assert first["email"] == BOB.email
    second = credential(base, user="bob")
    assert second["fullName"] is None and second["email"] is None and second["realUserStatus"] == 0
    claims = verify(base, second["identityToken"])
    assert "real_user_status" not in claims
    assert claims["email"] == BOB.email and claims["is_private_email"] is True


def test_credential_state_follows_revocation(base: str) -> None:
    def state() -> str:
        response = requests.get(f"{base}/mock/credential-state", params={"user": ALICE.sub, "client_id": NATIVE_CLIENT},
                                timeout=10)
        assert response.status_code == 200, describe(response)
        return response.json()["state"]

    assert state() == "notFound"
    cred = credential(base, user="alice")
    tokens = redeem_native(base, cred["authorizationCode"]).json()
    assert state() == "authorized"
    response = requests.post(f"{base}/auth/revoke", data={"client_id": NATIVE_CLIENT,
                                                          "client_secret": make_client_secret(NATIVE_CLIENT),
                                                          "token": tokens["refresh_token"]}, timeout=10)
    assert response.status_code == 200, describe(response)
    assert state() == "revoked"
    journal = requests.get(f"{base}/mock/requests", params={"path": "/auth/revoke", "user": "alice"}, timeout=10).json()
    assert [entry["outcome"] for entry in journal["requests"]] == ["ok"]
    assert tokens["refresh_token"] not in str(journal)


def test_unknown_user_and_bad_fields_are_precise(base: str) -> None:
    unknown = requests.post(f"{base}/mock/credentials", json={"client_id": NATIVE_CLIENT, "user": "mallory"}, timeout=10)
    assert unknown.status_code == 404
    assert unknown.json() == {"error": "not_found", "field": "user", "message": "unknown user 'mallory'"}
    bad = requests.post(f"{base}/mock/credentials", json={"client_id": NATIVE_CLIENT, "user": "alice", "scopes": "email"},
                        timeout=10)
    assert bad.status_code == 400 and bad.json()["field"] == "scopes", describe(bad)
