"""Memory and CPU attacks for the adversarial suite (issue #11 findings 3, 4 and 5; docs/limits.md).

`against(server, secret)` runs on the suite's shared server while the good client keeps working;
`own_servers(binary, work)` starts a server of its own. Each attack
asserts its bound with a measured number (server RSS from /proc, response bytes, latency) taken
before and after, so a regression (values kept verbatim, answers unpaged, a whole-store scan) fails.
"""

from __future__ import annotations

import http.client
import json
import socket
import statistics
import threading
import time
import urllib.parse
from pathlib import Path

from outcome import Outcome, guarded
from siwatest.client import Client
from siwatest.process import MockProcess
from siwatest.scenario import REDIRECT_URI, WEB_CLIENT

MIB = 1024 * 1024
# docs/limits.md: 1,000 journal entries of at most JournalEntry.maximumBytes (10,816 B) each.
JOURNAL_BOUND_BYTES = 1000 * 10_816


def post(port: int, path: str, body: bytes | str, content_type: str = "application/x-www-form-urlencoded",
         method: str = "POST", timeout: float = 30.0) -> tuple[int, bytes, float]:
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers={"Content-Type": content_type})
        response = connection.getresponse()
        return response.status, response.read(), time.monotonic() - started
    finally:
        connection.close()


def rss_mib(server: MockProcess) -> float:
    return server.rss_kib() / 1024


class PeakRSS:
    """Samples the server's RSS every 20 ms while the `with` block runs."""

    def __init__(self, server: MockProcess) -> None:
        self.server, self.peak, self.stop = server, 0.0, threading.Event()

    def __enter__(self) -> "PeakRSS":
        self.before = rss_mib(self.server)
        self.peak = self.before
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()
        return self

    def sample(self) -> None:
        while not self.stop.wait(0.02):
            self.peak = max(self.peak, rss_mib(self.server))

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()
        self.peak = max(self.peak, rss_mib(self.server))

    @property
    def growth(self) -> float:
        return self.peak - self.before


def authorize_form(**extra: str) -> str:
    return urllib.parse.urlencode({"client_id": WEB_CLIENT, "redirect_uri": REDIRECT_URI, "response_type": "code",
                                   "response_mode": "query", "state": "s", "login_hint": "alice", **extra})


def oversized_parameters(server: MockProcess) -> Outcome:
    out = Outcome("120 sign-ins with a 900 KiB nonce, state or login_hint (POST /auth/authorize) and 40 "
                  "native credentials with a 900 KiB nonce",
                  "each refused with Apple's invalid_request (nothing stored); RSS grows < 16 MiB; "
                  "a nonce at the 512-byte cap still signs in")
    huge = "n" * (900 * 1024)
    answers: set[str] = set()
    with PeakRSS(server) as rss:
        for field in ("nonce", "state", "login_hint"):
            for _ in range(40):
                status, body, _ = post(server.port, "/auth/authorize", authorize_form(**{field: huge}))
                answers.add(f"{status} {body[:90].decode(errors='replace')}")
        for _ in range(40):
            status, body, _ = post(server.port, "/mock/credentials", json.dumps(
                {"client_id": "com.example.app", "user": "alice", "nonce": huge}), "application/json")
            answers.add(f"{status} {body[:160].decode(errors='replace')}")
    at_cap, _, _ = post(server.port, "/auth/authorize", authorize_form(nonce="n" * 512))
    # Apple's endpoint: invalid_request "Parameter too long: X"; the control API: 400 naming the field.
    refused = len(answers) == 4 and all(a.startswith("400 ") and ("too long" in a or "longer than" in a)
                                        for a in answers)
    out.observed = (f"{len(answers)} distinct answers ({'; '.join(sorted(answers))[:300]}); RSS "
                    f"+{rss.growth:.1f} MiB at peak (120 × 900 KiB sent); a 512-byte nonce got {at_cap}")
    out.ok = refused and rss.growth < 16 and at_cap == 302
    return out


