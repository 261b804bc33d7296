"""A siwa-mock process: started with `--port 0`, ready when it prints its listening line, stopped with
SIGTERM. Used by the interop fixtures, the adversarial suite and the load test."""

from __future__ import annotations

import os
import resource
import select
import signal
import subprocess
import time
from pathlib import Path

READY_PREFIX = "siwa-mock listening on http://"
SMTP_READY_PREFIX = "siwa-mock smtp listening on "
STARTUP_TIMEOUT = 15.0


def raise_fd_limit() -> int:
    """Raises this process's (and its children's) open-file soft limit to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def read_ready_lines(proc: subprocess.Popen, deadline: float, count: int = 1) -> list[str]:
    """Reads stdout until `count` lines arrived (raw fd reads, so the deadline is honoured); nothing may
    follow them. With `--tls` the server prints a second line naming the HTTPS port."""
    fd = proc.stdout.fileno()
    buffer = b""
    while buffer.count(b"\n") < count:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no ready line within {STARTUP_TIMEOUT}s; stdout so far {buffer!r}")
        if select.select([fd], [], [], remaining)[0]:
            chunk = os.read(fd, 4096)
            if not chunk:
                raise RuntimeError(f"siwa-mock exited (rc={proc.wait()}) before ready; stdout {buffer!r}")
            buffer += chunk
    *lines, rest = buffer.split(b"\n", count)
    assert rest == b"", f"unexpected extra stdout after the ready line: {rest!r}"
    return [line.decode() for line in lines]


def read_ready_line(proc: subprocess.Popen, deadline: float) -> str:
    """Reads the one ready line (`siwa-mock listening on http://HOST:PORT`)."""
    return read_ready_lines(proc, deadline)[0]


class MockProcess:
    """Starts `siwa-mock serve --port 0 EXTRA...`, waits for the ready line, stops it with SIGTERM."""

    def __init__(self, binary: Path, extra: list[str], log_path: Path) -> None:
        self.log_path = log_path
        with open(log_path, "wb") as log:
            self.proc = subprocess.Popen([str(binary), "--host", "127.0.0.1", "--port", "0", *extra],
                                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=log)
        # With --tls a second ready line names the HTTPS port; with --smtp-port a last one the SMTP port.
        wanted = 1 + ("--tls" in extra) + ("--smtp-port" in extra)
        try:
            lines = read_ready_lines(self.proc, time.monotonic() + STARTUP_TIMEOUT, wanted)
        except (TimeoutError, RuntimeError) as error:
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError(f"siwa-mock did not start: {error}\n{log_path.read_text()[-2000:]}") from None
        assert lines[0].startswith(READY_PREFIX), lines[0]
        host, _, port = lines[0][len(READY_PREFIX):].rpartition(":")
        self.host, self.port = host, int(port)
        self.tls_port = int(lines[1].rpartition(":")[2]) if "--tls" in extra else None
        self.smtp_port = None
        if "--smtp-port" in extra:
            assert lines[-1].startswith(SMTP_READY_PREFIX), lines[-1]
            self.smtp_port = int(lines[-1].rpartition(":")[2])

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def rss_kib(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return -1

    def open_fds(self) -> int:
        return len(os.listdir(f"/proc/{self.proc.pid}/fd"))

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
                return -9
        self.proc.stdout.close()
        return self.proc.returncode
