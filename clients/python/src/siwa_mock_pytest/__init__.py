"""Run siwa-mock (a fake of Apple's Sign in with Apple server) from Python tests.

`SiwaMock.start()` starts the binary on a free port; `SiwaMock.connect(url)` uses a running one. The
pytest plugin (`siwa_mock_pytest.plugin`, loaded automatically once installed) wraps both as fixtures.
Standard library only; sign-in and client secrets are the binary's own (`siwa-mock signin`,
`siwa-mock client-secret`). See docs/test-helpers.md.
"""

from .mock import SiwaMock, SiwaMockError, find_binary

__all__ = ["SiwaMock", "SiwaMockError", "find_binary"]
