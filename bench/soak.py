#!/usr/bin/env python3
"""Soak: does the mock hold its speed and memory for an hour of mixed traffic? (issue #11, loopback only)

Usage: bench/soak.py [--binary PATH] [--short] [--minutes 60] [--mode open|closed] [--rate REQ_PER_S]
                     [--json FILE]

Two client processes (alice and bob: a revoke ends its user's whole authorization, so each process
has its own user) run mixed flows on keep-alive connections:
  authorize → token (code) → GET /auth/keys → refresh → refresh → revoke → refresh after the revoke
  (must be invalid_grant); every 4th flow also redeems a code twice (the second must be invalid_grant
  "The code has already been used."), every 4th (offset by 2) gets native credentials with
  POST /mock/credentials and redeems their code as the app, and every 8th sends a consent-revoked
  notification (POST /mock/notifications) to a receiver this script runs; every queued `jti` must
  arrive there.

Every 30 s (10 s with --short) it samples the server's RSS (VmRSS, /proc/PID/status), its CPU time
(utime + stime, /proc/PID/stat), the clients' p50/p99 latency and throughput, the p99 of the server's
own handling times (from its request log) and the machine's load average. Checks:
  - no unexpected answer and no request without an answer;
  - throughput and p99 of the last 10 minutes within 10 % of the first 10 (degradation direction:
    the last window may be faster), and server CPU per request likewise (with --short the windows
    are 30 s, and p99 may also grow by --p99-slack-ms, 3 ms by default: a short window's p99 of a
    few ms moves that much with a neighbour's burst on a shared machine; and a growth of the clients'
    p99 fails only if the server's own p99, from its request log, grew beyond the same limit too: on
    two shared cores the clients' p99 also measures how the two Python clients were scheduled, while a
    slower server shows in both);
  - RSS levels off (the last window is at most --rss-growth-mib above the highest RSS of the first
    half) below --rss-bound-mib (docs/limits.md "Soak");
  - in open-loop mode the clients keep their schedule (no request sent more than --max-lag-ms late,
    and at least 98 % of the schedule sent); with --short a sample whose clients fell further behind
    fails only if the server's own p99 in that sample also passed the p99 limit above: at load 9 beside
    the background builds, on a VM whose host takes a share of the cores, the two Python clients were
    2.2 s late while the server answered within 2.1 ms (p99) and every request of the schedule went out;
    a server that stalls for that long shows in its own p99 for the sample.

--short also shortens the codes' lifetime to 20 s (scaled like the windows): codes stay in the store until
they expire, so with Apple's 5 minutes the code table would still be growing when a 150 s run ends.

Modes. `open` (the default) sends at a fixed total rate: each process has a slot every 2/RATE s and
waits for it, so a slower server shows as rising p99, rising CPU per request or the clients falling
behind their slots, never as a quietly lower request rate. Without --rate it first measures the
capacity for a few seconds closed-loop (which also warms the server up) and runs at
--fraction (0.45) of it. This is the mode for a shared machine: it leaves the other half of the cores
alone and is not distorted by their use. `closed` sends as fast as the server answers (quiet machine).
The server's request log goes to a file in a temporary directory, removed when every check passes.
Exit status 0 only if every check holds.
"""

from __future__ import annotations

import argparse
import base64
import importlib.util
import json
import multiprocessing as mp
import os
import queue
import re
import shutil
import sys
import tempfile
import time
from array import array
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Tests" / "pysupport"))
from siwatest.client import Client, mint_client_secret  # noqa: E402
from siwatest.process import MockProcess, raise_fd_limit  # noqa: E402
from siwatest.receiver import Receiver  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402
from siwatest.scenario import NATIVE_CLIENT, REDIRECT_URI  # noqa: E402

# The load test's recorder (latency, status, lost requests), token call and percentile.
_spec = importlib.util.spec_from_file_location("bench_load", HERE / "load" / "run.py")
load = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(load)

USERS = ("alice", "bob")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Pacer:
    """Open loop: slot k of a process is at start + k × interval; a request waits for its slot, and a
    late one is sent at once (catching up) with its lateness recorded."""

    def __init__(self, rate: float | None, start: float) -> None:
        self.interval = 1.0 / rate if rate else 0.0
        self.next = start
        self.max_lag = 0.0

    def wait(self) -> None:
        if not self.interval:
            return
        slot, self.next = self.next, self.next + self.interval
        now = time.monotonic()
        if now < slot:
            time.sleep(slot - now)
        else:
            self.max_lag = max(self.max_lag, now - slot)


