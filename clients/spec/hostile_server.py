"""A hostile stand-in for siwa-mock, for the five helpers' own suites (issue 36, findings 5 and 6).

    python3 clients/spec/hostile_server.py   # prints "hostile listening on http://127.0.0.1:PORT"

It exits when its stdin closes (the test that started it ended). Routes, each under /mock/ so the
helpers' `request` verb reaches them:

- `GET /mock/health`: 200 `{"status": "ok"}`, so `connect(url)` succeeds.
- `GET /mock/drip`: 200 with `Content-Length: 100000`, then one byte every 0.5 s for at most 20 s.
  A helper whose timeout is per read waits the whole 20 s (or forever, were it endless); one with an
  overall deadline gives up at its deadline.
- `GET /mock/endless`: 200, chunked, 64 KiB chunks as fast as the client reads, up to 1 GiB.
- `GET /mock/redirect`: 302 to another origin (a second listener on another port) which records the
  `Authorization` field of every request it gets; `GET /mock/stolen` lists them.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STOLEN: list = []


class Elsewhere(BaseHTTPRequestHandler):
    """The other origin: records what a redirected helper sends."""

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        STOLEN.append(self.headers.get("Authorization"))
        self._json({"landed": True})

    do_POST = do_GET

    def _json(self, value: object) -> None:
        body = json.dumps(value).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class Hostile(Elsewhere):
    elsewhere = ""

    def do_GET(self) -> None:  # noqa: N802
        path = self.path.split("?")[0]
        try:
            if path == "/mock/health":
                self._json({"status": "ok"})
            elif path == "/mock/stolen":
                self._json({"authorization": [value for value in STOLEN if value is not None], "requests": len(STOLEN)})
            elif path == "/mock/redirect":
                self.send_response(302)
                self.send_header("Location", self.elsewhere + "/mock/landing")
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif path == "/mock/drip":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", "100000")
                self.end_headers()
                stop = time.monotonic() + 20
                while time.monotonic() < stop:
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.5)
                self.close_connection = True
            elif path == "/mock/endless":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
                for _ in range(16384):  # 1 GiB
                    self.wfile.write(chunk)
                self.wfile.write(b"0\r\n\r\n")
            else:
                self.send_error(404)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the helper gave up, as it should

    do_POST = do_GET
    protocol_version = "HTTP/1.1"


def main() -> None:
    elsewhere = ThreadingHTTPServer(("127.0.0.1", 0), Elsewhere)
    Hostile.elsewhere = "http://127.0.0.1:%d" % elsewhere.server_address[1]
    hostile = ThreadingHTTPServer(("127.0.0.1", 0), Hostile)
    for server in (elsewhere, hostile):
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print("hostile listening on http://127.0.0.1:%d" % hostile.server_address[1], flush=True)
    sys.stdin.read()  # until the test that started it closes its end (or exits)
    os._exit(0)


if __name__ == "__main__":
    main()
