#!/usr/bin/env python3
"""Full sign-ins through the load balancer of the scale-out topology (issue #16; docs/scale-out.md).

Usage: lb_signin.py --binary PATH [--flows 4]        (bare processes: redis-server, 2 replicas, nginx)
       lb_signin.py --lb HOST:PORT --replica HOST:PORT --replica HOST:PORT --secret SECRET [--flows 4]

Each flow: GET /auth/authorize (headless, login_hint) → code → POST /auth/token with a real client secret →
the id_token verified with PyJWT against /auth/keys fetched through the load balancer (RS256, iss, aud,
sub). nginx names the replica that answered in `X-Upstream` (examples/scale-out/nginx.conf). Checks: every
flow signs in; both replicas answered; at least one code minted by one replica was redeemed at the other;
each replica's own journal (GET /mock/requests, per replica) holds the token requests the header says it
answered, so the requests really landed there; the fleet journal (GET /mock/requests?scope=fleet, replicas
started with --shared-journal) read through the load balancer holds every redemption once, from both
replicas. Used by Tests/ScaleOut/run.sh (bare processes) and
Tests/Container/run.sh (the compose example, already up). With `--binary`, it starts the same topology
with bare processes (siwatest.scaleout: Debian's redis-server and nginx, Examples/ScaleOut/nginx.conf).
Exit status 0 only if every check holds.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

import jwt
from siwatest.client import Client, mint_client_secret
from siwatest.runner import resolve_binary
from siwatest.scaleout import Fleet
from siwatest.scenario import ALICE_SUB, ISSUER, REDIRECT_URI, WEB_CLIENT

FAILURES: list[str] = []


def check(condition: bool, what: str) -> None:
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        FAILURES.append(what)


def journal(replica: str, path: str) -> list[dict]:
    with urllib.request.urlopen(f"http://{replica}/mock/requests?path={path}", timeout=5) as response:
        body = json.loads(response.read())
    return body["requests"] if isinstance(body, dict) else body


def fleet_journal(lb: str, path: str) -> list[dict]:
    """GET /mock/requests?scope=fleet through the load balancer (either replica answers it)."""
    with urllib.request.urlopen(f"http://{lb}/mock/requests?scope=fleet&path={path}", timeout=5) as response:
        return json.loads(response.read())["requests"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", type=Path, help="start redis-server, two replicas of this binary and nginx")
    parser.add_argument("--lb", help="HOST:PORT of a running load balancer")
    parser.add_argument("--replica", action="append", default=[], help="HOST:PORT of a replica behind it (twice)")
    parser.add_argument("--secret", help="client secret of com.example.web (minted with --binary otherwise)")
    parser.add_argument("--flows", type=int, default=4)
    args = parser.parse_args()
    if args.binary is None:
        if not (args.lb and len(args.replica) == 2 and args.secret):
            parser.error("give --binary, or --lb, two --replica and --secret")
        return summary(run_checks(args.lb, args.replica, args.secret, args.flows))
    binary = resolve_binary(args.binary)
    secret = args.secret or mint_client_secret(binary)
    with tempfile.TemporaryDirectory(prefix="siwa-lb-") as temp:
        # As in the compose example: the replicas also keep the fleet journal.
        fleet = Fleet(binary, Path(temp), extra=["--shared-journal", "10000"])
        try:
            replicas = [f"127.0.0.1:{replica.port}" for replica in fleet.replicas]
            print(f"bare processes: redis-server :{fleet.redis.port}, replicas {replicas}, nginx {fleet.nginx.address}")
            status = run_checks(fleet.nginx.address, replicas, secret, args.flows)
        finally:
            exit_status = fleet.stop()
        check(exit_status == 0, f"both replicas exited 0 after SIGTERM (got {exit_status})")
    return summary(status)


def summary(status: int) -> int:
    print(f"{len(FAILURES)} failed" if FAILURES else "load balancer sign-in passed")
    return 1 if FAILURES or status else 0


def run_checks(lb: str, replicas: list[str], secret: str, flows: int) -> int:
    host, _, port = lb.rpartition(":")
    paths = ("/auth/authorize", "/auth/token")
    before = {(replica, path): len(journal(replica, path)) for replica in replicas for path in paths}
    fleet_before = {entry["sequence"] for entry in fleet_journal(lb, "/auth/token")}

    client = Client(host, int(port), secret)
    jwks = jwt.PyJWKClient(f"http://{lb}/auth/keys", cache_keys=False, cache_jwk_set=False)
    served: dict[tuple[str, str], int] = {}  # (upstream, path) → requests, from nginx's X-Upstream

    def note(headers: dict, path: str) -> str:
        upstream = headers.get("x-upstream", "")
        served[(upstream, path)] = served.get((upstream, path), 0) + 1
        return upstream

    crossed = signed_in = 0
    for _ in range(flows):
        status, headers, body = client.authorize_request("alice")
        minted_by = note(headers, "/auth/authorize")
        code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(headers.get("location", "")).query)).get("code")
        status, headers, body = client.request("POST", "/auth/token", {
            "client_id": WEB_CLIENT, "client_secret": secret, "grant_type": "authorization_code",
            "code": code or "", "redirect_uri": REDIRECT_URI})
        crossed += minted_by != note(headers, "/auth/token")
        if status != 200:
            print(f"  token answered {status}: {body[:200]!r}")
            continue
        id_token = json.loads(body)["id_token"]
        key = jwks.get_signing_key_from_jwt(id_token)
        claims = jwt.decode(id_token, key.key, algorithms=["RS256"], audience=WEB_CLIENT, issuer=ISSUER)
        signed_in += claims["sub"] == ALICE_SUB
    client.close()
    check(signed_in == flows,
          f"{signed_in}/{flows} sign-ins through the load balancer: authorize → token → id_token verified "
          "against /auth/keys (through the load balancer)")
    upstreams = {upstream for upstream, _ in served if upstream}
    check(len(upstreams) == 2, f"sign-in requests answered by both replicas (X-Upstream): {sorted(served.items())}")
    check(crossed > 0, f"{crossed} code(s) minted at one replica and redeemed at the other")
    for replica in replicas:
        replica_port = ":" + replica.rpartition(":")[2]
        for path in paths:
            seen = len(journal(replica, path)) - before[(replica, path)]
            said = sum(n for (upstream, where), n in served.items()
                       if where == path and upstream.endswith(replica_port))
            check(seen == said, f"replica {replica}'s own journal: {seen} {path} request(s), as nginx said")
    # The fleet journal read through the load balancer: this run's redemptions from both replicas, each
    # once (a replica sends its entries every 100 ms, the one answering first sends its own).
    fresh: list[dict] = []
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        fresh = [e for e in fleet_journal(lb, "/auth/token") if e["sequence"] not in fleet_before]
        if len(fresh) >= flows:
            break
        time.sleep(0.05)
    writers = {e.get("replica") for e in fresh}
    check(len(fresh) == flows and len(writers) == len(upstreams) and None not in writers,
          f"the fleet journal through the load balancer: {len(fresh)} /auth/token entries from "
          f"{len(writers)} replicas (nginx: {flows} from {len(upstreams)})")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
