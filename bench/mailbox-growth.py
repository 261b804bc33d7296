#!/usr/bin/env python3
"""Server CPU per mailbox read with 10 and with 1,000 stored messages (issue #38): whether a list, the
newest message and a search cost the same however much mail is stored.

Usage: bench/mailbox-growth.py [--binary PATH] [--baseline PATH] [--requests N] [--baseline-requests N]
For each binary (this build, and --baseline, e.g. main's, side by side in the same run), for 10 and then
1,000 stored messages: starts `siwa-mock serve --smtp-port 0` on a generated relay scenario, delivers the
messages over SMTP (smtplib, one connection; a 10 KiB multipart message each: text, HTML, a small
attachment), then sends N requests of each kind on one keep-alive connection and reads the server's
CPU (utime + stime of every thread, /proc/PID/stat) before and after: microseconds per request.

  list    GET /api/v1/messages?limit=1      Mailpit's list, one message per page
  latest  GET /api/v1/message/latest        the newest message in full (it parses that one)
  search  GET /api/v1/search?query=ref00007 a plain word, in the text of one message of 10 or 1,000

Not in CI: a figure, not a test (bench/RESULTS.md records them with the load average).
"""

from __future__ import annotations

import argparse
import http.client
import os
import smtplib
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "Tests" / "pysupport"))
from siwatest.process import MockProcess  # noqa: E402
from siwatest.runner import resolve_binary  # noqa: E402

sys.path.insert(0, str(HERE / "mail"))
from run import cpu_seconds, scenario_text  # noqa: E402  (bench/mail/run.py: its relay scenario, /proc CPU)

USERS = 20  # recipients rotate over 20 of the scenario's relay users: 50 messages a day each, under 100
READS = {
    "list": "/api/v1/messages?limit=1",
    "latest": "/api/v1/message/latest",
    "search": "/api/v1/search?query=ref00007",
}


def message(number: int) -> bytes:
    text = f"Reference ref{number:05d}.\r\n" + "".join(f"Line {line} of your receipt for order-{number}: one item, shipped.\r\n" for line in range(80))
    html = "<html><body>" + "".join(f"<p>Row {line}: <b>item</b> shipped</p>\r\n" for line in range(120))
    return (f"From: Shop <hello@shop.example>\r\nTo: Customer <r{number % USERS:09d}@privaterelay.appleid.com>\r\n"
            f"Subject: Receipt for order-{number}\r\nMessage-ID: <order-{number}@shop.example>\r\n"
            "MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=outer\r\n\r\n"
            "--outer\r\nContent-Type: multipart/alternative; boundary=inner\r\n\r\n"
            f"--inner\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{text}\r\n"
            f"--inner\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{html}</body></html>\r\n--inner--\r\n"
            "--outer\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"receipt.pdf\"\r\n"
            "Content-Transfer-Encoding: base64\r\n\r\n" + "JVBERi0xLjQKJcfsj6IK\r\n" * 40 + "--outer--\r\n").encode()


def measure(binary: Path, stored: int, requests: int, work: Path) -> dict[str, float]:
    mock = MockProcess(binary, ["--scenario", str(work / "scenario.yaml"), "--smtp-port", "0"], work / "mock.log")
    try:
        with smtplib.SMTP("127.0.0.1", mock.smtp_port, timeout=30) as smtp:
            for number in range(stored):
                smtp.sendmail("hello@shop.example", [f"r{number % USERS:09d}@privaterelay.appleid.com"],
                              message(number))
        connection = http.client.HTTPConnection(mock.host, mock.port, timeout=60)

        def get(path: str) -> bytes:
            connection.request("GET", path)
            response = connection.getresponse()
            body = response.read()
            if response.status != 200:
                sys.exit(f"{path}: {response.status} {body[:200]!r}")
            return body

        if b'"total":%d' % stored not in get(READS["list"]):
            sys.exit(f"{binary}: the mailbox does not hold {stored} messages")
        figures = {}
        for name, path in READS.items():
            get(path)  # warm
            before = cpu_seconds(mock.proc.pid)
            for _ in range(requests):
                get(path)
            figures[name] = (cpu_seconds(mock.proc.pid) - before) * 1e6 / requests
        connection.close()
        return figures
    finally:
        mock.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", type=Path, default=None, help="this build (default .build/release/siwa-mock)")
    parser.add_argument("--baseline", type=Path, default=None, help="another build to measure alongside")
    parser.add_argument("--requests", type=int, default=1000, help="requests of each kind per figure")
    parser.add_argument("--baseline-requests", type=int, default=50,
                        help="requests of each kind per figure for --baseline (a slow build: fewer)")
    args = parser.parse_args()
    binaries = [("this build", resolve_binary(args.binary), args.requests)]
    if args.baseline:
        binaries.append(("baseline", resolve_binary(args.baseline), args.baseline_requests))
    work = Path(tempfile.mkdtemp(prefix="siwa-mailbox-growth."))
    (work / "scenario.yaml").write_text(scenario_text())
    loads = [os.getloadavg()[0]]
    rows = []
    for label, binary, requests in binaries:
        small = measure(binary, 10, requests, work)
        loads.append(os.getloadavg()[0])
        large = measure(binary, 1000, requests, work)
        loads.append(os.getloadavg()[0])
        rows += [(label, name, small[name], large[name]) for name in READS]
    counts = " and ".join(f"{requests} ({label})" for label, _, requests in binaries)
    print(f"mailbox growth: {counts} requests per figure, message {len(message(1))} bytes, "
          f"load average {min(loads):.1f}–{max(loads):.1f} (1-minute, sampled between figures)")
    print("| build | read | server CPU µs/request, 10 stored | 1,000 stored | 1,000 ÷ 10 |")
    print("|---|---|---|---|---|")
    for label, name, small, large in rows:
        print(f"| {label} | {name} | {small:,.0f} | {large:,.0f} | {large / max(small, 1):.1f}× |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
