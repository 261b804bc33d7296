"""A pytest fixture for siwa-mock: one mock per test session, a clean state for every test.

Copy this file next to your tests. It starts `siwa-mock serve --port 0` (a free port, so parallel jobs
never collide), reads the one ready line `siwa-mock listening on http://127.0.0.1:PORT`, yields that
URL, and `POST /mock/reset`s before each test (users, keys, codes, tokens, consents, clock and fault
counters back to the scenario's start). Set SIWA_MOCK_BINARY to the binary (default: siwa-mock on
PATH) and SIWA_MOCK_SCENARIO to serve a scenario file.
"""

import os
import subprocess
import urllib.request

import pytest


@pytest.fixture(scope="session")
def siwa_mock_session():
    binary = os.environ.get("SIWA_MOCK_BINARY", "siwa-mock")
    process = subprocess.Popen(
        [binary, "serve", "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    ready = process.stdout.readline().strip()  # printed once, when the mock accepts connections
    if not ready.startswith("siwa-mock listening on "):
        process.kill()
        raise RuntimeError(f"siwa-mock did not start: {ready!r}")
    yield ready.removeprefix("siwa-mock listening on ")
    process.terminate()  # SIGTERM: in-flight requests finish, exit 0
    process.wait(timeout=10)


@pytest.fixture
def siwa_mock(siwa_mock_session):
    """The mock's base URL, reset to the scenario's start for this test."""
    urllib.request.urlopen(urllib.request.Request(f"{siwa_mock_session}/mock/reset", method="POST"), timeout=5)
    return siwa_mock_session
