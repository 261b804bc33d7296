"""A pytest fixture for siwa-mock: one mock per test session, a clean state for every test.

Copy this file next to your tests. It starts `siwa-mock serve --port 0` (a free port, so parallel jobs
never collide), reads the one ready line `siwa-mock listening on http://127.0.0.1:PORT`, yields that
URL, and `POST /mock/reset`s before each test (users, keys, codes, tokens, consents, clock and fault
counters back to the scenario's start).

The binary: SIWA_MOCK_BINARY when set (a path, e.g. .build/release/siwa-mock in the checkout), else
`siwa-mock` on PATH, where the README's Install puts it. SIWA_MOCK_SCENARIO serves a scenario file. When
the mock does not start (a scenario typo, a flag it does not know), the error shows what it printed.
"""

import os
import shutil
import subprocess
import tempfile
import urllib.request

import pytest


def find_siwa_mock():
    """SIWA_MOCK_BINARY, else siwa-mock on PATH; a clear error naming both when neither is there."""
    binary = os.environ.get("SIWA_MOCK_BINARY") or shutil.which("siwa-mock")
    if not binary or not os.access(binary, os.X_OK):
        raise RuntimeError(
            f"siwa-mock not found ({'SIWA_MOCK_BINARY=' + binary if binary else 'not on PATH'}): install it as the "
            "README's Install says, or set SIWA_MOCK_BINARY to the binary (e.g. .build/release/siwa-mock)")
    return binary


def start_siwa_mock(*arguments):
    """Starts `siwa-mock serve --port 0 ARGUMENTS`; returns (process, base URL, log file)."""
    log = tempfile.TemporaryFile(mode="w+")  # the mock's stderr: its request log, and why it did not start
    process = subprocess.Popen(
        [find_siwa_mock(), "serve", "--host", "127.0.0.1", "--port", "0", *arguments],
        stdout=subprocess.PIPE, stderr=log, text=True)
    ready = process.stdout.readline().strip()  # printed once, when the mock accepts connections
    if not ready.startswith("siwa-mock listening on "):
        process.kill()
        process.wait(timeout=10)
        log.seek(0)
        raise RuntimeError(f"siwa-mock did not start (exit {process.returncode}): {log.read().strip() or ready}")
    return process, ready.removeprefix("siwa-mock listening on "), log


@pytest.fixture(scope="session")
def siwa_mock_session():
    process, url, log = start_siwa_mock()
    yield url
    process.terminate()  # SIGTERM: in-flight requests finish, exit 0
    process.wait(timeout=10)
    log.close()


@pytest.fixture
def siwa_mock(siwa_mock_session):
    """The mock's base URL, reset to the scenario's start for this test."""
    urllib.request.urlopen(urllib.request.Request(f"{siwa_mock_session}/mock/reset", method="POST"), timeout=5)
    return siwa_mock_session
