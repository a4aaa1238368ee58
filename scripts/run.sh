#!/usr/bin/env bash
# Runs one command of the project (`bash scripts/run.sh tsx tools/src/admin-cli/main.ts --help`) on the
# pinned Node, with the npm dependencies installed: what package.json's scripts call, so
# `npm run admin` works the same whichever Node started npm. What the install step prints goes to
# stderr: stdout is the command's own (`npm run --silent mcp` speaks MCP on it).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/use-node.sh
bash scripts/ensure-node-deps.sh >&2
exec "$@"
