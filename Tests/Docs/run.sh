#!/usr/bin/env bash
# The documentation, executed (issue #12): everything a reader pastes must work.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$here/../pysupport/flags.sh"
usage() {
    cat <<USAGE
Usage: Tests/Docs/run.sh [--binary PATH]
  0. every relative link of README.md, docs/ and scenarios/ names an existing file and section
     (Tests/Docs/links.py);
  1. README's quick start, verbatim in a clean shell on the checkout, ends with a verified id_token
     (and with port 8080 taken shows the mock's own message)
     (Tests/Docs/quickstart.sh);
  2. every shell and scenario block of README.md and docs/*.md against a live mock on --port 0
     (Tests/Docs/run_blocks.py; a block that cannot run carries a "not run: reason" marker);
  3. docs/sidecar.md's container-free impersonation (unshare + private /etc/hosts + the mock on 443)
     signs in against https://appleid.apple.com (Tests/Docs/impersonation.sh; root only);
  4. the pytest fixture recipe (Tests/Docs/recipes/conftest.py) in the recipes' venv.
The Testcontainers recipe needs a Docker engine and the image: Tests/Container/run.sh calls
Tests/Docs/testcontainers.sh IMAGE.

$SIWA_COMMON_FLAGS_HELP
USAGE
}
binary=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --binary) [[ $# -ge 2 ]] || { usage >&2; exit 64; }; binary="$2"; shift 2 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 64 ;;
    esac
done
binary="$(siwa_resolve_binary "$binary")"
cd "$SIWA_REPO_ROOT"

echo "--- relative links and their sections (README.md, docs/, scenarios/)"
python3 Tests/Docs/links.py

echo "--- quick start (README, verbatim, clean shell)"
bash Tests/Docs/quickstart.sh

echo "--- every shell and scenario block in README.md and docs/"
python3 Tests/Docs/run_blocks.py --binary "$binary"

echo "--- container-free impersonation (docs/sidecar.md)"
rc=0
bash Tests/Docs/impersonation.sh --binary "$binary" || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 2 ] || exit 1

echo "--- pytest fixture recipe (Tests/Docs/recipes/conftest.py)"
venv="$("$here/../pysupport/venv.sh" "$here/recipes")"
SIWA_MOCK_BINARY=$binary "$venv/bin/pytest" -q -p no:cacheprovider Tests/Docs/recipes/test_fixture_recipe.py
echo "docs: all documentation checks passed"
