#!/usr/bin/env python3
"""Messages per second accepted over SMTP: siwa-mock's relay listener (`serve --smtp-port`, Apple's
rules applied, every message parsed, rewritten and stored) side by side with aiosmtpd's Sink handler
(accepts and discards) on the same machine, over 1 connection and over 16.

Usage: bench/mail/run.py [--binary PATH] [--seconds S]
The client is one asyncio process, the same for both servers, in two modes: plain transactions
(MAIL, RCPT, DATA, message, each waiting for its reply: the Python client is then the bottleneck)
and 20 whole transactions per write (then the servers are). Recipients rotate over 500 relay
users so the 100-a-day limit never defers (the scenario is generated; the clock is frozen).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "Tests" / "pysupport"))
from siwatest.process import MockProcess  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402

USERS = 500
MESSAGE = (b"From: Shop <hello@shop.example>\r\nTo: someone\r\nSubject: Your receipt\r\n"
           b"Message-ID: <bench@shop.example>\r\n\r\n" + b"Thank you for your order.\r\n" * 40)


def scenario_text() -> str:
    users = "".join(f"  - id: u{i}\n    email: u{i}@example.com\n    private_email: true\n"
                    f"    relay_email: r{i:09d}@privaterelay.appleid.com\n" for i in range(USERS))
    return ("clock:\n  start: 2026-01-01T00:00:00Z\n  frozen: true\nteams:\n  - id: ABCDE12345\n"
            "    email_sources:\n      - domain: shop.example\nclients:\n  - id: com.example.web\n"
            "    redirect_uris: [https://app.example.com/cb]\nusers:\n" + users)


async def connection(port: int, deadline: float, offset: int, counts: list[int], batch: int) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)

    async def reply() -> bytes:
        while True:
            line = await reader.readline()
            if len(line) < 4 or line[3:4] != b"-":
                return line
    await reply()
    writer.write(b"EHLO bench.example\r\n")
    await reply()
    index = offset
    while time.monotonic() < deadline:
        if batch == 1:
            rcpt = f"r{index % USERS:09d}@privaterelay.appleid.com".encode()
            index += 1
            for command in (b"MAIL FROM:<hello@shop.example>\r\n", b"RCPT TO:<" + rcpt + b">\r\n", b"DATA\r\n"):
                writer.write(command)
                answer = await reply()
                assert answer[:1] in (b"2", b"3"), answer
            writer.write(MESSAGE + b".\r\n")
            answer = await reply()
            assert answer.startswith(b"250"), answer
            counts[0] += 1
            continue
        # `batch` whole transactions in one write, then their 4 × batch replies (a pipelining client
        # that does not wait for 354: both servers read commands and data strictly in order).
        chunk = b""
        for _ in range(batch):
            rcpt = f"r{index % USERS:09d}@privaterelay.appleid.com".encode()
            index += 1
            chunk += (b"MAIL FROM:<hello@shop.example>\r\nRCPT TO:<" + rcpt + b">\r\nDATA\r\n" + MESSAGE + b".\r\n")
        writer.write(chunk)
        for _ in range(batch):
            answers = [await reply() for _ in range(4)]
            assert answers[3].startswith(b"250"), answers
        counts[0] += batch
    writer.write(b"QUIT\r\n")
    await reply()
    writer.close()


async def measure(port: int, connections: int, seconds: float, batch: int) -> float:
    counts = [0]
    deadline = time.monotonic() + seconds
    started = time.monotonic()
    await asyncio.gather(*(connection(port, deadline, i * 31, counts, batch) for i in range(connections)))
    return counts[0] / (time.monotonic() - started)


def free_port() -> int:
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (all threads), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed(pid: int, port: int, connections: int, seconds: float, batch: int) -> tuple[float, float]:
    """Messages per second, and the server's CPU microseconds per message."""
    before = cpu_seconds(pid)
    started = time.monotonic()
    rate = asyncio.run(measure(port, connections, seconds, batch))
    messages = rate * (time.monotonic() - started)
    return rate, (cpu_seconds(pid) - before) * 1e6 / max(1.0, messages)


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
    args = parser.parse_args()
    binary = resolve_binary(args.binary)
    venv = subprocess.run(["bash", str(HERE.parents[1] / "Tests" / "pysupport" / "venv.sh"), str(HERE)],
                          check=True, capture_output=True, text=True).stdout.strip()
    work = Path(tempfile.mkdtemp(prefix="siwa-mail-bench."))
    (work / "scenario.yaml").write_text(scenario_text())
    mock = MockProcess(binary, ["--scenario", str(work / "scenario.yaml"), "--smtp-port", "0"], work / "mock.log")
    sink_port = free_port()
    sink = subprocess.Popen([f"{venv}/bin/python", "-m", "aiosmtpd", "-n", "-c", "aiosmtpd.handlers.Sink",
                             "-l", f"127.0.0.1:{sink_port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                asyncio.run(asyncio.wait_for(asyncio.open_connection("127.0.0.1", sink_port), 1))
                break
            except OSError:
                time.sleep(0.1)
        rows = []
        for batch in (1, 20):
            for connections in (1, 16):
                mine = timed(mock.proc.pid, mock.smtp_port, connections, args.seconds, batch)
                reference = timed(sink.pid, sink_port, connections, args.seconds, batch)
                rows.append((connections, batch, mine, reference))
        print(f"mail bench: {args.seconds:.0f} s per figure, message {len(MESSAGE)} bytes, machine {os.uname().machine}, "
              f"load {os.getloadavg()[0]:.1f}")
        print("| connections | transactions per write | siwa-mock msg/s | aiosmtpd Sink msg/s | ratio | target ≥ 5× "
              "| siwa-mock CPU µs/msg | aiosmtpd CPU µs/msg | CPU ratio |")
        print("|---|---|---|---|---|---|---|---|---|")
        for connections, batch, (mine, mine_cpu), (reference, reference_cpu) in rows:
            ratio = mine / reference if reference else float("inf")
            print(f"| {connections} | {batch} | {mine:,.0f} | {reference:,.0f} | {ratio:.1f}× | {'met' if ratio >= 5 else 'missed'} "
                  f"| {mine_cpu:,.0f} | {reference_cpu:,.0f} | {reference_cpu / max(1.0, mine_cpu):.1f}× |")
        print(f"siwa-mock RSS after the run: {rss_kib(mock.proc.pid) / 1024:.1f} MiB (mailbox capped at 1,000 records / 64 MiB)")
    finally:
        sink.terminate()
        sink.wait()
        mock.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
