"""File, signal and exposure attacks for the adversarial suite (docs/security.md).

`against(server, log_path)` runs on the suite's shared server while the good client keeps working;
`own_servers(binary, work)` starts (or tries to start) servers of its own.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import ssl
import subprocess
import time
from pathlib import Path

from outcome import Outcome, guarded
from siwatest.process import MockProcess
from siwatest.scenario import REPO_ROOT

HOST_KEY = REPO_ROOT / "scenarios" / "keys" / "signing-Pb7Yt1ZcQ9.pem"  # an RSA key the server can read
HEADER_TIMEOUT_S = 2.0


def call(port: int, method: str, path: str, body: str | None = None, timeout: float = 5.0) -> tuple[int, bytes, float]:
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request(method, path, body=body)
        response = connection.getresponse()
        return response.status, response.read(), time.monotonic() - started
    finally:
        connection.close()


def wait_for(path: Path, text: str, limit: float) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if text in path.read_text(errors="replace"):
            return True
        time.sleep(0.05)
    return False


# --- against the shared server ------------------------------------------------------------------

def pem_file_over_http(server: MockProcess, work: Path) -> Outcome:
    out = Outcome("PUT /mock/scenario naming host files in `pem_file:` (a host RSA key, /etc/ssl/private, "
                  "`../` traversal, a missing file, a FIFO)",
                  "400 at once with the same positioned error for each (no existence oracle, nothing opened); "
                  "JWKS unchanged")
    fifo = work / "attack.fifo"
    os.mkfifo(fifo)
    paths = [str(HOST_KEY), "/etc/ssl/private/ssl-cert-snakeoil.key", "../../../../etc/shadow",
             "/nonexistent/key.pem", str(fifo)]
    jwks_before = call(server.port, "GET", "/auth/keys")[1]
    answers, slowest, statuses = set(), 0.0, []
    for path in paths:
        body = f"signing_keys:\n  - kid: HOSTKEY\n    pem_file: {path}\n    signs: true\n"
        try:
            status, data, took = call(server.port, "PUT", "/mock/scenario", body)
        except OSError as error:
            out.notes.append(f"{path}: {error!r}")
            continue
        statuses.append(status)
        slowest = max(slowest, took)
        answers.add(json.dumps(json.loads(data).get("errors")) if status == 400 else data.decode(errors="replace"))
    jwks_after = call(server.port, "GET", "/auth/keys")[1]
    out.observed = (f"statuses {sorted(set(statuses))}, {len(answers)} distinct answer(s), slowest "
                    f"{slowest * 1000:.0f} ms; JWKS " + ("unchanged" if jwks_after == jwks_before else "CHANGED"))
    out.ok = (statuses == [400] * len(paths) and len(answers) == 1 and "'pem_file' is not read" in next(iter(answers))
              and slowest < 1.0 and jwks_after == jwks_before and not out.notes)
    return out


def useless_faults(server: MockProcess) -> Outcome:
    out = Outcome("POST /mock/faults with a 1xx status or a /mock/ path",
                  "400 with a positioned problem; no rule added")
    results = []
    for rule in ({"match": "POST /auth/token", "status": 101}, {"match": "POST /mock/reset", "status": 503}):
        status, data, _ = call(server.port, "POST", "/mock/faults", json.dumps(rule))
        results.append((status, (json.loads(data).get("problems") or ["?"])[0]))
    listed = json.loads(call(server.port, "GET", "/mock/faults")[1])["faults"]
    out.observed = "; ".join(f"{status} {problem}" for status, problem in results) + f"; {len(listed)} rules"
    out.ok = [status for status, _ in results] == [400, 400] and not listed
    return out


def sighup(server: MockProcess, log_path: Path) -> Outcome:
    out = Outcome("SIGHUP to a server without --scenario", "logged and ignored; still serving")
    server.proc.send_signal(signal.SIGHUP)
    logged = wait_for(log_path, "received SIGHUP", 3.0)
    time.sleep(0.2)
    status = call(server.port, "GET", "/mock/health")[0] if server.alive else None
    out.observed = ("logged" if logged else "NOT logged") + (f", health {status}" if status else ", process DIED")
    out.ok = logged and status == 200 and server.alive
    return out


def against(server: MockProcess, log_path: Path, work: Path) -> list[Outcome]:
    return [guarded(lambda: pem_file_over_http(server, work), "PUT /mock/scenario naming host files"),
            guarded(lambda: useless_faults(server), "POST /mock/faults with a 1xx status or a /mock/ path"),
            guarded(lambda: sighup(server, log_path), "SIGHUP to a server without --scenario")]


# --- servers of their own -----------------------------------------------------------------------

def refused_start(binary: Path, args: list[str], env: dict[str, str], expect_status: int, expect_text: str,
                  name: str, expected: str) -> Outcome:
    out = Outcome(name, expected)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SIWA_MOCK_")} | env
    started = time.monotonic()
    try:
        run = subprocess.run([str(binary), *args], env=environment, capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired as timeout:
        out.observed = f"still running after 10 s (stdout {timeout.stdout!r})"
        return out
    took = time.monotonic() - started
    lines = run.stderr.strip().splitlines() or [""]
    line = next((line for line in lines if expect_text in line), lines[0])
    out.observed = f"exit {run.returncode} after {took:.2f} s: {line.strip()[:200]}"
    out.ok = run.returncode == expect_status and expect_text in run.stderr and "listening" not in run.stdout
    return out


def tls_handshakes(binary: Path, work: Path) -> Outcome:
    out = Outcome("20 connections stalled in the TLS handshake (10 silent, 10 with a partial record)",
                  f"closed at the header timeout ({HEADER_TIMEOUT_S:g} s), not the idle timeout (30 s); "
                  "a finished handshake then waits idle and is served")
    tls_dir = work / "tls"
    tls_dir.mkdir(mode=0o700)
    server = MockProcess(binary, ["--tls", "--tls-port", "0", "--tls-dir", str(tls_dir), "--header-timeout",
                                  str(int(HEADER_TIMEOUT_S * 1000)), "--idle-timeout", "30000"], work / "tls.log")
    try:
        socks = [socket.create_connection(("127.0.0.1", server.tls_port), timeout=5) for _ in range(20)]
        for sock in socks[10:]:
            sock.sendall(b"\x16\x03\x01")
        started = time.monotonic()
        closed: list[float] = []
        for sock in socks:
            sock.settimeout(max(0.1, started + 10 - time.monotonic()))
            try:
                if sock.recv(1) == b"":
                    closed.append(time.monotonic() - started)
            except (socket.timeout, OSError) as error:
                if not isinstance(error, socket.timeout):
                    closed.append(time.monotonic() - started)
            sock.close()
        context = ssl.create_default_context(cafile=str(tls_dir / "ca.pem"))
        with socket.create_connection(("127.0.0.1", server.tls_port), timeout=10) as raw:
            with context.wrap_socket(raw, server_hostname="localhost") as tls:
                time.sleep(HEADER_TIMEOUT_S + 1)
                tls.sendall(b"GET /mock/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
                reply = b""
                while chunk := tls.recv(4096):
                    reply += chunk
        times = sorted(closed)
        out.observed = ((f"{len(times)}/20 closed after {times[0]:.1f}–{times[-1]:.1f} s" if times else "none closed")
                        + f"; idle handshake then {reply.split(b' ', 2)[1].decode() if reply else 'no answer'}")
        out.ok = (len(times) == 20 and times[-1] <= HEADER_TIMEOUT_S + 2.5 and times[0] >= HEADER_TIMEOUT_S - 0.5
                  and reply.startswith(b"HTTP/1.1 200"))
    except Exception as error:  # noqa: BLE001 - every failure is reported
        out.notes.append(repr(error))
    finally:
        if server.stop() != 0:
            out.ok = False
            out.notes.append("exit status after SIGTERM was not 0")
    return out


def log_forging(binary: Path, work: Path) -> Outcome:
    out = Outcome("scenario reload error carrying a newline and a fake log line",
                  "the diagnostic is logged with the newline escaped; no forged line")
    scenario = work / "forge.yaml"
    scenario.write_text("name: forge\n")
    log_path = work / "forge.log"
    server = MockProcess(binary, ["--scenario", str(scenario)], log_path)
    try:
        forged = "2099-01-01T00:00:00.000Z 6.6.6.6:1 GET /forged 200 1us id=forged"
        scenario.write_text(f'name: forge\n"x\\n{forged}": 1\n')
        logged = wait_for(log_path, "scenario reload failed", 6.0)
        lines = log_path.read_text(errors="replace").splitlines()
        out.observed = ("reload failure logged" if logged else "reload failure NOT logged") + (
            "; a forged line appeared" if any(line.startswith("2099-") for line in lines) else "; no forged line")
        out.ok = logged and not any(line.startswith("2099-") for line in lines) and any(
            "\\n2099-" in line for line in lines)
    finally:
        server.stop()
    return out


def own_servers(binary: Path, work: Path) -> list[Outcome]:
    open_dir = work / "open-state"
    open_dir.mkdir()
    open_dir.chmod(0o777)
    (open_dir / "signing-Aj3F8kLq2X.pem").write_text(HOST_KEY.read_text())
    link_dir = work / "linked-tls"
    link_dir.mkdir(mode=0o700)
    victim = work / "victim.txt"
    victim.write_text("victim")
    (link_dir / "tls-key.pem").symlink_to(victim)
    (link_dir / "tls-cert.pem").write_text("x")
    (link_dir / "tls-cert.pem").chmod(0o600)
    # A state directory of our own (0700) with a planted key under the scenario's kid: as a symlink to a
    # host key, and as a world-writable file.
    linked_state = work / "linked-state"
    linked_state.mkdir(mode=0o700)
    (linked_state / "signing-Aj3F8kLq2X.pem").symlink_to(HOST_KEY)
    loose_state = work / "loose-state"
    loose_state.mkdir(mode=0o700)
    (loose_state / "signing-Aj3F8kLq2X.pem").write_text(HOST_KEY.read_text())
    (loose_state / "signing-Aj3F8kLq2X.pem").chmod(0o666)
    fifo = work / "scenario.fifo"
    os.mkfifo(fifo)
    outcomes = [
        refused_start(binary, ["serve", "--host", "0.0.0.0", "--port", "0"], {}, 64,
                      "is not a loopback address and no --admin-token is set",
                      "serve --host 0.0.0.0 without --admin-token", "refused (exit 64) before listening"),
        refused_start(binary, ["serve", "--port", "0"], {"SIWA_MOCK_HOST": "::"}, 64,
                      "SIWA_MOCK_HOST :: is not a loopback address",
                      "SIWA_MOCK_HOST=:: without an admin token", "refused (exit 64) before listening"),
        refused_start(binary, ["serve", "--port", "0", "--state-dir", str(open_dir)], {}, 1,
                      "is writable by group and others (mode 0777)",
                      "world-writable --state-dir with a planted signing key", "refused (exit 1); key not adopted"),
        refused_start(binary, ["serve", "--port", "0", "--state-dir", str(linked_state)], {}, 1,
                      "signing-Aj3F8kLq2X.pem is a symbolic link",
                      "--state-dir (0700) whose signing key is a symlink to a host key", "refused (exit 1); not followed"),
        refused_start(binary, ["serve", "--port", "0", "--state-dir", str(loose_state)], {}, 1,
                      "signing-Aj3F8kLq2X.pem is writable by",
                      "--state-dir (0700) with a planted world-writable signing key", "refused (exit 1); not adopted"),
        refused_start(binary, ["serve", "--port", "0", "--tls", "--tls-port", "0", "--tls-dir", str(link_dir)], {},
                      1, "tls-key.pem is a symbolic link",
                      "TLS directory whose tls-key.pem is a symlink to another file", "refused (exit 1)"),
        refused_start(binary, ["serve", "--port", "0", "--scenario", str(fifo)], {}, 1,
                      "a FIFO, not a regular file", "--scenario naming a FIFO", "refused at once (exit 1)"),
    ]
    if victim.read_text() != "victim":
        outcomes[5].ok = False
        outcomes[5].notes.append("the symlink's target was overwritten")
    outcomes.append(guarded(lambda: tls_handshakes(binary, work), "stalled TLS handshakes"))
    outcomes.append(guarded(lambda: log_forging(binary, work), "log forging through a reload error"))
    return outcomes
