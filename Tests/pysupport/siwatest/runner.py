"""The flags every suite's runner takes, so `--binary PATH` means the same thing everywhere."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from .scenario import REPO_ROOT

DEFAULT_BINARY = REPO_ROOT / ".build" / "release" / "siwa-mock"
COMMON_FLAGS_HELP = """\
common flags (the same for every suite runner):
  --binary PATH   the siwa-mock executable to test (default: $SIWA_MOCK_BINARY, else
                  .build/release/siwa-mock, built with `swift build -c release --product siwa-mock`
                  when it is missing)
  -h, --help      this text
"""


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds `--binary`; the parser's epilog should include COMMON_FLAGS_HELP."""
    parser.add_argument("--binary", type=Path, default=None, metavar="PATH",
                        help="siwa-mock executable (see 'common flags' below)")


def resolve_binary(path: Path | None) -> Path:
    """The executable named by `--binary`, else the default, built when missing; exits 1 with a
    message when it is not executable."""
    if path is None and os.environ.get("SIWA_MOCK_BINARY"):
        path = Path(os.environ["SIWA_MOCK_BINARY"])
    if path is None:
        path = DEFAULT_BINARY
        if not os.access(path, os.X_OK):
            print("building the release binary (swift build -c release --product siwa-mock)", file=sys.stderr)
            subprocess.run(["swift", "build", "-c", "release", "--product", "siwa-mock"], cwd=REPO_ROOT, check=True)
    path = path.resolve()
    if not os.access(path, os.X_OK):
        print(f"error: siwa-mock binary not executable: {path}", file=sys.stderr)
        sys.exit(1)
    return path
