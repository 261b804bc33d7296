#!/usr/bin/env python3
"""Scale-out with bare processes: three siwa-mock replicas sharing one real redis-server (issue #16).

Usage: Tests/ScaleOut/replicas.py [--binary PATH]

Starts redis-server (Debian's) on a loopback port picked by binding port 0, with a temporary directory
and an fsynced append-only file, and three replicas with `--store redis://…`; stops all by PID. Checks:
a code minted at A is redeemed at B (and is used at C); 100 concurrent redemptions of one code over the
three replicas yield exactly one 200; a refresh token revoked at C fails at A; a user revoked through
A's control API has lost their tokens at B within 100 ms; a key rotation at A is published at B's
/auth/keys and signs B's id_tokens within 1 s, and a replica started later signs with it at once; a
clock advance at A expires a code at B within 1 s; a user added at A, changed at B and deleted at C is
seen so at the others within 1 s; a fault `times: 2` on /auth/token fires exactly twice over nine
requests spread over the three replicas; two replicas of a scenario with a timeline count its request
trigger fleet-wide, fire its time trigger once on the shared clock, and send each notification once
(a local receiver counts the POSTs); two replicas of a scenario with `seed: 42` mint three different codes
for three sign-ins, and carol's code minted at one and redeemed at the other names carol (so does her
refresh token) — the seed once made replicas mint the same codes; with --shared-journal, a sign-in spread over the three replicas
is read in one order from any replica's GET /mock/requests?scope=fleet; Redis killed mid-run gives only
documented 503s (empty body, Retry-After) and an unhealthy /mock/health (and the fleet journal's 503), no
crash; restarted, service resumes with nothing lost and nothing double-spent, and the outage's journal
entries reach the fleet journal. Exit status 0 only if every check holds.
"""

from __future__ import annotations

import argparse
import base64
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
from siwatest.receiver import Receiver  # noqa: E402
from siwatest.scaleout import RedisServer  # noqa: E402
from siwatest.scenario import KEYS_DIR, REDIRECT_URI, SCENARIOS_DIR  # noqa: E402

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
                replicas.append(MockProcess(binary, ["--store", redis.url, "--shared-journal", "1000"],
                                            temp_path / f"replica-{name}.log"))
            fleet_checks(replicas, binary, redis, secret, temp_path)
            user_checks(replicas)
            fault_checks(replicas, secret)
            timeline_checks(binary, redis, secret, temp_path)
            seeded_checks(binary, redis, temp_path)
            journal_checks(replicas, secret)
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


