#!/usr/bin/env python3
"""Scale-out with bare processes: three siwa-mock replicas sharing one real redis-server (issue #16).

Usage: Tests/ScaleOut/replicas.py [--binary PATH]

Starts redis-server (Debian's) on a loopback port picked by binding port 0, with a temporary directory
and an fsynced append-only file, and three replicas with `--store redis://…`; stops all by PID. Checks:
a code minted at A is redeemed at B (and is used at C); 100 concurrent redemptions of one code over the
three replicas yield exactly one 200; a refresh token revoked at C fails at A; a user revoked through
A's control API has lost their tokens at B within 100 ms; Redis killed mid-run gives only documented
503s (empty body, Retry-After) and an unhealthy /mock/health, no crash; restarted, service resumes with
nothing lost and nothing double-spent. Exit status 0 only if every check holds.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pysupport"))
from siwatest.client import Client, mint_client_secret  # noqa: E402
from siwatest.process import MockProcess  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402
from siwatest.scaleout import RedisServer  # noqa: E402
from siwatest.scenario import REDIRECT_URI  # noqa: E402

FAILURES: list[str] = []


def check(condition: bool, what: str) -> None:
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        FAILURES.append(what)


def code_grant(code: str) -> dict[str, str]:
    return {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI}


def control(replica: MockProcess, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{replica.port}{path}", data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, epilog=COMMON_FLAGS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    binary = resolve_binary(parser.parse_args().binary)
    secret = mint_client_secret(binary)
    with tempfile.TemporaryDirectory(prefix="siwa-scale-out-") as temp:
        temp_path = Path(temp)
        redis = RedisServer(temp_path)
        replicas: list[MockProcess] = []
        try:
            for name in "abc":
                replicas.append(MockProcess(binary, ["--store", redis.url], temp_path / f"replica-{name}.log"))
            run_checks(replicas, redis, secret)
            for replica in replicas:
                check(replica.alive, f"replica on port {replica.port} still running")
            errors = [line for replica in replicas
                      for line in replica.log_path.read_text().splitlines() if " 500 " in line]
            check(not errors, f"no 500 in the replicas' logs {errors[:3]}")
        finally:
            for replica in replicas:
                replica.stop()
            redis.kill()
    print(f"{len(FAILURES)} failed" if FAILURES else "all scale-out checks passed")
    return 1 if FAILURES else 0


def run_checks(replicas: list[MockProcess], redis: RedisServer, secret: str) -> None:
    a, b, c = (Client("127.0.0.1", replica.port, secret) for replica in replicas)
    code = a.authorize()
    status, tokens = b.token(code_grant(code))
    check(status == 200 and "id_token" in tokens, "a code minted at A is redeemed at B")
    status, body = c.token(code_grant(code))
    check(status == 400 and body.get("error_description") == "The code has already been used.",
          "the same code at C: already used")

    race = a.authorize()
    outcomes: list[int] = []
    lock = threading.Lock()
    start = threading.Barrier(100)

    def redeem(index: int) -> None:
        client = Client("127.0.0.1", replicas[index % 3].port, secret, timeout=10)
        start.wait()
        status, _ = client.token(code_grant(race))
        with lock:
            outcomes.append(status)
        client.close()

    threads = [threading.Thread(target=redeem, args=(i,)) for i in range(100)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    check(outcomes.count(200) == 1 and outcomes.count(400) == 99,
          f"100 concurrent redemptions over 3 replicas: one 200 (got {sorted(set(outcomes))}, "
          f"{outcomes.count(200)} successes)")

    refresh = b.token(code_grant(a.authorize()))[1]["refresh_token"]
    check(c.revoke(refresh, "refresh_token") == 200, "refresh token revoked at C")
    status, body = a.token({"grant_type": "refresh_token", "refresh_token": refresh})
    check(status == 400 and body.get("error") == "invalid_grant", "the revoked refresh token fails at A")

    refresh = b.token(code_grant(a.authorize("bob")))[1]["refresh_token"]
    status, _ = control(replicas[0], "PATCH", "/mock/users/bob", {"credential_state": "revoked"})
    revoked_at = time.monotonic()
    status_b, body = b.token({"grant_type": "refresh_token", "refresh_token": refresh})
    elapsed = (time.monotonic() - revoked_at) * 1000
    check(status == 200 and status_b == 400 and elapsed < 100,
          f"bob revoked through A's control API: his refresh token fails at B {elapsed:.0f} ms later")

    kept = a.authorize()
    spent_refresh = b.token(code_grant(a.authorize()))[1]["refresh_token"]
    redis.kill()
    statuses, documented = [], True
    for client in (a, b, c):
        status, headers, body = client.request("POST", "/auth/token", {
            "client_id": "com.example.web", "client_secret": secret, **code_grant(kept)})
        statuses.append(status)
        documented &= status == 503 and body == b"" and headers.get("retry-after") == "1"
    check(documented, f"Redis down: /auth/token answers 503, empty body, Retry-After: 1 ({statuses})")
    status, _ = control(replicas[1], "GET", "/mock/health")
    check(status == 503, "Redis down: /mock/health answers 503 unhealthy")
    check(a.request("GET", "/auth/keys")[0] == 200, "Redis down: /auth/keys still served from memory")

    redis.start()
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and control(replicas[2], "GET", "/mock/health")[0] != 200:
        time.sleep(0.05)
    check(control(replicas[2], "GET", "/mock/health")[0] == 200, "Redis back: /mock/health healthy again")
    status, _ = c.token(code_grant(kept))
    check(status == 200, "Redis back: the code issued before the outage is redeemed (nothing lost)")
    status, _ = a.token(code_grant(kept))
    check(status == 400, "Redis back: and only once (no double spend)")
    status, _ = b.token({"grant_type": "refresh_token", "refresh_token": spent_refresh})
    check(status == 200, "Redis back: a refresh token issued before the outage still works")


if __name__ == "__main__":
    sys.exit(main())
