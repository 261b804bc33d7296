#!/usr/bin/env python3
"""What one runtime user change costs with many users (issue #11: user changes O(1)/O(log n) amortised).

Usage: bench/user_changes.py [--binary PATH] [--users 40000] [--changes 100]

Serves a scenario of --users users (only `users:`; the rest comes from the built-in scenario), then
times --changes each of POST /mock/users (add), PATCH /mock/users/{id} (edit) and DELETE
/mock/users/{id} (delete) over one keep-alive connection, and the same with 100 users for comparison.
Prints total and per-change milliseconds; with a per-change cost independent of the user count, the two
lines agree. Loopback only, standard library only.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "Tests" / "pysupport"))
from siwatest.client import Client  # noqa: E402
from siwatest.process import MockProcess  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402


def measure(binary: Path, users: int, changes: int, work: Path) -> dict[str, float]:
    scenario = work / f"users-{users}.yaml"
    scenario.write_text("users:\n" + "".join(f"  - {{id: u{i}, email: u{i}@example.com}}\n" for i in range(users)))
    server = MockProcess(binary, ["--scenario", str(scenario), "--log-level", "warn"], work / f"serve-{users}.log")
    figures: dict[str, float] = {}
    try:
        client = Client(server.host, server.port, "", timeout=120)
        steps = {
            "add": lambda i: client.request("POST", "/mock/users",
                                            json_body={"id": f"new{i}", "email": f"new{i}@example.com"}),
            "edit": lambda i: client.request("PATCH", f"/mock/users/u{i}", json_body={"first_name": f"E{i}"}),
            "delete": lambda i: client.request("DELETE", f"/mock/users/new{i}"),
        }
        for name, step in steps.items():
            started = time.perf_counter()
            for i in range(changes):
                status = step(i)[0]
                assert status in (200, 201), (name, i, status)
            figures[name] = (time.perf_counter() - started) * 1000
        client.close()
    finally:
        server.stop()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, epilog=COMMON_FLAGS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--users", type=int, default=40_000)
    parser.add_argument("--changes", type=int, default=100)
    args = parser.parse_args()
    binary = resolve_binary(args.binary)
    work = Path(tempfile.mkdtemp(prefix="siwa-user-changes."))
    for users in (100, args.users):
        figures = measure(binary, users, args.changes, work)
        print(f"{users:>7} users: " + ", ".join(
            f"{args.changes} {name}s {total:.0f} ms ({total / args.changes:.2f} ms each)"
            for name, total in figures.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