def wait_until(condition, seconds: float) -> float | None:
    """Seconds until `condition()` held, polling every 20 ms; None if it did not within `seconds`."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if condition():
            return time.monotonic() - start
        time.sleep(0.02)
    return None


def id_token_kid(tokens: dict) -> str | None:
    header = tokens.get("id_token", "").split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4))).get("kid")


def fleet_checks(replicas: list[MockProcess], binary: Path, redis: RedisServer, secret: str,
                 temp_path: Path) -> None:
    """Signing keys and the mock clock are shared: a change at A is served by B within 1 s."""
    a, b = (Client("127.0.0.1", replica.port, secret) for replica in replicas[:2])
    status, body = 503, {}
    for _ in range(50):  # the key supply makes keys in the background; 503 until one is ready
        status, body = control(replicas[0], "POST", "/mock/keys/rotate")
        if status != 503:
            break
        time.sleep(0.1)
    kid = body.get("signing_kid")
    check(status == 200 and kid, f"key rotated at A ({status})")
    published = wait_until(lambda: kid in b.request("GET", "/auth/keys")[2].decode(), 1.0)
    check(published is not None, f"the rotated key is published at B's /auth/keys within 1 s ({published})")
    status, tokens = b.token(code_grant(a.authorize()))
    check(status == 200 and id_token_kid(tokens) == kid, "B signs id_tokens with the key rotated at A")

    late = MockProcess(binary, ["--store", redis.url], temp_path / "replica-late.log")
    try:
        status, tokens = Client("127.0.0.1", late.port, secret).token(code_grant(a.authorize()))
        check(status == 200 and id_token_kid(tokens) == kid, "a replica started after the rotation signs with it")
    finally:
        late.stop()

    code = b.authorize()
    status, _ = control(replicas[0], "POST", "/mock/clock", {"advance": "6m"})
    check(status == 200, "clock advanced 6 minutes at A")
    moved = wait_until(lambda: control(replicas[1], "GET", "/mock/clock")[1].get("epoch_seconds", 0)
                       >= control(replicas[0], "GET", "/mock/clock")[1].get("epoch_seconds", 0) - 1, 1.0)
    status, body = b.token(code_grant(code))
    check(moved is not None and status == 400 and "expired" in body.get("error_description", ""),
          f"the clock advance at A expires a code at B within 1 s ({moved}, {status} {body})")


def user_checks(replicas: list[MockProcess]) -> None:
    """Runtime user changes through any replica's control API are read back from the others."""
    a, b, c = replicas
    status, _ = control(a, "POST", "/mock/users", {"id": "dave", "email": "dave@example.com"})
    seen = wait_until(lambda: control(b, "GET", "/mock/users/dave")[0] == 200, 1.0)
    check(status == 201 and seen is not None, f"a user added at A is read back from B ({seen})")
    status, _ = control(b, "PATCH", "/mock/users/dave", {"credential_state": "revoked", "email_forwarding": False})
    changed = wait_until(lambda: control(c, "GET", "/mock/users/dave")[1].get("credential_state") == "revoked", 1.0)
    body = control(c, "GET", "/mock/users/dave")[1]
    check(status == 200 and changed is not None and body.get("email_forwarding") is False,
          f"credential state and forwarding changed at B are read back from C ({changed})")
    status, _ = control(c, "DELETE", "/mock/users/dave")
    deleted = wait_until(lambda: control(a, "GET", "/mock/users/dave")[0] == 404, 1.0)
    check(status == 200 and deleted is not None,
          f"a user deleted at C is gone at A ({status}, {deleted}, {control(a, 'GET', '/mock/users/dave')})")


def fault_checks(replicas: list[MockProcess], secret: str) -> None:
    """`times: 2` means twice across the fleet, not twice per replica."""
    rule = {"id": "twice", "match": "POST /auth/token", "status": 429, "times": 2}
    added = [control(replica, "POST", "/mock/faults", rule)[0] for replica in replicas]
    clients = [Client("127.0.0.1", replica.port, secret) for replica in replicas]
    statuses = [clients[i % 3].token(code_grant("not-a-code"))[0] for i in range(9)]
    check(added == [201] * 3 and statuses.count(429) == 2,
          f"a fault with times: 2 fires twice over 9 requests on 3 replicas ({statuses})")
    for replica in replicas:
        control(replica, "DELETE", "/mock/faults/twice")


TIMELINE = """
timeline:
  - after: 4 POST /auth/token with grant_type=refresh_token
    do:
      - revoke_consent: alice
      - notify: {type: consent-revoked, user: alice}
  - at: 1h
    do:
      - notify: {type: email-disabled, user: alice}
"""


