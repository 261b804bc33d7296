"""The reference server does the real work: checked from outside with PyJWT (issue #40).

Usage: python3 bench/reference/check.py [--binary PATH]   (builds bench/reference/ref_server.c without --binary)

Starts the reference on a free port and checks, on one keep-alive connection:
- /auth/keys is a JWKS of the scenario's three RSA-2048 signing keys (PyJWT parses it; the moduli are those of
  scenarios/keys/signing-*.pem), with Apple's headers;
- a code minted through its headless /auth/authorize redeems once with an ES256 client secret made here by
  PyJWT: the id_token verifies with PyJWT against /auth/keys (RS256, aud, iss), carries the claims the mock's
  does for the same grant (sub, at_hash of the access token, auth_time, nonce_supported), and a wrong
  audience is refused by the same verification;
- the same code a second time is `invalid_grant` "The code has already been used.";
- the refresh token gives a new, verifying id_token without auth_time and no new refresh token;
- a secret signed by another key, or for another audience, is `invalid_client`.
Exit status 0 only if every check holds. About a second.
"""

import argparse
import base64
import hashlib
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

HERE = os.path.dirname(os.path.abspath(__file__))
KEYS = os.path.join(HERE, "..", "..", "scenarios", "keys")
CLIENT, TEAM, KID = "com.example.web", "ABCDE12345", "KEY1234567"
REDIRECT = "http://127.0.0.1:8000/callback"
ALICE = "001234.0a1b2c3d4e5f60718293a4b5c6d7e8f9.1111"
ISSUER = "https://appleid.apple.com"
failures = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def client_secret(key, audience=ISSUER):
    now = int(time.time())
    claims = {"iss": TEAM, "iat": now, "exp": now + 3600, "aud": audience, "sub": CLIENT}
    return jwt.encode(claims, key, algorithm="ES256", headers={"kid": KID})


