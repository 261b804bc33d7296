#!/usr/bin/env python3
"""Differential model test of the fleet (issue #21): random operation sequences played against ONE replica
(in memory, the reference) and against THREE replicas on one real redis-server, each operation sent to the
replica the sequence names; the outcomes must be equivalent (status, Apple's error code, which user a token
names; identifiers compared through handles, Tests/ScaleOut/fleetmodel.py), and over the whole history a code
succeeds at most once, every token names the user who authorized it, a revoked grant never works again at
any replica, a `times: N` rule fires exactly N times fleet-wide (request by request: the k-th matching
request is answered 429 exactly when after < k <= after + N), the scenario's timeline entries fire when the
model says (every replica's log shows each entry applied, no more), and mail to a relay address is taken or
refused as the model's forwarding flags say.

Faults mid-sequence (fleet only; the reference skips them): Redis paused with SIGSTOP and killed with SIGKILL
(the replicas must answer the documented 503 meanwhile, and recover; persistence is on with `appendfsync
always`, and after each kill nothing acknowledged may be lost: users, clock and signing key as a replica
started afresh serves them, refresh tokens and revocations as Redis holds them), a replica killed with
SIGKILL and started again, and a proxy between the replicas and Redis (Tests/ScaleOut/redisproxy.py) that
delays, splits, truncates or duplicates Redis' replies for a moment. Recovery times and how often each
fault and check ran are printed (docs/scale-out.md quotes them).

A failing sequence is shrunk to a minimal one and written as JSON; `--replay FILE` plays it again. Every file
in Tests/ScaleOut/sequences/ is replayed first (regressions found before).

The credential state and the clock's frozen state are compared in every run (both were once compared only
when a sequence file asked: `check_credential_state`, `check_clock`, still accepted).

Usage: Tests/ScaleOut/differential.py [--binary PATH] [--seconds N | --minutes N] [--seed N] [--no-faults]
                                      [--jobs N] [--replay FILE] [--failure-file PATH] [--logs DIR]
Long run (issue #21: >= 100,000 operations in >= 30 minutes; bench/RESULTS.md):
  Tests/ScaleOut/differential.py --binary .build/release/siwa-mock --minutes 32 --jobs 2
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import json
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pysupport"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from fleetmodel import FAULT_OPS, INITIAL_USERS, PROXY_OPS, System, generate, timeline_yaml  # noqa: E402
from redisproxy import RedisProxy, query  # noqa: E402
from siwatest.client import Client, mint_client_secret  # noqa: E402
from siwatest.process import MockProcess  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402
from siwatest.scaleout import RedisServer  # noqa: E402
from siwatest.scenario import KEYS_DIR, NATIVE_CLIENT, SCENARIOS_DIR, WEB_CLIENT  # noqa: E402

SEQUENCES_DIR = Path(__file__).resolve().parent / "sequences"
# After a user deletion at one replica, the others' Apple endpoints (and SMTP relay) see it, and a new user
# or a forwarding change, at their next poll (250 ms) plus the poll's own round trips (docs/scale-out.md,
# "Changes visible before they are used"): an operation that depends on it waits until then.
POLL_SETTLE = 0.4
# Operations whose outcome depends on what the replica polled: a deleted login_hint; the relay's users.
AFTER_DELETION = {"authorize", "native", "relay"}
# A user's fields that must survive a Redis SIGKILL as the fleet served them before it.
USER_FIELDS = ("sub", "email_forwarding", "first_name", "authorized_app_groups")
# A request during a proxy fault is answered within the store's 1 s deadline per operation (a revocation is
# one operation), plus scheduling on 2 loaded cores.
PROXY_ANSWER_BOUND = 3.0
# A revocation of an unknown token: it needs the store, matches no fault rule of the sequences (a POST
# /auth/token would count against a `times`/`after` rule in the fleet only) and no timeline trigger, and
# changes nothing. (Under SIGSTOP Redis runs the timed-out counting script when it resumes, so a token request
# then is counted although it answered 503: found by this test, seed 1000; docs/scale-out.md, "Failure modes".)
def bogus_revoke(secret: str) -> dict[str, str]:
    return {"client_id": WEB_CLIENT, "client_secret": secret, "token": "t.none", "token_type_hint": "refresh_token"}


class Trial:
    """Fresh systems for one sequence: the reference and three replicas on `redis` under a scenario name
    (and so a key prefix) of their own, with the scenario's `seed:` (reproducible subs; codes and tokens
    must still be unique fleet-wide)."""

    counter = 0

    def __init__(self, ops: list[dict], context: dict) -> None:
        Trial.counter += 1
        self.binary, self.redis, self.temp = context["binary"], context["redis"], context["temp"]
        self.proxy: RedisProxy = context["proxy"]
        # The credential state is compared in every run (it was compared only on request while a sign-in's
        # re-authorization stayed at the replica that served it: fixed, sequences/credential-state-*.json).
        self.strict = ("credential_state",)
        # The clock's frozen state after every fault, always (it was once checked only on request, for a
        # finding that was the harness's own race: settle_clock compared seconds, not the frozen flag).
        self.check_frozen = True
        self.counts: dict[str, int] = context.setdefault("counts", {})  # what the checks and faults did
        self.name = name = f"diff-{os.getpid()}-{Trial.counter}"
        text = (SCENARIOS_DIR / "default.yaml").read_text()
        text = text.replace("name: built-in", f"name: {name}\nseed: 7")
        text = text.replace("pem_file: keys/", f"pem_file: {KEYS_DIR}/")
        self.scenario = self.temp / f"{name}.yaml"
        self.scenario.write_text(text + timeline_yaml(ops))
        self.recoveries: list[tuple[str, float]] = []
        self.spent: dict[str, float] = {}  # seconds per kind of operation
        self.failed_at = 0  # the index of the operation being played (the failing one, after a failure)
        # Per user, the monotonic time until which a replica's poll may not have taken their latest deletion
        # (`deleted_until`) or change (`changed_until`) yet (POLL_SETTLE).
        self.deleted_until: dict[str, float] = {}
        self.changed_until: dict[str, float] = {}
        self.processes: list[MockProcess] = []
        self.started = itertools.count()  # numbers the logs (itertools.count is thread-safe in CPython)
        # Started together (each waits for its ready line). The replicas reach Redis through the proxy
        # (disarmed but for its faults' windows).
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            started = list(pool.map(lambda i: self.start(f"r{i}", ["--store", self.proxy.url]) if i < 3
                                    else self.start("ref", []), range(4)))
        self.replicas, self.reference = started[:3], started[3]
        timeline = [op for op in ops if op["op"] == "timeline"]
        secrets = context["secrets"]
        self.ref = System("reference", lambda: [self.reference], secrets, timeline)
        self.fleet = System("fleet", lambda: self.replicas, secrets, timeline)
        for system in (self.ref, self.fleet):
            system.control(0, "POST", "/mock/clock", {"freeze": True})
            system.learn_subs()
        self.settle_clock()
        self.epoch = self.fleet.control(0, "GET", "/mock/clock")[1]["epoch_seconds"]
        self.fleet.signing_kid = self.fleet.control(0, "GET", "/mock/keys")[1]["signing_kid"]

    def count(self, what: str, number: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + number

    def start(self, label: str, extra: list[str]) -> MockProcess:
        process = MockProcess(self.binary, ["--scenario", str(self.scenario), "--smtp-port", "0", *extra],
                              self.temp / f"{self.scenario.stem}-{label}-{next(self.started)}.log")
        self.processes.append(process)
        return process

    def stop(self) -> list[str]:
        """Stops every process; the lines of their logs that show a 500 or a crash."""
        self.ref.close()
        self.fleet.close()
        problems = []
        for process in self.processes:  # all at once, then each waited for
            if process.alive:
                process.proc.send_signal(signal.SIGTERM)
        for process in self.processes:
            process.stop()
            problems += [line for line in process.log_path.read_text(errors="replace").splitlines()
                         if " 500 " in line or "Fatal error" in line]
        return problems

    def wait_equal(self, path: str, field: str | None, seconds: float = 3.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            answers = [self.fleet.control(i, "GET", path)[1] for i in range(3)]
            values = [a.get(field) if field else a for a in answers]
            if all(v == values[0] for v in values):
                return
            time.sleep(0.02)
        raise AssertionError(f"replicas disagree on {path} after {seconds} s: {values}")

    def settle_clock(self) -> None:
        # The frozen flag as well: in the same second a replica that has not yet polled the freeze reads the
        # same epoch seconds while still running (the clock waits for the 250 ms poll, docs/scale-out.md).
        deadline = time.monotonic() + 3.0
        while True:
            clocks = [self.fleet.control(i, "GET", "/mock/clock")[1] for i in range(3)]
            values = [(c.get("epoch_seconds"), c.get("frozen")) for c in clocks]
            if all(v == values[0] for v in values) and values[0][1]:
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"replicas disagree on /mock/clock after 3 s: {values}")
            time.sleep(0.02)

    def before(self, op: dict) -> None:
        """Waits, before an operation whose outcome depends on a replica's poll, until the change it
        depends on was polled (docs/scale-out.md: deletions, forwarding and new users at the next poll)."""
        user = op.get("user", "")
        until = max(self.deleted_until.get(user, 0.0) if op["op"] in AFTER_DELETION else 0.0,
                    self.changed_until.get(user, 0.0) if op["op"] == "relay" else 0.0)
        if until > time.monotonic():
            time.sleep(until - time.monotonic())

    def settle(self, op: dict) -> None:
        """Waits for what the fleet propagates by polling (clock, keys) to reach every replica; notes when
        a user change will have been polled."""
        start = time.monotonic()
        if op["op"] == "clock":
            self.settle_clock()
            self.recoveries.append(("a clock change seen at every replica", time.monotonic() - start))
        elif op["op"] == "rotate":
            self.wait_equal("/mock/keys", None)
            self.recoveries.append(("a key rotation seen at every replica", time.monotonic() - start))
        elif op["op"] == "sign":
            self.wait_equal("/mock/keys", None)
        elif op["op"] == "user_delete":
            self.deleted_until[op["user"]] = start + POLL_SETTLE
        if op["op"] in ("user_add", "user_patch", "user_delete"):
            self.changed_until[op["user"]] = start + POLL_SETTLE

    def follow_timeline(self, system: System, before: int) -> str | None:
        """After an operation: entries due on the clock fire before the next request to an Apple endpoint,
        so one is sent (a revocation of an unknown token: no trigger, no rule); then every replica's log
        must show each entry the model says fired (the replica that fired it, and the others at their
        next request or poll), and no more."""
        if system.due_time_entries():
            status = system.client(0).request("POST", "/auth/revoke", bogus_revoke(system.secrets[WEB_CLIENT]))[0]
            if status != 200:
                return f"{system.name}: the request that fires due timeline entries answered {status}"
            system.fire_due_time_entries()
        if system.timeline_fired > before:
            self.count("timeline entries fired (model)", system.timeline_fired - before)
            deadline = time.monotonic() + 3
            while min(system.timeline_lines()) < system.timeline_fired and time.monotonic() < deadline:
                time.sleep(0.02)
            if system is self.fleet:  # entries change the scenario's users
                for user in INITIAL_USERS:
                    self.changed_until[user] = self.deleted_until[user] = time.monotonic() + POLL_SETTLE
        lines = system.timeline_lines() if system.timeline else []
        if lines and (min(lines) < system.timeline_fired or max(lines) > system.timeline_fired):
            return (f"{system.name}: the model says {system.timeline_fired} timeline entries fired, the replicas' "
                    f"logs show {lines}")
        return None

    def fault(self, op: dict) -> str | None:
        """Runs a fault operation on the fleet; a problem found, or None."""
        at = op["at"] % 3
        bogus = bogus_revoke(self.fleet.secrets[WEB_CLIENT])
        self.count(op["op"])
        if op["op"] in PROXY_OPS:
            return self.proxy_fault(op["op"].removeprefix("proxy_"))
        if op["op"] in ("redis_pause", "redis_kill"):
            if op["op"] == "redis_pause":
                os.kill(self.redis.proc.pid, signal.SIGSTOP)
            else:
                acknowledged = self.acknowledged()
                self.redis.kill()
            client = Client("127.0.0.1", self.replicas[at].port, "", timeout=10)
            status, headers, body = client.request("POST", "/auth/revoke", bogus)
            client.close()
            if op["op"] == "redis_pause":
                os.kill(self.redis.proc.pid, signal.SIGCONT)
            else:
                self.redis.start()
            if (status, body, headers.get("retry-after")) != (503, b"", "1"):
                return f"op {op['h']}: Redis down, /auth/revoke answered {status} {body[:80]!r}, not the documented 503"
            problem = self.wait_healthy(op["op"])
            if problem or op["op"] == "redis_pause":
                return problem
            return self.check_nothing_lost(acknowledged)
        self.replicas[at].proc.kill()
        self.replicas[at].proc.wait()
        start = time.monotonic()
        self.replicas[at] = self.start(f"r{at}", ["--store", self.proxy.url])
        self.recoveries.append(("replica restarted and ready", time.monotonic() - start))
        if self.fleet.active_rule != "none":  # rules are per replica (docs/scale-out.md): add it again
            self.fleet.control(at, "POST", "/mock/faults", self.fleet.rule_body)
        return None

    def proxy_fault(self, kind: str) -> str | None:
        """Damages Redis' replies (Tests/ScaleOut/redisproxy.py) while each replica answers a revocation of an
        unknown token (within the deadline: the right answer, 200, or the documented outage, 503 with
        `Retry-After: 1` and no body) and a read of a user through its control API (her own profile or
        404); the replicas' polls run meanwhile. Then no reply may be held any more, the fleet must be
        healthy again, and the sequence goes on comparing."""
        fired_before = self.proxy.fired[kind]
        problems: list[str] = []

        def revoke(client: Client, index: int) -> None:
            began = time.monotonic()
            status, headers, body = client.request("POST", "/auth/revoke", bogus_revoke(self.fleet.secrets[WEB_CLIENT]))
            # One deadline per Redis operation (1 s, docs/scale-out.md) that a slow reply cannot stretch.
            if time.monotonic() - began > PROXY_ANSWER_BOUND:
                problems.append(f"proxy {kind}: /auth/revoke at replica {index} took {time.monotonic() - began:.1f} s")
            if status == 503:
                self.count(f"proxy {kind}: 503 answers")
            if status != 200 and (status, body, headers.get("retry-after")) != (503, b"", "1"):
                problems.append(f"proxy {kind}: /auth/revoke at replica {index} answered {status} {body[:80]!r}")

        def read(client: Client, index: int) -> None:
            # A read takes the fleet's user changes first, and answers from the replica's own users when the
            # store cannot be read (docs/scale-out.md): alice as the fleet or this replica last knew her,
            # 200 or 404, but her own profile, never another answer.
            status, _, body = client.request("GET", "/mock/users/alice")
            if status not in (200, 404) or (status == 200 and json.loads(body).get("id") != "alice"):
                problems.append(f"proxy {kind}: GET /mock/users/alice at replica {index} answered {status} "
                                f"{body[:80]!r}")

        def probe(job: int) -> None:  # a revocation and a read at each replica, all at once
            index = job % 3
            client = Client("127.0.0.1", self.replicas[index].port, "", timeout=10, retry=False)
            try:
                (read if job >= 3 else revoke)(client, index)
            except OSError as error:
                problems.append(f"proxy {kind}: replica {index}: {error!r}")
            finally:
                client.close()

        self.proxy.arm(kind)
        try:
            with concurrent.futures.ThreadPoolExecutor(6) as pool:
                list(pool.map(probe, range(6)))
        finally:
            self.proxy.disarm()
        self.count(f"proxy {kind}: replies damaged", self.proxy.fired[kind] - fired_before)
        return problems[0] if problems else self.wait_healthy(f"a proxy {kind} fault")

    def acknowledged(self) -> dict:
        """What the fleet acknowledged with 2xx before a Redis SIGKILL, as its control API answers now
        (each read takes the fleet's user changes first: docs/scale-out.md), checked against the model."""
        users = {}
        for user in sorted(set(INITIAL_USERS) | set(self.fleet.users) | set(self.fleet.relay_addresses)
                           | {u for _, _, u in self.fleet.codes.values()}):
            status, body = self.fleet.control(0, "GET", f"/mock/users/{user}")
            users[user] = (status, {k: body.get(k) for k in USER_FIELDS + self.strict})
        tokens = {t["refresh"]: (h, t["grant"] in self.fleet.revoked_grants) for h, t in self.fleet.tokens.items()}
        clocks = [self.fleet.control(i, "GET", "/mock/clock")[1] for i in range(3)]
        return {"users": users, "tokens": tokens, "clock": self.epoch + self.fleet.clock_seconds,
                "signing_kid": self.fleet.signing_kid,
                "clocks": [(c.get("epoch_seconds"), c.get("frozen")) for c in clocks]}

    def check_nothing_lost(self, acknowledged: dict) -> str | None:
        """No acknowledged change lost (issue #21): after Redis was killed with SIGKILL and started again on
        its append-only file (`appendfsync always`: every write is on disk before Redis answers it), a
        replica started now, which has only what Redis holds, must serve every user as the fleet did
        before the kill (added, changed, deleted), the clock and the signing key as last changed, and Redis
        must hold every refresh token issued and none revoked."""
        self.count("acknowledged changes checked after a Redis kill")
        if self.check_frozen and any(clock != (acknowledged["clock"], True) for clock in acknowledged["clocks"]):
            return (f"before the Redis kill the replicas' clocks (epoch seconds, frozen) were "
                    f"{acknowledged['clocks']}, the model says ({acknowledged['clock']}, True)")
        for user, (status, fields) in acknowledged["users"].items():
            model = self.fleet.users.get(user)
            if (status == 200) != (user in self.fleet.users) or (status == 200 and fields["email_forwarding"] != model):
                return (f"before the Redis kill the fleet served {user} as {status} {fields}; the model says "
                        f"{'forwarding ' + str(model) if user in self.fleet.users else 'deleted or never added'}")
        checker = self.start("after-kill", ["--store", self.redis.url])
        try:
            problem = None
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                problem = self.compare_after_kill(checker, acknowledged)
                if problem is None:
                    break
                time.sleep(0.05)
        finally:
            checker.stop()
        if problem:
            return f"an acknowledged change was lost across a Redis SIGKILL: {problem}"
        keys = [f"siwa:{self.name}:r:{token}" for token in acknowledged["tokens"]]
        present = query(self.redis.port, [["EXISTS", key] for key in keys]) if keys else []
        for (h, revoked), exists in zip(acknowledged["tokens"].values(), present):
            if exists == revoked:
                return (f"an acknowledged {'revocation' if revoked else 'refresh token'} was lost across a Redis "
                        f"SIGKILL: the refresh token of op {h} is {'still' if exists else 'no longer'} in Redis")
        self.count("acknowledged refresh tokens and revocations checked in Redis", len(keys))
        return None

    def compare_after_kill(self, checker: MockProcess, acknowledged: dict) -> str | None:
        client = Client("127.0.0.1", checker.port, "", timeout=10)
        try:
            for user, (status, fields) in acknowledged["users"].items():
                now_status, _, body = client.request("GET", f"/mock/users/{user}")
                now = json.loads(body or b"{}")
                now = {k: now.get(k) for k in fields}
                if now_status != status or (status == 200 and now != fields):
                    return f"{user}: {status} {fields} before, {now_status} {now} from a replica started after"
            clock = json.loads(client.request("GET", "/mock/clock")[2])
            before = acknowledged["clocks"][0][0]  # unfrozen (the open finding) it runs on: within 30 s
            if (clock.get("epoch_seconds") != acknowledged["clock"] if self.check_frozen
                    else not 0 <= clock.get("epoch_seconds", 0) - before < 30):
                return f"the clock was at {acknowledged['clock']}, a replica started after says {clock}"
            kid = json.loads(client.request("GET", "/mock/keys")[2]).get("signing_kid")
            if kid != acknowledged["signing_kid"]:
                return f"the signing key was {acknowledged['signing_kid']}, a replica started after signs with {kid}"
            return None
        finally:
            client.close()

    def wait_healthy(self, what: str) -> str | None:
        start = time.monotonic()
        while time.monotonic() - start < 10:
            if all(self.fleet.control(i, "GET", "/mock/health")[0] == 200 for i in range(3)):
                self.recoveries.append((f"healthy after {what}", time.monotonic() - start))
                return None
            time.sleep(0.01)
        return f"{what}: the fleet is not healthy 10 s after Redis came back"


    def check_clock(self, after: str) -> str | None:
        """The fleet's clock after a fault: as the model says (frozen since the start, moved only by the
        sequence's advances), at every replica."""
        if not self.check_frozen:
            return None
        expected = (self.epoch + self.fleet.clock_seconds, True)
        clocks = [self.fleet.control(i, "GET", "/mock/clock")[1] for i in range(3)]
        clocks = [(c.get("epoch_seconds"), c.get("frozen")) for c in clocks]
        if any(clock != expected for clock in clocks):
            return f"after {after} the replicas' clocks (epoch seconds, frozen) are {clocks}, the model says {expected}"
        return None


def play(ops: list[dict], context: dict, trace: bool = False) -> tuple[str | None, Trial]:
    """Plays `ops` on fresh systems; the first divergence or violated invariant, or None. Each operation
    goes to the reference (on a thread of its own) and to the fleet at the same time: the reference is
    independent of the fleet, and the fleet's consecutive requests stay as close together as a client's,
    so a change is used at another replica before that replica's next poll (issue #21 part 2)."""
    trial = Trial(ops, context)
    failure = None
    reference = concurrent.futures.ThreadPoolExecutor(1)
    try:
        for trial.failed_at, op in enumerate(ops):
            began = time.monotonic()
            if op["op"] == "timeline":
                continue
            if op["op"] in FAULT_OPS:
                failure = trial.fault(op) or trial.check_clock(f"op {op['h']} ({op['op']})")
            else:
                fired = {system.name: system.timeline_fired for system in (trial.ref, trial.fleet)}
                expected_future = reference.submit(trial.ref.run, op)
                trial.before(op)
                got = trial.fleet.run(op)
                trial.settle(op)
                expected = expected_future.result()
                if op["op"] in ("relay", "clock", "user_patch", "user_delete") or op["op"].startswith("token"):
                    trial.count(f"compared: {op['op']}")
                if trace:
                    print(f"  {json.dumps(op)} → reference {expected}, fleet {got}")
                if expected != got:
                    failure = f"op {op['h']} {json.dumps(op)}: reference {expected}, fleet {got}"
                for system in (trial.ref, trial.fleet):
                    failure = failure or trial.follow_timeline(system, fired[system.name])
            for system in (trial.ref, trial.fleet):
                system.check_rules()
                if system.violations and not failure:
                    failure = f"{system.name}: {system.violations[0]}"
            trial.spent[op["op"]] = trial.spent.get(op["op"], 0.0) + time.monotonic() - began
            if failure:
                break
    except (AssertionError, OSError, ValueError) as error:
        failure = f"harness: {error!r}"
    finally:
        reference.shutdown()
        problems = trial.stop()
        trial.count("rules whose times were all used, fired exactly N times", trial.fleet.rules_consumed)
    if problems and not failure:
        failure = f"500 or crash in a log: {problems[:3]}"
    if failure and context.get("logs"):
        context["logs"].mkdir(parents=True, exist_ok=True)
        for process in trial.processes:
            shutil.copy(process.log_path, context["logs"])
    return failure, trial


def signature(failure: str | None) -> str | None:
    """What kind of failure this is, without operation numbers, handles or user names: a candidate of the
    shrink must fail the same way (a different failure, e.g. from a loaded machine, does not count)."""
    if failure is None:
        return None
    failure = re.sub(r"\{[^{}]*\"op\": (\"\w+\")[^{}]*(\{[^{}]*\})?[^{}]*\}", r"\1", failure)
    failure = re.sub(r"\b(op \d+|alice|bob|carol|nobody|u\d+|r\d+)\b", "#", failure)
    return re.sub(r"\d+", "#", failure)  # clock readings, counts


def shrink(ops: list[dict], context: dict, budget_seconds: float, failure: str) -> list[dict]:
    """Delta debugging: removes chunks, then single operations, while the sequence still fails the same way."""
    deadline = time.monotonic() + budget_seconds
    wanted = signature(failure)
    chunks = 2
    while len(ops) >= 2 and time.monotonic() < deadline:
        size = max(1, len(ops) // chunks)
        for start in range(0, len(ops), size):
            candidate = ops[:start] + ops[start + size:]
            if signature(play(candidate, context)[0]) == wanted:
                ops, chunks = candidate, max(chunks - 1, 2)
                break
        else:
            if size == 1:
                break
            chunks = min(len(ops), chunks * 2)
    print(f"shrunk to {len(ops)} operations", flush=True)
    return ops


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, epilog=COMMON_FLAGS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--seconds", type=float, default=45, help="random sequences for this long (default 45)")
    parser.add_argument("--minutes", type=float, help="the long mode: random sequences for this many minutes")
    parser.add_argument("--seed", type=int, default=None, help="the generator's seed (default: random, printed)")
    parser.add_argument("--length", type=int, default=300, help="operations per sequence (default 300)")
    parser.add_argument("--no-faults", action="store_true", help="no Redis or replica faults")
    parser.add_argument("--jobs", type=int, default=1,
                        help="sequences played at once, each job on a Redis and proxy of its own (default 1)")
    parser.add_argument("--skip", action="append", default=[], metavar="OPERATION",
                        help="leave this kind of operation out (repeatable), e.g. redis_kill")
    parser.add_argument("--replay", type=Path, help="play this sequence file once, printing each outcome")
    parser.add_argument("--logs", type=Path, default=None,
                        help="copy the replicas' logs of every failing sequence into this directory")
    parser.add_argument("--failure-file", type=Path, default=None,
                        help="where a shrunk failing sequence is written (default: /tmp/siwa-differential-*.json)")
    args = parser.parse_args()
    binary = resolve_binary(args.binary)
    seconds = args.minutes * 60 if args.minutes else args.seconds
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    secrets = {WEB_CLIENT: mint_client_secret(binary, WEB_CLIENT), NATIVE_CLIENT: mint_client_secret(binary, NATIVE_CLIENT)}
    with tempfile.TemporaryDirectory(prefix="siwa-differential-") as temp:
        redis = RedisServer(Path(temp))
        proxy = RedisProxy(redis.port, seed)
        context = {"binary": binary, "redis": redis, "proxy": proxy, "temp": Path(temp), "secrets": secrets,
                   "logs": args.logs}
        try:
            if args.replay:
                sequence = json.loads(args.replay.read_text())
                context["check_credential_state"] = sequence.get("check_credential_state", False)
                context["check_clock"] = sequence.get("check_clock", False)
                failure, _ = play(sequence["ops"], context, trace=True)
                print(f"FAIL {failure}" if failure else "replayed: reference and fleet agree")
                return 1 if failure else 0
            for path in sorted(SEQUENCES_DIR.glob("*.json")):
                failure, _ = play(json.loads(path.read_text())["ops"], context)
                print(f"{'FAIL' if failure else 'ok  '} replay {path.name}" + (f": {failure}" if failure else ""))
                if failure:
                    return 1
            if args.jobs == 1:
                return explore(args, seed, seconds, context)
            # More sequences at once, each worker with a Redis and a proxy of its own (their faults must not
            # reach another worker's sequence): most of a sequence's time is waiting (polls, deadlines).
            with concurrent.futures.ThreadPoolExecutor(args.jobs - 1) as pool:
                others = [pool.submit(worker, args, seed + job, seconds, context, Path(temp) / f"job{job}")
                          for job in range(1, args.jobs)]
                first = explore(args, seed, seconds, context, label="job 0")
                return max([first, *(other.result() for other in others)])
        finally:
            proxy.close()
            redis.kill()


def worker(args, seed: int, seconds: float, shared: dict, directory: Path) -> int:
    directory.mkdir()
    redis = RedisServer(directory)
    proxy = RedisProxy(redis.port, seed)
    try:
        context = {**shared, "redis": redis, "proxy": proxy, "temp": directory, "counts": {}}
        return explore(args, seed, seconds, context, label=f"job {directory.name[3:]}")
    finally:
        proxy.close()
        redis.kill()


def explore(args, seed: int, seconds: float, context: dict, label: str = "") -> int:
    rng = random.Random(seed)
    print(f"differential{' ' + label if label else ''}: seed {seed}, {seconds:.0f} s, sequences of {args.length}",
          flush=True)
    start, total, sequences, counts, recoveries, spent = time.monotonic(), 0, 0, {}, [], {}
    while time.monotonic() - start < seconds:
        # Each proxy fault at least once in the run: placed in a sequence until one has damaged a reply.
        unseen = tuple(kind for kind in sorted(PROXY_OPS) if kind not in args.skip and not
                       context.get("counts", {}).get(f"{kind.replace('_', ' ')}: replies damaged"))
        ops = generate(rng, args.length, faults=not args.no_faults, start=0, skip=tuple(args.skip),
                       ensure=unseen if not args.no_faults else ())
        failure, trial = play(ops, context)
        sequences += 1
        recoveries += trial.recoveries
        for kind, seconds_spent in trial.spent.items():
            spent[kind] = spent.get(kind, 0.0) + seconds_spent
        if failure:
            print(f"FAIL sequence {sequences} (seed {seed}): {failure}", flush=True)
            print(f"before it: {total} operations in {sequences - 1} sequences agreed, "
                  f"{time.monotonic() - start:.0f} s", flush=True)
            minimal = shrink(ops[:trial.failed_at + 1], context, max(120.0, seconds / 4), failure)
            again = play(minimal, context)[0]
            path = args.failure_file or Path(tempfile.gettempdir()) / f"siwa-differential-{seed}.json"
            path.write_text(json.dumps({"seed": seed, "failure": again, "original_failure": failure,
                                        "ops": minimal}, indent=1) + "\n")
            if signature(again) != signature(failure):
                print(f"the shrunk sequence no longer fails the same way ({again}): the failure is not "
                      f"reproducible (timing?); the whole sequence is in {path}")
                path.write_text(json.dumps({"seed": seed, "failure": failure, "ops": ops}, indent=1) + "\n")
            print(f"minimal failing sequence ({len(minimal)} operations) written to {path}; replay with "
                  f"Tests/ScaleOut/differential.py --replay {path}")
            for op in minimal:
                print(f"  {json.dumps(op)}")
            return 1
        total += len(ops)
        for op in ops:
            counts[op["op"]] = counts.get(op["op"], 0) + 1
    elapsed = time.monotonic() - start
    print(f"differential{' ' + label if label else ''}: {total} operations in {sequences} sequences, {elapsed:.0f} s "
          f"({total / elapsed:.1f} operations/s), reference and fleet agree; no invariant violated")
    print("  operations (count, seconds): " + ", ".join(f"{k} {v} {spent.get(k, 0):.1f}s"
                                                    for k, v in sorted(counts.items()))
          + f"; starting and stopping the systems {elapsed - sum(spent.values()):.1f}s")
    by_kind: dict[str, list[float]] = {}
    for kind, value in recoveries:
        by_kind.setdefault(kind, []).append(value)
    for kind, values in sorted(by_kind.items()):
        values.sort()
        print(f"  {kind}: n={len(values)} median {values[len(values) // 2]:.2f} s "
              f"max {values[-1]:.2f} s")
    counts = context.get("counts", {})
    print("  checks and faults: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    missing = [kind for kind in sorted(PROXY_OPS) if not args.no_faults and kind not in args.skip
               and not counts.get(f"{kind.replace('_', ' ')}: replies damaged")]
    if missing:
        print(f"FAIL a proxy fault never damaged a reply: {missing}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
