#!/usr/bin/env bash
# Counts `package` and `public` declarations per module (Sources/<module>/**.swift): lines whose
# declaration starts with that access level, attributes such as @inlinable allowed before it.
# Usage: scripts/access-counts.sh [REPO]   (default: this checkout) — one row per module, then the totals.
set -euo pipefail
repo="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
count() {  # count ACCESS DIR
    { grep -rhE "^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*$1([[:space:]]|\()" --include='*.swift' "$2" || true; } | wc -l
}
printf '%-18s %8s %8s\n' module package public
total_package=0
total_public=0
for dir in "$repo"/Sources/*/; do
    module="$(basename "$dir")"
    ls "$dir" | grep -q . || continue
    p=$(count package "$dir")
    q=$(count public "$dir")
    total_package=$(( total_package + p ))
    total_public=$(( total_public + q ))
    printf '%-18s %8s %8s\n' "$module" "$p" "$q"
done
printf '%-18s %8s %8s\n' total "$total_package" "$total_public"
