"""Hostile mail, hostile control values, a hostile Host and a hostile server for `signin` (issue 36).

`own_servers(binary, work)` starts a relay of its own (scenarios/relay-mail.yaml, `--smtp-port 0`)
and runs each attack against it, asserting its bound with a measured number:

- hostile MIME: a 9.6 MB message of 800,000 empty parts (`--k\\r\\n\\r\\n`, boundary=k) from the
  registered sender, 10,000 nested multiparts, 1000 parts of 1,500 fields each; each then viewed every
  way three times (JSON, HTML, parts, .eml, the Mailpit routes,
  the dashboard page): RSS stays within 64 MiB of idle and `/auth/keys` answers within 50 ms throughout;
- header injection: CR LF in a user's email and relay_email, in a reply's subject, bare CRs in a From
  display name: refused with 400, or delivered with no new field for a reader ending lines at CR;
- the loopback guard: a Host that is not `host [":" port]`, two Origin fields;
- an attachment declared `application/javascript` is served as `application/octet-stream`;
- `signin` through a proxy that swaps in an alg-none id_token prints nothing on stdout; against an
  endless answer it stops in seconds with its RSS bounded; it follows no redirect with the admin token.
"""

from __future__ import annotations

import base64
import http.client
import http.server
import json
import smtplib
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from outcome import Outcome, guarded
from siwatest.process import MockProcess

MIB = 1024 * 1024
BOB_RELAY = "k7x2m9q4ab@privaterelay.appleid.com"
SCENARIO = Path(__file__).resolve().parents[2] / "scenarios" / "relay-mail.yaml"
KEYS_BOUND = 0.050  # seconds: the worst /auth/keys latency allowed while the many-part message is viewed
RSS_BOUND_MIB = 64


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None, timeout: float = 60) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


def send_mail(server: MockProcess, message: bytes) -> None:
    with smtplib.SMTP(server.host, server.smtp_port, timeout=120) as client:
        client.sendmail("hello@shop.example", [BOB_RELAY], message)


def newest_id(server: MockProcess) -> str:
    return json.loads(request(server.port, "GET", "/mock/mail")[2])["messages"][-1]["id"]


PROBE = r"""
import http.client, json, sys, time
port, worst, at, count, failures = int(sys.argv[1]), 0.0, 0.0, 0, []
connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
while sys.stdin.readline() == "":
    pass
first = True
while True:
    try:
        # The first fetch is made before `ready` is printed: a block that ends at once still has one.
        if not first:
            time.sleep(0.01)
            if sys.stdin in __import__("select").select([sys.stdin], [], [], 0)[0]:
                break
        started = time.monotonic()
        connection.request("GET", "/auth/keys")
        response = connection.getresponse()
        response.read()
        took = time.monotonic() - started
        if response.status != 200:
            failures.append(f"status {response.status}")
        if took > worst:
            worst, at = took, started
        count += 1
    except Exception as error:
        failures.append(repr(error))
        connection.close()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    if first:
        first = False
        print("ready", flush=True)
print(json.dumps({"worst": worst, "at": at, "count": count, "failures": failures[:3]}))
"""


