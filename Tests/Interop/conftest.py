"""Fixtures: a fresh siwa-mock process per test, started with --port 0 and stopped with SIGTERM."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from pathlib import Path

import pytest

from siwa import REPO_ROOT

READY_PREFIX = "siwa-mock listening on http://"
STARTUP_TIMEOUT = 15.0
SHUTDOWN_TIMEOUT = 5.0


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--binary", default=os.environ.get("SIWA_MOCK_BINARY"),
                     help="siwa-mock executable (default: .build/release/siwa-mock)")


@pytest.fixture(scope="session")
def binary(request: pytest.FixtureRequest) -> Path:
    path = Path(request.config.getoption("--binary") or REPO_ROOT / ".build" / "release" / "siwa-mock")
    if not os.access(path, os.X_OK):
        pytest.fail(f"siwa-mock binary not found or not executable: {path}")
    return path


def _read_ready_line(proc: subprocess.Popen, deadline: float) -> str:
    """Read stdout until the first newline (raw fd reads, so the timeout is honoured)."""
    fd = proc.stdout.fileno()
    buffer = b""
    while b"\n" not in buffer:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(f"no ready line within {STARTUP_TIMEOUT}s; stdout so far {buffer!r}")
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                raise RuntimeError(f"siwa-mock exited (rc={proc.wait()}) before ready; stdout {buffer!r}")
            buffer += chunk
    line, _, rest = buffer.partition(b"\n")
    assert rest == b"", f"unexpected extra stdout after the ready line: {rest!r}"
    return line.decode()


class MockServer:
    """A running siwa-mock: `base` is its URL, `stderr_path` its request log."""

    def __init__(self, proc: subprocess.Popen, base: str, stderr_path: Path) -> None:
        self.proc = proc
        self.base = base
        self.stderr_path = stderr_path

    def log(self) -> str:
        return self.stderr_path.read_text(errors="replace")


@pytest.fixture
def mock(binary: Path, tmp_path: Path) -> MockServer:
    stderr_path = tmp_path / "siwa-mock.stderr"
    with open(stderr_path, "wb") as stderr:
        proc = subprocess.Popen([str(binary), "--host", "127.0.0.1", "--port", "0"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=stderr)
    try:
        line = _read_ready_line(proc, time.monotonic() + STARTUP_TIMEOUT)
    except (TimeoutError, RuntimeError) as error:
        proc.kill()
        proc.wait()
        pytest.fail(f"siwa-mock did not start: {error}\nstderr:\n{stderr_path.read_text(errors='replace')[-3000:]}")
    assert line.startswith(READY_PREFIX), f"unexpected ready line {line!r}"
    hostport = line[len(READY_PREFIX):]
    host, _, port = hostport.rpartition(":")
    assert host == "127.0.0.1" and port.isdigit() and int(port) > 0, f"bad ready line {line!r}"
    server = MockServer(proc, f"http://{hostport}", stderr_path)
    yield server
    proc.send_signal(signal.SIGTERM)
    try:
        rc = proc.wait(timeout=SHUTDOWN_TIMEOUT)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"siwa-mock did not exit within {SHUTDOWN_TIMEOUT}s of SIGTERM")
    proc.stdout.close()
    assert rc == 0, f"siwa-mock exited with {rc} after SIGTERM; stderr tail:\n{server.log()[-2000:]}"


@pytest.fixture
def base(mock: MockServer) -> str:
    return mock.base