class Worker:
    """One client process: runs flows until the deadline, reporting each sample interval's figures."""

    def __init__(self, index: int, server: tuple[str, int], secrets: tuple[str, str], start: float,
                 seconds: float, rate: float | None, sample: float, results) -> None:
        self.user = USERS[index]
        self.index, self.start, self.deadline, self.sample = index, start, start + seconds, sample
        self.results = results
        self.client = Client(*server, secrets[0], timeout=15, retry=False)
        self.native_secret = secrets[1]
        self.pacer = Pacer(rate, start)
        self.rec = load.Recorder()
        self.interval = 0
        self.errors = 0
        self.jtis: list[str] = []
        self.flows = 0

    def problem(self, text: str) -> None:
        self.errors += 1
        if len(self.rec.problems) < 20:
            self.rec.problems.append(text)

    def call(self, kind: str, action):
        """Waits for the next slot, sends, records; reports the previous interval when a new one began."""
        self.pacer.wait()
        current = int((time.monotonic() - self.start) // self.sample)
        if current != self.interval:
            self.report()
            self.interval = current
        return self.rec.timed(kind, action)

    def report(self) -> None:
        latencies = array("d", (v for values in self.rec.latencies.values() for v in values))
        self.results.put({
            "worker": self.index, "interval": self.interval, "latencies": latencies.tobytes(),
            "statuses": dict(self.rec.statuses), "lost": self.rec.lost, "errors": self.errors,
            "problems": self.rec.problems, "max_lag": self.pacer.max_lag, "jtis": self.jtis, "flows": self.flows,
        })
        self.rec = load.Recorder()
        self.errors, self.jtis, self.flows, self.pacer.max_lag = 0, [], 0, 0.0

    def expect(self, what: str, status: int, body: dict, want: int, error: str | None = None,
               description: str | None = None) -> bool:
        if status == want and (error is None or body.get("error") == error) and (
                description is None or body.get("error_description") == description):
            return True
        self.problem(f"{what}: {status} {str(body)[:200]}")
        return False

    def code_grant(self, code: str) -> tuple[int, dict]:
        status, body, _ = self.call("token:code", lambda: load.token(
            self.client, {"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT_URI}))
        return status, body

    def refresh(self, kind: str, refresh: str) -> tuple[int, dict]:
        status, body, _ = self.call(kind, lambda: load.token(
            self.client, {"grant_type": "refresh_token", "refresh_token": refresh}))
        return status, body

    def main_flow(self) -> None:
        code = self.call("authorize", lambda: (302, self.client.authorize(self.user)))[1]
        status, tokens = self.code_grant(code)
        if not self.expect("fresh code", status, tokens, 200) or "refresh_token" not in tokens:
            return
        status = self.call("keys", lambda: self.client.request("GET", "/auth/keys"))[0]
        self.expect("keys", status, {}, 200)
        refresh = tokens["refresh_token"]
        for kind in ("token:refresh", "token:refresh"):
            status, body = self.refresh(kind, refresh)
            self.expect("refresh", status, body, 200)
        status = self.call("revoke", lambda: self.client.revoke(refresh, "refresh_token"))
        self.expect("revoke", status, {}, 200)
        status, body = self.refresh("token:revoked", refresh)
        self.expect("refresh after revoke", status, body, 400, "invalid_grant")

    def code_reuse(self) -> None:
        code = self.call("authorize", lambda: (302, self.client.authorize(self.user)))[1]
        status, body = self.code_grant(code)
        self.expect("code", status, body, 200)
        status, body = self.code_grant(code)
        self.expect("reused code", status, body, 400, "invalid_grant", load.USED)

    def native(self) -> None:
        status, _, raw = self.call("credentials", lambda: self.client.request(
            "POST", "/mock/credentials", json_body={"client_id": NATIVE_CLIENT, "user": self.user,
                                                    "nonce": f"n-{self.flows}", "state": "s"}))
        body = json.loads(raw) if status == 200 else {"body": raw[:200]}
        if not self.expect("credentials", status, body, 200) or not body.get("identityToken"):
            return
        form = {"client_id": NATIVE_CLIENT, "client_secret": self.native_secret,
                "grant_type": "authorization_code", "code": body["authorizationCode"]}
        status, _, raw = self.call("token:native", lambda: self.client.request("POST", "/auth/token", form))
        self.expect("native code", status, json.loads(raw) if raw else {}, 200)

    def notify(self) -> None:
        status, _, raw = self.call("notifications", lambda: self.client.request(
            "POST", "/mock/notifications",
            json_body={"type": "consent-revoked", "user": self.user, "client_id": NATIVE_CLIENT}))
        body = json.loads(raw) if raw else {}
        if self.expect("notification", status, body, 202):
            self.jtis += [queued["jti"] for queued in body.get("queued", [])]

    def run(self) -> None:
        n = 0
        while time.monotonic() < self.deadline:
            n += 1
            try:
                self.main_flow()
                if n % 4 == 0:
                    self.code_reuse()
                if n % 4 == 2:
                    self.native()
                if n % 8 == 3:
                    self.notify()
                self.flows += 1
            except Exception as error:  # noqa: BLE001 - counted (lost or unexpected); new connection
                if not isinstance(error, (OSError, AssertionError)) or self.rec.lost == 0:
                    self.problem(f"flow failed: {error!r}")
                self.client.close()
        self.report()
        self.client.close()
        self.results.put({"worker": self.index, "done": True})


def run_worker(*args) -> None:
    Worker(*args).run()


def delivered(bodies: list[bytes]) -> tuple[Counter, int]:
    """The `jti` of each notification the receiver got (`{"payload": JWS}`), and how many were malformed."""
    jtis: Counter = Counter()
    bad = 0
    for body in bodies:
        try:
            claims = json.loads(body)["payload"].split(".")[1]
            jtis[json.loads(base64.urlsafe_b64decode(claims + "=" * (-len(claims) % 4)))["jti"]] += 1
        except (ValueError, KeyError, IndexError):
            bad += 1
    return jtis, bad


class LogTail:
    """The server's request log read as it grows: each line ends `<status> <N>us id=…`, the time the
    server spent on the request, free of the clients' own scheduling delays."""

    PATTERN = re.compile(rb" (\d+)us id=")

    def __init__(self, path: Path) -> None:
        self.file = open(path, "rb")  # noqa: SIM115 - read for the whole phase
        self.file.seek(0, os.SEEK_END)
        self.partial = b""

    def durations(self) -> list[float]:
        data = self.partial + self.file.read()
        complete, _, self.partial = data.rpartition(b"\n")
        return [int(m.group(1)) / 1e6 for m in self.PATTERN.finditer(complete)]


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14, 15)


class Interval:
    """One sample interval: both workers' figures plus the server's RSS and CPU at its end."""

    def __init__(self) -> None:
        self.latencies = array("d")
        self.statuses: Counter = Counter()
        self.lost = self.errors = self.flows = self.reports = 0
        self.max_lag = 0.0
        self.problems: list[str] = []
        self.rss_kib = 0
        self.cpu = 0.0
        self.load = 0.0  # the machine's 1-minute load average at the interval's end (other work on the cores)
        self.server_latencies = array("d")  # handling times from the server's request log (seconds)

    def add(self, part: dict) -> None:
        self.latencies.frombytes(part["latencies"])
        self.statuses.update(part["statuses"])
        self.lost += part["lost"]
        self.errors += part["errors"]
        self.flows += part["flows"]
        self.max_lag = max(self.max_lag, part["max_lag"])
        self.problems += part["problems"]
        self.reports += 1


def run_phase(args, server: MockProcess, secrets: tuple[str, str], seconds: float, rate: float | None,
              sample: float, on_sample=None) -> tuple[dict[int, Interval], list[str], float]:
    """Runs the two workers for `seconds`; samples the server at each interval's end. Returns the
    intervals, the queued notification jtis and the elapsed time."""
    ctx = mp.get_context("fork")
    results = ctx.Queue()
    start = time.monotonic() + 0.3
    per_process = rate / len(USERS) if rate else None
    procs = [ctx.Process(target=run_worker, args=(i, (server.host, server.port), secrets, start, seconds,
                                                  per_process, sample, results)) for i in range(len(USERS))]
    for proc in procs:
        proc.start()
    intervals: dict[int, Interval] = {}
    jtis: list[str] = []
    done = 0
    count = int(round(seconds / sample))
    boundary = 1
    cpu_before = cpu_seconds(server.proc.pid)
    log = LogTail(server.log_path)
    while done < len(procs):
        if boundary <= count:
            time.sleep(max(0.0, start + boundary * sample - time.monotonic()))
            cpu_now = cpu_seconds(server.proc.pid)
            interval = intervals.setdefault(boundary - 1, Interval())
            interval.rss_kib, interval.cpu = server.rss_kib(), cpu_now - cpu_before
            interval.load = float(Path("/proc/loadavg").read_text().split()[0])
            interval.server_latencies.extend(log.durations())
            cpu_before = cpu_now
            boundary += 1
        deadline = time.monotonic() + (0.05 if boundary <= count else 30)
        while time.monotonic() < deadline:
            try:
                part = results.get(timeout=max(0.001, deadline - time.monotonic()))
            except queue.Empty:
                break
            if part.get("done"):
                done += 1
                if done == len(procs):
                    break
                continue
            # A request sent in the last instant may land one interval late: fold it into the last.
            intervals.setdefault(min(part["interval"], count - 1), Interval()).add(part)
            jtis += part["jtis"]
            if boundary > count:
                break
        if on_sample:
            on_sample(intervals)
    log.file.close()
    for proc in procs:
        proc.join(timeout=30)
    return intervals, jtis, time.monotonic() - start


def percentile_ms(values, p: float) -> float:
    return round(load.percentile(list(values), p) * 1000, 2)


def window(intervals: list[Interval], sample: float) -> dict:
    merged, handled = array("d"), array("d")
    for interval in intervals:
        merged.extend(interval.latencies)
        handled.extend(interval.server_latencies)
    requests = len(merged)
    cpu = sum(i.cpu for i in intervals)
    return {"requests_per_s": round(requests / (len(intervals) * sample), 1), "p50_ms": percentile_ms(merged, 50),
            "p99_ms": percentile_ms(merged, 99), "server_p99_ms": percentile_ms(handled, 99),
            "cpu_us_per_request": round(cpu / max(requests, 1) * 1e6, 1),
            "rss_max_mib": round(max(i.rss_kib for i in intervals) / 1024, 1),
            "load_avg": round(sum(i.load for i in intervals) / len(intervals), 1)}


def row(index: int, interval: Interval, sample: float) -> dict:
    n = len(interval.latencies)
    return {"t_s": round((index + 1) * sample), "requests": n, "req_per_s": round(n / sample, 1),
            "p50_ms": percentile_ms(interval.latencies, 50), "p99_ms": percentile_ms(interval.latencies, 99),
            "server_p99_ms": percentile_ms(interval.server_latencies, 99),
            "rss_mib": round(interval.rss_kib / 1024, 1),
            "cpu_us_per_req": round(interval.cpu / max(n, 1) * 1e6, 1),
            "max_lag_ms": round(interval.max_lag * 1000, 1), "errors": interval.errors + interval.lost,
            "load": interval.load}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, epilog=COMMON_FLAGS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--short", action="store_true",
                        help="CI: 150 s, samples every 10 s, 30 s windows, 8 s calibration (under 3 minutes)")
    parser.add_argument("--minutes", type=float, help="soak length (default 60; 2.5 with --short)")
    parser.add_argument("--sample-seconds", type=float, help="sample interval (default 30; 10 with --short)")
    parser.add_argument("--window-minutes", type=float, help="first/last window compared (default 10; 0.5 with --short)")
    parser.add_argument("--mode", choices=("open", "closed"), default="open")
    parser.add_argument("--rate", type=float, help="open loop: total requests/s (default: --fraction of the measured capacity)")
    parser.add_argument("--fraction", type=float, default=0.45, help="open loop: share of the capacity (0.45)")
    parser.add_argument("--calibrate-seconds", type=float, help="closed-loop capacity run first (default 10; 8 with --short)")
    parser.add_argument("--tolerance", type=float, default=0.10, help="allowed degradation, last vs first window (0.10)")
    parser.add_argument("--max-lag-ms", type=float, default=1000, help="open loop: latest a request may be sent (1000)")
    parser.add_argument("--p99-slack-ms", type=float, default=None,
                        help="absolute p99 growth allowed on top of --tolerance (default 0; 3 with --short)")
    parser.add_argument("--rss-bound-mib", type=float, default=32, help="RSS must stay below this (32; docs/limits.md, Soak)")
    parser.add_argument("--rss-growth-mib", type=float, default=4,
                        help="RSS of the last window at most this above the first half's peak (4)")
    parser.add_argument("--code-lifetime", help="serve codes of this lifetime (a scenario key, e.g. 20s; default "
                        "Apple's 5m, 20s with --short so the code table reaches its steady state within the run)")
    parser.add_argument("--json", type=Path, help="write samples, windows and checks here")
    args = parser.parse_args()
    args.binary = resolve_binary(args.binary)
    seconds = (args.minutes if args.minutes is not None else (2.5 if args.short else 60)) * 60
    sample = args.sample_seconds or (10 if args.short else 30)
    window_intervals = max(1, int(round((args.window_minutes or (0.5 if args.short else 10)) * 60 / sample)))
    calibrate = args.calibrate_seconds if args.calibrate_seconds is not None else (8 if args.short else 10)
    count = int(round(seconds / sample))
    if count < 2 * window_intervals:
        parser.error("the soak must be at least two windows long")

    raise_fd_limit()
    secrets = (mint_client_secret(args.binary), mint_client_secret(args.binary, NATIVE_CLIENT))
    work = Path(tempfile.mkdtemp(prefix="siwa-soak."))
    receiver = Receiver()
    code_lifetime = args.code_lifetime or ("20s" if args.short else None)
    extra: list[str] = []
    if code_lifetime:
        # Only this key: every other section comes from the built-in scenario.
        (work / "soak.yaml").write_text(f"code_lifetime: {code_lifetime}\n")
        extra = ["--scenario", str(work / "soak.yaml")]
    server = MockProcess(args.binary, extra, work / "serve.log")
    ok = False
    try:
        control = Client(server.host, server.port, secrets[0])
        status, _, body = control.request("PATCH", f"/mock/app-groups/{NATIVE_CLIENT}",
                                          json_body={"notification_url": receiver.url})
        assert status == 200, (status, body[:300])
        control.check_code_flow()
        rate = args.rate if args.mode == "open" else None
        capacity = None
        if calibrate > 0 and (args.mode == "closed" or rate is None):
            intervals, _, elapsed = run_phase(args, server, secrets, calibrate, None, calibrate)
            capacity = sum(len(i.latencies) for i in intervals.values()) / elapsed
            print(f"soak: capacity (closed loop, {calibrate:.0f} s, 2 processes): {capacity:.0f} req/s", flush=True)
            if args.mode == "open" and rate is None:
                rate = round(args.fraction * capacity)
        if args.mode == "open" and not rate:
            parser.error("open loop needs --rate or a calibration run")
        print(f"soak: {args.mode} loop, {seconds / 60:g} min" + (f" at {rate} req/s" if rate else "")
              + f", samples every {sample:g} s, windows of {window_intervals} samples, codes live "
              f"{code_lifetime or '5m'}; server pid "
              f"{server.proc.pid}, log {work / 'serve.log'}", flush=True)
        columns = ("t_s", "requests", "req_per_s", "p50_ms", "p99_ms", "server_p99_ms", "rss_mib", "cpu_us_per_req",
                   "max_lag_ms", "errors", "load")
        print("  ".join(columns), flush=True)
        printed = [0]

        def on_sample(intervals: dict[int, Interval]) -> None:
            while printed[0] in intervals and intervals[printed[0]].reports >= len(USERS):
                print("  ".join(str(v) for v in row(printed[0], intervals[printed[0]], sample).values()), flush=True)
                printed[0] += 1

        intervals, jtis, elapsed = run_phase(args, server, secrets, seconds, rate, sample, on_sample)
        ordered = [intervals.get(k, Interval()) for k in range(count)]
        for k in range(printed[0], count):
            print("  ".join(str(v) for v in row(k, ordered[k], sample).values()), flush=True)
        # Notifications are delivered in the background: give the last ones a moment.
        wanted = Counter(jtis)
        limit = time.monotonic() + 15
        got, bad = delivered(receiver.bodies)
        while time.monotonic() < limit and any(got[j] < n for j, n in wanted.items()):
            time.sleep(0.2)
            got, bad = delivered(receiver.bodies)
        missing = sum(max(0, n - got[j]) for j, n in wanted.items())

        first, last = window(ordered[:window_intervals], sample), window(ordered[-window_intervals:], sample)
        half_peak = max(i.rss_kib for i in ordered[: count // 2]) / 1024
        rss_peak = max(i.rss_kib for i in ordered) / 1024
        errors = sum(i.errors + i.lost for i in ordered)
        requests = sum(len(i.latencies) for i in ordered)
        statuses = sum((i.statuses for i in ordered), Counter())
        tol = args.tolerance
        # A 30-s window's p99 of a few milliseconds moves by a millisecond or two when a neighbour on a
        # shared machine runs a burst (CI saw 3.22 -> 5.26 ms with CPU per request flat); a slowdown that
        # grows with the store also raises CPU per request, checked below without slack.
        slack = args.p99_slack_ms if args.p99_slack_ms is not None else (3.0 if args.short else 0.0)
        p99_limit = (1 + tol) * first["p99_ms"] + slack
        server_p99_limit = (1 + tol) * first["server_p99_ms"] + slack
        # --short: the clients' p99 fails only together with the server's own (see the module's docstring).
        p99_ok = last["p99_ms"] <= p99_limit or (args.short and last["server_p99_ms"] <= server_p99_limit)
        server_note = (f"; server {last['server_p99_ms']} vs {first['server_p99_ms']} ms, limit "
                       f"{server_p99_limit:.2f}" if args.short else "")
        checks = {
            f"0 unexpected errors ({errors} in {requests} requests)": errors == 0 and requests > 0,
            f"throughput: last window ≥ {1 - tol:.2f} × first ({last['requests_per_s']} vs {first['requests_per_s']} req/s)":
                last["requests_per_s"] >= (1 - tol) * first["requests_per_s"],
            f"p99: last window ≤ {1 + tol:.2f} × first + {slack:g} ms ({last['p99_ms']} vs {first['p99_ms']} ms"
            f"{server_note})": p99_ok,
            f"server CPU per request: last ≤ {1 + tol:.2f} × first ({last['cpu_us_per_request']} vs "
            f"{first['cpu_us_per_request']} µs)": last["cpu_us_per_request"] <= (1 + tol) * first["cpu_us_per_request"],
            f"RSS levels off: last window ≤ first half's peak + {args.rss_growth_mib:g} MiB "
            f"({last['rss_max_mib']} vs {half_peak:.1f} MiB)": last["rss_max_mib"] <= half_peak + args.rss_growth_mib,
            f"RSS below {args.rss_bound_mib:g} MiB (peak {rss_peak:.1f} MiB)": rss_peak < args.rss_bound_mib,
            f"every notification delivered ({len(jtis)} queued, {missing} missing, {bad} malformed)":
                len(jtis) > 0 and missing == 0 and bad == 0,
            "server alive": server.alive,
        }
        if args.mode == "open":
            max_lag = max(i.max_lag for i in ordered) * 1000
            # --short: a sample in which the clients fell behind counts only if the server was slow in it too
            # (its own p99 in that sample past server_p99_limit, or no request logged): see the docstring.
            late = [i for i in ordered if i.max_lag * 1000 > args.max_lag_ms and not (
                args.short and i.server_latencies
                and percentile_ms(i.server_latencies, 99) <= server_p99_limit)]
            excused = "" if not args.short or max_lag <= args.max_lag_ms else (
                f"; server p99 in the late samples ≤ {server_p99_limit:.2f} ms" if not late else "")
            checks[f"clients kept the schedule (latest request {max_lag:.0f} ms behind; limit {args.max_lag_ms:g} ms"
                   f"{excused})"] = not late and requests >= 0.98 * rate * seconds
        problems = [p for i in ordered for p in i.problems]
        summary = {
            "mode": args.mode, "rate": rate, "capacity_req_per_s": round(capacity) if capacity else None,
            "seconds": round(elapsed, 1), "sample_s": sample, "window_samples": window_intervals,
            "requests": requests, "flows": sum(i.flows for i in ordered), "statuses": dict(sorted(statuses.items())),
            "notifications": len(jtis), "first_window": first, "last_window": last,
            "rss_first_half_peak_mib": round(half_peak, 1), "rss_peak_mib": round(rss_peak, 1),
        }
        print(json.dumps(summary, indent=1))
        for problem in problems[:10]:
            print(f"  problem: {problem}")
        for name, passed in checks.items():
            print(("PASS " if passed else "FAIL ") + name)
        ok = all(checks.values())
        if args.json:
            samples = [row(k, interval, sample) for k, interval in enumerate(ordered)]
            args.json.write_text(json.dumps({"summary": summary, "samples": samples, "checks": checks}, indent=1) + "\n")
        print(f"soak: {sum(checks.values())} passed, {len(checks) - sum(checks.values())} failed; {requests} requests "
              f"in {elapsed:.0f} s, p99 {first['p99_ms']} → {last['p99_ms']} ms, "
              f"{first['requests_per_s']} → {last['requests_per_s']} req/s, RSS peak {rss_peak:.1f} MiB", flush=True)
    finally:
        rc = server.stop()
        receiver.close()
    if rc != 0:
        print(f"FAIL siwa-mock exited {rc} after SIGTERM")
        ok = False
    if ok:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
