#!/usr/bin/env bash
# Installs the npm dependencies exactly as locked, but only when node_modules does not match
# package-lock.json (a fresh clone, or a lockfile that changed since the last install).
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=node_modules/.cpay-lock-sha256
want=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "ensure-node-deps: installing npm dependencies from package-lock.json"
npm ci --no-audit --no-fund
echo "$want" > "$stamp"
