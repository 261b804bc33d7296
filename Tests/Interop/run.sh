#!/usr/bin/env bash
# Run the interoperability suite: real third-party client libraries against a siwa-mock binary.
# Usage: Tests/Interop/run.sh [--binary PATH] [pytest args...]
# Without --binary, builds the release binary at the repository root first.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
binary=""
if [[ "${1:-}" == "--binary" ]]; then
    [[ $# -ge 2 ]] || { echo "usage: $0 [--binary PATH] [pytest args...]" >&2; exit 64; }
    binary="$(realpath "$2")"
    shift 2
fi

if [[ -z "$binary" ]]; then
    (cd "$root" && swift build -c release --product siwa-mock)
    binary="$root/.build/release/siwa-mock"
fi
[[ -x "$binary" ]] || { echo "error: siwa-mock binary not executable: $binary" >&2; exit 1; }

venv="$here/.venv"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [[ ! -x "$venv/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    echo "$want" > "$stamp"
fi

cd "$here"
set +e
"$venv/bin/python" -m pytest -c "$here/pytest.ini" --rootdir "$here" -p no:cacheprovider "--binary=$binary" "$@"
rc=$?
set -e
if [[ $rc -eq 5 ]]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit $rc
