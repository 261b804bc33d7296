"""The same id_token checks as backend.py's PyJWT path, with joserfc (the JOSE library of the authlib
project): `python3 backend.py --library joserfc`. A misconfiguration is the same switch as for PyJWT."""

import json
import time
import urllib.request

from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet


def decode(token, jwks_url, issuer, audience, mode, required):
    """The verified claims of `token`, or raises ValueError / JoseError."""
    with urllib.request.urlopen(jwks_url, timeout=10) as answer:
        keys = KeySet.import_key_set(json.load(answer))
    header = json.loads(_b64(token.split(".")[0]))
    if "kid" not in header:
        raise ValueError("no kid")
    algorithms = ["RS256"]
    if mode == "algorithms-not-pinned":
        algorithms = [header.get("alg", "RS256")]  # taken from the token, as a confused verifier does
    verified = jwt.decode(token, keys, algorithms=algorithms)
    rules = {name: {"essential": True} for name in required}
    rules["iss"] = {"essential": True, "value": issuer}
    if mode != "no-audience" and audience is not None:
        rules["aud"] = {"essential": True, "value": audience}
    jwt.JWTClaimsRegistry(**rules).validate(verified.claims)
    if verified.claims["iat"] > time.time() + 60:
        raise ValueError("iat in the future")
    return verified.claims


def _b64(part):
    import base64
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


Error = JoseError
