#!/usr/bin/env python3
"""Load and soak: many concurrent complete sign-in flows from several processes (loopback only).

Usage: bench/load/run.py [--binary PATH] [--seconds 60] [--processes 3] [--scenario FILE]
                         [--long | --wait-expiry | --expire-now] [--settle 10] [--json FILE]
                         [--lb [--kill-redis-at S --redis-down-for D]]

Each worker process runs, on its own keep-alive connection, flows of
  authorize (login_hint) → token (authorization_code) → token (refresh_token) → revoke (refresh token)
  → token (refresh_token) again, which must fail with invalid_grant;
and every 8th flow also mints a code that it redeems while the next worker redeems it too (two
processes racing on one code). Afterwards it checks that every code got exactly one 200, every
losing attempt was `invalid_grant` "The code has already been used.", every revoked refresh token
was refused, every request got a status, and there was no 5xx. It samples the server's RSS during
and after the run. `--long` runs 5 minutes and then, like `--wait-expiry`, waits out the codes'
5-minute lifetime and triggers a sweep (1100 authorizations; the store sweeps every 1024
mutations), to see whether memory comes back. `--expire-now` instead moves the mock clock 61 minutes
ahead (POST /mock/clock), so every code and access token is expired at once, waits 20 s for the
server's maintenance tick (every 15 s: sweep, then malloc_trim) and samples RSS again.

`--scenario FILE` serves FILE instead of the built-in scenario, e.g. bench/load/faults.yaml (probabilistic
503 and 429 + Retry-After on /auth/token, delayed revokes, /auth/keys connections closed without a
response). Workers then also fetch /auth/keys every flow and retry like a backend: a 503 after 20 ms,
a 429 after its Retry-After, a closed keys connection at once. Extra checks: a faulted redemption did
not consume its code (its retry got the one 200), every injected 503/429/close seen by the clients
equals the rule's `fired` counter in GET /mock/faults, and no 5xx other than the injected ones.

`--lb` runs the scale-out topology instead of one mock (issue #16; docs/scale-out.md): Debian's
redis-server, two replicas with `--store` on it and Debian's nginx in front with
Examples/ScaleOut/nginx.conf (siwatest.scaleout); the workers talk to nginx only, so a raced code is
usually redeemed at both replicas at once. `--kill-redis-at S --redis-down-for D` kills Redis (SIGKILL)
S seconds into the run and starts it again (same append-only file, fsynced on every write) D seconds
later. Workers then retry a 503 like a backend, after its Retry-After. Extra checks: every 503 was the
documented one (empty body, Retry-After: 1), no other 5xx (no 502/504 from nginx: no replica crashed),
no code redeemed twice, a code without a 200 only where a redemption's answer was lost in the outage,
and flows completed before the kill and again after the restart.
Exit status 0 only if every check holds.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing as mp
import queue
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "Tests" / "pysupport"))
from siwatest.client import Client, mint_client_secret  # noqa: E402
from siwatest.process import MockProcess, raise_fd_limit  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402
from siwatest.scaleout import Fleet  # noqa: E402
from siwatest.scenario import REDIRECT_URI  # noqa: E402

USERS = ("alice", "bob", "carol")
RACE_EVERY = 8
USED = "The code has already been used."


class Recorder:
    """Per-process results: latencies by endpoint, status counts, per-code outcomes, problems."""

    def __init__(self) -> None:
        self.latencies: dict[str, list[float]] = {}
        self.statuses: Counter = Counter()
        self.lost = 0
        self.codes: list[tuple[str, int, str]] = []  # (code, status, error_description)
        self.problems: list[str] = []
        self.flows = 0
        self.revoked_checked = 0
        self.injected: Counter = Counter()  # faults seen by the client: "503", "429", "keys-closed"
        self.revokes = 0
        self.faulted_codes: list[str] = []  # codes whose redemption met an injected fault first
        self.retry_sleep = 0.0
        self.faults = False  # with a fault scenario, 503s are injected (counted and checked separately)
        self.outage = False  # Redis is killed mid-run: documented 503s are retried (counted separately)
        self.undocumented_503 = 0
        self.flow_ends: list[float] = []  # wall-clock end of every completed flow
        self.outage_codes: list[str] = []  # codes whose redemption got an outage 503 first

    def timed(self, kind: str, call):
        started = time.perf_counter()
        try:
            result = call()
        except Exception as error:  # noqa: BLE001 - a request without a response
            self.lost += 1
            if len(self.problems) < 20:
                self.problems.append(f"{kind}: no response: {error!r}")
            raise
        self.latencies.setdefault(kind, []).append(time.perf_counter() - started)
        status = result[0] if isinstance(result, tuple) else result
        self.statuses[status] += 1
        if status >= 500 and not ((self.faults or self.outage) and status == 503) and len(self.problems) < 20:
            self.problems.append(f"{kind}: {status}")
        return result


def documented_outage(result) -> bool:
    """The 503 of docs/scale-out.md, "Failure modes": empty body, Retry-After: 1."""
    status, parsed, headers = result
    return status == 503 and parsed == {} and headers.get("retry-after") == "1"


MAX_ATTEMPTS = 20


def with_retries(rec: Recorder, kind: str, call, faults: bool):
    """Runs `call` through rec.timed; with faults on, retries injected 503 (after 20 ms) and 429 (after
    its Retry-After) as a backend would; during a Redis outage, retries the documented 503 after its
    Retry-After. Returns the first answer that is not an injected fault or outage."""
    for _ in range(MAX_ATTEMPTS if faults or rec.outage else 1):
        result = rec.timed(kind, call)
        status = result[0] if isinstance(result, tuple) else result
        if rec.outage and status == 503:
            if not documented_outage(result):
                rec.undocumented_503 += 1
                rec.problems.append(f"{kind}: undocumented 503 {result[1]} {result[2]}")
                return result
            rec.injected["outage-503"] += 1
            pause = float(result[2]["retry-after"])
            rec.retry_sleep += pause
            time.sleep(pause)
            continue
        if not faults or status not in (503, 429):
            return result
        rec.injected[str(status)] += 1
        pause = 0.02
        if status == 429:
            pause = float(result[2].get("retry-after", "1"))
        rec.retry_sleep += pause
        time.sleep(pause)
    rec.problems.append(f"{kind}: still faulted after {MAX_ATTEMPTS} attempts")
    return result


def token(client: Client, grant: dict[str, str]) -> tuple[int, dict, dict]:
    """POST /auth/token keeping the headers (Retry-After)."""
    form = {"client_id": "com.example.web", "client_secret": client.secret, **grant}
    status, headers, body = client.request("POST", "/auth/token", form)
    try:
        parsed = json.loads(body) if body else {}
    except ValueError:  # e.g. an injected 503's plain-text body
        parsed = {"body": body[:100].decode("utf-8", "replace")}
    return status, parsed, headers


def authorize(client: Client) -> tuple[int, dict, dict]:
    """A headless authorize for the worker's user: (302, {"code": …}, headers) or the error answer."""
    status, headers, body = client.authorize_request(client.user)
    if status == 302:
        query = urllib.parse.urlsplit(headers.get("location", "")).query
        return status, {"code": dict(urllib.parse.parse_qsl(query)).get("code", "")}, headers
    return status, ({"body": body[:100].decode("utf-8", "replace")} if body else {}), headers


