"""The discovery document, the JWKS and the redirect response modes, checked field by field."""

from __future__ import annotations

import jwt
import requests
from cryptography.hazmat.primitives import serialization

from siwa import (ALICE, ISSUER, KEYS_DIR, PUBLISHED_KIDS, REDIRECT_URI, authorize_params, authorize_redirect,
                  describe, half_hash, redeem_code)

APPLE_DISCOVERY_STATIC = {
    "issuer": ISSUER,
    "response_types_supported": ["code"],
    "response_modes_supported": ["query", "fragment", "form_post"],
    "subject_types_supported": ["pairwise"],
    "id_token_signing_alg_values_supported": ["RS256"],
    "scopes_supported": ["openid", "email", "name"],
    "token_endpoint_auth_methods_supported": ["client_secret_post"],
    "claims_supported": ["aud", "email", "email_verified", "exp", "iat", "is_private_email", "iss", "nonce",
                         "nonce_supported", "real_user_status", "sub", "transfer_sub"],
}


def test_discovery_document_matches_apple_with_mock_endpoints(base: str) -> None:
    response = requests.get(f"{base}/.well-known/openid-configuration", timeout=10)
    assert response.status_code == 200, describe(response)
    assert response.headers["Content-Type"].startswith("application/json"), describe(response)
    expected = APPLE_DISCOVERY_STATIC | {
        "authorization_endpoint": f"{base}/auth/authorize",
        "token_endpoint": f"{base}/auth/token",
        "revocation_endpoint": f"{base}/auth/revoke",
        "jwks_uri": f"{base}/auth/keys",
    }
    assert response.json() == expected


def _jwk_numbers(kid: str) -> tuple[str, str]:
    key = serialization.load_pem_private_key((KEYS_DIR / f"signing-{kid}.pem").read_bytes(), password=None)
    numbers = key.public_key().public_numbers()
    to_b64 = lambda value: jwt.utils.base64url_encode(value.to_bytes((value.bit_length() + 7) // 8, "big")).decode()
    return to_b64(numbers.n), to_b64(numbers.e)


def test_jwks_shape_and_keys_match_scenario_pems(base: str) -> None:
    response = requests.get(f"{base}/auth/keys", timeout=10)
    assert response.status_code == 200, describe(response)
    assert response.headers["Content-Type"].startswith("application/json"), describe(response)
    body = response.json()
    assert list(body) == ["keys"]
    keys = body["keys"]
    assert len(keys) == 3
    assert {key["kid"] for key in keys} == PUBLISHED_KIDS
    for key in keys:
        assert set(key) == {"kty", "kid", "use", "alg", "n", "e"}, key
        assert (key["kty"], key["use"], key["alg"], key["e"]) == ("RSA", "sig", "RS256", "AQAB")
        assert len(key["n"]) == 342 and "=" not in key["n"], "2048-bit modulus, unpadded base64url"
        assert (key["n"], key["e"]) == _jwk_numbers(key["kid"])
        jwt.PyJWK(key)  # PyJWT accepts it as an RSA verification key


def test_query_mode_redirect(base: str) -> None:
    location, values = authorize_redirect(base, response_type="code", response_mode="query", scope=None,
                                          nonce=None, state="q-state")
    assert location.startswith(REDIRECT_URI + "?"), location
    assert set(values) == {"code", "state"}, values
    assert values["state"] == "q-state"
    response = redeem_code(base, values["code"])
    assert response.status_code == 200, describe(response)
    claims = jwt.decode(response.json()["id_token"], options={"verify_signature": False})
    assert claims["sub"] == ALICE.sub


def test_fragment_mode_redirect(base: str) -> None:
    location, values = authorize_redirect(base, response_type="code id_token", response_mode="fragment",
                                          scope=None, nonce="frag-nonce", state="f-state")
    assert location.startswith(REDIRECT_URI + "#"), location
    assert set(values) == {"code", "id_token", "state"}, values
    claims = jwt.decode(values["id_token"], options={"verify_signature": False})
    assert claims["nonce"] == "frag-nonce"
    assert claims["c_hash"] == half_hash(values["code"])


def test_query_mode_with_id_token_is_rejected_without_redirect(base: str) -> None:
    params = authorize_params(response_type="code id_token", response_mode="query", scope=None)
    response = requests.get(f"{base}/auth/authorize", params=params, allow_redirects=False, timeout=10)
    assert response.status_code == 400, describe(response)
    assert "Location" not in response.headers, describe(response)


def test_unregistered_redirect_uri_is_rejected_without_redirect(base: str) -> None:
    params = authorize_params(redirect_uri="https://evil.example.com/cb")
    response = requests.get(f"{base}/auth/authorize", params=params, allow_redirects=False, timeout=10)
    assert response.status_code == 400, describe(response)
    assert "Location" not in response.headers, describe(response)
