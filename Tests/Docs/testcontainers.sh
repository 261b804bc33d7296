#!/usr/bin/env bash
# The Testcontainers recipe (Tests/Docs/recipes/testcontainers_recipe.py) against an image, for the
# container step: needs a running Docker engine (host networking is enough) and the image built.
# Usage: Tests/Docs/testcontainers.sh IMAGE        e.g. Tests/Docs/testcontainers.sh siwa-mock:ci-123
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
image=${1:?usage: Tests/Docs/testcontainers.sh IMAGE}
venv="$("$here/../pysupport/venv.sh" "$here/recipes")"
timeout 120 "$venv/bin/python" "$here/recipes/testcontainers_recipe.py" "$image"
