#!/usr/bin/env python3
"""Signs in against https://appleid.apple.com with only Python's standard library.

Run where appleid.apple.com resolves to siwa-mock on port 443 and SSL_CERT_FILE names its CA (see
docs/sidecar.md, "Impersonation without containers"). Authorizes alice headlessly, redeems the code with
a client secret from `siwa-mock client-secret` (the built-in scenario's published test key), checks the
id_token's RS256 signature against https://appleid.apple.com/auth/keys and its claims, and prints
"signed in over TLS as <sub>". Exits non-zero on any failure, including an untrusted certificate.
"""

import base64
import hashlib
import json
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

APPLE = "https://appleid.apple.com"
CLIENT_ID = "com.example.web"
REDIRECT_URI = "https://app.example.com/auth/apple/callback"
KEY = Path(__file__).resolve().parents[3] / "scenarios/keys/AuthKey_KEY1234567.p8"
# DigestInfo prefix of SHA-256 in an RSASSA-PKCS1-v1_5 signature (RFC 8017 §9.2, note 1).
SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def rs256_verifies(token, jwk):
    """RSASSA-PKCS1-v1_5 with SHA-256, done with integers (no crypto library needed to check)."""
    signing_input, _, signature = token.rpartition(".")
    n = int.from_bytes(b64url(jwk["n"]), "big")
    e = int.from_bytes(b64url(jwk["e"]), "big")
    size = (n.bit_length() + 7) // 8
    decoded = pow(int.from_bytes(b64url(signature), "big"), e, n).to_bytes(size, "big")
    digest = SHA256_DIGEST_INFO + hashlib.sha256(signing_input.encode()).digest()
    expected = b"\x00\x01" + b"\xff" * (size - len(digest) - 3) + b"\x00" + digest
    return decoded == expected


def main():
    context = ssl.create_default_context()  # trusts SSL_CERT_FILE: the mock's CA
    opener = urllib.request.build_opener(NoRedirect, urllib.request.HTTPSHandler(context=context))
    query = urllib.parse.urlencode({"client_id": CLIENT_ID, "redirect_uri": REDIRECT_URI, "response_type": "code",
                                    "state": "s1", "login_hint": "alice"})
    try:
        opener.open(f"{APPLE}/auth/authorize?{query}", timeout=10)
        sys.exit("authorize did not redirect")
    except urllib.error.HTTPError as redirect:
        location = redirect.headers["Location"]
    code = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["code"][0]

    secret = subprocess.run(["siwa-mock", "client-secret", "--team-id", "ABCDE12345", "--client-id", CLIENT_ID,
                             "--key-id", "KEY1234567", "--key", str(KEY)],
                            check=True, capture_output=True, text=True).stdout.strip()
    form = urllib.parse.urlencode({"grant_type": "authorization_code", "client_id": CLIENT_ID,
                                   "client_secret": secret, "code": code, "redirect_uri": REDIRECT_URI}).encode()
    with opener.open(urllib.request.Request(f"{APPLE}/auth/token", data=form), timeout=10) as response:
        id_token = json.load(response)["id_token"]

    with opener.open(f"{APPLE}/auth/keys", timeout=10) as response:
        keys = {key["kid"]: key for key in json.load(response)["keys"]}
    header = json.loads(b64url(id_token.split(".")[0]))
    claims = json.loads(b64url(id_token.split(".")[1]))
    if header.get("alg") != "RS256" or not rs256_verifies(id_token, keys[header["kid"]]):
        sys.exit("id_token signature does not verify against https://appleid.apple.com/auth/keys")
    if claims["iss"] != APPLE or claims["aud"] != CLIENT_ID:
        sys.exit(f"unexpected claims: {claims}")
    if claims["exp"] <= claims["iat"] or abs(claims["iat"] - time.time()) > 300:
        sys.exit(f"unexpected iat/exp: {claims}")
    print(f"signed in over TLS as {claims['sub']}")


if __name__ == "__main__":
    main()
