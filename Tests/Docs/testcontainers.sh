#!/usr/bin/env bash
# The Testcontainers recipe (Tests/Docs/recipes/testcontainers_recipe.py) against an image, for the
# container step: needs a running Docker engine (host networking is enough) and the image built.
# Creates or reuses the docs venv (DOCS_VENV, default /tmp/siwa-docs-venv) from recipes/requirements.txt.
# Usage: Tests/Docs/testcontainers.sh IMAGE        e.g. Tests/Docs/testcontainers.sh siwa-mock:ci-123
set -euo pipefail
cd "$(dirname "$0")/../.."
image=${1:?usage: testcontainers.sh IMAGE}
venv=${DOCS_VENV:-/tmp/siwa-docs-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import testcontainers' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r Tests/Docs/recipes/requirements.txt
fi
timeout 120 "$venv/bin/python" Tests/Docs/recipes/testcontainers_recipe.py "$image"