def journal_bounded(server: MockProcess) -> Outcome:
    out = Outcome("1,100 token requests of 30 × 4 KiB parameters each, then GET /mock/requests",
                  f"the journal keeps ≤ 10,816 B per entry: the answer ≤ {JOURNAL_BOUND_BYTES / MIB:.1f} MiB, "
                  "RSS grows < 48 MiB, answered in < 3 s")
    form = urllib.parse.urlencode({"grant_type": "authorization_code", "client_id": WEB_CLIENT,
                                   **{f"x{i}": chr(97 + i % 26) * 4096 for i in range(30)}}).encode()
    request = (b"POST /auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
               b"Content-Length: " + str(len(form)).encode() + b"\r\n\r\n" + form)
    with PeakRSS(server) as rss:
        answered = pipeline(server.port, request, 1100, b"HTTP/1.1 400")
        status, body, took = post(server.port, "/mock/requests?limit=1000", b"", method="GET")
    entries = len(json.loads(body).get("requests", [])) if status == 200 else 0
    out.observed = (f"{answered}/1100 answered 400; GET /mock/requests: {status}, {entries} entries, "
                    f"{len(body) / MIB:.2f} MiB in {took:.2f} s (the requests carried {1100 * len(form) / MIB:.0f} "
                    f"MiB); RSS +{rss.growth:.1f} MiB at peak")
    out.ok = (answered == 1100 and status == 200 and entries == 1000 and len(body) <= JOURNAL_BOUND_BYTES
              and took < 3 and rss.growth < 48)
    return out


def diagnostics_bounded(server: MockProcess) -> Outcome:
    out = Outcome("PUT /mock/scenario with 10,000 invalid users (≈ 20,000 problems)",
                  "400 listing 50 problems and a count, answer < 32 KiB, in < 10 s; scenario unchanged")
    text = "users:\n" + "".join(f"  - {{id: u{i}, bogus: 1}}\n" for i in range(10_000))
    before = post(server.port, "/mock/scenario", b"", method="GET")[1]
    with PeakRSS(server) as rss:
        status, body, took = post(server.port, "/mock/scenario", text, "application/yaml", method="PUT")
    errors = json.loads(body).get("errors", []) if status == 400 else []
    after = post(server.port, "/mock/scenario", b"", method="GET")[1]
    out.observed = (f"{status}, {len(errors)} lines ({(errors or ['?'])[-1][:70]}), {len(body)} bytes in {took:.2f} s "
                    f"for a {len(text) / MIB:.1f} MiB scenario; RSS +{rss.growth:.1f} MiB; scenario "
                    + ("unchanged" if before == after else "CHANGED"))
    out.ok = (status == 400 and len(errors) == 51 and "more problems" in errors[-1] and len(body) < 32 * 1024
              and took < 10 and before == after)
    return out


def occurrences(data: bytes, pattern: bytes, seen: int) -> int:
    """Occurrences of `pattern` in `data` not lying wholly within its first `seen` bytes (counted before)."""
    count, at = 0, data.find(pattern)
    while at != -1:
        if at + len(pattern) > seen:
            count += 1
        at = data.find(pattern, at + 1)
    return count


