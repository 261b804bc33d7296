#!/usr/bin/env bash
# The Python packages: the `siwa-mock` wheel carrying the static binary (pip puts it on the
# environment's PATH), its sdist that says how to get the binary elsewhere, and the pytest plugin
# `siwa-mock-pytest` (clients/python) requiring it. Written by scripts/package-python.py; see there.
#
#   bash scripts/package-python.sh --binary .build/release/siwa-mock [--out dist]
source "$(dirname "$0")/package-lib.sh"
python3 "$PKG_ROOT/scripts/package-python.py" --binary "$PKG_STRIPPED" --sha256 "$PKG_SHA256" \
  --version "$PKG_VERSION" --epoch "$SOURCE_DATE_EPOCH" --out "$PKG_OUT" --root "$PKG_ROOT"
