"""A Sign in with Apple backend on the standard library's http.server, verifying with PyJWT
(docs/rp-check.md). `--mode correct` checks everything Apple's documentation asks; every other mode is
one deliberate misconfiguration that `siwa-mock rp-check` must catch.

    POST /apple/native         form id_token, code, nonce  -> 200 {"sub", "email_verified", "is_private_email"} | 401
    POST /apple/notifications  {"payload": JWS}             -> 200 | 400
    GET  /login                starts a web sign-in: session cookie, 302 to the mock's /auth/authorize
    POST /callback             Apple's form_post: state checked, code redeemed at the mock, id_token
                               verified -> 302 /me | 401
    GET  /me                   who is signed in -> 200 {"sub", "email_verified", "is_private_email"} | 401

Usage: python3 backend.py --mock http://127.0.0.1:8080 --mode correct --port 0 --ready FILE
       [--team-key AuthKey.p8 --team-id ABCDE12345 --key-id KEY1234567 --web-client com.example.web]
"""

import argparse
import base64
import hashlib
import hmac
import json
import secrets
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt

ISSUER = "https://appleid.apple.com"
MODES = ["correct", "no-verify", "algorithms-not-pinned", "no-audience", "no-nonce", "truthy-email",
         "no-sub-check", "no-hash-check", "notifications-unverified", "notifications-replayable",
         "notifications-no-freshness"]
# Events older than this are refused (Apple delivers soon after the event).
EVENT_WINDOW_SECONDS = 86400


class Rejected(Exception):
    pass


def is_true(value, mode):
    """Apple sends booleans, and in some tokens the strings "true"/"false"."""
    if mode == "truthy-email":
        return bool(value)  # the misconfiguration: the string "false" is truthy
    return value is True or value == "true"


class Verifier:
    def __init__(self, mock, client, mode, library="pyjwt"):
        self.library = library
        self.jwks_url = mock.rstrip("/") + "/auth/keys"
        self.mode = mode
        self.client = client
        self.jwks = jwt.PyJWKClient(mock.rstrip("/") + "/auth/keys", cache_keys=False)
        self.seen_jti = set()
        self.lock = threading.Lock()

    def key_for(self, token):
        header = jwt.get_unverified_header(token)
        if "kid" not in header:
            raise Rejected("no kid")
        try:
            return self.jwks.get_signing_key(header["kid"]).key
        except jwt.PyJWKClientError as error:
            raise Rejected(str(error))

    def claims(self, token, audience_checked=True, audience=None):
        if self.mode == "no-verify":
            return jwt.decode(token, options={"verify_signature": False})
        if self.library == "joserfc":
            import joserfc_verify
            try:
                return joserfc_verify.decode(token, self.jwks_url, ISSUER,
                                             None if not audience_checked else audience or self.client,
                                             self.mode, ["exp", "iat", "sub"])
            except (joserfc_verify.Error, ValueError) as error:
                raise Rejected("joserfc: %s" % error)
        key = self.key_for(token)
        algorithms = ["RS256"]
        if self.mode == "algorithms-not-pinned":
            # Taken from the token, as a confused verifier does; PyJWT still refuses `none` with a key and
            # an HMAC keyed with an RSA key, so this misconfiguration lets nothing through.
            algorithms = [jwt.get_unverified_header(token).get("alg", "RS256")]
        required = ["iss", "aud", "exp", "iat", "sub"]
        if self.mode == "no-sub-check":
            required.remove("sub")  # the misconfiguration: a token without `sub` passes
        options = {"require": required}
        if self.mode == "no-audience" or not audience_checked:
            options["verify_aud"] = False
        claims = jwt.decode(token, key, algorithms=algorithms, audience=audience or self.client, issuer=ISSUER,
                            options=options)
        if claims["iat"] > time.time() + 60:
            raise Rejected("iat in the future")
        return claims

    def native(self, token, code, nonce, audience=None, hash_claim="c_hash"):
        try:
            claims = self.claims(token, audience=audience)
        except jwt.PyJWTError as error:
            raise Rejected(str(error))
        if not claims.get("sub") and self.mode != "no-sub-check":
            raise Rejected("no sub")
        if self.mode != "no-nonce":
            if not hmac.compare_digest(str(claims.get("nonce", "")), nonce or ""):
                raise Rejected("nonce differs")
        if hash_claim in claims and self.mode != "no-hash-check":
            digest = hashlib.sha256(code.encode()).digest()[:16]
            expected = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
            if not hmac.compare_digest(claims[hash_claim], expected):
                raise Rejected(hash_claim + " differs")
        return {
            # no-sub-check: the user is whoever the email names (the misconfiguration)
            "sub": claims.get("sub") or claims.get("email"),
            "email_verified": is_true(claims.get("email_verified"), self.mode),
            "is_private_email": is_true(claims.get("is_private_email"), self.mode),
        }

    def notification(self, payload):
        try:
            if self.mode == "notifications-unverified":
                claims = jwt.decode(payload, options={"verify_signature": False})
            elif self.library == "joserfc":
                import joserfc_verify
                try:
                    claims = joserfc_verify.decode(payload, self.jwks_url, ISSUER, self.client, "correct",
                                                   ["iat", "jti"])
                except (joserfc_verify.Error, ValueError) as error:
                    raise Rejected("joserfc: %s" % error)
            else:
                claims = jwt.decode(payload, self.key_for(payload), algorithms=["RS256"], audience=self.client,
                                    issuer=ISSUER, options={"require": ["iss", "aud", "iat", "jti"]})
        except jwt.PyJWTError as error:
            raise Rejected(str(error))
        events = claims.get("events")
        if isinstance(events, str):
            events = json.loads(events)
        event_time = int(events.get("event_time", 0))
        if event_time > 100_000_000_000:
            event_time //= 1000
        if event_time < time.time() - EVENT_WINDOW_SECONDS and self.mode != "notifications-no-freshness":
            raise Rejected("event too old")
        with self.lock:
            if claims["jti"] in self.seen_jti and self.mode != "notifications-replayable":
                raise Rejected("jti seen before")
            self.seen_jti.add(claims["jti"])
        return {"processed": events.get("type")}


