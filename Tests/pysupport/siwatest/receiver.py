"""A local HTTP endpoint for server-to-server notifications (the interop and mail suites)."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Receiver:
    """Collects POSTed bodies; the first `failures` requests get 503."""

    def __init__(self, failures: int = 0) -> None:
        self.bodies: list[bytes] = []
        self.failures = failures
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with receiver.lock:
                    receiver.bodies.append(body)
                    fail = receiver.failures > 0
                    receiver.failures -= 1 if fail else 0
                self.send_response(503 if fail else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/apple/notifications"

    def wait_for(self, count: int, timeout: float = 15.0) -> list[bytes]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.lock:
                if len(self.bodies) >= count:
                    return list(self.bodies)
            time.sleep(0.02)
        raise AssertionError(f"expected {count} notification POSTs, got {len(self.bodies)}")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
