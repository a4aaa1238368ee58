#!/usr/bin/env bash
# Starts the service on its embedded defaults, as two processes stopped together:
# 1. api/src/main.ts: the in-process LiteSVM cluster with the agent-policy program deployed, served
#    as Solana JSON-RPC on 127.0.0.1:8899 and PubSub on 127.0.0.1:8900; the /v1 API on
#    http://127.0.0.1:3000 and the admin listener on 127.0.0.1:3001; SQLite under ./data (a previous
#    run's database is archived, since the embedded chain lives in memory). Prints a test API key
#    for the demo account and curl examples.
# 2. once the API answers, the indexer (scripts/indexer.sh): it follows the program over that RPC,
#    writes records and events to the same SQLite file, and answers GET /health on 127.0.0.1:3002.
# If either exits, the other is stopped. (`npm run localnet` still serves the cluster alone.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh >/dev/null
source scripts/use-node.sh
bash scripts/ensure-node-deps.sh
tsx api/src/main.ts "$@" &
api=$!
indexer=""
stop() {
  trap - EXIT INT TERM
  kill -TERM "$api" ${indexer:+"$indexer"} 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop EXIT INT TERM
for _ in $(seq 1 120); do
  if [ "$(curl -s -m 2 -o /dev/null -w '%{http_code}' http://127.0.0.1:${PORT:-3000}/v1/openapi.json)" = 200 ]; then
    break
  fi
  kill -0 "$api" 2>/dev/null || { wait "$api"; exit $?; }
  sleep 0.5
done
RPC_URL=${RPC_URL:-http://127.0.0.1:${LOCALNET_RPC_PORT:-8899}} \
  RPC_WS_URL=${RPC_WS_URL:-ws://127.0.0.1:${LOCALNET_WS_PORT:-8900}} \
  tsx indexer/src/main.ts &
indexer=$!
# Whichever stops first (a crash, or Ctrl-C) stops the other.
wait -n "$api" "$indexer" || status=$?
exit "${status:-0}"
