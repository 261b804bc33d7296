"""Hostile notification receivers for the adversarial suite (issue #11 finding 6; docs/notifications.md).

The mock POSTs server-to-server notifications to whatever `notification_url` says, so a receiver can
attack it: drip its reply a byte at a time, send an endless reply, or never answer. Each attempt must
end at its overall deadline, read a bounded reply, and never delay another destination's delivery.
Runs on the suite's shared server (its settings are restored afterwards).
"""

from __future__ import annotations

import json
import socket
import threading
import time

from memory_attacks import PeakRSS, post
from outcome import Outcome, guarded
from siwatest.process import MockProcess

TIMEOUT_MS = 1000
GROUP = "com.example.app"
REPLY_LIMIT = 300 * 1024 * 1024  # what the endless receiver offers before giving up


class Receiver(threading.Thread):
    """Accepts connections on its own port and treats each with `behaviour`; records, per connection,
    when it was accepted, how long until the mock closed it, and how many reply bytes the mock took."""

    def __init__(self, behaviour: str) -> None:
        super().__init__(daemon=True)
        self.behaviour = behaviour
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/apple"
        self.connections: list[dict] = []
        self.stopping = False

    def run(self) -> None:
        self.listener.settimeout(0.2)
        while not self.stopping:
            try:
                sock, _ = self.listener.accept()
            except (socket.timeout, OSError):
                continue
            threading.Thread(target=self.serve, args=(sock,), daemon=True).start()

    def serve(self, sock: socket.socket) -> None:
        record = {"accepted": time.monotonic(), "held": None, "reply_bytes": 0}
        self.connections.append(record)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
        sock.settimeout(10)
        try:
            request = b""
            while b"\r\n\r\n" not in request:
                request += sock.recv(65536)
            if self.behaviour == "good":
                sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            elif self.behaviour == "drip":
                for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n" + b"x" * 1000:
                    sock.sendall(bytes([byte]))
                    record["reply_bytes"] += 1
                    time.sleep(0.1)
            elif self.behaviour == "endless":
                sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000000\r\n\r\n")
                block = b"x" * 65536
                while record["reply_bytes"] < REPLY_LIMIT:
                    record["reply_bytes"] += sock.send(block)
            # "hang": read the request, answer nothing; wait for the mock to give up.
            sock.settimeout(10)
            while sock.recv(65536):
                pass
        except OSError:
            pass
        finally:
            record["held"] = time.monotonic() - record["accepted"]
            sock.close()

    def close(self) -> None:
        self.stopping = True
        self.listener.close()


def send(port: int, url: str, copies: int = 1) -> None:
    status = post(port, f"/mock/app-groups/{GROUP}", json.dumps({"notification_url": url}), "application/json",
                  method="PATCH")[0]
    assert status == 200, status
    status, body, _ = post(port, "/mock/notifications", json.dumps(
        {"type": "consent-revoked", "user": "alice", "client_id": GROUP, "deliveries": copies}), "application/json")
    assert status == 202, (status, body[:200])


def hostile_receivers(server: MockProcess) -> Outcome:
    limit = TIMEOUT_MS / 1000
    out = Outcome("notification receivers that hang (4 notifications), drip their reply a byte per 0.1 s, "
                  "or send an endless reply (300 MiB offered)",
                  f"each attempt ends at its deadline ({limit:g} s, + 0.5 s slack); at most 64 KiB of a reply is "
                  "read (RSS grows < 16 MiB); ≤ 2 attempts at once per destination; a good receiver posted to meanwhile gets its notification in < 0.5 s")
    original = json.loads(post(server.port, "/mock/notifications/settings", b"", method="GET")[1])
    receivers = {name: Receiver(name) for name in ("hang", "drip", "endless", "good")}
    for receiver in receivers.values():
        receiver.start()
    try:
        status = post(server.port, "/mock/notifications/settings", json.dumps(
            {"timeout_ms": TIMEOUT_MS, "max_attempts": 1}), "application/json", method="PATCH")[0]
        assert status == 200, status
        with PeakRSS(server) as rss:
            send(server.port, receivers["hang"].url, copies=4)
            send(server.port, receivers["drip"].url)
            send(server.port, receivers["endless"].url)
            posted = time.monotonic()
            send(server.port, receivers["good"].url)
            deadline = posted + 5
            while not receivers["good"].connections and time.monotonic() < deadline:
                time.sleep(0.005)
            good_after = receivers["good"].connections[0]["accepted"] - posted if receivers["good"].connections else None
            # Wait for the mock to end every hostile attempt.
            hostile = [r for name, r in receivers.items() if name != "good"]
            deadline = time.monotonic() + 4 * limit + 4
            while time.monotonic() < deadline and (
                    len(receivers["hang"].connections) < 4
                    or any(c["held"] is None for r in hostile for c in r.connections)
                    or any(not r.connections for r in hostile)):
                time.sleep(0.05)
        held = {name: [c["held"] for c in r.connections] for name, r in receivers.items() if name != "good"}
        taken = receivers["endless"].connections[0]["reply_bytes"] if receivers["endless"].connections else 0
        # Attempts at once, from when the receiver saw each connection: with 2 per destination, the 3rd and
        # 4th start only as the first two end (one timeout later). (Counting from when each was seen
        # closed would add the receiver's own wake-up delay.)
        starts = sorted(c["accepted"] for c in receivers["hang"].connections)
        overlap = max((sum(1 for t in starts if a <= t < a + limit - 0.2) for a in starts), default=0)
        longest = max((h for hs in held.values() for h in hs if h is not None), default=None)
        out.observed = (
            "held " + ", ".join(f"{name} {'/'.join('open' if h is None else f'{h:.2f}' for h in hs) or 'never called'} s"
                                for name, hs in held.items())
            + f"; at most {overlap} hanging attempts at once; the endless reply: {taken / 1024:.0f} KiB taken (socket buffers included); RSS +{rss.growth:.1f} MiB; "
            + (f"good receiver called after {good_after * 1000:.0f} ms" if good_after is not None else "good receiver NEVER called"))
        out.ok = (len(held["hang"]) == 4 and all(len(held[n]) == 1 for n in ("drip", "endless"))
                  and longest is not None and all(h is not None for hs in held.values() for h in hs)
                  and longest <= limit + 0.5 and good_after is not None and good_after < 0.5
                  and overlap <= 2 and rss.growth < 16 and taken < 8 * 1024 * 1024)
    finally:
        post(server.port, "/mock/notifications/settings", json.dumps(
            {"timeout_ms": original["timeout_ms"], "max_attempts": original["max_attempts"]}), "application/json",
             method="PATCH")
        post(server.port, f"/mock/app-groups/{GROUP}", json.dumps({"notification_url": None}), "application/json",
             method="PATCH")
        for receiver in receivers.values():
            receiver.close()
    return out


def against(server: MockProcess) -> list[Outcome]:
    return [guarded(lambda: hostile_receivers(server), "hostile notification receivers")]
