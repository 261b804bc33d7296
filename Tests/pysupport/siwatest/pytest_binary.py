"""The pytest side of the common `--binary` flag: the option and a session fixture with the executable.
Suites load it from their conftest with `pytest_plugins = ("siwatest.pytest_binary",)`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .runner import DEFAULT_BINARY


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--binary", default=os.environ.get("SIWA_MOCK_BINARY"),
                     help="siwa-mock executable (default: .build/release/siwa-mock)")


@pytest.fixture(scope="session")
def binary(request: pytest.FixtureRequest) -> Path:
    path = Path(request.config.getoption("--binary") or DEFAULT_BINARY)
    if not os.access(path, os.X_OK):
        pytest.fail(f"siwa-mock binary not found or not executable: {path}")
    return path
