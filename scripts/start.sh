#!/usr/bin/env bash
# Starts the service on its embedded defaults: the in-process LiteSVM cluster with the agent-policy
# program deployed, served as Solana JSON-RPC on 127.0.0.1:8899 and PubSub on 127.0.0.1:8900.
# (The /v1 API and the indexer join this command when they exist: issues 6 and 7.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh >/dev/null
bash scripts/ensure-node-deps.sh
exec npx tsx sdk/src/localnet/main.ts "$@"
