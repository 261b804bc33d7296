#!/usr/bin/env bash
# The Node packages, the esbuild pattern: `@siwa-mock/linux-x64` carries the static binary
# (bin/siwa-mock and its SHA-256; `os`/`cpu` make npm install it only on x86_64 Linux) and the helper
# `siwa-mock` (clients/node) lists it under optionalDependencies, so npm fetches the binary on that
# platform and skips it elsewhere; the helper finds it with require.resolve and checks its SHA-256.
# Both packed by `npm pack` (fixed mtimes and modes: the same inputs give the same tarball).
#
#   bash scripts/package-node.sh --binary .build/release/siwa-mock [--out dist]
source "$(dirname "$0")/package-lib.sh"
platform="$PKG_WORK/platform"
helper="$PKG_WORK/helper"
mkdir -p "$platform/bin" "$helper"
cp "$PKG_STRIPPED" "$platform/bin/siwa-mock"
echo "$PKG_SHA256  siwa-mock" > "$platform/bin/siwa-mock.sha256"
cp "$PKG_ROOT/LICENSE" "$platform/LICENSE"
cp "$PKG_ROOT/clients/node/index.js" "$PKG_ROOT/LICENSE" "$helper/"
# Both manifests from the helper's own package.json (one version: the binary's).
VERSION="$PKG_VERSION" SHA256="$PKG_SHA256" node --input-type=module - "$PKG_ROOT/clients/node/package.json" "$platform" "$helper" <<'JS'
import { readFileSync, writeFileSync } from 'node:fs';
const [source, platformDir, helperDir] = process.argv.slice(2);
const { VERSION: version, SHA256: sha256 } = process.env;
const helper = JSON.parse(readFileSync(source, 'utf8'));
delete helper.scripts; // its test script runs the checkout's test/, which the package leaves out
const platform = {
  name: '@siwa-mock/linux-x64',
  version,
  description: `The siwa-mock binary for x86_64 Linux (static; SHA-256 ${sha256}), used by the siwa-mock package`,
  os: ['linux'],
  cpu: ['x64'],
  files: ['bin/siwa-mock', 'bin/siwa-mock.sha256'],
  preferUnplugged: true,
  license: helper.license,
};
Object.assign(helper, {
  version,
  files: ['index.js'],
  optionalDependencies: { [platform.name]: version },
});
writeFileSync(`${platformDir}/package.json`, JSON.stringify(platform, null, 2) + '\n');
writeFileSync(`${helperDir}/package.json`, JSON.stringify(helper, null, 2) + '\n');
JS
for dir in "$platform" "$helper"; do
  (cd "$dir" && npm pack --silent --pack-destination "$PKG_OUT" --cache "$PKG_WORK/npm-cache" --offline) \
    | sed "s|^|$PKG_OUT/|"
done