def timeline_checks(binary: Path, redis: RedisServer, secret: str, temp_path: Path) -> None:
    """One timeline for the fleet: request triggers count across replicas, each entry notifies once."""
    receiver = Receiver()
    text = (SCENARIOS_DIR / "default.yaml").read_text()
    text = text.replace("name: built-in", "name: fleet-timeline").replace("pem_file: keys/", f"pem_file: {KEYS_DIR}/")
    text = text.replace("    primary: com.example.app\n", f"    primary: com.example.app\n    notification_url: {receiver.url}\n")
    scenario = temp_path / "fleet-timeline.yaml"
    scenario.write_text(text + TIMELINE)
    pair = [MockProcess(binary, ["--store", redis.url, "--scenario", str(scenario)], temp_path / f"timeline-{n}.log")
            for n in "ab"]
    try:
        clients = [Client("127.0.0.1", replica.port, secret) for replica in pair]
        refresh = {"grant_type": "refresh_token", "refresh_token": "not-a-token"}
        for i in range(3):
            clients[i % 2].token(refresh)
        revoked = [control(replica, "GET", "/mock/users/alice")[1].get("credential_state") for replica in pair]
        check(revoked.count("revoked") == 0, f"3 refreshes over 2 replicas: the 4-request trigger waits ({revoked})")
        clients[1].token(refresh)
        seen = wait_until(lambda: all(control(replica, "GET", "/mock/users/alice")[1].get("credential_state")
                                      == "revoked" for replica in pair), 1.0)
        check(seen is not None, f"the fleet's 4th refresh fired the entry; both replicas revoked alice ({seen})")
        for i in range(4):
            clients[i % 2].token(refresh)
        status, _ = control(pair[0], "POST", "/mock/clock", {"advance": "2h"})
        fired = wait_until(lambda: len(receiver.bodies) >= 2, 2.0)
        time.sleep(1.0)  # four polls of each replica: a second sender would have posted by now
        kinds = [json.loads(base64.urlsafe_b64decode(body.split(b".")[1] + b"==")).get("events", "")
                 for body in receiver.bodies]
        check(status == 200 and fired is not None and len(receiver.bodies) == 2
              and "consent-revoked" in kinds[0] and "email-disabled" in kinds[1],
              f"each timeline notification sent once by the fleet, the time trigger without requests "
              f"({len(receiver.bodies)} POSTs: {[k[:40] for k in kinds]})")
    finally:
        for replica in pair:
            replica.stop()
        receiver.close()


def seeded_checks(binary: Path, redis: RedisServer, temp_path: Path) -> None:
    """Two replicas of a scenario with `seed:` never mint one code twice; a code names the user who got it."""
    text = (SCENARIOS_DIR / "default.yaml").read_text()
    text = text.replace("name: built-in", "name: fleet-seeded\nseed: 42").replace("pem_file: keys/", f"pem_file: {KEYS_DIR}/")
    scenario = temp_path / "fleet-seeded.yaml"
    scenario.write_text(text)
    pair = [MockProcess(binary, ["--store", redis.url, "--scenario", str(scenario)], temp_path / f"seeded-{n}.log")
            for n in "ab"]
    try:
        native_secret = mint_client_secret(binary, "com.example.app")
        a, b = (Client("127.0.0.1", replica.port, native_secret) for replica in pair)

        def credential(replica: MockProcess, user: str) -> dict:
            return control(replica, "POST", "/mock/credentials", {"client_id": "com.example.app", "user": user})[1]

        alice, bob, carol = credential(pair[0], "alice"), credential(pair[1], "bob"), credential(pair[1], "carol")
        codes = {alice.get("authorizationCode"), bob.get("authorizationCode"), carol.get("authorizationCode")}
        check(len(codes) == 3 and None not in codes, f"seed: 42 on two replicas: three sign-ins, three codes ({codes})")
        status, _, body = a.request("POST", "/auth/token", {
            "client_id": "com.example.app", "client_secret": native_secret, "grant_type": "authorization_code",
            "code": carol.get("authorizationCode", "")})
        tokens = json.loads(body or b"{}")
        claims = json.loads(base64.urlsafe_b64decode(tokens.get("id_token", "x.e30.x").split(".")[1] + "=="))
        check(status == 200 and claims.get("sub") == carol.get("user"),
              f"carol's code minted at B and redeemed at A names carol ({claims.get('sub')} vs {carol.get('user')})")
        refresh = tokens.get("refresh_token", "")
        _, _, body = b.request("POST", "/auth/token", {
            "client_id": "com.example.app", "client_secret": native_secret, "grant_type": "refresh_token",
            "refresh_token": refresh})
        refreshed = json.loads(body or b"{}")
        sub = json.loads(base64.urlsafe_b64decode(refreshed.get("id_token", "x.e30.x").split(".")[1] + "==")).get("sub")
        check(sub in (None, carol.get("user")) and "access_token" in refreshed,
              f"carol's refresh token at B answers for carol ({sub})")
    finally:
        for replica in pair:
            replica.stop()