def revoke(client: Client, token: str) -> tuple[int, dict, dict]:
    form = {"client_id": "com.example.web", "client_secret": client.secret, "token": token,
            "token_type_hint": "refresh_token"}
    status, headers, body = client.request("POST", "/auth/revoke", form)
    return status, ({"body": body[:100].decode("utf-8", "replace")} if body else {}), headers


def fetch_keys(client: Client, rec: Recorder) -> None:
    """GET /auth/keys as a backend verifying an id_token would; a connection closed without a response
    (the injected fault) is retried at once on a new connection."""
    for _ in range(MAX_ATTEMPTS):
        try:
            started = time.perf_counter()
            status = client.request("GET", "/auth/keys")[0]
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            client.close()
            rec.injected["keys-closed"] += 1
            continue
        rec.latencies.setdefault("keys", []).append(time.perf_counter() - started)
        rec.statuses[status] += 1
        if status != 200:
            rec.problems.append(f"keys answered {status}")
        return
    rec.problems.append(f"keys: still closed after {MAX_ATTEMPTS} attempts")


def redeem(client: Client, rec: Recorder, code: str, faults: bool = False) -> tuple[int, dict]:
    faults_before = rec.injected["503"] + rec.injected["429"]
    outages_before = rec.injected["outage-503"]
    status, body, _ = with_retries(rec, "token:code", lambda: token(
        client, {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI}), faults)
    rec.codes.append((code, status, body.get("error_description", "") if status != 200 else ""))
    if rec.injected["503"] + rec.injected["429"] != faults_before:
        rec.faulted_codes.append(code)
    if rec.injected["outage-503"] != outages_before:
        rec.outage_codes.append(code)
    return status, body


