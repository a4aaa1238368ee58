#!/usr/bin/env bash
# Installs the npm dependencies exactly as locked, but only when node_modules does not match
# package-lock.json (a fresh clone, or a lockfile that changed since the last install).
#
# `npm install`, not `npm ci`: the registry mirror here serves only the linux-x64 builds of packages
# with per-platform optional dependencies (biome, esbuild, rolldown...), so the lockfile cannot list
# the others and `npm ci` refuses it as "out of sync". `npm install` honours every locked version;
# the lockfile is then checked unchanged, so a drifting lockfile still fails loudly.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.cpay-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "ensure-node-deps: installing npm dependencies from package-lock.json"
npm install --no-audit --no-fund
if [ "$(sha256sum package-lock.json | cut -d' ' -f1)" != "$want" ]; then
  echo "ensure-node-deps: package-lock.json changed during install: it is out of date with package.json" >&2
  echo "ensure-node-deps: run 'npm install' and commit the lockfile" >&2
  exit 1
fi
echo "$want" > "$stamp"
