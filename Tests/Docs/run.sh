#!/usr/bin/env bash
# The documentation, executed (issue #12): everything a reader pastes must work.
#   1. README's quick start, verbatim in a clean shell on the checkout, ends with a verified id_token
#      (Tests/Docs/quickstart.sh);
#   2. every shell and scenario block of README.md and docs/*.md against a live mock on --port 0
#      (Tests/Docs/run_blocks.py; blocks that cannot run carry a "not run: reason" marker);
#   3. docs/sidecar.md's container-free impersonation (unshare + private /etc/hosts + the mock on 443)
#      signs in against https://appleid.apple.com (Tests/Docs/impersonation.sh; root only);
#   4. the pytest fixture recipe (Tests/Docs/recipes/conftest.py) in a venv from requirements.txt.
# The Testcontainers recipe needs a Docker engine and runs from the container step instead:
#   bash Tests/Docs/testcontainers.sh IMAGE   (Tests/Container/run.sh calls it with the image it built)
# Usage: Tests/Docs/run.sh [--binary .build/release/siwa-mock]
set -euo pipefail
cd "$(dirname "$0")/../.."
binary=.build/release/siwa-mock
[ "${1:-}" = "--binary" ] && binary=$2
binary=$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")

echo "--- quick start (README, verbatim, clean shell)"
bash Tests/Docs/quickstart.sh

echo "--- every shell and scenario block in README.md and docs/"
python3 Tests/Docs/run_blocks.py --binary "$binary"

echo "--- container-free impersonation (docs/sidecar.md)"
rc=0
bash Tests/Docs/impersonation.sh --binary "$binary" || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || exit 1

echo "--- pytest fixture recipe (Tests/Docs/recipes/conftest.py)"
venv=${DOCS_VENV:-/tmp/siwa-docs-venv}
if [ ! -x "$venv/bin/pytest" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r Tests/Docs/recipes/requirements.txt
fi
SIWA_MOCK_BINARY=$binary "$venv/bin/pytest" -q -p no:cacheprovider Tests/Docs/recipes/test_fixture_recipe.py
echo "docs: all documentation checks passed"
