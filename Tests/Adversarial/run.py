#!/usr/bin/env python3
"""Adversarial clients against a live siwa-mock (loopback only, bounded in time, standard library only).

Usage: Tests/Adversarial/run.py [--binary PATH] [--report FILE]

Each attack runs while a well-behaved client keeps fetching `/auth/keys` and running a full code
flow; the attack passes only if the attacker got exactly the documented treatment, the good client
never failed or waited longer than GOOD_BOUND seconds, and `/mock/health` answers afterwards.
The server runs with short limits so timeouts show in seconds: see SERVE_FLAGS.
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "pysupport"))
import file_attacks  # noqa: E402
import mail_attacks  # noqa: E402
import memory_attacks  # noqa: E402
import notification_attacks  # noqa: E402
import smtp_attacks  # noqa: E402
from outcome import Outcome  # noqa: E402
from siwatest.client import Client, mint_client_secret  # noqa: E402
from siwatest.process import MockProcess, raise_fd_limit  # noqa: E402
from siwatest.runner import COMMON_FLAGS_HELP, add_common_arguments, resolve_binary  # noqa: E402

HEADER_TIMEOUT_MS = 2000
IDLE_TIMEOUT_MS = 4000
MAX_CONNECTIONS = 5000
SMTP_TIMEOUT_MS = 2000
SERVE_FLAGS = ["--header-timeout", str(HEADER_TIMEOUT_MS), "--idle-timeout", str(IDLE_TIMEOUT_MS),
               "--max-connections", str(MAX_CONNECTIONS), "--smtp-port", "0", "--smtp-timeout", str(SMTP_TIMEOUT_MS)]
GOOD_BOUND = 2.0  # seconds: the worst latency the well-behaved client may see during an attack
IDLE_CONNECTIONS = 3000


class GoodClient(threading.Thread):
    """Runs the well-behaved checks in a loop and records failures and the worst latency."""

    def __init__(self, host: str, port: int, secret: str) -> None:
        super().__init__(daemon=True)
        self.client = Client(host, port, secret, timeout=GOOD_BOUND + 3)
        self.stop_event = threading.Event()
        self.count = 0
        self.worst = 0.0
        self.failures: list[str] = []

    def run(self) -> None:
        while not self.stop_event.is_set():
            for check in (self.client.check_keys, self.client.check_code_flow):
                started = time.monotonic()
                try:
                    check()
                except Exception as error:  # noqa: BLE001 - every failure is reported
                    self.failures.append(f"{check.__name__}: {error!r}")
                    self.client.close()
                self.worst = max(self.worst, time.monotonic() - started)
                self.count += 1
            time.sleep(0.05)

    def finish(self) -> None:
        self.stop_event.set()
        self.join(timeout=10)
        self.client.close()


def connect(port: int, timeout: float = 5.0) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_until_close(sock: socket.socket, limit: float) -> tuple[bytes, bool, float]:
    """Reads until EOF/reset or `limit` seconds; returns the bytes, whether the peer closed, and when."""
    started = time.monotonic()
    data = b""
    sock.settimeout(0.2)
    while time.monotonic() - started < limit:
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            continue
        except ConnectionResetError:
            return data, True, time.monotonic() - started
        if not chunk:
            return data, True, time.monotonic() - started
        data += chunk
    return data, False, time.monotonic() - started


def status_of(data: bytes) -> str:
    line = data.split(b"\r\n", 1)[0].decode(errors="replace")
    return line.split(" ", 2)[1] if line.startswith("HTTP/1.1 ") else f"no response ({data[:40]!r})"


# --- attacks -------------------------------------------------------------------------------------

def slowloris_head(port: int) -> Outcome:
    out = Outcome("slowloris: request head one byte per second",
                  f"closed at the header timeout ({HEADER_TIMEOUT_MS / 1000:g} s), no response")
    request = b"GET /auth/keys HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 64
    socks = [connect(port) for _ in range(20)]
    started = time.monotonic()
    closed_at: dict[int, float] = {}
    sent = 0
    while len(closed_at) < len(socks) and time.monotonic() - started < HEADER_TIMEOUT_MS / 1000 + 5:
        for i, sock in enumerate(socks):
            if i in closed_at:
                continue
            try:
                sock.send(request[sent % len(request):sent % len(request) + 1])
                sock.settimeout(0.001)
                if sock.recv(1) == b"":
                    closed_at[i] = time.monotonic() - started
            except socket.timeout:
                pass
            except OSError:
                closed_at[i] = time.monotonic() - started
        sent += 1
        time.sleep(1.0)
    for sock in socks:
        sock.close()
    times = sorted(closed_at.values())
    out.observed = (f"{len(times)}/{len(socks)} closed after {times[0]:.1f}–{times[-1]:.1f} s"
                    if times else "none closed")
    limit = HEADER_TIMEOUT_MS / 1000
    out.ok = len(times) == len(socks) and limit - 0.5 <= times[0] and times[-1] <= limit + 2.5
    return out


def slowloris_body(port: int) -> Outcome:
    out = Outcome("slow body: head complete, body one byte per second",
                  f"closed at the body timeout ({HEADER_TIMEOUT_MS / 1000:g} s), no response")
    sock = connect(port)
    sock.sendall(b"POST /auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                 b"Content-Length: 100\r\n\r\n")
    started = time.monotonic()
    closed = None
    while time.monotonic() - started < HEADER_TIMEOUT_MS / 1000 + 5:
        try:
            sock.send(b"a")
            sock.settimeout(1.0)
            data = sock.recv(4096)
            if data == b"":
                closed = time.monotonic() - started
                break
            out.notes.append(f"unexpected bytes {data[:60]!r}")
        except socket.timeout:
            continue
        except OSError:
            closed = time.monotonic() - started
            break
    sock.close()
    out.observed = f"closed after {closed:.1f} s" if closed is not None else "not closed"
    out.ok = closed is not None and closed <= HEADER_TIMEOUT_MS / 1000 + 2.5 and not out.notes
    return out


def never_reads(port: int, server: MockProcess) -> Outcome:
    out = Outcome("client pipelines 20 000 requests and never reads",
                  f"server stops reading once its responses back up; closed at the stall timeout "
                  f"({IDLE_TIMEOUT_MS / 1000:g} s); RSS bounded")
    time.sleep(0.3)  # let the good client open its keep-alive connection first
    fds_before = server.open_fds()
    rss_before = server.rss_kib()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.port))
    one = b"GET /auth/keys HTTP/1.1\r\nHost: x\r\n\r\n"
    sock.setblocking(False)
    pending = one * 20000
    offset = 0
    started = time.monotonic()
    peak = rss_before
    while offset < len(pending) and time.monotonic() - started < 3:
        try:
            offset += sock.send(pending[offset:offset + 65536])
        except BlockingIOError:
            time.sleep(0.05)
            peak = max(peak, server.rss_kib())
        except OSError:
            break
    # Do not read: wait for the server to give up on the stalled client (its fd count drops back).
    closed_after = None
    while time.monotonic() - started < IDLE_TIMEOUT_MS / 1000 + 8:
        peak = max(peak, server.rss_kib())
        time.sleep(0.25)
        if server.open_fds() <= fds_before:
            closed_after = time.monotonic() - started
            break
    # Then read what was delivered: the server must have closed (EOF/reset), not kept answering.
    data, closed, _ = read_until_close(sock, 5.0)
    sock.close()
    answered = data.count(b"HTTP/1.1 200")
    growth = (peak - rss_before) / 1024
    out.observed = (f"sent {offset // len(one)} requests (kernel buffers took them all), got {answered} "
                    "responses before the server "
                    + (f"closed the stalled connection after {closed_after:.1f} s" if closed_after and closed
                       else "did NOT close it")
                    + f"; RSS +{growth:.1f} MiB at peak")
    out.ok = closed_after is not None and closed and answered < 20000 and growth < 64
    return out


def idle_keepalive(port: int, server: MockProcess) -> Outcome:
    out = Outcome(f"{IDLE_CONNECTIONS} idle keep-alive connections",
                  f"all held (cap {MAX_CONNECTIONS}), others served, all closed at the idle timeout "
                  f"({IDLE_TIMEOUT_MS / 1000:g} s)")
    rss_before = server.rss_kib()
    socks = []
    # A loopback Host: without --admin-token the control API refuses any other (DNS rebinding, docs/security.md).
    request = b"GET /mock/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    for _ in range(IDLE_CONNECTIONS):
        socks.append(connect(port))
    for sock in socks:
        sock.sendall(request)
    answered = 0
    for sock in socks:
        sock.settimeout(5)
        data = sock.recv(4096)
        if data.startswith(b"HTTP/1.1 200"):
            answered += 1
    established = time.monotonic()
    held_fds = server.open_fds()
    rss_held = server.rss_kib()
    # Now idle: count closes by the server.
    closed = 0
    deadline = established + IDLE_TIMEOUT_MS / 1000 + 6
    remaining = list(socks)
    while remaining and time.monotonic() < deadline:
        still = []
        for sock in remaining:
            sock.settimeout(0)
            try:
                if sock.recv(1) == b"":
                    closed += 1
                    sock.close()
                    continue
            except BlockingIOError:
                pass
            except OSError:
                closed += 1
                sock.close()
                continue
            still.append(sock)
        remaining = still
        time.sleep(0.25)
    all_closed_after = time.monotonic() - established
    for sock in remaining:
        sock.close()
    out.observed = (f"{answered}/{IDLE_CONNECTIONS} answered and held open ({held_fds} fds, RSS "
                    f"+{(rss_held - rss_before) / 1024:.1f} MiB); {closed} closed by the server within "
                    f"{all_closed_after:.1f} s")
    out.ok = answered == IDLE_CONNECTIONS and closed == IDLE_CONNECTIONS
    return out


def smuggling_cases() -> list[tuple[str, bytes, str]]:
    h = b"POST /auth/token HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    inner = b"GET /auth/keys HTTP/1.1\r\nHost: x\r\n\r\n"
    return [
        ("conflicting Content-Length", h + b"Content-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef", "400"),
        ("Content-Length list `5, 6`", h + b"Content-Length: 5, 6\r\n\r\nabcdef", "400"),
        ("signed Content-Length `+5`", h + b"Content-Length: +5\r\n\r\nabcde", "400"),
        ("negative Content-Length", h + b"Content-Length: -1\r\n\r\n", "400"),
        ("40-digit Content-Length", h + b"Content-Length: " + b"9" * 40 + b"\r\n\r\n", "413"),
        ("Transfer-Encoding + Content-Length (CL.TE)",
         h + b"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "400"),
        ("Transfer-Encoding + Content-Length (TE.CL)",
         h + b"Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n5c\r\n", "400"),
        ("Transfer-Encoding: chunked alone", h + b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", "411"),
        ("obfuscated `Transfer-Encoding: xchunked`", h + b"Transfer-Encoding: xchunked\r\n\r\n", "411"),
        ("space before colon `Transfer-Encoding :`", h + b"Transfer-Encoding : chunked\r\n\r\n", "400"),
        ("obs-fold continuation line", h + b"Content-Length: 0\r\nX-A: a\r\n b\r\n\r\n", "400"),
        ("obs-fold hiding Transfer-Encoding", h + b"X-A: a\r\n\tTransfer-Encoding: chunked\r\n\r\n", "400"),
        ("bare LF line endings", b"GET /auth/keys HTTP/1.1\nHost: x\n\n", "400"),
        ("bare LF inside the head", b"GET /auth/keys HTTP/1.1\r\nHost: x\nX-A: b\r\n\r\n", "400"),
        ("bare CR in a header value (injection)", b"GET /auth/keys HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", "400"),
        ("NUL in a header value", b"GET /auth/keys HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n", "400"),
        ("two Host fields", b"GET /auth/keys HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", "400"),
        ("HTTP/1.1 without Host", b"GET /auth/keys HTTP/1.1\r\n\r\n", "400"),
        ("header block over 16 KiB", b"GET /auth/keys HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 17000 + b"\r\n\r\n",
         "431"),
        ("body over 1 MiB", h + b"Content-Length: 1048577\r\n\r\n", "413"),
        ("unsupported Expect", h + b"Content-Length: 1\r\nExpect: x-smuggle\r\n\r\na", "417"),
        # The asterisk-form target is refused before the version is looked at.
        ("HTTP/2 preface on HTTP/1.1 port", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "400"),
        ("request body hiding a second request (must yield one response)",
         h + b"Content-Length: " + str(len(inner)).encode() + b"\r\nConnection: close\r\n\r\n" + inner, "400"),
    ]


def smuggling(port: int) -> list[Outcome]:
    outcomes = []
    for name, payload, expected in smuggling_cases():
        out = Outcome(f"smuggling: {name}", f"{expected}, connection closed")
        sock = connect(port)
        try:
            sock.sendall(payload)
        except OSError as error:
            out.notes.append(f"send failed: {error!r}")
        data, closed, after = read_until_close(sock, 4.0)
        sock.close()
        responses = data.count(b"HTTP/1.1 ")
        out.observed = f"{status_of(data)}, " + ("closed" if closed else "left open") + f" after {after:.2f} s"
        if responses != 1:
            out.observed += f", {responses} responses"
        out.ok = status_of(data) == expected and closed and responses == 1
        outcomes.append(out)
    return outcomes


def flood(binary: Path, secret: str, work: Path) -> Outcome:
    cap = 200
    out = Outcome(f"flood of {cap + 300} connections beyond a cap of {cap}",
                  f"the first {cap} held; every one beyond gets 503 and close; served again once they leave")
    server = MockProcess(binary, ["--max-connections", str(cap), "--idle-timeout", "30000"], work / "flood.log")
    try:
        held = [connect(server.port) for _ in range(cap)]
        # Make sure the held ones are registered before the flood arrives.
        time.sleep(0.3)
        refused = 0
        other = 0
        for _ in range(300):
            sock = connect(server.port)
            sock.sendall(b"GET /auth/keys HTTP/1.1\r\nHost: x\r\n\r\n")
            data, closed, _ = read_until_close(sock, 3.0)
            sock.close()
            if status_of(data) == "503" and closed:
                refused += 1
            else:
                other += 1
        for sock in held:
            sock.close()
        time.sleep(0.3)
        client = Client(server.host, server.port, secret)
        served = True
        try:
            for _ in range(5):
                client.check_keys()
                client.check_code_flow()
            client.check_health()
        except Exception as error:  # noqa: BLE001
            served = False
            out.notes.append(repr(error))
        client.close()
        out.observed = (f"{refused}/300 got 503 and were closed, {other} other; "
                        + ("served normally after" if served else "NOT served after"))
        out.ok = refused == 300 and served and server.alive
    finally:
        rc = server.stop()
        if rc != 0:
            out.ok = False
            out.notes.append(f"exit status {rc} after SIGTERM")
    return out


# --- driver --------------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, epilog=COMMON_FLAGS_HELP,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_common_arguments(parser)
    parser.add_argument("--report", type=Path, help="write the results table (Markdown) here")
    args = parser.parse_args()
    args.binary = resolve_binary(args.binary)
    fd_limit = raise_fd_limit()
    if fd_limit < IDLE_CONNECTIONS + 200:
        print(f"error: open-file limit {fd_limit} is below {IDLE_CONNECTIONS + 200}", file=sys.stderr)
        return 1
    secret = mint_client_secret(args.binary)
    work = Path(tempfile.mkdtemp(prefix="siwa-adversarial."))
    server = MockProcess(args.binary, SERVE_FLAGS, work / "serve.log")
    outcomes: list[Outcome] = []
    started = time.monotonic()
    try:
        attacks = [
            lambda: [slowloris_head(server.port)],
            lambda: [slowloris_body(server.port)],
            lambda: [never_reads(server.port, server)],
            lambda: [idle_keepalive(server.port, server)],
            lambda: smuggling(server.port),
            lambda: file_attacks.against(server, work / "serve.log", work),
            lambda: memory_attacks.against(server, secret),
            lambda: notification_attacks.against(server),
            lambda: [smtp_attacks.stalled_and_slow(server.host, server.smtp_port, SMTP_TIMEOUT_MS, GOOD_BOUND, read_until_close)],
        ]
        for attack in attacks:
            good = GoodClient(server.host, server.port, secret)
            good.start()
            results = attack()
            time.sleep(0.2)
            good.finish()
            health = Client(server.host, server.port, secret)
            try:
                health.check_health()
                healthy = True
            except Exception as error:  # noqa: BLE001
                healthy = False
                results[-1].notes.append(f"health failed: {error!r}")
            health.close()
            for result in results:
                result.good_requests = good.count
                result.good_worst = good.worst
                if good.failures:
                    result.notes.append(f"good client failed {len(good.failures)}×: {good.failures[0]}")
                if good.worst > GOOD_BOUND:
                    result.notes.append(f"good client waited {good.worst:.2f} s (> {GOOD_BOUND} s)")
                result.ok = result.ok and healthy and server.alive and not good.failures and good.worst <= GOOD_BOUND
                outcomes.append(result)
                print(("PASS " if result.ok else "FAIL ") + f"{result.name}: {result.observed}"
                      + (f" [{'; '.join(result.notes)}]" if result.notes else ""), flush=True)
    finally:
        rc = server.stop()
    if rc != 0:
        print(f"FAIL siwa-mock exited {rc} after SIGTERM; log tail:\n{(work / 'serve.log').read_text()[-2000:]}")
    for result in ([flood(args.binary, secret, work)] + file_attacks.own_servers(args.binary, work)
                   + memory_attacks.own_servers(args.binary, work) + mail_attacks.own_servers(args.binary, work)):
        outcomes.append(result)
        print(("PASS " if result.ok else "FAIL ") + f"{result.name}: {result.observed}"
              + (f" [{'; '.join(result.notes)}]" if result.notes else ""), flush=True)

    failed = [o for o in outcomes if not o.ok] + ([Outcome("clean exit", "0")] if rc != 0 else [])
    passed = len(outcomes) - len([o for o in outcomes if not o.ok])
    if args.report:
        rows = ["| attack | expected | observed | good client during it | |", "|---|---|---|---|---|"]
        for o in outcomes:
            good = f"{o.good_requests} checks, worst {o.good_worst * 1000:.0f} ms" if o.good_requests else "(own server)"
            rows.append(f"| {o.name} | {o.expected} | {o.observed} | {good} | {'pass' if o.ok else 'FAIL'} |")
        args.report.write_text("\n".join(rows) + "\n")
    print(f"adversarial: {passed} passed, {len(failed)} failed ({time.monotonic() - started:.0f} s)")
    return 0 if not failed else 1


if __name__ == "__main__":
    sys.exit(main())
