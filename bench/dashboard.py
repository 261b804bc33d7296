#!/usr/bin/env python3
"""How long the dashboard's first paint costs the server with 1,000 users and a full journal.

bench/dashboard.py [--binary PATH] [--users N] [--rounds N]

Starts siwa-mock, adds N users (default 1,000) who each signed in to one app (so every user has a
per-app credential state to compute), fills the journal to its capacity (1,000 entries) with refused
sign-ins carrying long parameters and a reason each, then fetches what the page's first paint needs,
in the order the page asks: /mock/ui, its script and style sheet, then the clock, faults, journal,
notifications, users and keys (as the page's script requests them, with its X-SIWA-Mock-Dashboard
header). Each round runs them one after another on one keep-alive connection. Two times per request:
the server's own (the duration its request log line records) and the client's, from sending the request
to its last byte read on loopback (which bounds the server's time from above). Prints the median and
the worst round, per request and in total; the FIGURE line judges the server's total (target < 100 ms).
The lines worth keeping go into bench/RESULTS.md by hand.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "pysupport"))
from siwatest.process import MockProcess  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402

FIRST_PAINT = [
    "/mock/ui", "/mock/ui/dashboard.js", "/mock/ui/dashboard.css", "/mock/clock", "/mock/faults",
    "/mock/requests?limit=1000&after=0", "/mock/notifications", "/mock/users", "/mock/keys",
]
PROOF = {"X-SIWA-Mock-Dashboard": "1"}


def call(conn: http.client.HTTPConnection, method: str, path: str, body: object | None = None,
         headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    data = None if body is None else json.dumps(body).encode()
    all_headers = dict(headers or {})
    if data is not None:
        all_headers["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=all_headers)
    response = conn.getresponse()
    return response.status, response.read()


def populate(conn: http.client.HTTPConnection, users: int) -> None:
    for index in range(users):
        user = f"user{index:04d}"
        status, body = call(conn, "POST", "/mock/users", {
            "id": user, "email": f"{user}@example.com", "first_name": f"First{index}",
            "last_name": f"Last{index}", "private_email": index % 2 == 0})
        assert status == 201, body
        status, body = call(conn, "POST", "/mock/credentials", {"client_id": "com.example.app", "user": user})
        assert status == 200, body
    # Refused sign-ins: each entry keeps its parameters (state and nonce of 200 bytes) and a reason.
    for index in range(1000):
        path = (f"/auth/authorize?client_id=com.unknown.app&response_type=code&redirect_uri=https%3A%2F%2Fx"
                f"&state={'s' * 200}{index}&nonce={'n' * 200}&login_hint=user{index % users:04d}")
        status, _ = call(conn, "GET", path)
        assert status == 400, status
    status, body = call(conn, "GET", "/mock/requests?limit=1000")
    assert status == 200 and len(json.loads(body)["requests"]) == 1000, "journal not full"


def measure(conn: http.client.HTTPConnection, rounds: int) -> tuple[dict[str, list[float]], list[float]]:
    per_path: dict[str, list[float]] = {path: [] for path in FIRST_PAINT}
    totals: list[float] = []
    for _ in range(rounds):
        total = 0.0
        for path in FIRST_PAINT:
            started = time.perf_counter()
            status, body = call(conn, "GET", path, headers=PROOF)
            elapsed = (time.perf_counter() - started) * 1000
            assert status == 200 and body, (path, status)
            per_path[path].append(elapsed)
            total += elapsed
        totals.append(total)
    return per_path, totals


LOG_LINE = re.compile(r"^\S+ \S+ GET (\S+) 200 (\d+)us\b")


def server_times(log: str, rounds: int) -> dict[str, list[float]]:
    """The durations the server logged for the measured requests (the last rounds x FIRST_PAINT lines)."""
    lines = [m for m in map(LOG_LINE.match, log.splitlines()) if m]
    measured = lines[-rounds * len(FIRST_PAINT):]
    times: dict[str, list[float]] = {path: [] for path in FIRST_PAINT}
    for index, match in enumerate(measured):
        path = FIRST_PAINT[index % len(FIRST_PAINT)]
        assert match.group(1) == path.split("?")[0], (match.group(0), path)
        times[path].append(int(match.group(2)) / 1000)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=COMMON_FLAGS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    binary = resolve_binary(args.binary)
    with tempfile.TemporaryDirectory() as scratch:
        log_path = Path(scratch) / "mock.log"
        mock = MockProcess(binary, [], log_path)
        try:
            conn = http.client.HTTPConnection(mock.host, mock.port, timeout=30)
            started = time.monotonic()
            populate(conn, args.users)
            print(f"populated {args.users} users and 1000 journal entries in {time.monotonic() - started:.1f}s")
            sizes = {path: len(call(conn, "GET", path, headers=PROOF)[1]) for path in FIRST_PAINT}
            per_path, totals = measure(conn, args.rounds)
        finally:
            mock.stop()
        server = server_times(log_path.read_text(errors="replace"), args.rounds)
    print(f"  {'request':40} {'bytes':>8}   server median / max     client median / max")
    for path in FIRST_PAINT:
        here, there = server[path], per_path[path]
        print(f"  {path:40} {sizes[path]:>8}   {statistics.median(here):7.2f} / {max(here):7.2f} ms"
              f"   {statistics.median(there):7.2f} / {max(there):7.2f} ms")
    server_totals = [sum(server[path][i] for path in FIRST_PAINT) for i in range(args.rounds)]
    median, worst = statistics.median(server_totals), max(server_totals)
    verdict = "MET" if median < 100 else "MISSED"
    print(f"FIGURE dashboard_first_paint_server_ms median={median:.1f} worst={worst:.1f} "
          f"client_median={statistics.median(totals):.1f} users={args.users} journal=1000 "
          f"rounds={args.rounds} target=<100 {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
