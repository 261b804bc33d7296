#!/usr/bin/env bash
# The one venv bootstrap of the Python suites. Usage: Tests/pysupport/venv.sh SUITE_DIR
# Makes SUITE_DIR/.venv with SUITE_DIR/requirements.txt installed (pinned versions; reinstalled only when
# requirements.txt changes) and Tests/pysupport on its path, so `import siwatest` works; prints the venv
# directory on stdout. Each suite keeps its own venv because their pins differ (schemathesis vs pytest).
set -euo pipefail
[[ $# -eq 1 && -f "$1/requirements.txt" ]] || { echo "usage: $0 SUITE_DIR (a folder with requirements.txt)" >&2; exit 64; }
suite="$(cd "$1" && pwd)"
support="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$suite/.venv"
stamp="$venv/.requirements.sha256"
want="$(cat "$suite/requirements.txt" <(echo "$support") | sha256sum | cut -d' ' -f1)"
if [[ ! -x "$venv/bin/python" || "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    echo "setting up $venv (pip install -r $suite/requirements.txt)" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$suite/requirements.txt" >&2
    site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
    echo "$support" > "$site/siwatest.pth"
    echo "$want" > "$stamp"
fi
echo "$venv"
