"""pytest fixtures for siwa-mock (registered by the `pytest11` entry point once this package is installed).

- `siwa_mock_session` (session scope): one mock for the whole run, left as the tests leave it.
- `siwa_mock` (function scope): that same mock, `POST /mock/reset` to the scenario's start before the test.

The mock is `$SIWA_MOCK_URL` when set (a running one, e.g. from docker compose), else the binary
(`--siwa-mock-binary`, `$SIWA_MOCK_BINARY`, the `siwa-mock` wheel's, or `siwa-mock` on PATH) started with `--port 0`;
`--siwa-mock-scenario` (or `$SIWA_MOCK_SCENARIO`, read by the binary itself) picks a scenario file;
`--siwa-mock-smtp` adds the relay's SMTP listener (`smtp_host`, `smtp_port`; `$SIWA_MOCK_SMTP` with a URL).
"""

from __future__ import annotations

import os

import pytest

from .mock import SiwaMock


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("siwa-mock")
    group.addoption("--siwa-mock-binary", default=None, help="siwa-mock binary (default: $SIWA_MOCK_BINARY, then the siwa-mock wheel's, then PATH)")
    group.addoption("--siwa-mock-scenario", default=None, help="scenario file for the mock the fixtures start")
    group.addoption("--siwa-mock-smtp", action="store_true", default=False,
                    help="also start the private email relay's SMTP listener (with SIWA_MOCK_URL: $SIWA_MOCK_SMTP)")


@pytest.fixture(scope="session")
def siwa_mock_session(request: pytest.FixtureRequest):
    binary = request.config.getoption("--siwa-mock-binary")
    smtp = request.config.getoption("--siwa-mock-smtp")
    url = os.environ.get("SIWA_MOCK_URL")
    if url:
        yield SiwaMock.connect(url, binary=binary, smtp=smtp)
        return
    mock = SiwaMock.start(binary=binary, scenario=request.config.getoption("--siwa-mock-scenario"), smtp=smtp)
    try:
        yield mock
    finally:
        mock.stop()


@pytest.fixture
def siwa_mock(siwa_mock_session: SiwaMock) -> SiwaMock:
    siwa_mock_session.reset()
    return siwa_mock_session
