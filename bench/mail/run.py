#!/usr/bin/env python3
"""Messages per second accepted over SMTP: siwa-mock's relay listener (`serve --smtp-port`, Apple's
rules applied, every message parsed, rewritten and stored) side by side with aiosmtpd's Sink handler
(accepts and discards) on the same machine, over 1, 2, 4 and 16 connections.

Usage: bench/mail/run.py [--binary PATH] [--seconds S] [--connections 1,2,4,16]
The client is bench/mail/client.go (built here with Debian's `go` into a temp dir; standard library
only), the same for both servers: one goroutine per connection, in two modes, plain transactions
(MAIL, RCPT, DATA, message, each waiting for its reply) and pipelined (20 whole transactions per
write). Each server's CPU per accepted message is its utime + stime delta from /proc over the figure.
Recipients rotate over 2,000 relay users and the mailbox and its daily counters are cleared
(`DELETE /mock/mail`) before each figure, so the 100-a-day limit never defers within one (the
scenario is generated; the clock is frozen). Issue #25's targets, at 1–4 connections: throughput
≥ 3× aiosmtpd's and CPU per message ≤ 1/5 of it.
"""

from __future__ import annotations

import argparse
import socket
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "Tests" / "pysupport"))
from siwatest.process import MockProcess  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402

# 100 messages a day each: 200,000 a figure before the limit defers (pipelined, 1 connection, passed 50,000 in 3 s).
USERS = 2000
MESSAGE = (b"From: Shop <hello@shop.example>\r\nTo: someone\r\nSubject: Your receipt\r\n"
           b"Message-ID: <bench@shop.example>\r\n\r\n" + b"Thank you for your order.\r\n" * 40)


def scenario_text() -> str:
    users = "".join(f"  - id: u{i}\n    email: u{i}@example.com\n    private_email: true\n"
                    f"    relay_email: r{i:09d}@privaterelay.appleid.com\n" for i in range(USERS))
    return ("clock:\n  start: 2026-01-01T00:00:00Z\n  frozen: true\nteams:\n  - id: ABCDE12345\n"
            "    email_sources:\n      - domain: shop.example\nclients:\n  - id: com.example.web\n"
            "    redirect_uris: [https://app.example.com/cb]\nusers:\n" + users)


def build_client(work: Path) -> Path:
    """bench/mail/client.go compiled into `work` (GOCACHE there too, so nothing outside it changes)."""
    binary = work / "smtp-client"
    env = dict(os.environ, GOCACHE=str(work / "gocache"))
    subprocess.run(["go", "build", "-o", str(binary), str(HERE / "client.go")], check=True, env=env)
    return binary


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(client: list[str], pid: int, port: int, connections: int, seconds: float,
          batch: int) -> tuple[float, float, float]:
    """Messages per second, the server's CPU microseconds per message, and the client's CPU in
    percent of one core (over 100 × connections, it could not keep up)."""
    before = cpu_seconds(pid)
    client_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(client + [f"-addr=127.0.0.1:{port}", f"-connections={connections}", f"-seconds={seconds}",
                                   f"-batch={batch}", f"-users={USERS}"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"the client failed at {connections} connection(s), batch {batch}: {out.stderr.strip()}")
    client_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    messages, elapsed = (float(field) for field in out.stdout.split())
    client_cpu = (client_after.ru_utime + client_after.ru_stime - client_before.ru_utime - client_before.ru_stime)
    return (messages / elapsed, (cpu_seconds(pid) - before) * 1e6 / max(1.0, messages),
            100 * client_cpu / elapsed)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, epilog=COMMON_FLAGS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--connections", default="1,2,4,16", help="comma-separated (default 1,2,4,16)")
    args = parser.parse_args()
    binary = resolve_binary(args.binary)
    venv = subprocess.run(["bash", str(HERE.parents[1] / "Tests" / "pysupport" / "venv.sh"), str(HERE)],
                          check=True, capture_output=True, text=True).stdout.strip()
    work = Path(tempfile.mkdtemp(prefix="siwa-mail-bench."))
    (work / "scenario.yaml").write_text(scenario_text())
    (work / "message.eml").write_bytes(MESSAGE)
    client = [str(build_client(work)), f"-message={work / 'message.eml'}"]
    mock = MockProcess(binary, ["--scenario", str(work / "scenario.yaml"), "--smtp-port", "0"], work / "mock.log")
    sink_port = free_port()
    sink = subprocess.Popen([f"{venv}/bin/python", "-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Sink",
                             "-l", f"127.0.0.1:{sink_port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", sink_port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        rows = []
        loads = [os.getloadavg()[0]]
        for batch in (1, 20):
            for connections in (int(field) for field in args.connections.split(",")):
                clear = urllib.request.Request(f"http://{mock.host}:{mock.port}/mock/mail", method="DELETE")
                urllib.request.urlopen(clear, timeout=10).read()
                mine = timed(client, mock.proc.pid, mock.smtp_port, connections, args.seconds, batch)
                reference = timed(client, sink.pid, sink_port, connections, args.seconds, batch)
                rows.append((connections, batch, mine, reference))
                loads.append(os.getloadavg()[0])
        print(f"mail bench: {args.seconds:g} s per figure, message {len(MESSAGE)} bytes, machine {os.uname().machine}, "
              f"load average {min(loads):.1f}–{max(loads):.1f} (1-minute, sampled before and after each row)")
        print("| connections | mode | siwa-mock msg/s | aiosmtpd msg/s | throughput ratio | siwa-mock CPU µs/msg "
              "| aiosmtpd CPU µs/msg | CPU ratio | client CPU % (siwa-mock / aiosmtpd) | verdict (≥ 3×, ≥ 5× at 1–4) |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for connections, batch, (mine, mine_cpu, mine_client), (reference, reference_cpu, reference_client) in rows:
            ratio = mine / reference if reference else float("inf")
            cpu_ratio = reference_cpu / max(1.0, mine_cpu)
            if connections > 4:
                verdict = "(not a target)"
            else:
                verdict = ", ".join([f"throughput {'met' if ratio >= 3 else 'missed'}",
                                     f"CPU {'met' if cpu_ratio >= 5 else 'missed'}"])
            mode = "plain" if batch == 1 else f"pipelined ×{batch}"
            print(f"| {connections} | {mode} | {mine:,.0f} | {reference:,.0f} | {ratio:.1f}× | {mine_cpu:,.0f} "
                  f"| {reference_cpu:,.0f} | {cpu_ratio:.1f}× | {mine_client:.0f} / {reference_client:.0f} | {verdict} |")
        print(f"siwa-mock RSS after the run: {rss_kib(mock.proc.pid) / 1024:.1f} MiB (mailbox capped at 1,000 records / 64 MiB)")
    finally:
        sink.terminate()
        sink.wait()
        mock.stop()
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
