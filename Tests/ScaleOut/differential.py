#!/usr/bin/env python3
"""Differential model test of the fleet (issue #21): random operation sequences played against ONE replica
(in memory, the reference) and against THREE replicas on one real redis-server, each operation sent to the
replica the sequence names; the outcomes must be equivalent (status, Apple's error code, which user a token
names; identifiers compared through handles, Tests/ScaleOut/fleetmodel.py), and over the whole history a code
succeeds at most once, every token names the user who authorized it, a revoked grant never works again at
any replica, and a `times: N` rule fires at most N times (exactly N: compared with the reference).

Faults mid-sequence (fleet only; the reference skips them): Redis paused with SIGSTOP and killed with SIGKILL
(the replicas must answer the documented 503 meanwhile, and recover; persistence is on, so nothing
acknowledged is lost, which the following operations check), and a replica killed with SIGKILL and started
again. Recovery times are printed (docs/scale-out.md quotes them).

A failing sequence is shrunk to a minimal one and written as JSON; `--replay FILE` plays it again. Every file
in Tests/ScaleOut/sequences/ is replayed first (regressions found before).

Usage: Tests/ScaleOut/differential.py [--binary PATH] [--seconds N | --minutes N] [--seed N] [--no-faults]
                                      [--replay FILE] [--failure-file PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pysupport"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from fleetmodel import FAULT_OPS, System, generate  # noqa: E402
from siwatest.client import Client, mint_client_secret  # noqa: E402
from siwatest.process import MockProcess  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402
from siwatest.scaleout import RedisServer  # noqa: E402
from siwatest.scenario import KEYS_DIR, NATIVE_CLIENT, SCENARIOS_DIR, WEB_CLIENT  # noqa: E402

SEQUENCES_DIR = Path(__file__).resolve().parent / "sequences"
# After a user deletion at one replica, the others' Apple endpoints see it at their next poll (250 ms) plus
# the poll's own round trips (docs/scale-out.md, "Changes visible before they are used").
DELETION_SETTLE = 0.4


class Trial:
    """Fresh systems for one sequence: the reference and three replicas on `redis` under a scenario name
    (and so a key prefix) of their own, with the scenario's `seed:` (reproducible subs; codes and tokens
    must still be unique fleet-wide)."""

    counter = 0

    def __init__(self, binary: Path, redis: RedisServer, temp: Path, secrets: dict[str, str]) -> None:
        Trial.counter += 1
        self.binary, self.redis, self.temp = binary, redis, temp
        name = f"diff-{os.getpid()}-{Trial.counter}"
        text = (SCENARIOS_DIR / "default.yaml").read_text()
        text = text.replace("name: built-in", f"name: {name}\nseed: 7")
        text = text.replace("pem_file: keys/", f"pem_file: {KEYS_DIR}/")
        self.scenario = temp / f"{name}.yaml"
        self.scenario.write_text(text)
        self.recoveries: list[tuple[str, float]] = []
        self.spent: dict[str, float] = {}  # seconds per kind of operation
        self.failed_at = 0  # the index of the operation being played (the failing one, after a failure)
        self.processes: list[MockProcess] = []
        self.reference = self.start("ref", [])
        self.replicas = [self.start(f"r{i}", ["--store", redis.url]) for i in range(3)]
        self.ref = System("reference", lambda: [self.reference.port], secrets)
        self.fleet = System("fleet", lambda: [r.port for r in self.replicas], secrets)
        for system in (self.ref, self.fleet):
            system.control(0, "POST", "/mock/clock", {"freeze": True})
            system.learn_subs()
        self.settle_clock()

    def start(self, label: str, extra: list[str]) -> MockProcess:
        process = MockProcess(self.binary, ["--scenario", str(self.scenario), *extra],
                              self.temp / f"{self.scenario.stem}-{label}-{len(self.processes)}.log")
        self.processes.append(process)
        return process

    def stop(self) -> list[str]:
        """Stops every process; the lines of their logs that show a 500 or a crash."""
        self.ref.close()
        self.fleet.close()
        problems = []
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
        self.wait_equal("/mock/clock", "epoch_seconds")

    def settle(self, op: dict) -> None:
        """Waits for what the fleet propagates by polling (clock, keys, deletions) to reach every replica."""
        start = time.monotonic()
        if op["op"] == "clock":
            self.settle_clock()
            self.recoveries.append(("a clock change seen at every replica", time.monotonic() - start))
        elif op["op"] == "rotate":
            self.wait_equal("/mock/keys", None)
            self.recoveries.append(("a key rotation seen at every replica", time.monotonic() - start))
        elif op["op"] == "user_delete":
            time.sleep(DELETION_SETTLE)

    def fault(self, op: dict) -> str | None:
        """Runs a fault operation on the fleet; a problem found, or None."""
        at = op["at"] % 3
        # A revocation, which needs the store and matches no fault rule of the sequences: a POST /auth/token
        # here would count against a `times`/`after` rule in the fleet only. (Under SIGSTOP Redis runs the
        # timed-out counting script when it resumes, so such a request is counted although it answered
        # 503: found by this test, seed 1000; docs/scale-out.md, "Failure modes".)
        bogus = {"client_id": WEB_CLIENT, "client_secret": self.fleet.secrets[WEB_CLIENT],
                 "token": "t.none", "token_type_hint": "refresh_token"}
        if op["op"] in ("redis_pause", "redis_kill"):
            if op["op"] == "redis_pause":
                os.kill(self.redis.proc.pid, signal.SIGSTOP)
            else:
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
            return self.wait_healthy(op["op"])
        self.replicas[at].proc.kill()
        self.replicas[at].proc.wait()
        start = time.monotonic()
        self.replicas[at] = self.start(f"r{at}", ["--store", self.redis.url])
        self.recoveries.append(("replica restarted and ready", time.monotonic() - start))
        if self.fleet.active_rule != "none":  # rules are per replica (docs/scale-out.md): add it again
            self.fleet.control(at, "POST", "/mock/faults", self.fleet.rule_body)
        return None

    def wait_healthy(self, what: str) -> str | None:
        start = time.monotonic()
        while time.monotonic() - start < 10:
            if all(self.fleet.control(i, "GET", "/mock/health")[0] == 200 for i in range(3)):
                self.recoveries.append((f"healthy after {what}", time.monotonic() - start))
                return None
            time.sleep(0.02)
        return f"{what}: the fleet is not healthy 10 s after Redis came back"


def play(ops: list[dict], context: dict, trace: bool = False) -> tuple[str | None, Trial]:
    """Plays `ops` on fresh systems; the first divergence or violated invariant, or None."""
    trial = Trial(context["binary"], context["redis"], context["temp"], context["secrets"])
    failure = None
    try:
        for trial.failed_at, op in enumerate(ops):
            began = time.monotonic()
            if op["op"] in FAULT_OPS:
                failure = trial.fault(op)
            else:
                # The fleet first: its consecutive requests are then as close together as a client's, so a
                # change is used at another replica before that replica's next poll (issue #21 part 2).
                got = trial.fleet.run(op)
                trial.settle(op)
                expected = trial.ref.run(op)
                if trace:
                    print(f"  {json.dumps(op)} → reference {expected}, fleet {got}")
                if expected != got:
                    failure = f"op {op['h']} {json.dumps(op)}: reference {expected}, fleet {got}"
            for system in (trial.ref, trial.fleet):
                system.check_rules()
                if system.violations and not failure:
                    failure = f"{system.name}: {system.violations[0]}"
            trial.spent[op["op"]] = trial.spent.get(op["op"], 0.0) + time.monotonic() - began
            if failure:
                break
    except (AssertionError, OSError) as error:
        failure = f"harness: {error}"
    finally:
        problems = trial.stop()
    if problems and not failure:
        failure = f"500 or crash in a log: {problems[:3]}"
    return failure, trial


def signature(failure: str | None) -> str | None:
    """What kind of failure this is, without operation numbers, handles or user names: a candidate of the
    shrink must fail the same way (a different failure, e.g. from a loaded machine, does not count)."""
    if failure is None:
        return None
    failure = re.sub(r"\{[^{}]*\"op\": (\"\w+\")[^{}]*(\{[^{}]*\})?[^{}]*\}", r"\1", failure)
    return re.sub(r"\b(op \d+|alice|bob|carol|nobody|u\d+|r\d+)\b", "#", failure)


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
    parser.add_argument("--skip", action="append", default=[], metavar="OPERATION",
                        help="leave this kind of operation out (repeatable), e.g. redis_kill")
    parser.add_argument("--replay", type=Path, help="play this sequence file once, printing each outcome")
    parser.add_argument("--failure-file", type=Path, default=None,
                        help="where a shrunk failing sequence is written (default: /tmp/siwa-differential-*.json)")
    args = parser.parse_args()
    binary = resolve_binary(args.binary)
    seconds = args.minutes * 60 if args.minutes else args.seconds
    seed = args.seed if args.seed is not None else random.randrange(1 << 32)
    secrets = {WEB_CLIENT: mint_client_secret(binary, WEB_CLIENT), NATIVE_CLIENT: mint_client_secret(binary, NATIVE_CLIENT)}
    with tempfile.TemporaryDirectory(prefix="siwa-differential-") as temp:
        redis = RedisServer(Path(temp))
        context = {"binary": binary, "redis": redis, "temp": Path(temp), "secrets": secrets}
        try:
            if args.replay:
                failure, _ = play(json.loads(args.replay.read_text())["ops"], context, trace=True)
                print(f"FAIL {failure}" if failure else "replayed: reference and fleet agree")
                return 1 if failure else 0
            for path in sorted(SEQUENCES_DIR.glob("*.json")):
                failure, _ = play(json.loads(path.read_text())["ops"], context)
                print(f"{'FAIL' if failure else 'ok  '} replay {path.name}" + (f": {failure}" if failure else ""))
                if failure:
                    return 1
            return explore(args, seed, seconds, context)
        finally:
            redis.kill()


def explore(args, seed: int, seconds: float, context: dict) -> int:
    rng = random.Random(seed)
    print(f"differential: seed {seed}, {seconds:.0f} s, sequences of {args.length}", flush=True)
    start, total, sequences, counts, recoveries, spent = time.monotonic(), 0, 0, {}, [], {}
    while time.monotonic() - start < seconds:
        ops = generate(rng, args.length, faults=not args.no_faults, start=0, skip=tuple(args.skip))
        failure, trial = play(ops, context)
        sequences += 1
        recoveries += trial.recoveries
        for kind, seconds_spent in trial.spent.items():
            spent[kind] = spent.get(kind, 0.0) + seconds_spent
        if failure:
            print(f"FAIL sequence {sequences} (seed {seed}): {failure}", flush=True)
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
    print(f"differential: {total} operations in {sequences} sequences, {elapsed:.0f} s, reference and fleet "
          f"agree; no invariant violated")
    print("  operations (count, seconds): " + ", ".join(f"{k} {v} {spent.get(k, 0):.1f}s"
                                                    for k, v in sorted(counts.items())))
    by_kind: dict[str, list[float]] = {}
    for kind, value in recoveries:
        by_kind.setdefault(kind, []).append(value)
    for kind, values in sorted(by_kind.items()):
        values.sort()
        print(f"  {kind}: n={len(values)} median {values[len(values) // 2]:.2f} s "
              f"max {values[-1]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