def request(conn, method, path, form=None):
    body = urllib.parse.urlencode(form) if form is not None else None
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if form is not None else {}
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    return response, response.read()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        binary = args.binary
        if not binary:
            binary = os.path.join(work, "ref_server")
            subprocess.run(["bash", os.path.join(HERE, "build.sh"), binary], check=True)
        server = subprocess.Popen([binary, KEYS, "0"], stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline().strip()
            check(line.startswith("ref_server listening on http://127.0.0.1:"), f"ready line: {line!r}")
            run(int(line.rsplit(":", 1)[1]))
        finally:
            server.terminate()
            server.wait()
    print(f"reference check: {len(failures)} failed" if failures else "reference check: all passed")
    return 1 if failures else 0


def run(port):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    with open(os.path.join(KEYS, f"AuthKey_{KID}.p8"), "rb") as f:
        team_key = serialization.load_pem_private_key(f.read(), None)

    response, body = request(conn, "GET", "/auth/keys")
    check(response.status == 200 and response.getheader("Content-Type") == "application/json;charset=UTF-8"
          and response.getheader("Cache-Control") == "no-store" and response.getheader("Pragma") == "no-cache"
          and response.getheader("Server") == "Apple",
          "/auth/keys: 200 with Apple's headers")
    jwks = jwt.PyJWKSet.from_json(body.decode())
    kids = [k.key_id for k in jwks.keys]
    check(kids == ["Aj3F8kLq2X", "Pb7Yt1ZcQ9", "Tq8Nv3WcLm"], f"/auth/keys parses as a JWKS (kids {kids})")
    for jwk in jwks.keys:
        with open(os.path.join(KEYS, f"signing-{jwk.key_id}.pem"), "rb") as f:
            pem = serialization.load_pem_private_key(f.read(), None).public_key().public_numbers()
        numbers = jwk.key.public_numbers()
        check(numbers.n == pem.n and numbers.e == pem.e and jwk.key.key_size == 2048
              and jwk.algorithm_name == "RS256" and jwk.public_key_use == "sig",
              f"key {jwk.key_id}: RSA-2048, RS256, the scenario key's modulus")

    query = urllib.parse.urlencode({"client_id": CLIENT, "redirect_uri": REDIRECT, "response_type": "code",
                                    "response_mode": "query", "login_hint": "alice", "state": "s t"})
    response, _ = request(conn, "GET", "/auth/authorize?" + query)
    location = urllib.parse.urlsplit(response.getheader("Location") or "")
    params = urllib.parse.parse_qs(location.query)
    code = params.get("code", [""])[0]
    check(response.status == 302 and location.geturl().startswith(REDIRECT + "?") and code
          and params.get("state") == ["s t"], "authorize mints a code")

    secret = client_secret(team_key)
    form = {"client_id": CLIENT, "client_secret": secret, "grant_type": "authorization_code", "code": code,
            "redirect_uri": REDIRECT}
    response, body = request(conn, "POST", "/auth/token", form)
    check(response.status == 200 and response.getheader("Cache-Control") == "no-store", "code redeemed: 200")
    check(len(body) == 911, f"token response: {len(body)} bytes, the mock's 911 for the same grant")
    tokens = json.loads(body)
    check(sorted(tokens) == ["access_token", "expires_in", "id_token", "refresh_token", "token_type"]
          and tokens["token_type"] == "Bearer" and tokens["expires_in"] == 3600, "token response fields")
    claims = verify(tokens["id_token"], jwks, tokens["access_token"])
    check(claims.get("auth_time") is not None and list(claims)[:5] == ["iss", "aud", "exp", "iat", "sub"],
          "sign-in id_token: auth_time, the mock's claim order")
    try:
        jwt.decode(tokens["id_token"], jwks[jwt.get_unverified_header(tokens["id_token"])["kid"]].key, algorithms=["RS256"],
                   audience="com.example.other", issuer=ISSUER)
        check(False, "a wrong audience is refused by the verification")
    except jwt.InvalidAudienceError:
        check(True, "a wrong audience is refused by the verification")

    response, body = request(conn, "POST", "/auth/token", form)
    check(response.status == 400 and json.loads(body) == {
        "error": "invalid_grant", "error_description": "The code has already been used."},
        f"the code a second time: {response.status} {body.decode()}")

    refresh = {"client_id": CLIENT, "client_secret": secret, "grant_type": "refresh_token",
               "refresh_token": tokens["refresh_token"]}
    response, body = request(conn, "POST", "/auth/token", refresh)
    renewed = json.loads(body)
    check(response.status == 200 and "refresh_token" not in renewed, "refresh: 200, no new refresh token")
    claims = verify(renewed["id_token"], jwks, renewed["access_token"])
    check("auth_time" not in claims and renewed["id_token"] != tokens["id_token"], "refresh id_token: no auth_time")

    for name, bad in [("another key", client_secret(ec.generate_private_key(ec.SECP256R1()))),
                      ("another audience", client_secret(team_key, "https://example.com"))]:
        response, body = request(conn, "POST", "/auth/token", {**refresh, "client_secret": bad})
        check(response.status == 400 and json.loads(body) == {"error": "invalid_client"},
              f"a secret for {name}: invalid_client")


def verify(token, jwks, access_token):
    header = jwt.get_unverified_header(token)
    check(header == {"kid": "Aj3F8kLq2X", "alg": "RS256"}, f"id_token header {header}")
    claims = jwt.decode(token, jwks[header["kid"]].key, algorithms=["RS256"], audience=CLIENT, issuer=ISSUER)
    at_hash = base64.urlsafe_b64encode(hashlib.sha256(access_token.encode()).digest()[:16]).rstrip(b"=").decode()
    check(claims["sub"] == ALICE and claims["at_hash"] == at_hash and claims["nonce_supported"] is True
          and claims["exp"] - claims["iat"] == 86400 and abs(claims["iat"] - time.time()) < 60,
          "id_token verifies with PyJWT (RS256, aud, iss); sub, at_hash, lifetime")
    return claims


if __name__ == "__main__":
    sys.exit(main())