def worker(index: int, user: str, host: str, port: int, secret: str, deadline: float,
           inbox, partner_inbox, acks, all_acks, results, faults: bool, outage: bool) -> None:
    """Runs flows for `user` alone (a revoke ends that user's whole authorization, Apple semantics, so
    two processes must not share a user); every RACE_EVERY-th flow races a code with the next process."""
    rec = Recorder()
    rec.faults = faults
    rec.outage = outage
    client = Client(host, port, secret, timeout=15, retry=False)
    client.user = user
    racer = Client(host, port, secret, timeout=15, retry=False)

    predecessor_done = [partner_inbox is None]

    def serve_inbox() -> None:
        """Redeems codes the previous process hands over; notes when it has finished."""
        while True:
            try:
                message = inbox.get_nowait()
            except queue.Empty:
                return
            if message is None:
                predecessor_done[0] = True
                return
            owner, code = message
            all_acks[owner].put("go")
            try:
                redeem(racer, rec, code, faults)
            except Exception:  # noqa: BLE001 - counted as lost
                racer.close()
            all_acks[owner].put("done")

    def await_ack(expected: str) -> None:
        # Keep serving our own inbox while waiting, so a ring of waiting processes cannot deadlock.
        limit = time.monotonic() + 30
        while time.monotonic() < limit:
            serve_inbox()
            try:
                message = acks.get(timeout=0.002)
            except queue.Empty:
                continue
            assert message == expected, (message, expected)
            return
        rec.problems.append(f"partner never answered '{expected}'")

    n = 0
    while time.time() < deadline:
        n += 1
        try:
            serve_inbox()
            status, body, _ = with_retries(rec, "authorize", lambda: authorize(client), faults)
            if status != 302:
                rec.problems.append(f"authorize answered {status} {body}")
                continue
            code = body["code"]
            if n % RACE_EVERY == 0 and partner_inbox is not None:
                # Hand the code to the next process; both send their redemption once it has it.
                partner_inbox.put((index, code))
                await_ack("go")
                redeem(client, rec, code, faults)
                await_ack("done")  # our next revoke would otherwise revoke the code under the partner
                continue
            status, tokens = redeem(client, rec, code, faults)
            if status != 200:
                # The documented outcome of a redemption whose answer was lost when Redis died: the
                # code is used, the retry refused (checked against the outage codes after the run).
                if not (rec.outage and code in rec.outage_codes and tokens.get("error_description") == USED):
                    rec.problems.append(f"fresh code refused: {status} {tokens}")
                continue
            if faults:
                fetch_keys(client, rec)
            refresh = tokens["refresh_token"]
            status, body, _ = with_retries(rec, "token:refresh", lambda: token(
                client, {"grant_type": "refresh_token", "refresh_token": refresh}), faults)
            if status != 200 or "access_token" not in body:
                rec.problems.append(f"refresh refused: {status} {body}")
            status = with_retries(rec, "revoke", lambda: revoke(client, refresh), faults)[0]
            rec.revokes += 1
            if status != 200:
                rec.problems.append(f"revoke answered {status}")
            status, body, _ = with_retries(rec, "token:revoked", lambda: token(
                client, {"grant_type": "refresh_token", "refresh_token": refresh}), faults)
            rec.revoked_checked += 1
            if status != 400 or body.get("error") != "invalid_grant":
                rec.problems.append(f"revoked refresh token accepted: {status} {body}")
            rec.flows += 1
            rec.flow_ends.append(time.time())
        except Exception:  # noqa: BLE001 - already counted; start over on a new connection
            client.close()
    # Tell the next process no more codes come, and serve the previous one until it says the same.
    if partner_inbox is not None:
        partner_inbox.put(None)
    while not predecessor_done[0]:
        serve_inbox()
        time.sleep(0.005)
    client.close()
    racer.close()
    results.put({
        "latencies": rec.latencies, "statuses": dict(rec.statuses), "lost": rec.lost, "codes": rec.codes,
        "problems": rec.problems, "flows": rec.flows, "revoked_checked": rec.revoked_checked,
        "injected": dict(rec.injected), "revokes": rec.revokes, "faulted_codes": rec.faulted_codes, "retry_sleep": rec.retry_sleep,
        "undocumented_503": rec.undocumented_503, "flow_ends": rec.flow_ends, "outage_codes": rec.outage_codes,
    })


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, epilog=COMMON_FLAGS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--processes", type=int, default=3,
                        help="worker processes, at most one per built-in user (3)")
    parser.add_argument("--long", action="store_true", help="5 minutes of load, then --wait-expiry")
    parser.add_argument("--wait-expiry", action="store_true",
                        help="afterwards wait out the codes' 5-minute lifetime, trigger a sweep, measure RSS")
    parser.add_argument("--expire-now", action="store_true",
                        help="afterwards advance the mock clock 61 min, wait for the maintenance tick, measure RSS")
    parser.add_argument("--settle", type=float, default=10,
                        help="seconds to wait after the load before sampling RSS again (0 skips it)")
    parser.add_argument("--scenario", type=Path, help="serve this scenario (e.g. bench/load/faults.yaml)")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    parser.add_argument("--lb", action="store_true",
                        help="redis-server, two replicas on it and nginx in front (Examples/ScaleOut/nginx.conf)")
    parser.add_argument("--kill-redis-at", type=float, metavar="S",
                        help="with --lb: kill Redis (SIGKILL) S seconds into the run")
    parser.add_argument("--redis-down-for", type=float, default=3, metavar="D",
                        help="with --kill-redis-at: start Redis again D seconds later (default 3)")
    args = parser.parse_args()
    if args.kill_redis_at is not None and not args.lb:
        parser.error("--kill-redis-at needs --lb")
    args.binary = resolve_binary(args.binary)
    seconds = 300 if args.long else args.seconds
    faults = args.scenario is not None
    raise_fd_limit()
    secret = mint_client_secret(args.binary)
    work = Path(tempfile.mkdtemp(prefix="siwa-load."))
    scenario = ["--scenario", str(args.scenario.resolve())] if faults else []
    server = (Fleet(args.binary, work, extra=scenario) if args.lb
              else MockProcess(args.binary, scenario, work / "serve.log"))
    outage = args.kill_redis_at is not None
    outage_window: list[float] = []  # wall-clock kill and restart times
    ok = True
    try:
        warm = Client(server.host, server.port, secret)
        if faults:
            # The warm-up flow may meet a fault too; retry it like the workers do.
            for _ in range(MAX_ATTEMPTS):
                status, tokens, _ = token(warm, {"grant_type": "authorization_code", "code": warm.authorize(),
                                                 "redirect_uri": REDIRECT_URI})
                if status == 200:
                    break
            assert status == 200, (status, tokens)
            # Count only what the workers see: zero the fault counters after warming up.
            warm.request("POST", "/mock/faults/reset", {})
        else:
            warm.check_code_flow()
        warm.close()
        baseline = server.rss_kib()
        rss_samples: list[int] = []
        stop_sampling = threading.Event()

        def sample() -> None:
            while not stop_sampling.wait(0.25):
                rss_samples.append(server.rss_kib())

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        ctx = mp.get_context("fork")
        count = max(1, min(args.processes, len(USERS)))
        inboxes = [ctx.Queue() for _ in range(count)]
        acks = [ctx.Queue() for _ in range(count)]
        results = ctx.Queue()
        deadline = time.time() + seconds
        started = time.monotonic()
        procs = [ctx.Process(target=worker, args=(
            i, USERS[i], server.host, server.port, secret, deadline, inboxes[i],
            inboxes[(i + 1) % count] if count > 1 else None, acks[i], acks, results, faults, outage))
            for i in range(count)]
        for proc in procs:
            proc.start()

        def redis_outage() -> None:
            time.sleep(args.kill_redis_at)
            server.redis.kill()
            outage_window.append(time.time())
            time.sleep(args.redis_down_for)
            server.redis.start()
            outage_window.append(time.time())

        outage_thread = threading.Thread(target=redis_outage, daemon=True)
        if outage:
            outage_thread.start()
        collected = [results.get(timeout=seconds + 120) for _ in procs]
        if outage:
            outage_thread.join()
        for proc in procs:
            proc.join(timeout=30)
        elapsed = time.monotonic() - started
        stop_sampling.set()
        sampler.join()
        rss_end = server.rss_kib()
        time.sleep(args.settle)
        rss_after_10s = server.rss_kib()

        latencies: dict[str, list[float]] = {}
        statuses: Counter = Counter()
        per_code: dict[str, list[tuple[int, str]]] = {}
        problems: list[str] = []
        injected: Counter = Counter()
        lost = flows = revoked = revokes = 0
        retry_sleep = 0.0
        faulted_codes: list[str] = []
        outage_codes: set[str] = set()
        flow_ends: list[float] = []
        undocumented_503 = 0
        for part in collected:
            for kind, values in part["latencies"].items():
                latencies.setdefault(kind, []).extend(values)
            statuses.update({int(k): v for k, v in part["statuses"].items()})
            for code, status, description in part["codes"]:
                per_code.setdefault(code, []).append((status, description))
            problems += part["problems"]
            lost += part["lost"]
            flows += part["flows"]
            revoked += part["revoked_checked"]
            injected.update(part["injected"])
            revokes += part["revokes"]
            retry_sleep += part["retry_sleep"]
            faulted_codes += part["faulted_codes"]
            outage_codes.update(part["outage_codes"])
            flow_ends += part["flow_ends"]
            undocumented_503 += part["undocumented_503"]
        requests = sum(statuses.values())
        all_latencies = [v for values in latencies.values() for v in values]

        # A redemption whose answer was lost when Redis died may have run: its code is then used without
        # a 200 (docs/scale-out.md, "Failure modes": never retried, never a double spend).
        answer_lost = {c for c in outage_codes if all(outcome == (400, USED) for outcome in per_code.get(c, []))}
        double_spent = {c: r for c, r in per_code.items() if sum(1 for s, _ in r if s == 200) > 1}
        not_once = {c: r for c, r in per_code.items()
                    if sum(1 for s, _ in r if s == 200) != 1 and c not in answer_lost}
        raced = {c: r for c, r in per_code.items() if len(r) == 2}
        bad_losers = {c: r for c, r in raced.items()
                      if (sorted(r)[0][0] != 200 or sorted(r)[1] != (400, USED)) and c not in answer_lost}
        fivexx = sum(v for k, v in statuses.items() if k >= 500) - injected["503"] - injected["outage-503"]
        fault_rules: dict[str, dict] = {}
        if faults:
            control = Client(server.host, server.port, secret)
            status, _, body = control.request("GET", "/mock/faults")
            control.close()
            assert status == 200, (status, body[:300])
            listed = json.loads(body)
            for rule in listed.get("faults", listed) if isinstance(listed, dict) else listed:
                fault_rules[rule["id"]] = {k: rule.get(k) for k in ("matched", "fired")}

        figures = {
            "seconds": round(elapsed, 1), "processes": count, "flows": flows, "requests": requests,
            "requests_per_second": round(requests / elapsed, 1), "flows_per_second": round(flows / elapsed, 1),
            "p50_ms": round(percentile(all_latencies, 50) * 1000, 2),
            "p99_ms": round(percentile(all_latencies, 99) * 1000, 2),
            "by_endpoint_p50_p99_ms": {k: [round(percentile(v, 50) * 1000, 2), round(percentile(v, 99) * 1000, 2)]
                                       for k, v in sorted(latencies.items())},
            "statuses": dict(sorted(statuses.items())), "lost": lost, "5xx": fivexx,
            "codes": len(per_code), "codes_not_redeemed_exactly_once": len(not_once),
            "raced_codes": len(raced), "raced_codes_wrong_outcome": len(bad_losers),
            "revoked_refresh_tokens_checked": revoked,
            "injected_seen_by_clients": dict(sorted(injected.items())),
            "codes_redeemed_after_a_faulted_attempt": len(set(faulted_codes)),
            "fault_counters": fault_rules, "client_retry_sleep_s": round(retry_sleep, 1),
            "codes_redeemed_twice": len(double_spent),
            "rss_mib": {"baseline": round(baseline / 1024, 1), "peak": round(max(rss_samples or [0]) / 1024, 1),
                        "end": round(rss_end / 1024, 1), "after_10s": round(rss_after_10s / 1024, 1)},
        }
        if args.long or args.wait_expiry:
            # Codes live 5 minutes; expired ones are dropped on the next sweep (every 1024 mutations).
            time.sleep(310)
            idle = Client(server.host, server.port, secret)
            for _ in range(1100):
                idle.authorize()
            idle.close()
            figures["rss_mib"]["after_code_expiry_and_sweep"] = round(server.rss_kib() / 1024, 1)
            time.sleep(5)
            figures["rss_mib"]["after_code_expiry_and_sweep_5s"] = round(server.rss_kib() / 1024, 1)
        if args.expire_now:
            # Every code (5 min) and access token (1 h) expires at once; the idle server's maintenance
            # tick (every 15 s) sweeps them and trims the heap.
            connection = http.client.HTTPConnection(server.host, server.port, timeout=10)
            connection.request("POST", "/mock/clock", body=json.dumps({"advance": "61m"}),
                               headers={"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            connection.close()
            assert response.status == 200, response.status
            for waited in (5, 10, 15, 20, 25):
                time.sleep(5)
                figures["rss_mib"][f"after_clock_advance_{waited}s"] = round(server.rss_kib() / 1024, 1)

        checks = {
            "every request got a status": lost == 0,
            "no 5xx" + (" other than the injected 503s" if faults else ""): fivexx == 0,
            "every code redeemed exactly once": not not_once and len(per_code) > 0,
            "raced codes: one 200 and one 'already been used'": not bad_losers and len(raced) > 0,
            "every revoked refresh token refused": revoked == flows and not any("revoked" in p for p in problems),
            "no other problem": not problems,
            "server alive": server.alive,
        }
        if args.lb:
            checks["no code redeemed twice (two replicas behind nginx)"] = not double_spent
        if outage:
            killed, restarted = (outage_window + [float("inf")] * 2)[:2]
            before_kill = sum(1 for end in flow_ends if end < killed)
            after_restart = sum(1 for end in flow_ends if end > restarted + 1)
            figures["redis_outage"] = {
                "killed_at_s": args.kill_redis_at, "down_for_s": args.redis_down_for,
                "documented_503s_seen": injected["outage-503"], "undocumented_503s": undocumented_503,
                "codes_meeting_the_outage": len(outage_codes), "codes_used_with_their_answer_lost": len(answer_lost),
                "flows_before_kill": before_kill, "flows_from_1s_after_restart": after_restart}
            checks["Redis killed: only documented 503s (empty body, Retry-After: 1)"] = (
                injected["outage-503"] > 0 and undocumented_503 == 0)
            checks["Redis restarted: service resumed (flows completed before the kill and after the restart)"] = (
                before_kill > 0 and after_restart > 0)
        if faults:
            fired = {rule: counters.get("fired") for rule, counters in fault_rules.items()}
            checks["faults fired (503, 429, keys closed, revokes delayed)"] = (
                injected["503"] > 0 and injected["429"] > 0 and injected["keys-closed"] > 0 and revokes > 0)
            # A 503/429 answered before the endpoint ran: the retry still redeems the code (one 200 overall).
            checks["a faulted redemption did not consume its code"] = bool(faulted_codes) and all(
                sum(1 for s, _ in per_code[c] if s == 200) == 1 for c in faulted_codes)
            checks["clients saw exactly the faults the server counts"] = (
                fired.get("token-503") == injected["503"] and fired.get("token-429") == injected["429"]
                and fired.get("keys-close") == injected["keys-closed"] and fired.get("revoke-slow") == revokes)
        print(json.dumps(figures, indent=1))
        for name, passed in checks.items():
            print(("PASS " if passed else "FAIL ") + name)
            ok = ok and passed
        for problem in problems[:10]:
            print(f"  problem: {problem}")
        for code, outcome in list(not_once.items())[:5] + list(bad_losers.items())[:5]:
            print(f"  code {code[:16]}…: {outcome}")
        if args.json:
            args.json.write_text(json.dumps({"figures": figures, "checks": checks}, indent=1) + "\n")
        print(f"load: {sum(checks.values())} passed, {len(checks) - sum(checks.values())} failed; "
              f"{flows} flows, {requests} requests in {elapsed:.0f} s ({requests / elapsed:.0f} req/s), "
              f"p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms, peak RSS {figures['rss_mib']['peak']} MiB")
    finally:
        rc = server.stop()
    if rc != 0:
        print(f"FAIL siwa-mock exited {rc} after SIGTERM")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
