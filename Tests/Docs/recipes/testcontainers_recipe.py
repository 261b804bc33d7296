#!/usr/bin/env python3
"""siwa-mock in a test through Python `testcontainers` (pip install testcontainers), using the image.

Starts the image (default `siwa-mock:latest`, built from this repository's Dockerfile), waits for the
ready line, signs in a native app's user through the control API and checks `POST /mock/reset` isolates
tests. Prints "testcontainers: … passed". Needs a Docker engine: CI runs it from the container step,
whose engine only offers host networking, so the container shares the host's network on a free port
(SIWA_MOCK_PORT); with a normal engine `.with_exposed_ports(8080)` and `get_exposed_port` work the same.
Usage: testcontainers_recipe.py [IMAGE]
"""

import json
import os
import socket
import sys
import urllib.request

# Ryuk (testcontainers' reaper) is an image from a registry; without one, the `with` block cleans up.
os.environ.setdefault("TESTCONTAINERS_RYUK_DISABLED", "true")

from testcontainers.core.container import DockerContainer
from testcontainers.core.waiting_utils import wait_for_logs

IMAGE = sys.argv[1] if len(sys.argv) > 1 else "siwa-mock:latest"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(method, url, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        return json.load(response)


def main():
    port = free_port()
    container = (DockerContainer(IMAGE)
                 .with_kwargs(network_mode="host")
                 .with_env("SIWA_MOCK_HOST", "127.0.0.1")
                 .with_env("SIWA_MOCK_PORT", str(port)))
    with container:
        wait_for_logs(container, "siwa-mock listening on", timeout=30)
        base = f"http://127.0.0.1:{port}"
        assert call("GET", f"{base}/mock/health") == {"status": "ok"}
        credential = call("POST", f"{base}/mock/credentials", {"client_id": "com.example.app", "user": "alice"})
        assert credential["identityToken"].count(".") == 2
        call("PATCH", f"{base}/mock/users/alice", {"credential_state": "revoked"})
        call("POST", f"{base}/mock/reset", {})
        assert call("GET", f"{base}/mock/users/alice")["credential_state"] == "authorized"
    print(f"testcontainers: {IMAGE} started, signed in, reset between tests: passed")


if __name__ == "__main__":
    main()