def pipeline(port: int, request: bytes, count: int, marker: bytes, connections: int = 4) -> int:
    """Sends `count` copies of `request` pipelined over several connections (batches of 200, each
    read back before the next) and returns how many responses started with `marker`."""
    totals = [0] * connections

    def run(slot: int, share: int) -> None:
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        tail = b""
        try:
            for start in range(0, share, 200):
                batch = min(200, share - start)
                sock.sendall(request * batch)
                seen = 0
                while seen < batch:
                    chunk = sock.recv(1 << 20)
                    if not chunk:
                        return
                    data = tail + chunk
                    seen += occurrences(data, b"HTTP/1.1 ", len(tail))
                    totals[slot] += occurrences(data, marker, len(tail))
                    tail = data[-32:]
        finally:
            sock.close()

    shares = [count // connections + (1 if i < count % connections else 0) for i in range(connections)]
    threads = [threading.Thread(target=run, args=(i, share)) for i, share in enumerate(shares)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(totals)


def revoke_latencies(client: Client, rounds: int) -> list[float]:
    """carol signs in and her refresh token is revoked, `rounds` times; the revoke latencies. (The good
    client signs in as alice: revoking carol leaves its codes alone.)"""
    latencies = []
    for _ in range(rounds):
        status, tokens = client.token({"grant_type": "authorization_code", "code": client.authorize("carol"),
                                       "redirect_uri": REDIRECT_URI})
        assert status == 200, (status, tokens)
        started = time.perf_counter()
        assert client.revoke(tokens["refresh_token"], "refresh_token") == 200
        latencies.append(time.perf_counter() - started)
    return latencies


def revoke_with_many_grants(server: MockProcess, secret: str) -> Outcome:
    out = Outcome("revoke while 30,000 codes of another user are outstanding",
                  "revoke costs O(that user's grants): p50 ≤ 3 × its p50 on an empty store + 1 ms; the good "
                  "client's token requests not delayed")
    client = Client(server.host, server.port, secret, timeout=10)
    baseline = revoke_latencies(client, 30)
    hint = urllib.parse.urlencode({"client_id": WEB_CLIENT, "redirect_uri": REDIRECT_URI, "response_type": "code",
                                   "response_mode": "query", "login_hint": "bob"})
    request = f"GET /auth/authorize?{hint} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    started = time.monotonic()
    minted = pipeline(server.port, request, 30_000, b"HTTP/1.1 302")
    minting = time.monotonic() - started
    loaded = revoke_latencies(client, 30)
    client.close()
    before, after = statistics.median(baseline) * 1000, statistics.median(loaded) * 1000
    out.observed = (f"{minted} codes minted for bob in {minting:.1f} s; carol's revoke p50 {before:.2f} ms → "
                    f"{after:.2f} ms (max {max(loaded) * 1000:.1f} ms)")
    out.ok = minted == 30_000 and after <= 3 * before + 1.0
    return out


def rotation_storm(server: MockProcess) -> Outcome:
    out = Outcome("POST /mock/keys/rotate in a loop for up to 6 s (again at once after a 200, after 0.25 s after a "
                  "503) while health is polled",
                  "each answered 200 (a rotation with no pre-made key ready waits for one RSA generation on a "
                  "background thread, never on an event loop): slowest < 3 s, ≥ 3 rotated; health p99 < 250 ms")
    health: list[float] = []
    stop = threading.Event()

    def poll() -> None:
        client = Client(server.host, server.port, "", timeout=10)
        while not stop.is_set():
            started = time.perf_counter()
            client.check_health()
            health.append(time.perf_counter() - started)
        client.close()

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    answers: list[tuple[int, float]] = []
    deadline = time.monotonic() + 6
    while time.monotonic() < deadline and sum(1 for s, _ in answers if s == 200) < 8:
        status, _, took = post(server.port, "/mock/keys/rotate", b"{}", "application/json")
        answers.append((status, took))
        if status != 200:
            time.sleep(0.25)
    stop.set()
    poller.join()
    statuses = sorted({status for status, _ in answers})
    slowest = max(took for _, took in answers)
    p99 = sorted(health)[int(0.99 * (len(health) - 1))] if health else float("inf")
    out.observed = (f"statuses {statuses} ({sum(1 for s, _ in answers if s == 200)} rotated), slowest "
                    f"{slowest * 1000:.0f} ms; {len(health)} health checks, p99 {p99 * 1000:.1f} ms")
    out.ok = (set(statuses) == {200} and sum(1 for s, _ in answers if s == 200) >= 3 and slowest < 3.0
              and p99 < 0.25)
    return out


def user_changes_at_scale(binary: Path, work: Path) -> Outcome:
    out = Outcome("200 POST /mock/users on a mock serving 20,000 users",
                  "each add costs O(log n) (one path of the user tables copied): p50 < 10 ms "
                  "(copying every user, as before, measured 30 ms here)")
    scenario = work / "users-20000.yaml"
    scenario.write_text("users:\n" + "".join(f"  - {{id: u{i}, email: u{i}@example.com}}\n" for i in range(20_000)))
    server = MockProcess(binary, ["--scenario", str(scenario), "--log-level", "warn"], work / "users.log")
    try:
        took = []
        for i in range(200):
            status, _, seconds = post(server.port, "/mock/users", json.dumps(
                {"id": f"new{i}", "email": f"new{i}@example.com"}), "application/json")
            if status != 201:
                out.notes.append(f"add {i}: {status}")
                break
            took.append(seconds)
        p50 = statistics.median(took) * 1000 if took else float("inf")
        out.observed = f"{len(took)} added, p50 {p50:.2f} ms, slowest {max(took, default=0) * 1000:.1f} ms"
        out.ok = len(took) == 200 and p50 < 10
    finally:
        if server.stop() != 0:
            out.ok = False
            out.notes.append("exit status after SIGTERM was not 0")
    return out


def own_servers(binary: Path, work: Path) -> list[Outcome]:
    return [guarded(lambda: user_changes_at_scale(binary, work), "user changes at 20,000 users")]


def against(server: MockProcess, secret: str) -> list[Outcome]:
    return [guarded(lambda: oversized_parameters(server), "oversized nonce/state/login_hint"),
            guarded(lambda: journal_bounded(server), "journal bytes"),
            guarded(lambda: diagnostics_bounded(server), "scenario diagnostics"),
            guarded(lambda: revoke_with_many_grants(server, secret), "revoke with many grants"),
            guarded(lambda: rotation_storm(server), "key rotation storm")]
