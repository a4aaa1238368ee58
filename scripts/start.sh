#!/usr/bin/env bash
# Starts the service on its embedded defaults, in one process (api/src/main.ts): the in-process
# LiteSVM cluster with the agent-policy program deployed, served as Solana JSON-RPC on
# 127.0.0.1:8899 and PubSub on 127.0.0.1:8900; the /v1 API on http://127.0.0.1:3000 and the admin
# listener on 127.0.0.1:3001; SQLite under ./data (a previous run's database is archived, since the
# embedded chain lives in memory). Prints a test API key for the demo account and curl examples.
# (`npm run localnet` still serves the cluster alone, without the API.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh >/dev/null
bash scripts/ensure-node-deps.sh
exec npx tsx api/src/main.ts "$@"
