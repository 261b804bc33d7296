"""The siwa-mock binary (the fake Sign in with Apple server) as a Python package, for x86_64 Linux.

pip puts the static binary on the environment's PATH (the wheel's `.data/scripts`, as ruff and uv do);
`find_binary()` returns its path after checking that it is there, executable and the very bytes the
wheel recorded (`siwa-mock.sha256` beside this file), and `python -m siwa_mock ARGS` runs it. The
pytest plugin (siwa-mock-pytest) uses it when neither --siwa-mock-binary nor $SIWA_MOCK_BINARY is
given. Packed by scripts/package-python.sh; see docs/test-helpers.md.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import sysconfig

__all__ = ["BinaryError", "find_binary", "SHA256"]

NAME = "siwa-mock"
with open(os.path.join(os.path.dirname(__file__), "siwa-mock.sha256"), encoding="ascii") as _file:
    SHA256 = _file.read().split()[0]
REINSTALL = "reinstall it: pip install --force-reinstall siwa-mock"


class BinaryError(RuntimeError):
    """The wheel is installed but its binary is missing, not executable, or not the bytes it recorded."""


def _candidates() -> list[str]:
    # Where pip puts a wheel's scripts: this environment's scripts directory, the user scheme's
    # (pip install --user), and ../bin next to the packages (pip install --target, whose scripts land in
    # TARGET/bin). The first that exists is the one pip wrote (ruff's find_ruff_bin looks the same way).
    dirs = [sysconfig.get_path("scripts")]
    user_scheme = "posix_user" if os.name == "posix" else f"{os.name}_user"
    try:
        dirs.append(sysconfig.get_path("scripts", scheme=user_scheme))
    except KeyError:
        pass
    dirs.append(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "bin"))
    return [os.path.join(d, NAME) for d in dirs if d]


@functools.lru_cache(maxsize=None)
def find_binary() -> str:
    """The installed binary's path, checked; BinaryError saying what is wrong and how to fix it otherwise."""
    candidates = _candidates()
    path = next((p for p in candidates if os.path.lexists(p)), None)
    if path is None:
        raise BinaryError(f"the siwa-mock wheel is installed but its binary is missing (looked at {', '.join(candidates)}); {REINSTALL}")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise BinaryError(f"the siwa-mock wheel's binary {path} is not an executable file; {REINSTALL}")
    digest = hashlib.sha256()
    with open(path, "rb") as binary:
        for block in iter(lambda: binary.read(1 << 20), b""):
            digest.update(block)
    if digest.hexdigest() != SHA256:
        raise BinaryError(f"the siwa-mock wheel's binary {path} has SHA-256 {digest.hexdigest()}, "
                          f"not the {SHA256} the wheel recorded; {REINSTALL}")
    return path


def main() -> None:
    """`python -m siwa_mock ARGS`: runs the binary with ARGS."""
    path = find_binary()
    os.execv(path, [path, *sys.argv[1:]])