class KeysProbe:
    """Fetches /auth/keys every 10 ms on one keep-alive connection while the `with` block runs, from a
    process of its own: the attacker's Python (smtplib quoting 10 MB holds the GIL) cannot delay it.
    `phase` names what the attacker is doing; `worst_phase` what it was doing at the worst fetch (both
    processes read the one CLOCK_MONOTONIC)."""

    def __init__(self, port: int) -> None:
        self.port, self.worst, self.count, self.failures = port, 0.0, 0, []
        self.phases: list[tuple[float, str]] = []
        self.worst_phase = ""

    @property
    def phase(self) -> str:
        return self.phases[-1][1] if self.phases else ""

    @phase.setter
    def phase(self, name: str) -> None:
        self.phases.append((time.monotonic(), name))

    def __enter__(self) -> "KeysProbe":
        self.process = subprocess.Popen([sys.executable, "-c", PROBE, str(self.port)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)
        self.process.stdin.write("start\n")
        self.process.stdin.flush()
        # Until the probe has fetched once: under CI's load its interpreter can take longer to start than a
        # fast block takes to run, which left a run with no fetch at all.
        self.process.stdout.readline()
        return self

    def __exit__(self, *_: object) -> None:
        self.process.stdin.write("stop\n")
        self.process.stdin.close()
        result = json.loads(self.process.stdout.read())
        self.process.wait(timeout=10)
        self.worst, self.count, self.failures = result["worst"], result["count"], result["failures"]
        self.worst_phase = next((name for started, name in reversed(self.phases) if started <= result["at"]),
                                "before")


class PeakRSS:
    """Samples the server's RSS every 20 ms while the `with` block runs."""

    def __init__(self, server: MockProcess) -> None:
        self.server, self.peak, self.stop = server, 0.0, threading.Event()

    def __enter__(self) -> "PeakRSS":
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()
        return self

    def sample(self) -> None:
        while not self.stop.wait(0.02):
            self.peak = max(self.peak, self.server.rss_kib() / 1024)

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join()
        self.peak = max(self.peak, self.server.rss_kib() / 1024)


def mime_shapes() -> list[tuple[str, bytes, str]]:
    """Hostile MIME shapes near the 10 MiB message cap: (name, body after the header, the start of the
    `parts_note` expected, "" for none)."""
    parts = b"--k\r\n\r\n" * 800_000
    preamble = b"preamble line\r\n" * ((9_600_000 - len(parts)) // 15)
    levels = range(10_000)  # level 0 innermost
    deep = (b"".join(b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (n, n) for n in reversed(levels))
            + b"x\r\n" + b"".join(b"--b%d--\r\n" % n for n in levels))
    fields = b"".join(b"--k\r\n" + b"X:y\r\n" * 1500 + b"\r\n" for _ in range(1000))
    # Not here yet: a 9 MB text part of control bytes (six bytes of JSON each) peaks at +92 MiB over idle
    # (SMTP receipt, a 12 MiB JSON view, glibc arenas), over the 64 MiB bound (issue 36, left open).
    return [("a 9.6 MB message of 800,000 empty parts", preamble + parts, "more than 1000 MIME parts"),
            ("10,000 nested multiparts", deep, "multiparts nested deeper than 8"),
            ("1000 parts of 1,500 header fields each", fields + b"--k--\r\n", "")]


def mime_shape(server: MockProcess, idle: float, name: str, body: bytes, note_start: str) -> Outcome:
    out = Outcome(f"{name}, then every view of it 3×",
                  f"RSS within {RSS_BOUND_MIB} MiB of idle (peak and after), /auth/keys within "
                  f"{KEYS_BOUND * 1000:.0f} ms throughout, every JSON/HTML view < 16 MiB"
                  + (f", the record says '{note_start}…'" if note_start else ""))
    top = b"" if body.startswith(b"Content-Type") else b"Content-Type: multipart/mixed; boundary=k\r\n"
    message = b"From: Shop <hello@shop.example>\r\nSubject: hostile mime\r\nMIME-Version: 1.0\r\n" + top + (
        b"" if body.startswith(b"Content-Type") else b"\r\n") + body
    views = ["/mock/mail", "/mock/mail/{id}", "/mock/mail/{id}.eml", "/mock/mail/{id}/html",
             "/mock/mail/{id}/parts/2", "/mock/mail/{id}/parts/1000", "/api/v1/messages", "/api/v1/message/{id}",
             "/api/v1/message/latest", "/api/v1/message/{id}/raw", "/api/v1/message/{id}/part/2",
             "/api/v1/search?query=hostile", "/mock/ui"]
    sizes: dict[str, int] = {}
    statuses: dict[str, int] = {}
    with KeysProbe(server.port) as probe, PeakRSS(server) as rss:
        probe.phase = "sending"
        send_mail(server, message)
        message_id = newest_id(server)
        took = 0.0
        for _ in range(3):
            for view in views:
                path = view.replace("{id}", message_id)
                probe.phase = view
                started = time.monotonic()
                status, _, answer = request(server.port, "GET", path)
                took = max(took, time.monotonic() - started)
                sizes[view] = max(sizes.get(view, 0), len(answer))
                statuses[view] = status
        detail = json.loads(request(server.port, "GET", f"/mock/mail/{message_id}")[2])
    time.sleep(0.5)
    after = server.rss_kib() / 1024
    request(server.port, "DELETE", "/mock/mail")
    biggest = max((size, view) for view, size in sizes.items() if not view.endswith((".eml", "/raw")))
    note = detail.get("parts_note") or ""
    out.observed = (f"{len(message) / 1e6:.1f} MB sent; idle {idle:.1f} MiB, peak +{rss.peak - idle:.1f}, after "
                    f"+{after - idle:.1f}; /auth/keys worst {probe.worst * 1000:.1f} ms ({probe.worst_phase}) over "
                    f"{probe.count} fetches{' (' + probe.failures[0] + ')' if probe.failures else ''}; slowest view "
                    f"{took:.2f} s; largest JSON/HTML view {biggest[0] / 1024:.0f} KiB ({biggest[1]}); "
                    f"{len(detail.get('attachments', []))} parts listed; truncated {detail.get('truncated')}; "
                    f"note: {note[:40]!r}")
    bad_status = {view: status for view, status in statuses.items()
                  if status not in (200, 404) or (status == 404 and "/html" not in view and "/part" not in view)}
    if bad_status:
        out.notes.append(f"statuses {bad_status}")
    out.ok = (rss.peak - idle <= RSS_BOUND_MIB and after - idle <= RSS_BOUND_MIB and probe.worst <= KEYS_BOUND
              and not probe.failures and probe.count > 0 and note.startswith(note_start) and bool(note) == bool(note_start)
              and not bad_status and biggest[0] < 16 * MIB)
    return out


def header_lines(raw: bytes) -> list[bytes]:
    """The header lines of a message as a reader ending lines at CR, LF or NUL sees them."""
    head = raw.split(b"\r\n\r\n", 1)[0]
    for separator in (b"\r", b"\0"):
        head = head.replace(separator, b"\n")
    return [line for line in head.split(b"\n") if line and line[:1] not in (b" ", b"\t")]


def header_injection(server: MockProcess) -> Outcome:
    out = Outcome("CR LF in PATCH /mock/users email and relay_email and in a reply's subject; bare CRs in a "
                  "From display name",
                  "each control value refused 400 naming the field; the delivered message and the reply have "
                  "no Bcc: or X-Evil: line for a reader ending lines at CR, LF or NUL")
    answers = []
    for field, value in (("email", "bob@example.com\r\nBcc: victim@attacker.example"),
                         ("relay_email", BOB_RELAY + "\r\nX-Evil: 1")):
        status, _, body = request(server.port, "PATCH", "/mock/users/bob", json.dumps({field: value}).encode(),
                                  {"Content-Type": "application/json"})
        answers.append((status, json.loads(body).get("field")))
    send_mail(server, b"From: \"Shop\\\" \rBcc: evil@attacker.example\r\" <hello@shop.example>\r\n"
                      b"Subject: hi\r\n\r\nHello\r\n")
    message_id = newest_id(server)
    status, _, body = request(server.port, "POST", f"/mock/mail/{message_id}/reply",
                              json.dumps({"text": "x", "subject": "Re\r\nBcc: victim@attacker.example"}).encode(),
                              {"Content-Type": "application/json"})
    answers.append((status, json.loads(body).get("field")))
    status, _, _ = request(server.port, "POST", f"/mock/mail/{message_id}/reply",
                           json.dumps({"text": "ok"}).encode(), {"Content-Type": "application/json"})
    delivered = header_lines(request(server.port, "GET", f"/mock/mail/{message_id}.eml")[2])
    reply = header_lines(request(server.port, "GET", f"/mock/mail/{newest_id(server)}.eml")[2])
    injected = [line for line in delivered + reply if line.lower().startswith((b"bcc:", b"x-evil:"))]
    out.observed = (f"answers {answers}; plain reply {status}; delivered fields "
                    f"{[line.split(b':')[0].decode() for line in delivered]}; injected lines {injected}")
    out.ok = (answers == [(400, "email"), (400, "relay_email"), (400, "subject")] and status == 201
              and not injected and len(delivered) == 3)
    return out


def raw_request(port: int, head: bytes) -> int:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(head)
        data = b""
        while b"\r\n" not in data:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    return int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else -1


def guard(server: MockProcess) -> Outcome:
    out = Outcome("Host values that end in .localhost but are no host; two Origin fields on POST /mock/reset",
                  "403 for every one; a loopback Host still 200")
    hosts = [f"attacker.example{c}.localhost:{server.port}" for c in ("#", "/", "\\", "?", " ")]
    hosts.append(f"attacker.example:8080.localhost:{server.port}")
    statuses = {host: raw_request(server.port, f"GET /mock/users HTTP/1.1\r\nHost: {host}\r\nConnection: close"
                                  f"\r\n\r\n".encode()) for host in hosts}
    origin = f"http://127.0.0.1:{server.port}"
    two = {second: raw_request(server.port, (f"POST /mock/reset HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                                             f"Origin: {origin}\r\nOrigin: {second}\r\nContent-Length: 0\r\n"
                                             f"Connection: close\r\n\r\n").encode())
           for second in ("http://attacker.example", "null")}
    fine = raw_request(server.port, f"GET /mock/users HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                       f"Connection: close\r\n\r\n".encode())
    out.observed = f"Hosts {sorted(set(statuses.values()))}; two Origins {two}; loopback Host {fine}"
    out.ok = set(statuses.values()) == {403} and set(two.values()) == {403} and fine == 200
    return out


def attachment_type(server: MockProcess) -> Outcome:
    out = Outcome("an attachment declared application/javascript", "served as application/octet-stream, nosniff; "
                  "the JSON view keeps the declared type")
    send_mail(server, b"From: Shop <hello@shop.example>\r\nSubject: js\r\nContent-Type: multipart/mixed; boundary=b\r\n"
                      b"\r\n--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b\r\nContent-Type: application/javascript\r\n"
                      b"Content-Disposition: attachment; filename=a.js\r\n\r\nalert(1)\r\n--b--\r\n")
    message_id = newest_id(server)
    _, headers, _ = request(server.port, "GET", f"/mock/mail/{message_id}/parts/2")
    _, mailpit, _ = request(server.port, "GET", f"/api/v1/message/{message_id}/part/2")
    listed = json.loads(request(server.port, "GET", f"/mock/mail/{message_id}")[2])["attachments"][0]["content_type"]
    out.observed = (f"{headers.get('content-type')} ({headers.get('x-content-type-options')}); Mailpit "
                    f"{mailpit.get('content-type')}; JSON {listed}")
    out.ok = (headers.get("content-type") == mailpit.get("content-type") == "application/octet-stream"
              and headers.get("x-content-type-options") == "nosniff" and listed == "application/javascript")
    return out


class HostileHandler(http.server.BaseHTTPRequestHandler):
    """Forwards to the mock (`upstream`), except what `mode` changes: `alg-none` swaps the token
    response's id_token for an unsigned one; `endless` answers everything with a body that never ends;
    `redirect` sends /mock/clock and /mock/requests elsewhere (`elsewhere`), which records what arrives."""

    upstream = 0
    mode = ""
    elsewhere = 0
    protocol_version = "HTTP/1.1"

    def log_message(self, *_: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - the handler's name
        self.forward()

    def do_POST(self) -> None:  # noqa: N802
        self.forward()

    def forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.mode == "endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"4000\r\n" + b" " * 0x4000 + b"\r\n"
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
                return
        if self.mode == "redirect" and self.path.startswith(("/mock/clock", "/mock/requests")):
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{self.elsewhere}{self.path}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
        status, answer_headers, answer = request(self.upstream, self.command, self.path, body or None, headers)
        if self.mode == "alg-none" and self.path == "/auth/token" and status == 200:
            tokens = json.loads(answer)
            payload = tokens["id_token"].split(".")[1]
            header = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
            tokens["id_token"] = f"{header}.{payload}."
            answer = json.dumps(tokens).encode()
        self.send_response(status)
        for name, value in answer_headers.items():
            if name not in ("content-length", "connection", "transfer-encoding", "date", "server"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)


def hostile_server(upstream: int, mode: str, elsewhere: int = 0) -> http.server.ThreadingHTTPServer:
    handler = type("Handler", (HostileHandler,), {"upstream": upstream, "mode": mode, "elsewhere": elsewhere})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def run_signin(binary: Path, port: int, extra: list[str]) -> tuple[int, str, str, float, float]:
    """Runs `signin`; returns status, stdout, stderr, seconds and its peak RSS (MiB, sampled)."""
    started = time.monotonic()
    process = subprocess.Popen([str(binary), "signin", "--url", f"http://127.0.0.1:{port}", "--user", "alice",
                                *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = 0
    sampler_stop = threading.Event()

    def sample() -> None:
        nonlocal peak
        while True:
            try:
                for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]))
            except OSError:
                return
            if sampler_stop.wait(0.02):
                return
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        stdout, stderr = process.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        process.kill()
        stdout, stderr = process.communicate()
    sampler_stop.set()
    sampler.join()
    return process.returncode, stdout.decode(), stderr.decode(), time.monotonic() - started, peak / 1024


def signin_against_hostile_servers(binary: Path, mock: MockProcess) -> Outcome:
    out = Outcome("signin through a proxy swapping in an alg-none id_token; against an endless answer; with "
                  "--admin-token through a proxy redirecting /mock/clock elsewhere",
                  "exit 1 and nothing on stdout; exit 1 within 10 s, RSS < 64 MiB; the redirect target gets "
                  "no request (no Authorization crosses)")
    forged = hostile_server(mock.port, "alg-none")
    endless = hostile_server(mock.port, "endless")
    recorder_hits: list[str] = []

    class Recorder(http.server.BaseHTTPRequestHandler):
        def log_message(self, *_: object) -> None:
            pass

        def do_GET(self) -> None:  # noqa: N802
            recorder_hits.append(self.headers.get("Authorization", "(none)"))
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
    recorder = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    threading.Thread(target=recorder.serve_forever, daemon=True).start()
    redirecting = hostile_server(mock.port, "redirect", recorder.server_address[1])
    try:
        none_status, none_out, none_err, _, _ = run_signin(binary, forged.server_address[1], [])
        endless_status, _, endless_err, endless_took, endless_rss = run_signin(binary, endless.server_address[1], [])
        redirect_status, redirect_out, redirect_err, _, _ = run_signin(
            binary, redirecting.server_address[1], ["--admin-token", "s3cret-token"])
    finally:
        for server in (forged, endless, redirecting, recorder):
            server.shutdown()
    out.observed = (f"alg none: exit {none_status}, stdout {len(none_out)} bytes, stderr {none_err.strip()[:80]!r}; "
                    f"endless: exit {endless_status} in {endless_took:.1f} s, peak RSS "
                    f"{f'{endless_rss:.1f} MiB' if endless_rss else '(ended before a sample)'} "
                    f"({endless_err.strip()[-60:]!r}); redirect: exit {redirect_status}, redirect target hit "
                    f"{recorder_hits}")
    out.ok = (none_status == 1 and none_out == "" and "invalid id_token" in none_err and endless_status == 1
              and endless_took < 10 and endless_rss < 64 and not recorder_hits and redirect_status == 0
              and redirect_out != "")
    return out


def own_servers(binary: Path, work: Path) -> list[Outcome]:
    server = MockProcess(binary, ["--scenario", str(SCENARIO), "--smtp-port", "0"], work / "mail.log")
    try:
        time.sleep(0.5)
        idle = server.rss_kib() / 1024
        outcomes = [guarded(lambda: mime_shape(server, idle, name, body, note), name)
                    for name, body, note in mime_shapes()]
        outcomes += [guarded(lambda: header_injection(server), "header injection"),
                    guarded(lambda: guard(server), "loopback guard"),
                    guarded(lambda: attachment_type(server), "attachment type")]
    finally:
        server.stop()
    mock = MockProcess(binary, ["--admin-token", "s3cret-token"], work / "signin.log")
    try:
        outcomes.append(guarded(lambda: signin_against_hostile_servers(binary, mock), "signin hostile servers"))
    finally:
        mock.stop()
    return outcomes
