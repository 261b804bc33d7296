#!/usr/bin/env bash
# Builds the reference server (bench/reference/ref_server.c) with Debian's OpenSSL 3, warnings as errors.
# Usage: bench/reference/build.sh OUTPUT   (used by bench/run.sh and bench/reference/check.py)
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 OUTPUT" >&2; exit 64; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cc -O2 -Wall -Wextra -Werror -o "$1" "$here/ref_server.c" -lssl -lcrypto -lpthread