class WebSignIn:
    """The web flow's side: sessions by cookie, the client secret, the code redemption at the mock."""

    def __init__(self, args, verifier):
        self.args = args
        self.verifier = verifier
        self.sessions = {}
        self.key = open(args.team_key).read() if args.team_key else None

    def start(self, base):
        sid, state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16), secrets.token_urlsafe(16)
        self.sessions[sid] = {"state": state, "nonce": nonce}
        query = urllib.parse.urlencode({
            "client_id": self.args.web_client, "redirect_uri": base + "/callback", "response_type": "code id_token",
            "response_mode": "form_post", "scope": "name email", "state": state, "nonce": nonce})
        return sid, self.args.mock.rstrip("/") + "/auth/authorize?" + query

    def client_secret(self):
        now = int(time.time())
        return jwt.encode({"iss": self.args.team_id, "iat": now, "exp": now + 300, "aud": ISSUER,
                           "sub": self.args.web_client}, self.key, algorithm="ES256",
                          headers={"kid": self.args.key_id})

    def callback(self, sid, form, base):
        session = self.sessions.get(sid)
        if not session or not hmac.compare_digest(form.get("state", ""), session["state"]):
            raise Rejected("state differs or no session")
        body = urllib.parse.urlencode({
            "grant_type": "authorization_code", "code": form.get("code", ""), "client_id": self.args.web_client,
            "client_secret": self.client_secret(), "redirect_uri": base + "/callback"}).encode()
        with urllib.request.urlopen(self.args.mock.rstrip("/") + "/auth/token", body, timeout=10) as answer:
            tokens = json.load(answer)
        session["user"] = self.verifier.native(tokens["id_token"], tokens["access_token"], session["nonce"],
                                               audience=self.args.web_client, hash_claim="at_hash")

    def me(self, sid):
        session = self.sessions.get(sid) or {}
        return session.get("user")


def handler(verifier, web):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def base(self):
            return "http://127.0.0.1:%d" % self.server.server_address[1]

        def sid(self):
            for part in self.headers.get("Cookie", "").split(";"):
                name, _, value = part.strip().partition("=")
                if name == "sid":
                    return value
            return None

        def redirect(self, location, cookie=None):
            self.send_response(302)
            self.send_header("Location", location)
            if cookie:
                self.send_header("Set-Cookie", "sid=%s; HttpOnly; Path=/" % cookie)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self):
            if self.path == "/login":
                sid, location = web.start(self.base())
                self.redirect(location, sid)
            elif self.path == "/me":
                user = web.me(self.sid())
                self.answer(200 if user else 401, user or {"error": "not signed in"})
            else:
                self.answer(404, {"error": "not found"})

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            try:
                if self.path == "/apple/native":
                    form = {k: v[0] for k, v in urllib.parse.parse_qs(body.decode()).items()}
                    self.answer(200, verifier.native(form.get("id_token", ""), form.get("code", ""),
                                                     form.get("nonce")))
                elif self.path == "/callback":
                    form = {k: v[0] for k, v in urllib.parse.parse_qs(body.decode()).items()}
                    web.callback(self.sid(), form, self.base())
                    self.redirect("/me")
                elif self.path == "/apple/notifications":
                    self.answer(200, verifier.notification(json.loads(body)["payload"]))
                else:
                    self.answer(404, {"error": "not found"})
            except (Rejected, KeyError, ValueError, AttributeError, TypeError, OSError) as error:
                status = 400 if self.path == "/apple/notifications" else 401
                self.answer(status, {"error": type(error).__name__, "reason": str(error)})

    return Handler


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mock", required=True)
    parser.add_argument("--client", default="com.example.app")
    parser.add_argument("--mode", choices=MODES, default="correct")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--ready", help="file to write the port to once listening")
    parser.add_argument("--library", choices=["pyjwt", "joserfc"], default="pyjwt",
                        help="the verifier: PyJWT, or joserfc (authlib's JOSE library)")
    parser.add_argument("--team-key", help="the team's client-secret key (.p8) for the web flow")
    parser.add_argument("--team-id", default="ABCDE12345")
    parser.add_argument("--key-id", default="KEY1234567")
    parser.add_argument("--web-client", default="com.example.web")
    args = parser.parse_args()
    verifier = Verifier(args.mock, args.client, args.mode, args.library)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler(verifier, WebSignIn(args, verifier)))
    if args.ready:
        with open(args.ready + ".tmp", "w") as ready:
            ready.write(str(server.server_address[1]))
        import os
        os.replace(args.ready + ".tmp", args.ready)
    server.serve_forever()


if __name__ == "__main__":
    main()
