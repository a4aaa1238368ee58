#!/usr/bin/env bash
# Installs the npm dependencies exactly as package-lock.json lists them (`npm ci`: it refuses a
# lockfile that does not match package.json, and never rewrites it), on the pinned Node and npm
# (scripts/use-node.sh).
#
# Only when needed: the stamp in node_modules records the lockfile and toolchain it was installed
# from, so a second run is instant and a changed lockfile or Node version reinstalls (native addons
# are built for one Node ABI).
#
# What .npmrc and package.json make of the install:
# - engine-strict: a package whose `engines` the pinned Node does not satisfy fails the install
#   instead of printing EBADENGINE;
# - allowScripts + strict-allow-scripts: only the install scripts reviewed in package.json run
#   (esbuild's binary check, the ws addons' builds); a new one fails the install until reviewed.
# Native addons (bufferutil, utf-8-validate) are compiled from source against the pinned Node's own
# headers (nodedir), so node-gyp downloads nothing and no prebuilt binary from GitHub is needed.
# better-sqlite3 ships its N-API binary inside its registry package and builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/use-node.sh
stamp=node_modules/.cpay-install-stamp
want="$(sha256sum package-lock.json | cut -d' ' -f1) node $(node --version) npm $(npm --version)"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "ensure-node-deps: npm ci on Node $(node --version), npm $(npm --version)"
# Scoped to this command: node-gyp reads them from the environment; npm itself would warn about
# them on every other call.
npm_config_nodedir="$CPAY_NODE_HOME" npm_config_build_from_source=true npm ci --no-audit --no-fund
echo "$want" > "$stamp"