def fleet_requests(replica: MockProcess, query: str) -> list[dict]:
    status, body = control(replica, "GET", "/mock/requests?scope=fleet&" + query)
    return body.get("requests", []) if status == 200 else []


def journal_checks(replicas: list[MockProcess], secret: str) -> None:
    a, b, c = (Client("127.0.0.1", replica.port, secret) for replica in replicas)
    status, body = control(replicas[0], "DELETE", "/mock/requests?scope=fleet")
    check(status == 200 and "cleared" in body, f"fleet journal cleared at A ({status})")
    code = a.authorize()
    b.token(code_grant(code))
    c.token(code_grant(code))
    # A sent its authorize entry within 100 ms, B its redemption; C sends its own before reading.
    found = wait_until(lambda: len(fleet_requests(replicas[2], "path=/auth/token")) == 2
                       and len(fleet_requests(replicas[2], "path=/auth/authorize")) == 1, 1.0)
    tokens = fleet_requests(replicas[2], "path=/auth/token")
    authorize = fleet_requests(replicas[2], "path=/auth/authorize")
    by_outcome = {e["outcome"]: e for e in tokens}
    check(found is not None and sorted(by_outcome) == ["invalid_grant", "ok"],
          f"fleet journal at C: A's authorize, B's redemption and C's refusal within 1 s ({found}; "
          f"{[(e.get('replica'), e['outcome']) for e in tokens]})")
    # Across replicas the order is the order entries reached Redis (each replica sends every 100 ms; C sent
    # its own before reading), so only each replica's own order is exact: names and numbers are checked.
    names = [e.get("replica") for e in authorize + [by_outcome.get("ok", {}), by_outcome.get("invalid_grant", {})]]
    sequences = [e["sequence"] for e in authorize + tokens]
    check(len(set(names)) == 3 and None not in names and len(set(sequences)) == 3,
          f"three replicas named (A authorized, B redeemed, C refused), numbered once each ({names}, {sequences})")
    check(fleet_requests(replicas[0], "path=/auth/token") == tokens, "the same page at A")
    redeemed = by_outcome.get("ok", {})
    status, body = control(replicas[1], "GET",
                           f"/mock/requests?after={redeemed.get('replica_sequence', 1) - 1}&limit=1")
    own = body.get("requests", [{}])[0] if status == 200 and body.get("requests") else {}
    check(own.get("path") == "/auth/token" and own.get("outcome") == "ok"
          and own.get("parameters") == redeemed.get("parameters"),
          "replica_sequence is the entry's number in B's own journal")


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
    status, body = control(replicas[0], "GET", "/mock/requests?scope=fleet")
    check(status == 503 and body.get("error") == "unavailable", f"Redis down: the fleet journal answers 503 ({status})")

    redis.start()
    deadline = time.monotonic() + 5
    # Each replica reconnects on its own next PING (≤ 500 ms): wait for all, not only one.
    while time.monotonic() < deadline and any(control(r, "GET", "/mock/health")[0] != 200 for r in replicas):
        time.sleep(0.05)
    check(all(control(r, "GET", "/mock/health")[0] == 200 for r in replicas),
          "Redis back: /mock/health healthy again on every replica")
    # The journal entries of the outage waited at each replica and are sent now.
    refused = wait_until(lambda: len([e for e in fleet_requests(replicas[1], "path=/auth/token")
                                      if e["status"] == 503]) == 3, 1.0)
    check(refused is not None, f"Redis back: the outage's three 503s reach the fleet journal ({refused})")
    status, _ = c.token(code_grant(kept))
    check(status == 200, "Redis back: the code issued before the outage is redeemed (nothing lost)")
    status, _ = a.token(code_grant(kept))
    check(status == 400, "Redis back: and only once (no double spend)")
    status, _ = b.token({"grant_type": "refresh_token", "refresh_token": spent_refresh})
    check(status == 200, f"Redis back: a refresh token issued before the outage still works ({status})")


if __name__ == "__main__":
    sys.exit(main())
