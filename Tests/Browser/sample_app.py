"""The sample web app of the browser suite: pages that use Apple's JS API as a real site would (script tag,
`appleid-signin-*` meta tags or `AppleID.auth.init`, the `#appleid-signin` button) and a backend that
redeems the code at the mock's /auth/token and verifies the id_token with PyJWT against the mock's JWKS.

Pages (query parameters `scope`, `state`, `nonce` override the defaults):
  GET  /popup            init() with usePopup: true; window.startSignIn() keeps the promise's outcome
  GET  /meta-popup       meta tags with appleid-signin-use-popup true
  GET  /redirect         meta tags, redirect mode (form_post to /callback)
  GET  /init-redirect    init() with usePopup: false
  POST /callback         form_post target: redeems the code, shows fields and verified claims as JSON
  POST /redeem           {"code": …} from a page: redeems it, answers the verified claims as JSON
"""

from __future__ import annotations

import html
import json
import threading
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt

ISSUER = "https://appleid.apple.com"


def script_json(value: object) -> str:
    """JSON safe inside a <script> element (no `</script>`, no `<!--`)."""
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


class SampleApp:
    """A running sample app on 127.0.0.1; `configure` points it at a mock once that mock runs."""

    def __init__(self, client_id: str) -> None:
        self.client_id = client_id
        self.mock_base = ""
        self.client_secret = ""
        self.expected_nonce: str | None = None
        self.redemptions: list[dict] = []
        app = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:  # keep pytest output quiet
                pass

            def do_GET(self) -> None:
                app.handle(self, "GET")

            def do_POST(self) -> None:
                app.handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.redirect_uri = f"{self.origin}/callback"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def configure(self, mock_base: str, client_secret: str) -> None:
        self.mock_base = mock_base
        self.client_secret = client_secret

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    @property
    def script_url(self) -> str:
        return f"{self.mock_base}/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js"

    # --- routing -----------------------------------------------------------------------------------

    def handle(self, request: BaseHTTPRequestHandler, method: str) -> None:
        url = urllib.parse.urlsplit(request.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        body = b""
        if method == "POST":
            body = request.rfile.read(int(request.headers.get("Content-Length") or 0))
        pages = {"/popup": ("init", True), "/meta-popup": ("meta", True), "/redirect": ("meta", False),
                 "/init-redirect": ("init", False)}
        if method == "GET" and url.path in pages:
            style, popup = pages[url.path]
            self.send(request, 200, "text/html; charset=utf-8", self.page(style, popup, query).encode())
        elif method == "POST" and url.path == "/callback":
            fields = dict(urllib.parse.parse_qsl(body.decode(), keep_blank_values=True))
            result = {"fields": fields}
            if "code" in fields:
                result["redeemed"] = self.redeem(fields["code"])
            text = html.escape(json.dumps(result, indent=1))
            page = f"<!doctype html><title>Callback</title><h1>Signed in</h1><pre id=\"callback\">{text}</pre>"
            self.send(request, 200, "text/html; charset=utf-8", page.encode())
        elif method == "POST" and url.path == "/redeem":
            code = json.loads(body)["code"]
            self.send(request, 200, "application/json", json.dumps(self.redeem(code)).encode())
        else:
            self.send(request, 404, "text/plain", b"not found")

    @staticmethod
    def send(request: BaseHTTPRequestHandler, status: int, content_type: str, body: bytes) -> None:
        request.send_response(status)
        request.send_header("Content-Type", content_type)
        request.send_header("Content-Length", str(len(body)))
        request.end_headers()
        request.wfile.write(body)

    # --- pages -------------------------------------------------------------------------------------

    def page(self, style: str, popup: bool, query: dict[str, str]) -> str:
        config = {"clientId": self.client_id, "scope": query.get("scope", "name email"),
                  "redirectURI": self.redirect_uri, "state": query.get("state", "st-123"),
                  "nonce": query.get("nonce", "n-456"), "usePopup": popup}
        self.expected_nonce = config["nonce"]
        head = ""
        init = ""
        if style == "meta":
            names = {"clientId": "client-id", "scope": "scope", "redirectURI": "redirect-uri", "state": "state",
                     "nonce": "nonce", "usePopup": "use-popup"}
            for key, name in names.items():
                value = str(config[key]).lower() if key == "usePopup" else str(config[key])
                head += f'<meta name="appleid-signin-{name}" content="{html.escape(value)}">\n'
        else:
            init = f"AppleID.auth.init({script_json(config)});"
        return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>Sample app</title>
{head}</head><body>
<h1>Sample app</h1>
<div id="appleid-signin" data-color="black" data-border="true" data-type="sign in"></div>
<button id="promise-signin" type="button">Sign in (promise)</button>
<script src="{html.escape(self.script_url)}"></script>
<script>
window.siwaEvents = [];
window.siwaResult = null;
document.addEventListener("AppleIDSignInOnSuccess", function (e) {{ siwaEvents.push({{type: "success", detail: e.detail}}); }});
document.addEventListener("AppleIDSignInOnFailure", function (e) {{ siwaEvents.push({{type: "failure", detail: e.detail}}); }});
{init}
window.startSignIn = function (config) {{
  window.siwaResult = null;
  AppleID.auth.signIn(config).then(function (r) {{ window.siwaResult = {{resolved: r}}; }},
                                   function (e) {{ window.siwaResult = {{rejected: e}}; }});
}};
document.getElementById("promise-signin").addEventListener("click", function () {{ startSignIn(); }});
window.redeem = function (code) {{
  return fetch("/redeem", {{method: "POST", body: JSON.stringify({{code: code}})}}).then(function (r) {{ return r.json(); }});
}};
</script>
</body></html>
"""

    # --- backend -----------------------------------------------------------------------------------

    def redeem(self, code: str) -> dict:
        """What a site's backend does: code → tokens at /auth/token, id_token verified against the JWKS."""
        form = urllib.parse.urlencode({"client_id": self.client_id, "client_secret": self.client_secret,
                                       "code": code, "grant_type": "authorization_code",
                                       "redirect_uri": self.redirect_uri}).encode()
        request = urllib.request.Request(f"{self.mock_base}/auth/token", data=form, method="POST",
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                tokens = json.loads(response.read())
        except urllib.error.HTTPError as error:
            result = {"error": json.loads(error.read()), "status": error.code}
            self.redemptions.append(result)
            return result
        signing_key = jwt.PyJWKClient(f"{self.mock_base}/auth/keys").get_signing_key_from_jwt(tokens["id_token"])
        claims = jwt.decode(tokens["id_token"], signing_key.key, algorithms=["RS256"], audience=self.client_id,
                            issuer=ISSUER)
        result = {"claims": claims, "token_type": tokens["token_type"],
                  "has_refresh_token": "refresh_token" in tokens}
        self.redemptions.append(result)
        return result
